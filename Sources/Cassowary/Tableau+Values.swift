// Values and expansions for rows that may name basic symbols: evaluating a row, expanding
// it into parametric terms, the canonical column of a symbol, and bringing values up to date
// after a change. All traversals are iterative (a stack of ten thousand boxes is a reference
// chain ten thousand deep) and visit only the rows concerned.

extension Tableau {
  func namesBasicSymbols(_ row: Row) -> Bool {
    for s in row.symbols where basicSlot[s.index] >= 0 { return true }
    return false
  }

  /// The row's value over the current values: its constant plus its cells that name basic
  /// symbols (a parametric symbol is 0), summed in the order of `Row.sumCells` over those
  /// cells, as `updateValues()` sums them from the reference cache
  /// (`Tableau+References.swift`): over the same basis and values, the same bits.
  func evaluate(_ row: Row) -> Double {
    values.withUnsafeBufferPointer { values in
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
      for i in visitMarks.indices { visitMarks[i] = 0 }
      visitEpoch = 1
    }
  }

  /// The basic symbols a row names, directly or through their rows; each comes after every
  /// basic symbol its own row names (dependencies first).
  /// Written to `order` (emptied first), with the tableau's reused traversal stack: a pivot
  /// that expands a row allocates nothing for its traversal.
  mutating func referenceClosure(of row: Row, into order: inout [Symbol]) {
    nextEpoch()
    order.removeAll(keepingCapacity: true)
    var stack: [(symbol: Symbol, next: Int)] = []
    swap(&stack, &closureStack)
    defer {
      stack.removeAll(keepingCapacity: true)
      swap(&stack, &closureStack)
    }
    for root in row.symbols where isBasic(root) && visitMarks[root.index] != visitEpoch {
      visitMarks[root.index] = visitEpoch
      stack.append((root, 0))
      while let top = stack.last {
        let cells = rows[Int(basicSlot[top.symbol.index])].symbols
        var i = top.next
        var child = Symbol.invalid
        while i < cells.count {
          let t = cells[i]
          i &+= 1
          if basicSlot[t.index] >= 0 && visitMarks[t.index] != visitEpoch {
            child = t
            break
          }
        }
        if child.isValid {
          visitMarks[child.index] = visitEpoch
          stack[stack.count - 1].next = i
          stack.append((child, 0))
        } else {
          stack.removeLast()
          order.append(top.symbol)
        }
      }
    }
  }

  /// The row with every basic symbol replaced, recursively, by its definition: the same
  /// equation over parametric symbols only. Each row in the closure is read once.
  ///
  /// A cell that sums to less than the near-zero threshold may be a small coefficient or
  /// the residue of a cancellation (zero in exact arithmetic); only the second is dropped
  /// (`isResidue`). Telling them apart needs the magnitude of what went into the cell,
  /// which is computed in a second pass only when such a cell exists.
  mutating func expand(_ row: Row) -> Row {
    var order: [Symbol] = []
    swap(&order, &closureOrder)
    defer { swap(&order, &closureOrder) }
    referenceClosure(of: row, into: &order)
    if order.isEmpty { return row }
    counters.expansions &+= 1
    nextEpoch()
    // Reused work lists. `touched` is a sequence of sorted runs (the row's symbols, then
    // each spread definition's new ones, in its order); `runEnds` marks where each ends.
    var touched: [Symbol] = []
    var spread: [(basic: Symbol, weight: Double)] = []
    var runEnds: [Int] = []
    swap(&touched, &expansionTouched)
    swap(&spread, &expansionSpread)
    swap(&runEnds, &expansionRunEnds)
    defer {
      touched.removeAll(keepingCapacity: true)
      spread.removeAll(keepingCapacity: true)
      runEnds.removeAll(keepingCapacity: true)
      swap(&touched, &expansionTouched)
      swap(&spread, &expansionSpread)
      swap(&runEnds, &expansionRunEnds)
    }
    for i in row.symbols.indices {
      let s = row.symbols[i]
      visitMarks[s.index] = visitEpoch
      touched.append(s)
      accumulator[s.index] += row.coefficients[i]
    }
    if !touched.isEmpty { runEnds.append(touched.count) }
    var constant = row.constant
    // Referrers before the rows they name, so each basic symbol's weight is complete when
    // its row is spread.
    for b in order.reversed() {
      let weight = accumulator[b.index]
      accumulator[b.index] = 0
      guard weight != 0 else { continue }
      spread.append((b, weight))
      let definition = rows[Int(basicSlot[b.index])]
      constant += weight * definition.constant
      for i in definition.symbols.indices {
        let t = definition.symbols[i]
        if visitMarks[t.index] != visitEpoch {
          visitMarks[t.index] = visitEpoch
          touched.append(t)
        }
        accumulator[t.index] += weight * definition.coefficients[i]
      }
      if touched.count > runEnds.last ?? 0 { runEnds.append(touched.count) }
    }
    mergeRuns(&touched, ends: &runEnds)
    // The result goes into the spare row's buffers (the row a pivot last replaced), so a
    // pivot that expands and then replaces a row allocates nothing once they are large
    // enough.
    var result = Row()
    swap(&result, &spareRow)
    result.constant = constant
    result.symbols.removeAll(keepingCapacity: true)
    result.coefficients.removeAll(keepingCapacity: true)
    result.symbols.reserveCapacity(touched.count)
    result.coefficients.reserveCapacity(touched.count)
    var small = 0
    for t in touched {
      let c = accumulator[t.index]
      accumulator[t.index] = 0
      if basicSlot[t.index] < 0 && !isResidue(c, scale: 0) {
        if nearZero(c) { small &+= 1 }
        result.symbols.append(t)
        result.coefficients.append(c)
      }
    }
    if small > 0 { dropResidues(from: &result, expanding: row, spread: spread) }
    return result
  }

