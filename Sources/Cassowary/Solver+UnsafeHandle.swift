// The solver's loops over changed values, on raw buffers: copying them out at a read-out,
// and the check of required constraints (what it checks and when: `Solver+Audit.swift`).
// They run over every changed value on each read-out or check, so each buffer is opened
// once and indexed unchecked in release builds (debug builds keep the buffers' own checks).

import CPrefetch

extension Solver {
  /// Copies the values of the symbols changed since the last read-out into
  /// `variableValues`.
  func copyChangedValues() {
    copyChangedValues(reporting: false) { _ in }
  }

  /// Copies the values of the symbols changed since the last read-out into
  /// `variableValues`, and calls `moved` with the index of each variable whose value moved
  /// beyond round-off of its last reading (`Tolerance.sameReading`; a value within it keeps
  /// the reading). `moved` must not call into the solver: its arrays are open while it runs.
  @inline(__always)
  func copyChangedValues(_ moved: (Int) -> Void) {
    copyChangedValues(reporting: true, moved)
  }

  /// The loop of both: `reporting` (a constant where it is inlined) says whether the copy
  /// compares each value with the last one and calls `moved`.
  ///
  /// In a large tree the changed symbols are far apart (a cell's y every 150 symbols or so
  /// in a list), so each one's variable, value and copy are a cache miss of their own. The
  /// list is known before the loop starts: when it is long (`prefetches(_:)`), each
  /// symbol's variable and value are requested 32 values ahead, and its copy's line 16
  /// ahead (its variable is in cache by then), so that the misses overlap. (At 16 and 8 the
  /// loop still waited on both requests: feed 100,000 text ticks, p99 median 8.19 -> 7.44 ms
  /// and the constraints phase 6% shorter over 5 alternated runs; 48 and 24 gained
  /// nothing more.) Shorter lists take a loop without the requests, which would only cost
  /// instructions.
  ///
  /// The externals of a cached column shifted since the last read-out are not in the list
  /// (`ShiftColumn.unlisted`): the copy walks the column instead. A symbol can then come
  /// twice (listed, and in a column; or in two columns); the second copy finds the value
  /// already there, which `reporting` does not report again.
  @inline(__always)
  private func copyChangedValues(reporting: Bool, _ moved: (Int) -> Void) {
    let tableauSize = tableau.values.count
    symbolVariables.withUnsafeBufferPointer { variableOf in
      variableValues.withUnsafeMutableBufferPointer { out in
        /// Stores a variable's value; when `reporting`, only a value beyond round-off of
        /// the last one read (`Tolerance.sameReading`), which is then reported. The plain
        /// read-out stores every value as computed: the test cost its tight loops a fifth
        /// of a `solver-bench` tick (wide 1,000: about 970 -> 1,200 ns).
        @inline(__always) func store(_ index: Int, _ value: Double) {
          guard reporting else {
            out[index] = value
            return
          }
          if Tolerance.sameReading(out[index], value) { return }
          out[index] = value
          moved(index)
        }
        tableau.drainChangedList { changed, values in
          @inline(__always) func copy(_ symbol: Symbol) {
            store(Int(variableOf[symbol.index]), values[symbol.index])
          }
          let n = changed.count
          guard prefetches(n, tableauSize: tableauSize) else {
            for symbol in changed { copy(symbol) }
            return
          }
          for i in 0..<n {
            if i &+ 32 < n {
              let ahead = changed[i &+ 32].index
              cprefetch_read(variableOf.baseAddress.unsafelyUnwrapped + ahead)
              cprefetch_read(values.baseAddress.unsafelyUnwrapped + ahead)
            }
            if i &+ 16 < n {
              let ahead = Int(variableOf[changed[i &+ 16].index])
              cprefetch_write(out.baseAddress.unsafelyUnwrapped + ahead)
            }
            copy(changed[i])
          }
        } shifted: { column, variablesKnown, shift, values in
          // A column's externals, the same copy (a column is read in order, and its
          // symbols are near one another in a tree built in order: no requests ahead),
          // with the shift they wait for added on the way: one pass over them instead of a
          // shift's and a copy's. The shift stays owed (`ShiftColumn.externalShift`): the
          // tableau's values are not written here, so the pass stores only the copies (with
          // both, the two stores per value were most of a `wide` tick, and one process in
          // two ran it 15-20% slower). Each entry holds its variable after the column's
          // first read-out; the loops are apart so that each stays short.
          if !variablesKnown {
            for i in column.indices {
              column[i].variable = variableOf[column[i].target.index]
            }
          }
          let entries = UnsafeBufferPointer(column)
          if shift == 0 {
            for entry in entries { store(Int(entry.variable), values[entry.target.index]) }
          } else {
            for entry in entries {
              store(Int(entry.variable), values[entry.target.index] + entry.coefficient * shift)
            }
          }
        }
      }
    }
  }

