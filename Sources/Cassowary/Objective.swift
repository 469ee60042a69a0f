/// The objective row, stored densely by symbol index with a min-heap of the symbols whose
/// coefficient is negative.
///
/// Every non-required constraint adds error terms to the objective, so in a tree of N views
/// it holds O(N) cells; kept as a sorted row, each addition would merge all of them and each
/// optimisation would scan them for an entering symbol, O(N²) over a build. Here an update
/// costs O(cells of the row added) and the entering symbol comes from the heap: the most
/// negative of its few entries, or the lowest (`enteringSymbol(lowest:)`).
struct Objective {
  /// Coefficient per symbol index; 0 for symbols not in the objective.
  var coefficients: [Double] = []
  /// The full symbol (kind and index) last stored at each index, to validate heap entries.
  var symbolAt: [Symbol] = []
  /// Candidate symbols with a negative coefficient, lowest first; entries are validated
  /// when they reach the top.
  var negatives: [Symbol] = []
  var constant: Double = 0
  /// Number of non-zero coefficients.
  var count = 0

  @inline(__always)
  func coefficient(for symbol: Symbol) -> Double {
    symbol.index < coefficients.count ? coefficients[symbol.index] : 0
  }

  /// Makes room for symbol indices below `count` and half as many again: reserved exactly,
  /// since appending past the capacity would double it, and these arrays are as long as
  /// the tableau has symbols (with doubling on top of doubling, a 3,000-cell feed held
  /// 655,000 slots for 327,000 symbols: 240 bytes a view).
  @inline(never)
  mutating func grow(to count: Int) {
    let grown = Swift.max(count, coefficients.count + coefficients.count / 2)
    coefficients.reserveCapacity(grown)
    symbolAt.reserveCapacity(grown)
    coefficients.append(contentsOf: repeatElement(0, count: grown - coefficients.count))
    symbolAt.append(contentsOf: repeatElement(.invalid, count: grown - symbolAt.count))
  }

  /// `self += c · symbol`, dropping the cell when the sum is near zero.
  @inline(__always)
  mutating func add(_ symbol: Symbol, _ c: Double) {
    let i = symbol.index
    if i >= coefficients.count { grow(to: i + 1) }
    let old = coefficients[i]
    var new = old + c
    if nearZero(new) { new = 0 }
    coefficients[i] = new
    symbolAt[i] = symbol
    if old == 0 && new != 0 { count &+= 1 } else if old != 0 && new == 0 { count &-= 1 }
    if new < 0 && old >= 0 && !symbol.isDummy { push(symbol) }
  }

  /// `self += k · row`: the same updates as `add(_:_:)` per cell, over raw buffers (a
  /// dense row in a stack of views has thousands of cells, and each indexed store into the
  /// arrays paid a uniqueness and a bounds check). Symbols that turn negative are appended
  /// to the heap's array during the pass and sifted into place after it, which is what
  /// pushing them one by one does.
  mutating func add(_ row: Row, times k: Double) {
    constant += k * row.constant
    if row.count == 0 { return }
    var highest = 0
    // The row is the caller's and the objective's arrays are apart from it: its cells are
    // read without a retain.
    let r = row.unretainedHandle
    for s in r.symbols where s.index > highest { highest = s.index }
    if highest >= coefficients.count { grow(to: highest + 1) }
    let firstNew = negatives.count
    var heap: [Symbol] = []
    swap(&heap, &negatives)
    var nonZero = count
    coefficients.withUnsafeMutableBufferPointer { coefficients in
      symbolAt.withUnsafeMutableBufferPointer { symbolAt in
        for j in 0..<r.count {
          let symbol = r.symbols[j]
          let i = symbol.index
          let old = coefficients[i]
          var new = old + k * r.coefficients[j]
          if nearZero(new) { new = 0 }
          coefficients[i] = new
          symbolAt[i] = symbol
          if old == 0 && new != 0 { nonZero &+= 1 } else if old != 0 && new == 0 { nonZero &-= 1 }
          if new < 0 && old >= 0 && !symbol.isDummy { heap.append(symbol) }
        }
      }
    }
    count = nonZero
    swap(&heap, &negatives)
    if negatives.count > 4 &* count &+ 64 {
      rebuildHeap()
      return
    }
    for child in firstNew..<negatives.count { siftUp(child) }
  }