  /// Sorts `list`, a sequence of sorted runs of distinct symbols ending at `ends`, by merging
  /// neighbouring runs pairwise through a kept buffer: the same order as `sort()`, without
  /// the standard sort's merge buffer (an allocation per expansion).
  mutating func mergeRuns(_ list: inout [Symbol], ends: inout [Int]) {
    guard ends.count > 1 else { return }
    var other: [Symbol] = []
    swap(&other, &expansionMergeBuffer)
    defer { swap(&other, &expansionMergeBuffer) }
    if other.count < list.count {
      other.append(contentsOf: repeatElement(Symbol.invalid, count: list.count - other.count))
    }
    var inList = true
    while ends.count > 1 {
      list.withUnsafeMutableBufferPointer { a in
        other.withUnsafeMutableBufferPointer { b in
          let source = inList ? a : b
          let target = inList ? b : a
          var merged = 0
          var start = 0
          var r = 0
          while r < ends.count {
            let middle = ends[r]
            guard r &+ 1 < ends.count else {
              // An odd run out: copied as it is.
              for k in start..<middle { target[k] = source[k] }
              ends[merged] = middle
              merged &+= 1
              break
            }
            let end = ends[r &+ 1]
            var i = start
            var j = middle
            var k = start
            while i < middle && j < end {
              if source[i] < source[j] {
                target[k] = source[i]
                i &+= 1
              } else {
                target[k] = source[j]
                j &+= 1
              }
              k &+= 1
            }
            while i < middle {
              target[k] = source[i]
              i &+= 1
              k &+= 1
            }
            while j < end {
              target[k] = source[j]
              j &+= 1
              k &+= 1
            }
            ends[merged] = end
            merged &+= 1
            start = end
            r &+= 2
          }
          ends.removeLast(ends.count &- merged)
        }
      }
      inList.toggle()
    }
    if !inList {
      for k in list.indices { list[k] = other[k] }
    }
  }

  /// Drops the cells of an expansion that are cancellation residues: the magnitudes of the
  /// terms that went into each small cell are summed (in `accumulator`) from the original
  /// row and the weighted definitions that were spread.
  private mutating func dropResidues(
    from result: inout Row, expanding row: Row, spread: [(basic: Symbol, weight: Double)]
  ) {
    nextEpoch()
    for i in result.symbols.indices where nearZero(result.coefficients[i]) {
      visitMarks[result.symbols[i].index] = visitEpoch
    }
    for i in row.symbols.indices where visitMarks[row.symbols[i].index] == visitEpoch {
      accumulator[row.symbols[i].index] += abs(row.coefficients[i])
    }
    for (b, weight) in spread {
      let definition = rows[Int(basicSlot[b.index])]
      for i in definition.symbols.indices
      where visitMarks[definition.symbols[i].index] == visitEpoch {
        accumulator[definition.symbols[i].index] += abs(weight * definition.coefficients[i])
      }
    }
    var kept = 0
    for i in result.symbols.indices {
      let t = result.symbols[i]
      let c = result.coefficients[i]
      if visitMarks[t.index] == visitEpoch {
        let scale = accumulator[t.index]
        accumulator[t.index] = 0
        if isResidue(c, scale: scale) { continue }
      }
      result.symbols[kept] = t
      result.coefficients[kept] = c
      kept &+= 1
    }
    result.symbols.removeLast(result.symbols.count - kept)
    result.coefficients.removeLast(result.coefficients.count - kept)
  }

