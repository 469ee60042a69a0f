// Values and expansions for rows that may name basic symbols: evaluating a row, expanding
// it into parametric terms, the canonical column of a symbol, and bringing values up to date
// after a change. All traversals are iterative (a stack of ten thousand boxes is a reference
// chain ten thousand deep) and visit only the rows concerned.

extension Tableau {
  /// Calls `body` with the values and the lists of the check (`Solver.changedValuesHold`):
  /// the externals changed since the last check (from `checkedPrefix` on) and those changed
  /// again. Opened in one method, one access to the tableau; each list in place (passed to
  /// the check as arrays, both were retained and released per operation), an empty one not
  /// opened (its storage is the shared empty array, which a write scope would copy).
  @inline(__always)
  mutating func withCheckLists<R>(
    _ body: (
      UnsafeBufferPointer<Double>, UnsafeBufferPointer<Symbol>, UnsafeBufferPointer<Symbol>
    ) -> R
  ) -> R {
    let prefix = checkedPrefix
    return values.withReadBuffer { values in
      Tableau.lend(&changedExternals, from: prefix) { changed in
        Tableau.lend(&rechangedExternals, from: 0) { rechanged in
          body(values, changed, rechanged)
        }
      }
    }
  }

  /// Lends the elements of `list` from `start` on through a write scope (none when there
  /// are none: see `withCheckLists`).
  @inline(__always)
  private static func lend<R>(
    _ list: inout [Symbol], from start: Int, _ body: (UnsafeBufferPointer<Symbol>) -> R
  ) -> R {
    if list.count == start { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    return list.withReadBuffer { body(UnsafeBufferPointer(rebasing: $0[start...])) }
  }

  func namesBasicSymbols(_ row: Row) -> Bool {
    for s in row.unretainedHandle.symbols where basicSlot[s.index] >= 0 { return true }
    return false
  }

  /// `namesBasicSymbols(_:)` for the row in `slot`, from its cached basic cells when known.
  func namesBasicSymbols(slot: Int) -> Bool {
    let span = referenceSpans[slot]
    guard span.count >= 0 else { return namesBasicSymbols(rows[slot]) }
    assert(spanIsExact(slot), "a span differs from its row")
    return span.count > 0
  }

  /// The row's value over the current values: its constant plus its cells that name basic
  /// symbols (a parametric symbol is 0), summed in the order of `Row.sumCells` over those
  /// cells, as `updateValues()` sums them from the reference cache
  /// (`Tableau+References.swift`): over the same basis and values, the same bits.
  ///
  /// Inlined: called on a tableau that is a class's stored property or from a mutating
  /// method, a non-mutating method that is not inlined is handed a copy of the tableau (a
  /// `memcpy` of about 600 bytes per call, three per constraint a layout's build adds).
  @inline(__always)
  func evaluate(_ row: Row) -> Double {
    assert(!pendingShifts, "a row evaluated before the pending shifts were settled")
    return values.withUnsafeBufferPointer { values in
      basicSlot.withUnsafeBufferPointer { basicSlot in
        row.withUnsafeHandle { cells in
          var n = 0
          for i in 0..<cells.count where basicSlot[cells.symbols[i].index] >= 0 { n &+= 1 }
          if n < 16 {
            var v = row.constant
            for i in 0..<cells.count where basicSlot[cells.symbols[i].index] >= 0 {
              v += cells.coefficients[i] * values[cells.symbols[i].index]
            }
            return v
          }
          // Four partial sums by position among the basic cells, the last n % 4 into the
          // first, as `Row.sumCells` does.
          var sums = (0.0, 0.0, 0.0, 0.0)
          let laned = n & ~3
          var k = 0
          for i in 0..<cells.count where basicSlot[cells.symbols[i].index] >= 0 {
            let term = cells.coefficients[i] * values[cells.symbols[i].index]
            switch k < laned ? k & 3 : 0 {
            case 0: sums.0 += term
            case 1: sums.1 += term
            case 2: sums.2 += term
            default: sums.3 += term
            }
            k &+= 1
          }
          return row.constant + ((sums.0 + sums.1) + (sums.2 + sums.3))
        }
      }
    }
  }

  mutating func nextEpoch() {
    visitEpoch &+= 1
    if visitEpoch == 0 {
      for i in symbolMarks.indices { symbolMarks[i].visit = 0 }
      visitEpoch = 1
    }
  }

  /// Writes to `expansion.other` every basic symbol whose row names `seed`, directly
  /// or through other rows, with the seed itself, and returns how many. Each comes before
  /// every symbol its row names (the seed last), so values can be recomputed from the last
  /// to the first.
  ///
  /// Over raw buffers, the lists compacted in place as the walk reaches them: through the
  /// arrays, each step paid bounds and uniqueness checks and each append a capacity check,
  /// and the walk was 7% of a build of kiwi's enaml system (its ratio tests read columns).
  mutating func dependents(of seed: Symbol) -> Int {
    nextEpoch()
    let epoch = visitEpoch
    let scratch = expansion
    var listEpoch = markEpoch
    let count = rows.withReadBuffer { rows in
      rowBasic.withReadBuffer { rowBasic in
        symbolMarks.withUnsafeMutableBufferPointer { marks in
          slotMarks.withUnsafeMutableBufferPointer { slotMarks in
            columns.withUnsafeMutableBuffers { extents, entries in
              @inline(__always) func visit(_ symbol: Symbol) {
                marks[symbol.index].visit = epoch
                Tableau.compactListIfNeeded(
                  of: symbol, epoch: &listEpoch, rows: rows, rowBasic: rowBasic,
                  slotMarks: slotMarks, extents: extents, entries: entries)
              }
              var count = 0
              visit(seed)
              scratch.walkPostorder(
                from: seed, into: &scratch.other, count: &count,
                nextChild: { symbol, i in
                  let extent = extents[symbol.index]
                  let start = Int(extent.start)
                  while i < Int(extent.count) {
                    let b = rowBasic[Int(entries[start &+ i])]
                    i &+= 1
                    if marks[b.index].visit != epoch { return b }
                  }
                  return .invalid
                }, visit: visit)
              return count
            }
          }
        }
      }
    }
    markEpoch = listEpoch
    return count
  }

  /// Pushes a unit change of `symbol` forward through the rows that depend on it, in
  /// dependency order, handing each dependent basic symbol and its coefficient in that
  /// symbol's expansion (`symbol`'s canonical column) to `body`, zeros included.
  ///
  /// The sums run over raw buffers, the accumulator taken out of the tableau while they
  /// do (`body` must not read it or change a row): through the arrays, each row read
  /// retained and released its storage and each write to the accumulator checked its
  /// uniqueness, which made the ratio tests of a lazy tableau 15% of a build of kiwi's enaml
  /// system. The rows' cells are read unretained (`unretainedHandle(at:)`).
  @inline(__always)
  mutating func forEachColumnEntry(of symbol: Symbol, _ body: (Symbol, Double) -> Void) {
    let count = dependents(of: symbol)
    let order = expansion.other.base
    var sums: [Double] = []
    swap(&sums, &accumulator)
    defer { swap(&sums, &accumulator) }
    sums.withUnsafeMutableBufferPointer { sums in
      rows.withReadBuffer { rows in
        basicSlot.withReadBuffer { basicSlot in
          sums[symbol.index] = 1
          // Dependencies first: from the last written to the first.
          var k = count
          while k > 0 {
            k &-= 1
            let b = order[k]
            if b == symbol { continue }
            let cells = rows.unretainedHandle(at: Int(basicSlot[b.index]))
            var d = 0.0
            for i in 0..<cells.count {
              d += cells.coefficients[i] * sums[cells.symbols[i].index]
            }
            sums[b.index] = d
            body(b, d)
          }
          for k in 0..<count { sums[order[k].index] = 0 }
        }
      }
    }
  }

  /// The coefficient of `symbol` in every row's expansion (its column in the canonical
  /// tableau), cells near zero left out.
  ///
  /// Callers take a minimum or maximum over the entries with ties broken by symbol, so the
  /// entries' order does not matter.
  mutating func column(of symbol: Symbol) -> [(basic: Symbol, coefficient: Double)] {
    var result: [(basic: Symbol, coefficient: Double)] = []
    writeColumn(of: symbol, into: &result)
    return result
  }

  /// `column(of:)` in the tableau's kept buffer, moved out to the caller, who hands it back
  /// with `keepColumn(_:)`: a fresh array for every ratio test allocated once per pivot.
  mutating func takeColumn(of symbol: Symbol) -> [(basic: Symbol, coefficient: Double)] {
    var column: [(basic: Symbol, coefficient: Double)] = []
    swap(&column, &keptColumn)
    if !column.isEmpty { column.removeAll(keepingCapacity: true) }
    writeColumn(of: symbol, into: &column)
    return column
  }

  /// Gives back the buffer `takeColumn(of:)` lent.
  mutating func keepColumn(_ column: consuming [(basic: Symbol, coefficient: Double)]) {
    keptColumn = column
  }

  /// Appends the entries of `column(of:)` to `result`.
  private mutating func writeColumn(
    of symbol: Symbol, into result: inout [(basic: Symbol, coefficient: Double)]
  ) {
    if !lazy && readsColumnsFromRows {
      // Canonical rows name no basic symbol: the rows that name `symbol` are all that
      // depend on it, and each one's cell is its expansion's coefficient. The general
      // traversal sums the same cell times 1 plus the row's other cells times 0, which is
      // the same number; this skips the traversal and the sums (in a build, a third of a
      // pivot's work in the ratio test).
      for slot in slots(holding: symbol) {
        let s = Int(slot)
        let d = rows[s].coefficient(for: symbol)
        if !nearZero(d) { result.append((rowBasic[s], d)) }
      }
      assert(sameEntries(result, generalColumn(of: symbol)), "canonical column differs")
      return
    }
    forEachColumnEntry(of: symbol) { b, d in
      if !nearZero(d) { result.append((b, d)) }
    }
  }

  /// `column(of:)` through the dependency traversal, valid in both representations.
  mutating func generalColumn(of symbol: Symbol) -> [(basic: Symbol, coefficient: Double)] {
    var result: [(basic: Symbol, coefficient: Double)] = []
    forEachColumnEntry(of: symbol) { b, d in
      if !nearZero(d) { result.append((b, d)) }
    }
    return result
  }

  /// Whether two columns hold the same entries, in any order (debug checks).
  func sameEntries(
    _ a: [(basic: Symbol, coefficient: Double)], _ b: [(basic: Symbol, coefficient: Double)]
  ) -> Bool {
    guard a.count == b.count else { return false }
    let sorted = { (c: [(basic: Symbol, coefficient: Double)]) in c.sorted { $0.basic < $1.basic } }
    return zip(sorted(a), sorted(b)).allSatisfy {
      $0.basic == $1.basic && $0.coefficient == $1.coefficient
    }
  }

  /// Recomputes the values of the symbols in `staleValues` and of everything that depends
  /// on them, queues restricted rows that went negative for the dual simplex, and flags
  /// changed external values. Returns `false` when a basic dummy (a redundant required
  /// equality) is no longer zero.
  @discardableResult
  mutating func updateValues() -> Bool {
    guard !staleValues.isEmpty else { return true }
    assert(!pendingShifts, "rows evaluated before the pending shifts were settled")
    if staleValues.count == 1 && columnCount(staleValues[0].index) == 0 {
      return updateUnreferencedValue()
    }
    nextEpoch()
    reserveWorkLists()
    compactReferencesIfNeeded()
    let (consistent, updated) = withUnsafeHandle { $0.updateValues() }
    staleValues.removeAllKeepingCapacity()
    counters.valuesUpdated &+= updated
    return consistent
  }

  /// `updateValues()` when its one stale symbol is named by no row: then its own value is
  /// all that can change. That is the subject of nearly every row a layout's build adds (a
  /// lazy tableau picks subjects no row names): 18,608 of the 21,244 value updates of the
  /// cold build of a 300-cell feed. `evaluate` sums the row as the pass does, to the same
  /// bits, without opening the pass's sixteen buffers (about a thousand instructions).
  private mutating func updateUnreferencedValue() -> Bool {
    let s = staleValues[0]
    staleValues.removeAllKeepingCapacity()
    let slot = Int(basicSlot[s.index])
    var v = 0.0
    if slot >= 0 { v = lazy ? evaluate(rows[slot]) : rows[slot].constant }
    if v != values[s.index] {
      values[s.index] = v
      counters.valuesUpdated &+= 1
      noteChanged(s)
    }
    guard slot >= 0 && !s.isExternal else { return true }
    if s.isDummy { return nearZero(v) }
    if v < 0 { infeasible.append(s) }
    return true
  }
}

extension Tableau.UnsafeHandle {
  /// The pass of `updateValues()`, which has just started a new `epoch` to mark the symbols
  /// it queues. Returns whether every basic dummy stayed zero, and how many values changed.
  ///
  /// Level by level: every row a symbol's row names sits on a lower level, so its value is
  /// final when the symbol is recomputed. Only rows whose inputs changed are visited. A
  /// stale column entry only costs a recomputation that changes nothing.
  @inline(__always)
  func updateValues() -> (consistent: Bool, updated: Int) {
    var queue = LevelQueue(self)
    var lowest = Int.max
    for (i, s) in staleValues.enumerated() where symbolMarks[s.index].visit != epoch {
      symbolMarks[s.index].visit = epoch
      let level = Int(symbolMarks[s.index].level)
      queue.pushSeed(slot: basicSlot[s.index], at: i, level: level)
      lowest = Swift.min(lowest, level)
    }
    var consistent = true
    var updated = 0
    var level = lowest
    while level <= queue.highest {
      var item = queue.takeList(level)
      while item >= 0 {
        let (s, queuedSlot) = queue.pop(&item)
        let index = s.index
        let slot = Int(queuedSlot)
        assert(slot == Int(basicSlot[index]), "a queued slot is not its symbol's")
        // A parametric symbol is 0; a basic one's row names only final values (lazy) or
        // only parametric symbols (canonical: its constant is its value).
        var v = 0.0
        if slot >= 0 {
          v = lazy ? referencedValue(slot) : rows[slot].constant
        }
        if v != values[index] {
          values[index] = v
          updated &+= 1
          if s.isExternal { noteChanged(s) }
          queueReferrers(of: s, above: level, in: &queue)
        }
        guard slot >= 0 && !s.isExternal else { continue }
        if s.isDummy {
          if !nearZero(v) { consistent = false }
        } else if v < 0 {
          infeasible.pointee.append(s)
        }
      }
      level &+= 1
    }
    return (consistent, updated)
  }