  /// Whether a loop over `count` changed values requests their lines ahead: only when they
  /// are many and the tableau is large (``prefetchThreshold``). In a tableau that fits in
  /// the caches the requests are instructions for nothing: with them from 256 values on, a
  /// `solver-bench` tick over 1,000 nested boxes took 58% more instructions, and from 4,096
  /// on, one over 10,000 boxes 14% more time.
  @inline(__always)
  func prefetches(_ count: Int) -> Bool {
    prefetches(count, tableauSize: tableau.values.count)
  }

  @inline(__always)
  func prefetches(_ count: Int, tableauSize: Int) -> Bool {
    count >= prefetchThreshold.values && tableauSize >= prefetchThreshold.symbols
  }

  /// At most `plainLimit` changed values, each finite and of a variable that no checked
  /// constraint names (its bit in `Audit.listed` clear): then `changedValuesHold` would
  /// return true having checked nothing, and the answer is true. Nil when the values are
  /// more; false when one of them is listed or not finite (the whole check then decides).
  ///
  /// Nearly every constraint a layout's build adds is solved for a variable named nowhere
  /// else, and only that variable's value changes; its one constraint is its own row
  /// (`Tableau+OwnRows.swift`), which the check passes over. Opening the check's nine
  /// buffers for that took about 240 instructions an operation, 3% of the cold build of a
  /// feed (stop 71).
  @inline(__always)
  func fewChangedValuesPlainlyHold() -> Bool? {
    let prefix = tableau.checkedPrefix
    let changed = tableau.changedExternals.count &- prefix
    let rechanged = tableau.rechangedExternals.count
    guard changed &+ rechanged <= Solver.plainLimit else { return nil }
    func plain(_ symbol: Symbol) -> Bool {
      let s = symbol.index
      guard tableau.values[s].isFinite else { return false }
      let word = s &>> 6
      return word >= audit.listed.count || audit.listed[word] & (1 &<< UInt64(s & 63)) == 0
    }
    for i in 0..<changed where !plain(tableau.changedExternals[prefix &+ i]) { return false }
    for i in 0..<rechanged where !plain(tableau.rechangedExternals[i]) { return false }
    return true
  }

  /// How many changed values `fewChangedValuesPlainlyHold` looks at, at most.
  static let plainLimit = 4