  /// Every basic symbol whose row names one of `seeds`, directly or through other rows,
  /// with the seeds themselves; each comes after every symbol its row names (dependencies
  /// first), so values can be recomputed in this order.
  mutating func dependents(of seeds: [Symbol]) -> [Symbol] {
    nextEpoch()
    // Reused buffers, taken out of `self` for the traversal.
    var postorder: [Symbol] = []
    var stack: [(symbol: Symbol, next: Int32)] = []
    swap(&postorder, &traversalOrder)
    swap(&stack, &traversalStack)
    postorder.removeAll(keepingCapacity: true)
    let epoch = visitEpoch
    for root in seeds where visitMarks[root.index] != epoch {
      visitMarks[root.index] = epoch
      compactIfNeeded(root)
      stack.append((root, 0))
      while !stack.isEmpty {
        let top = stack[stack.count - 1]
        let column = top.symbol.index
        var i = Int(top.next)
        let end = columns[column].count
        var child = Symbol.invalid
        while i < end {
          let b = rowBasic[Int(columns[column][i])]
          i &+= 1
          if visitMarks[b.index] != epoch {
            child = b
            break
          }
        }
        if child.isValid {
          visitMarks[child.index] = epoch
          compactIfNeeded(child)
          stack[stack.count - 1].next = Int32(i)
          stack.append((child, 0))
        } else {
          stack.removeLast()
          postorder.append(top.symbol)
        }
      }
    }
    postorder.reverse()
    swap(&stack, &traversalStack)
    let result = postorder
    swap(&postorder, &traversalOrder)
    return result
  }

  @inline(__always) mutating func compactIfNeeded(_ symbol: Symbol) {
    if columns[symbol.index].count != Int(columnCounts[symbol.index]) { compactColumn(symbol) }
  }

  /// Pushes a unit change of `symbol` forward through the rows that depend on it, in
  /// dependency order, handing each dependent basic symbol and its coefficient in that
  /// symbol's expansion (`symbol`'s canonical column) to `body`, zeros included.
  @inline(__always)
  mutating func forEachColumnEntry(of symbol: Symbol, _ body: (Symbol, Double) -> Void) {
    let order = dependents(of: [symbol])
    accumulator[symbol.index] = 1
    for b in order where b != symbol {
      let row = rows[Int(basicSlot[b.index])]
      var d = 0.0
      for i in row.symbols.indices {
        d += row.coefficients[i] * accumulator[row.symbols[i].index]
      }
      accumulator[b.index] = d
      body(b, d)
    }
    for b in order { accumulator[b.index] = 0 }
  }

  /// The coefficient of `symbol` in every row's expansion (its column in the canonical
  /// tableau), cells near zero left out.
  mutating func column(of symbol: Symbol) -> [(basic: Symbol, coefficient: Double)] {
    var result: [(basic: Symbol, coefficient: Double)] = []
    forEachColumnEntry(of: symbol) { b, d in
      if !nearZero(d) { result.append((b, d)) }
    }
    return result
  }

  /// Recomputes the values of the symbols in `staleValues` and of everything that depends
  /// on them, queues restricted rows that went negative for the dual simplex, and flags
  /// changed external values. Returns `false` when a basic dummy (a redundant required
  /// equality) is no longer zero.
  @discardableResult
  mutating func updateValues() -> Bool {
    guard !staleValues.isEmpty else { return true }
    nextEpoch()
    reserveWorkLists()
    compactReferencesIfNeeded()
    let (consistent, updated) = withUnsafeHandle { $0.updateValues() }
    staleValues.removeAll(keepingCapacity: true)
    counters.valuesUpdated &+= updated
    return consistent
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
    for s in staleValues where visitMarks[s.index] != epoch {
      visitMarks[s.index] = epoch
      let level = Int(levels[s.index])
      queue.push(s, level: level)
      lowest = Swift.min(lowest, level)
    }
    var consistent = true
    var updated = 0
    var level = lowest
    while level <= queue.highest {
      var item = queue.takeList(level)
      while item >= 0 {
        let s = queue.pop(&item)
        let index = s.index
        let slot = Int(basicSlot[index])
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
      let exact = referrers.count == Int(columnCounts[index])
      for referrer in referrers {
        let b = rowBasic[Int(referrer)]
        guard b.isValid && visitMarks[b.index] != epoch else { continue }
        if !exact && !rows[Int(referrer)].contains(symbol) { continue }
        visitMarks[b.index] = epoch
        let up = Int(levels[b.index])
        assert(up > level, "a row sits at or below a row it names")
        queue.push(b, level: up)
      }
    }
  }

  /// Flags a changed external value for the next read-out (once until it is read).
  @inline(__always)
  func noteChanged(_ symbol: Symbol) {
    guard !changed[symbol.index] else { return }
    changed[symbol.index] = true
    changedExternals.pointee.append(symbol)
  }
}
