// The cells of each row that name basic symbols, cached for evaluation.
//
// A parametric symbol's value is zero, so a row's value is its constant plus its cells that
// name basic symbols. In the lazy representation a pivot leaves an expanded row in place: a
// row over parametric symbols with a cell for every box of a stack above it. Such a row
// names few basic symbols (none when it is made), but summing it cell by cell cost a
// multiply-add per cell whose value is zero: in a feed of 10,000 cells, rows of 4,000 to
// 8,000 cells made 70% of the cells `updateValues()` summed, for a handful of terms that
// were not zero.
//
// The cache keeps, per slot, the span of a shared arena that holds the row's basic cells
// (symbol and coefficient, in row order). When the row's cells change, the tableau forgets
// the span and the next evaluation rebuilds it from the row. When a symbol enters or leaves
// the basis, the spans of the rows that name it gain or lose its cell in place: a dense row
// names almost every parametric symbol, so forgetting it at every pivot would have it
// rebuilt, a pass over all its cells, about as often as it is evaluated. Forgotten and
// moved spans leave dead entries in the arena, which is emptied (every span forgotten) once
// it holds more dead entries than live ones.
//
// The expansion's closure (`Tableau+Expansion.swift`) walks the known spans too, instead of
// checking every cell of a row for a basic symbol: there a span that differed from its row
// would change expansions, hence pivots, not only round-off. Debug builds check every span
// the closure uses against its row.
//
// Every evaluation sums the same cells in the same order (`Row.sumCells`), whether it reads
// the arena or filters a row, so over the same basis and values the two agree to the last
// bit. A stored value is not re-evaluated when the basis changes without moving it (a
// degenerate pivot brings in a symbol at 0): a row of 16 or more basic cells then sums in
// other lanes at its next evaluation, which can differ from the stored value by round-off.
// (Cells on parametric symbols are never read, so an infinite coefficient there no longer
// turns the row's value into NaN; the values a row can reach are unchanged.)

/// Where a row's basic cells sit in the arena; `count` is -1 when they are not known.
struct ReferenceSpan {
  var start: Int32
  var count: Int32

  static let unknown = ReferenceSpan(start: 0, count: -1)
}

extension Tableau {
  /// Forgets the cached basic cells of the row in `slot` (its cells changed).
  @inline(__always) mutating func forgetReferences(_ slot: Int) {
    let count = referenceSpans[slot].count
    guard count >= 0 else { return }
    referenceLive &-= Int(count)
    referenceSpans[slot] = .unknown
  }

  /// Adds `symbol`, which just became basic, to the known spans of the rows that name it.
  mutating func referencesGained(_ symbol: Symbol) {
    let index = symbol.index
    for k in 0..<columns.count(index) {
      addReference(symbol, inRowAt: Int(columns.entry(index, k)))
    }
  }

  /// Removes `symbol`, which just became parametric, from the known spans of the rows that
  /// name it.
  mutating func referencesLost(_ symbol: Symbol) {
    let index = symbol.index
    for k in 0..<columns.count(index) {
      removeReference(symbol, inRowAt: Int(columns.entry(index, k)))
    }
  }

  /// Where `symbol` is, or would go, in a span (kept in row order, which is symbol order).
  @inline(__always)
  private func position(of symbol: Symbol, in span: ReferenceSpan) -> (found: Bool, at: Int) {
    var low = Int(span.start)
    var high = low &+ Int(span.count)
    while low < high {
      let mid = (low &+ high) >> 1
      let s = referenceSymbols[mid]
      if s == symbol { return (true, mid) }
      if s < symbol { low = mid &+ 1 } else { high = mid }
    }
    return (false, low)
  }

  /// Inserts the cell of `symbol` into the known span of the row in `slot`, when the row
  /// names it and the span lacks it (a column may list a slot twice, or a stale one). The
  /// span moves to the end of the arena, one entry longer.
  private mutating func addReference(_ symbol: Symbol, inRowAt slot: Int) {
    let span = referenceSpans[slot]
    guard span.count >= 0, rowBasic[slot].isValid else { return }
    let (named, cell) = rows[slot].search(symbol)
    guard named else { return }
    let (present, at) = position(of: symbol, in: span)
    guard !present else { return }
    let start = Int(span.start)
    let end = start &+ Int(span.count)
    let newStart = referenceSymbols.count
    // No `reserveCapacity` here: it grows a buffer to exactly the size asked, so every
    // span moved past the end would reallocate the arena (36 mallocs per chain tick).
    for k in start..<at {
      referenceSymbols.append(referenceSymbols[k])
      referenceCoefficients.append(referenceCoefficients[k])
    }
    referenceSymbols.append(symbol)
    referenceCoefficients.append(rows[slot].coefficients[cell])
    for k in at..<end {
      referenceSymbols.append(referenceSymbols[k])
      referenceCoefficients.append(referenceCoefficients[k])
    }
    referenceSpans[slot] = ReferenceSpan(start: Int32(newStart), count: span.count &+ 1)
    referenceLive &+= 1
  }