  /// Whether the required constraints of the variables whose values changed since the last
  /// read-out or the last check hold (`Tableau.changedExternals` from `checkedPrefix`, and
  /// `rechangedExternals`), each checked once: those whose rows are their own equations
  /// only `includingOwned` (`Tableau+OwnRows.swift`). A value that is not finite fails.
  ///
  /// The lists are read in place: passed in, each was retained and released (two calls into
  /// the runtime per operation).
  func changedValuesHold(includingOwned: Bool) -> Bool {
    if !includingOwned, let plain = fewChangedValuesPlainlyHold(), plain { return true }
    audit.epoch &+= 1
    if audit.epoch == 0 {
      for i in audit.entries.indices { audit.entries[i].mark = 0 }
      audit.epoch = 1
    }
    let epoch = audit.epoch
    let prefetching = (
      prefetches(tableau.changedExternals.count &- tableau.checkedPrefix),
      prefetches(tableau.rechangedExternals.count)
    )
    // Every array the loop reads is opened once: through the solver (a class) each read of
    // `audit.slots[i]` reloaded the array and checked its bounds, per term. The audit's are
    // opened by one of its own methods (one access to `audit`), all in write scopes, which
    // check uniqueness where read-only scopes retained and released each array per check.
    return tableau.withCheckLists { values, changed, rechanged in
      audit.withCheckBuffers { entries, slots, firstSlot, firstOwnedSlot, listed in
        symbolVariables.withReadBuffer { variableOf in
          /// Whether the constraints in the list that starts at `first` not checked
          /// yet in this pass hold.
          func listHolds(from first: Int32) -> Bool {
            var slot = first
            while slot >= 0 {
              let r = Int(slots[Int(slot)].record)
              slot = slots[Int(slot)].next
              guard entries[r].mark != epoch else { continue }
              entries[r].mark = epoch
              if !Audit.holds(entry: entries[r], slots: slots, values: values) {
                return false
              }
            }
            return true
          }
          /// Whether the symbol with index `s` may have constraints to check: a
          /// checked one (`Audit.listed`), or when `includingOwned`, any.
          @inline(__always) func mayHaveChecks(_ s: Int) -> Bool {
            includingOwned || Audit.isListed(s, in: listed)
          }
          /// Whether the constraints of `symbol` not checked yet in this pass hold.
          func holds(_ symbol: Symbol) -> Bool {
            let s = symbol.index
            guard values[s].isFinite else { return false }
            guard mayHaveChecks(s) else { return true }
            let variable = Int(variableOf[s])
            return listHolds(from: firstSlot[variable])
              && (!includingOwned || listHolds(from: firstOwnedSlot[variable]))
          }
          /// Whether the constraints of every symbol of `list` hold. A long list
          /// (`prefetching`, from `prefetches(_:)`) requests the lines of its
          /// symbols' checks ahead, one step of the chain value and bit -> variable ->
          /// first slot -> slot -> record per stage, each stage reading what an
          /// earlier one requested: the value and the bit 32 symbols ahead, then only
          /// for symbols whose bit is set, the variable 16 ahead, the first slot 8
          /// ahead, the slot 4 ahead (a record's terms are side by side: the first
          /// one's line holds most of the others), its record 2 ahead. (Without them
          /// each step waited for the last: a check in a list of 100,000 cells was a
          /// fifth of a text tick.)
          func hold(_ list: UnsafeBufferPointer<Symbol>, prefetching: Bool) -> Bool {
            let n = list.count
            guard prefetching else {
              for symbol in list where !holds(symbol) { return false }
              return true
            }
            // No buffer whose base address is taken is empty: the list names external
            // symbols, each of which has a value and a variable (`values`,
            // `variableOf`), every variable has a first slot (`firstSlot`), a bit is
            // requested only inside `listed`, and a slot found (`slot >= 0`) has its
            // record's entry (`slots`, `entries`).
            for i in 0..<n {
              if i &+ 32 < n {
                let ahead = list[i &+ 32].index
                cprefetch_read(values.baseAddress.unsafelyUnwrapped + ahead)
                if ahead &>> 6 < listed.count {
                  cprefetch_read(listed.baseAddress.unsafelyUnwrapped + ahead &>> 6)
                }
              }
              if i &+ 16 < n {
                let ahead = list[i &+ 16].index
                if mayHaveChecks(ahead) {
                  cprefetch_read(variableOf.baseAddress.unsafelyUnwrapped + ahead)
                }
              }
              if i &+ 8 < n {
                let ahead = list[i &+ 8].index
                if mayHaveChecks(ahead) {
                  let variable = Int(variableOf[ahead])
                  cprefetch_read(firstSlot.baseAddress.unsafelyUnwrapped + variable)
                }
              }
              if i &+ 4 < n {
                let ahead = list[i &+ 4].index
                if mayHaveChecks(ahead) {
                  let slot = firstSlot[Int(variableOf[ahead])]
                  if slot >= 0 {
                    cprefetch_read(slots.baseAddress.unsafelyUnwrapped + Int(slot))
                  }
                }
              }
              if i &+ 2 < n {
                let ahead = list[i &+ 2].index
                if mayHaveChecks(ahead) {
                  let slot = firstSlot[Int(variableOf[ahead])]
                  if slot >= 0 {
                    let r = Int(slots[Int(slot)].record)
                    cprefetch_write(entries.baseAddress.unsafelyUnwrapped + r)
                  }
                }
              }
              if !holds(list[i]) { return false }
            }
            return true
          }
          return hold(changed, prefetching: prefetching.0)
            && hold(rechanged, prefetching: prefetching.1)
        }
      }
    }
  }
}

extension Solver {
  /// How the current values stand against every required constraint: `worst`, the largest
  /// ratio of a constraint's residual (beyond its bound, for an inequality) to what
  /// `Tolerance.audit` allows it (at most 1 when every one holds; infinite for a value that
  /// is not a number), and `room`, how far the shifts' sum (`Tableau.shiftDrift`) may grow
  /// before the tightest of them could stop holding (`Audit.measure`), between a
  /// thousandth of `Tolerance.shiftDrift` and all of it. (The floor bounds the cost: one
  /// constraint with coefficients of 1e6, or values held at the edge of the tolerance,
  /// would otherwise have every shift of every tick check every constraint. Such a
  /// constraint is then checked less often than its own room asks.)
  func measureRequired() -> (worst: Double, room: Double) {
    var worst = 0.0
    var room = Tolerance.shiftDrift
    // Over raw buffers: a record's constraint read through the array is a retain and a
    // release, and this pass visits every record.
    tableau.values.withUnsafeBufferPointer { values in
      audit.slots.withUnsafeBufferPointer { slots in
        audit.entries.withUnsafeBufferPointer { entries in
          records.withUnsafeBufferPointer { records in
            for r in records.indices where records[r].strength.isRequired {
              guard records[r].constraint != nil else { continue }
              let measure = Audit.measure(entry: entries[r], slots: slots, values: values)
              worst = measure.ratio.isNaN ? .infinity : Swift.max(worst, measure.ratio)
              room = Swift.min(room, measure.room)
            }
          }
        }
      }
    }
    return (worst, Swift.max(room, Tolerance.shiftDriftFloor))
  }

