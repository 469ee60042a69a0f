// Values and expansions for rows that may name basic symbols: evaluating a row, expanding
// it into parametric terms, the canonical column of a symbol, and bringing values up to date
// after a change. All traversals are iterative (a stack of ten thousand boxes is a reference
// chain ten thousand deep) and visit only the rows concerned.

extension Tableau {
  func namesBasicSymbols(_ row: Row) -> Bool {
    for s in row.symbols where basicSlot[s.index] >= 0 { return true }
    return false
  }

  /// The row's value over the current values (parametric symbols are 0).
  @inline(__always)
  func evaluate(_ row: Row) -> Double {
    var v = row.constant
    for i in row.symbols.indices {
      v += row.coefficients[i] * values[row.symbols[i].index]
    }
    return v
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
  mutating func referenceClosure(of row: Row) -> [Symbol] {
    nextEpoch()
    var order: [Symbol] = []
    var stack: [(symbol: Symbol, next: Int)] = []
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
    return order
  }

  /// The row with every basic symbol replaced, recursively, by its definition: the same
  /// equation over parametric symbols only. Each row in the closure is read once.
  mutating func expand(_ row: Row) -> Row {
    let order = referenceClosure(of: row)
    if order.isEmpty { return row }
    counters.expansions &+= 1
    nextEpoch()
    var touched: [Symbol] = []
    for i in row.symbols.indices {
      let s = row.symbols[i]
      visitMarks[s.index] = visitEpoch
      touched.append(s)
      accumulator[s.index] += row.coefficients[i]
    }
    var constant = row.constant
    // Referrers before the rows they name, so each basic symbol's weight is complete when
    // its row is spread.
    for b in order.reversed() {
      let weight = accumulator[b.index]
      guard weight != 0 else { continue }
      accumulator[b.index] = 0
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
    }
    touched.sort()
    var result = Row(constant: constant)
    result.symbols.reserveCapacity(touched.count)
    result.coefficients.reserveCapacity(touched.count)
    for t in touched {
      let c = accumulator[t.index]
      accumulator[t.index] = 0
      if basicSlot[t.index] < 0 && !nearZero(c) {
        result.symbols.append(t)
        result.coefficients.append(c)
      }
    }
    return result
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

  /// The coefficient of `symbol` in every row's expansion (its column in the canonical
  /// tableau), found by pushing a unit change forward through the rows that depend on it.
  mutating func column(of symbol: Symbol) -> [(basic: Symbol, coefficient: Double)] {
    let order = dependents(of: [symbol])
    accumulator[symbol.index] = 1
    var result: [(basic: Symbol, coefficient: Double)] = []
    for b in order where b != symbol {
      let row = rows[Int(basicSlot[b.index])]
      var d = 0.0
      for i in row.symbols.indices {
        d += row.coefficients[i] * accumulator[row.symbols[i].index]
      }
      accumulator[b.index] = d
      if !nearZero(d) { result.append((b, d)) }
    }
    for b in order { accumulator[b.index] = 0 }
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
    let epoch = visitEpoch
    var lowest = Int.max
    var highest = -1
    for s in staleValues where visitMarks[s.index] != epoch {
      visitMarks[s.index] = epoch
      let level = Int(levels[s.index])
      enqueue(s, level: level)
      lowest = Swift.min(lowest, level)
      highest = Swift.max(highest, level)
    }
    staleValues.removeAll(keepingCapacity: true)

    // Level by level: every row a symbol's row names sits on a lower level, so its value is
    // final when the symbol is recomputed. Only rows whose inputs changed are visited.
    var consistent = true
    var level = lowest
    while level <= highest {
      var item = levelHeads[level]
      levelHeads[level] = -1
      while item >= 0 {
        let s = queuedSymbols[Int(item)]
        item = queuedNext[Int(item)]
        let slot = Int(basicSlot[s.index])
        let v = slot >= 0 ? evaluateSlot(slot) : 0
        if v != values[s.index] {
          values[s.index] = v
          noteChanged(s)
          compactIfNeeded(s)
          let referrers = columns[s.index]
          for slot in referrers {
            let b = rowBasic[Int(slot)]
            if visitMarks[b.index] != epoch {
              visitMarks[b.index] = epoch
              let up = Int(levels[b.index])
              enqueue(b, level: up)
              if up > highest { highest = up }
            }
          }
        }
        guard slot >= 0 && !s.isExternal else { continue }
        if s.isDummy {
          if !nearZero(v) { consistent = false }
        } else if v < 0 {
          infeasible.append(s)
        }
      }
      level &+= 1
    }
    queuedSymbols.removeAll(keepingCapacity: true)
    queuedNext.removeAll(keepingCapacity: true)
    return consistent
  }

  @inline(__always)
  mutating func enqueue(_ symbol: Symbol, level: Int) {
    if level >= levelHeads.count {
      levelHeads.append(contentsOf: repeatElement(-1, count: level + 1 - levelHeads.count))
    }
    queuedSymbols.append(symbol)
    queuedNext.append(levelHeads[level])
    levelHeads[level] = Int32(queuedSymbols.count - 1)
  }

  /// The value of the row in `slot` over the current values.
  @inline(__always)
  func evaluateSlot(_ slot: Int) -> Double {
    // A canonical row names parametric symbols only, whose values are 0.
    if !lazy { return rows[slot].constant }
    return rows.withUnsafeBufferPointer { rows in
      values.withUnsafeBufferPointer { values in
        rows[slot].symbols.withUnsafeBufferPointer { symbols in
          rows[slot].coefficients.withUnsafeBufferPointer { coefficients in
            var sum = rows[slot].constant
            for i in 0..<symbols.count { sum += coefficients[i] * values[symbols[i].index] }
            return sum
          }
        }
      }
    }
  }
}
