// The solver's loops over changed values, on raw buffers: copying them out at a read-out,
// and the check of required constraints (what it checks and when: `Solver+Audit.swift`).
// They run over every changed value on each read-out or check, so each buffer is opened
// once and indexed unchecked in release builds (debug builds keep the buffers' own checks).

import CPrefetch

extension Solver {
  /// Copies the values of the symbols changed since the last read-out into
  /// `variableValues`.
  func copyChangedValues() {
    copyChangedValues { _ in }
  }

  /// Copies the values of the symbols changed since the last read-out into
  /// `variableValues`, and calls `moved` with the index of each variable whose value is now
  /// different. `moved` must not call into the solver: its arrays are open while it runs.
  ///
  /// In a large tree the changed symbols are far apart (a cell's y every 150 symbols or so
  /// in a list), so each one's variable, value and copy are a cache miss of their own. The
  /// list is known before the loop starts: from `Solver.prefetchMinimum` values on, each
  /// symbol's variable and value are requested 16 values ahead, and its copy's line 8 ahead
  /// (its variable is in cache by then), so that the misses overlap.
  @inline(__always)
  func copyChangedValues(_ moved: (Int) -> Void) {
    symbolVariables.withUnsafeBufferPointer { variableOf in
      variableValues.withUnsafeMutableBufferPointer { out in
        tableau.drainChangedList { changed, values in
          let n = changed.count
          let prefetching = n >= Solver.prefetchMinimum
          for i in 0..<n {
            if prefetching {
              if i &+ 16 < n {
                let ahead = changed[i &+ 16].index
                cprefetch_read(variableOf.baseAddress.unsafelyUnwrapped + ahead)
                cprefetch_read(values.baseAddress.unsafelyUnwrapped + ahead)
              }
              if i &+ 8 < n {
                let ahead = Int(variableOf[changed[i &+ 8].index])
                cprefetch_write(out.baseAddress.unsafelyUnwrapped + ahead)
              }
            }
            let symbol = changed[i].index
            let index = Int(variableOf[symbol])
            let value = values[symbol]
            guard out[index] != value else { continue }
            out[index] = value
            moved(index)
          }
        }
      }
    }
  }

  /// How many changed values a loop over them must have before it requests their lines
  /// ahead: below that they are few enough to stay in cache, and the requests would be
  /// instructions for nothing.
  static var prefetchMinimum: Int { 256 }

  /// Whether the required constraints of the variables of `symbols` and `more` (values
  /// changed since the last read-out or the last check) hold, each checked once. A value
  /// that is not finite fails.
  func changedValuesHold(_ symbols: ArraySlice<Symbol>, _ more: [Symbol]) -> Bool {
    audit.epoch &+= 1
    if audit.epoch == 0 {
      for i in audit.entries.indices { audit.entries[i].mark = 0 }
      audit.epoch = 1
    }
    let epoch = audit.epoch
    var entries: [Audit.Entry] = []
    swap(&entries, &audit.entries)
    defer { swap(&entries, &audit.entries) }
    // Every array the loop reads is opened once: through the solver (a class) each read of
    // `audit.slots[i]` reloaded the array and checked its bounds, per term.
    return tableau.values.withUnsafeBufferPointer { values in
      entries.withUnsafeMutableBufferPointer { entries in
        audit.slots.withUnsafeBufferPointer { slots in
          audit.firstSlot.withUnsafeBufferPointer { firstSlot in
            symbolVariables.withUnsafeBufferPointer { variableOf in
              /// Whether the constraints of `symbol` not checked yet in this pass hold.
              func holds(_ symbol: Symbol) -> Bool {
                guard values[symbol.index].isFinite else { return false }
                var slot = firstSlot[Int(variableOf[symbol.index])]
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
              /// Whether the constraints of every symbol of `list` hold. A long list
              /// requests the lines of its symbols' checks ahead, one step of the chain
              /// symbol -> variable -> first slot -> record per stage, each stage reading
              /// what an earlier one requested: the variable and the value 16 symbols
              /// ahead, the first slot 8 ahead, the slot 4 ahead (a record's terms are
              /// side by side: the first one's line holds most of the others), its record 2
              /// ahead. (Without them each step waited for the last: a check in a list of
              /// 100,000 cells was a fifth of a text tick.)
              func hold(_ list: UnsafeBufferPointer<Symbol>) -> Bool {
                let n = list.count
                guard n >= Solver.prefetchMinimum else {
                  for symbol in list where !holds(symbol) { return false }
                  return true
                }
                let valueBase = values.baseAddress.unsafelyUnwrapped
                let slotBase = slots.baseAddress.unsafelyUnwrapped
                for i in 0..<n {
                  if i &+ 16 < n {
                    let ahead = list[i &+ 16].index
                    cprefetch_read(variableOf.baseAddress.unsafelyUnwrapped + ahead)
                    cprefetch_read(valueBase + ahead)
                  }
                  if i &+ 8 < n {
                    let variable = Int(variableOf[list[i &+ 8].index])
                    cprefetch_read(firstSlot.baseAddress.unsafelyUnwrapped + variable)
                  }
                  if i &+ 4 < n {
                    let slot = firstSlot[Int(variableOf[list[i &+ 4].index])]
                    if slot >= 0 { cprefetch_read(slotBase + Int(slot)) }
                  }
                  if i &+ 2 < n {
                    let slot = firstSlot[Int(variableOf[list[i &+ 2].index])]
                    if slot >= 0 {
                      let r = Int(slots[Int(slot)].record)
                      cprefetch_write(entries.baseAddress.unsafelyUnwrapped + r)
                    }
                  }
                  if !holds(list[i]) { return false }
                }
                return true
              }
              return symbols.withUnsafeBufferPointer(hold) && more.withUnsafeBufferPointer(hold)
            }
          }
        }
      }
    }
  }

  /// Whether every required constraint holds at the current values: the check of a
  /// rebuilt tableau.
  func requiredConstraintsHold() -> Bool {
    tableau.values.withUnsafeBufferPointer { values in
      for r in records.indices
      where records[r].constraint != nil && records[r].strength.isRequired {
        if !audit.holds(entry: audit.entries[r], values: values) {
          return false
        }
      }
      return true
    }
  }
}

extension Audit {
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
    var residual = entry.constant
    var scale = abs(entry.constant)
    let first = Int(entry.start)
    for i in first..<(first + Int(entry.count)) {
      let t = slots[i].coefficient * values[Int(slots[i].symbol)]
      residual += t
      scale += abs(t)
    }
    let allowed = Tolerance.audit * (scale + 1)
    switch entry.relation {
    case .equal: return abs(residual) <= allowed
    case .greaterOrEqual: return residual >= -allowed
    case .lessOrEqual: return residual <= allowed
    }
  }
}