  /// Removes the cell of `symbol` from the known span of the row in `slot`, in place.
  private mutating func removeReference(_ symbol: Symbol, inRowAt slot: Int) {
    let span = referenceSpans[slot]
    guard span.count >= 0 else { return }
    let (present, at) = position(of: symbol, in: span)
    guard present else { return }
    let end = Int(span.start) &+ Int(span.count)
    for k in (at &+ 1)..<end {
      referenceSymbols[k &- 1] = referenceSymbols[k]
      referenceCoefficients[k &- 1] = referenceCoefficients[k]
    }
    referenceSpans[slot].count &-= 1
    referenceLive &-= 1
  }

  /// Empties the arena when most of it is dead, forgetting every span.
  /// Keeps room for the arena to fill up to the next compaction, so that it grows in one
  /// step when the system grows, not by doubling from empty inside ticks.
  mutating func compactReferencesIfNeeded() {
    // A canonical tableau never reads the cache (its rows name no basic symbol).
    guard lazy else { return }
    let limit = 2 &* referenceLive &+ 4096
    if referenceSymbols.count > limit {
      for slot in referenceSpans.indices { referenceSpans[slot] = .unknown }
      referenceLive = 0
      referenceSymbols.removeAll(keepingCapacity: true)
      referenceCoefficients.removeAll(keepingCapacity: true)
    }
    if referenceSymbols.capacity < limit {
      referenceSymbols.reserveCapacity(limit &+ limit / 2)
      referenceCoefficients.reserveCapacity(limit &+ limit / 2)
    }
  }

  /// Whether the span of the row in `slot`, if known, holds exactly the row's basic cells,
  /// in row order (debug checks).
  func spanIsExact(_ slot: Int) -> Bool {
    let span = referenceSpans[slot]
    guard span.count >= 0 else { return true }
    let row = rows[slot]
    var k = Int(span.start)
    let end = k + Int(span.count)
    for i in row.symbols.indices where basicSlot[row.symbols[i].index] >= 0 {
      guard k < end, referenceSymbols[k] == row.symbols[i],
        referenceCoefficients[k] == row.coefficients[i]
      else { return false }
      k += 1
    }
    return k == end
  }

  /// Whether every known span holds exactly the basic cells of its row, in row order.
  func referencesAreExact() -> Bool {
    var live = 0
    for slot in rows.indices where rowBasic[slot].isValid {
      guard spanIsExact(slot) else { return false }
      live += Swift.max(0, Int(referenceSpans[slot].count))
    }
    return live == referenceLive
  }
}

extension Tableau.UnsafeHandle {
  /// The value of the row in `slot` over the current values: its constant plus its basic
  /// cells, read from the arena (after caching them there when they are not known).
  @inline(__always)
  func referencedValue(_ slot: Int) -> Double {
    var span = referenceSpans[slot]
    if span.count < 0 { span = cacheReferences(slot) }
    let start = Int(span.start)
    let end = start &+ Int(span.count)
    return referenceSymbols.pointee.withUnsafeBufferPointer { symbols in
      referenceCoefficients.pointee.withUnsafeBufferPointer { coefficients in
        Row.sumCells(
          constant: rows[slot].constant,
          symbols: UnsafeBufferPointer(rebasing: symbols[start..<end]),
          coefficients: UnsafeBufferPointer(rebasing: coefficients[start..<end]),
          over: UnsafeBufferPointer(values))
      }
    }
  }

  /// Appends the basic cells of the row in `slot` to the arena and records their span.
  func cacheReferences(_ slot: Int) -> ReferenceSpan {
    let start = referenceSymbols.pointee.count
    // The row's cells without a retain of its storage: the arena is apart from the rows.
    let row = rows.unretainedHandle(at: slot)
    for i in 0..<row.count where basicSlot[row.symbols[i].index] >= 0 {
      referenceSymbols.pointee.append(row.symbols[i])
      referenceCoefficients.pointee.append(row.coefficients[i])
    }
    let count = referenceSymbols.pointee.count &- start
    let span = ReferenceSpan(start: Int32(start), count: Int32(count))
    referenceSpans[slot] = span
    referenceLive.pointee &+= count
    return span
  }
}