  /// Removes the cell of `symbol`, returning its coefficient.
  @discardableResult
  mutating func remove(_ symbol: Symbol) -> Double {
    let c = coefficient(for: symbol)
    if c != 0 {
      coefficients[symbol.index] = 0
      count &-= 1
    }
    return c
  }

  /// Replaces `symbol` by `row`.
  mutating func substitute(_ symbol: Symbol, with row: Row) {
    let c = remove(symbol)
    if c != 0 { add(row, times: c) }
  }

  /// The entering symbol of a primal pivot, or `.invalid` when no non-dummy symbol has a
  /// negative coefficient: the one whose coefficient is most negative (Dantzig's rule; the
  /// lowest symbol among equals), or with `lowest`, or when more than
  /// ``dantzigCandidates`` symbols may be negative, the lowest one (Bland's rule).
  ///
  /// The steepest coefficient takes fewer pivots to the optimum where several errors are
  /// negative at once: kiwi's enaml system, added a constraint at a time, built in 51
  /// pivots against 59 with the lowest symbol (kiwi's rule), and a stack or a row of boxes
  /// in as many. It is chosen by a pass over the heap's entries, so only while they are
  /// few: past that, the heap's top is taken, as a removal that makes thousands of errors
  /// negative at once would otherwise scan them all at every pivot. The steepest
  /// coefficient can cycle on degenerate pivots, so `optimize` asks for the lowest symbol
  /// after a run of them; that is a heuristic, not a proof (Bland's rule needs the lowest
  /// leaving row too, and `leavingSymbol` takes the largest element): the pivot budget
  /// bounds a cycle. Ties are exact: coefficients that differ by round-off are not equal.
  mutating func enteringSymbol(lowest: Bool = false) -> Symbol {
    while let top = negatives.first {
      if symbolAt[top.index] == top && coefficients[top.index] < 0 {
        return lowest || negatives.count > Objective.dantzigCandidates ? top : steepest(top)
      }
      popTop()
    }
    return .invalid
  }

  /// How many heap entries (stale ones included) `enteringSymbol` passes over for the most
  /// negative coefficient.
  static let dantzigCandidates = 64

  /// The valid heap entry with the most negative coefficient, the lowest symbol among
  /// equals; `top` (valid) is the heap's top, the lowest of all.
  private func steepest(_ top: Symbol) -> Symbol {
    var best = top
    var most = coefficients[top.index]
    for s in negatives.dropFirst() {
      let c = coefficients[s.index]
      guard c <= most && symbolAt[s.index] == s else { continue }
      if c < most || s < best {
        best = s
        most = c
      }
    }
    return best
  }

  /// The symbols with a non-zero coefficient (for checks and tests).
  var symbols: [Symbol] {
    coefficients.indices.filter { coefficients[$0] != 0 }.map { symbolAt[$0] }
  }

  // MARK: - Heap

  mutating func push(_ symbol: Symbol) {
    if negatives.count > 4 &* count &+ 64 { rebuildHeap() }
    negatives.append(symbol)
    siftUp(negatives.count - 1)
  }

  /// Moves the entry at `child` up to its place; the entries before it form a heap.
  mutating func siftUp(_ child: Int) {
    var child = child
    while child > 0 {
      let parent = (child - 1) / 2
      guard negatives[child] < negatives[parent] else { break }
      negatives.swapAt(child, parent)
      child = parent
    }
  }

  /// Drops stale entries: the heap then holds exactly the negative cells.
  mutating func rebuildHeap() {
    let live = negatives.filter { symbolAt[$0.index] == $0 && coefficients[$0.index] < 0 }
    negatives = []
    for s in Set(live) { push(s) }
  }

  mutating func popTop() {
    let last = negatives.removeLast()
    guard !negatives.isEmpty else { return }
    negatives[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < negatives.count else { break }
      var smallest = left
      if left + 1 < negatives.count && negatives[left + 1] < negatives[left] { smallest = left + 1 }
      guard negatives[smallest] < negatives[parent] else { break }
      negatives.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