  /// Queues the basic symbols whose rows name `symbol` (just recomputed on `level`), each
  /// once per pass.
  @inline(__always)
  func queueReferrers(of symbol: Symbol, above level: Int, in queue: inout LevelQueue) {
    let index = symbol.index
    referrers(of: index) { referrers in
      // A list longer than its count holds stale slots, which must be skipped: their rows
      // may sit below this level.
      let exact = referrers.count == Int(columnExtents[index].live)
      for referrer in referrers {
        let b = rowBasic[Int(referrer)]
        guard b.isValid && symbolMarks[b.index].visit != epoch else { continue }
        if !exact && !rows[Int(referrer)].contains(symbol) { continue }
        symbolMarks[b.index].visit = epoch
        let up = Int(symbolMarks[b.index].level)
        assert(up > level, "a row sits at or below a row it names")
        queue.push(slot: referrer, level: up)
      }
    }
  }

  /// Flags a changed external value for the next read-out and the next check
  /// (`Tableau.flagChanged`).
  @inline(__always)
  func noteChanged(_ symbol: Symbol) {
    Tableau.flagChanged(
      symbol, in: &symbolMarks[symbol.index].listed, generation: checkGeneration,
      readOut: readOutGeneration, &changedExternals.pointee, &rechangedExternals.pointee)
  }
}