  /// Whether every required constraint holds at the current values.
  func requiredConstraintsHold() -> Bool { measureRequired().worst <= 1 }

  /// The check after shifts that may have left too much round-off (`Tableau.shiftDrift`
  /// past `Tableau.shiftBudget`): whether every required constraint holds, not only those of
  /// the values changed since the last check (a read-out empties those lists, and round-off
  /// a swing left in values an earlier operation moved can break a constraint once a later
  /// one brings them back near zero). The next budget is what the tightest of them can
  /// take, and the sum starts again from zero (`resetDrift`). (A constraint held near the
  /// edge of the tolerance at large magnitudes leaves little room: the next shifts are then
  /// checked this way each, until the values move away from that edge or break it.)
  func checkDrift() -> Bool {
    let measure = measureRequired()
    resetDrift(room: measure.room)
    return measure.worst <= 1
  }

  /// Starts the shifts' sum again from zero with `room` as its budget (after every required
  /// constraint was measured).
  func resetDrift(room: Double) {
    tableau.shiftDrift = 0
    tableau.shiftBudget = room
  }
}

extension Audit {
  /// A constraint's entry against `values`: `ratio`, its residual (beyond its bound, for an
  /// inequality) over what ``Tolerance/audit`` allows it, and `room`, how far the shifts'
  /// sum (`Tableau.shiftDrift`) may grow before it could stop holding (0 when it does not
  /// hold). Each unit of the sum moves each of its values by at most 1 per unit of their
  /// coefficient, and its constant by at most 1 (a shift counts at least its size), so with
  /// `weight` the sum of its coefficients' magnitudes plus 1, each unit adds at most
  /// `weight` ulps to its residual and takes at most `weight` off its magnitudes. An entry
  /// off by less than `Tolerance.audit` then stays within it at any magnitude for
  /// `(audit - off) / (weight · ulp)`; one off by more holds while its magnitudes stay large
  /// enough, for `(allowed - off) / (weight · (ulp + audit))`. The larger that applies.
  static func measure(
    entry: Entry, slots: UnsafeBufferPointer<Slot>, values: UnsafeBufferPointer<Double>
  ) -> (ratio: Double, room: Double) {
    let (off, scale, weight) = evaluate(entry: entry, slots: slots, values: values)
    let allowed = Tolerance.audit * (scale + 1)
    let ratio = off / allowed
    guard off <= allowed else { return (ratio, 0) }
    let shrinking = (allowed - off) / (weight * (Double.ulpOfOne + Tolerance.audit))
    guard off < Tolerance.audit else { return (ratio, shrinking) }
    return (ratio, Swift.max(shrinking, (Tolerance.audit - off) / (weight * Double.ulpOfOne)))
  }

  /// Whether a constraint's entry holds at `values` within ``Tolerance/audit`` of the
  /// magnitudes in its residual.
  @inline(__always)
  func holds(entry: Entry, values: UnsafeBufferPointer<Double>) -> Bool {
    slots.withUnsafeBufferPointer { slots in
      Audit.holds(entry: entry, slots: slots, values: values)
    }
  }

  /// `holds(entry:values:)` over the term slots as a raw buffer.
  @inline(__always)
  static func holds(
    entry: Entry, slots: UnsafeBufferPointer<Slot>, values: UnsafeBufferPointer<Double>
  ) -> Bool {
    let (off, scale, _) = evaluate(entry: entry, slots: slots, values: values)
    return off <= Tolerance.audit * (scale + 1)
  }

  /// A constraint's entry at `values`: how far it is off (the residual's magnitude, or for
  /// an inequality how far past its bound, 0 within it; not a number when a value is not),
  /// the magnitudes summed in its residual (`scale`), and `weight`, 1 plus the magnitudes
  /// of its coefficients (which `holds` leaves unused, and inlined, uncomputed).
  @inline(__always)
  static func evaluate(
    entry: Entry, slots: UnsafeBufferPointer<Slot>, values: UnsafeBufferPointer<Double>
  ) -> (off: Double, scale: Double, weight: Double) {
    var residual = entry.constant
    var scale = abs(entry.constant)
    var weight = 1.0
    let first = Int(entry.start)
    for i in first..<(first + Int(entry.count)) {
      let t = slots[i].coefficient * values[Int(slots[i].symbol)]
      residual += t
      scale += abs(t)
      weight += abs(slots[i].coefficient)
    }
    // Written so that a residual that is not a number stays one (`Swift.max(0, -residual)`
    // would make it 0, and a value that is not a number would pass an inequality).
    let off: Double
    switch entry.relation {
    case .equal: off = abs(residual)
    case .greaterOrEqual: off = residual >= 0 ? 0 : -residual
    case .lessOrEqual: off = residual <= 0 ? 0 : residual
    }
    return (off, scale, weight)
  }
}
