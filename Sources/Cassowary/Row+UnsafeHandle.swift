// A row's cells through a scoped handle, and the loops written against it: evaluation and
// the merge at the heart of every substitution, which writes to raw scratch memory (the one
// place the solver allocates memory by hand).

/// Raw output space for merges, grown as needed and reused: writing merged cells through
/// pointers costs no uniqueness check or capacity test per cell, which appending to an
/// array does. Shared by copies of a tableau, which is harmless: it holds nothing between
/// two merges.
final class MergeBuffer {
  private(set) var symbols: UnsafeMutablePointer<Symbol>
  private(set) var coefficients: UnsafeMutablePointer<Double>
  /// The symbols a merge added to its destination row, and those it removed: a merge of
  /// rows of `a` and `b` cells adds at most `b` and removes at most `a`, so `capacity`
  /// entries each are always enough.
  private(set) var added: UnsafeMutablePointer<Symbol>
  private(set) var removed: UnsafeMutablePointer<Symbol>
  private(set) var capacity: Int

  init() {
    capacity = 64
    symbols = .allocate(capacity: capacity)
    coefficients = .allocate(capacity: capacity)
    added = .allocate(capacity: capacity)
    removed = .allocate(capacity: capacity)
  }

  deinit {
    symbols.deallocate()
    coefficients.deallocate()
    added.deallocate()
    removed.deallocate()
  }

  /// Makes room for `count` cells (the contents are not kept).
  @inline(__always) func reserve(_ count: Int) {
    if count > capacity { grow(count) }
  }

  private func grow(_ count: Int) {
    symbols.deallocate()
    coefficients.deallocate()
    added.deallocate()
    removed.deallocate()
    capacity = Swift.max(count, capacity &* 2)
    symbols = .allocate(capacity: capacity)
    coefficients = .allocate(capacity: capacity)
    added = .allocate(capacity: capacity)
    removed = .allocate(capacity: capacity)
  }
}

/// Reusable merge output and the lists of symbols the last merge added to or removed from
/// the destination row, so that the tableau can keep its column index exact.
///
/// The lists are raw buffers with counts, not arrays: an append to an array checked its
/// uniqueness and capacity, and emptying one went through the general range replacement,
/// about a third of what a merge of two small rows cost beside the merge itself (a
/// canonical tableau merges a few hundred times per hundred constraints).
struct MergeScratch {
  let buffer = MergeBuffer()
  private(set) var addedCount = 0
  private(set) var removedCount = 0

  /// The symbols the last merge (`Row.add`) added to its destination row.
  var added: UnsafeBufferPointer<Symbol> {
    UnsafeBufferPointer(start: buffer.added, count: addedCount)
  }

  /// The symbols the last merge removed from its destination row.
  var removed: UnsafeBufferPointer<Symbol> {
    UnsafeBufferPointer(start: buffer.removed, count: removedCount)
  }

  /// Empties both lists.
  @inline(__always) mutating func clearLists() {
    addedCount = 0
    removedCount = 0
  }
}

// MARK: - Handle

extension Row {
  /// A row's cells as raw buffers, valid only inside `withUnsafeHandle(_:)`: loops over the
  /// cells then index memory directly, with no bounds check and no retain of the row's
  /// storage per access. Debug builds still check every index (the buffers' own checks).
  struct UnsafeHandle {
    let symbols: UnsafeBufferPointer<Symbol>
    let coefficients: UnsafeBufferPointer<Double>

    @inline(__always) var count: Int { symbols.count }

    /// No cells.
    @inline(__always) static var empty: UnsafeHandle {
      UnsafeHandle(symbols: .init(start: nil, count: 0), coefficients: .init(start: nil, count: 0))
    }

    /// The first `count` cells of `storage`, which is not retained: the caller keeps it alive
    /// for as long as it uses the handle.
    @inline(__always) init(unretained storage: RowStorage, count: Int) {
      let cells = Unmanaged.passUnretained(storage)._withUnsafeGuaranteedRef {
        ($0.symbols, $0.coefficients)
      }
      symbols = UnsafeBufferPointer(start: cells.0, count: count)
      coefficients = UnsafeBufferPointer(start: cells.1, count: count)
    }

    @inline(__always) init(
      symbols: UnsafeBufferPointer<Symbol>, coefficients: UnsafeBufferPointer<Double>
    ) {
      self.symbols = symbols
      self.coefficients = coefficients
    }
  }

  /// Calls `body` with a read-only handle on the row's cells.
  @inline(__always)
  func withUnsafeHandle<R>(_ body: (UnsafeHandle) -> R) -> R {
    guard let storage else { return body(.empty) }
    return withExtendedLifetime(storage) { body(UnsafeHandle(unretained: storage, count: count)) }
  }

  /// The cells as a handle, taken without retaining the storage (`withUnsafeHandle(_:)`
  /// retains it for its closure): valid only while this row is neither changed nor
  /// released, so only for a row that the caller holds and leaves alone while it reads.
  @inline(__always) var unretainedHandle: UnsafeHandle {
    count > 0 ? UnsafeHandle(unretained: storage.unsafelyUnwrapped, count: count) : .empty
  }
}

extension UnsafeBufferPointer where Element == Row {
  /// The cells of the row at `i` as a handle, taken without retaining the row's storage:
  /// valid only while the rows in this buffer are not changed. (`withUnsafeHandle` on a row
  /// read out of the buffer copied it, a retain and a release of its storage: per row an
  /// expansion spreads.)
  @inline(__always) func unretainedHandle(at i: Int) -> Row.UnsafeHandle {
    assert(i >= 0 && i < count, "row slot out of range")
    let row = baseAddress.unsafelyUnwrapped + i
    let count = row.pointee.count
    guard count > 0 else { return .empty }
    return Row.UnsafeHandle(unretained: row.pointee.storage.unsafelyUnwrapped, count: count)
  }
}

// MARK: - Loops over cells

extension Row {
  /// Multiplies every cell by `k` and reports what that did (`Scaling`). Only a `k` under 1
  /// in magnitude can take a cell under the zero threshold, and only a `k` over 1 can
  /// enlarge cells, so each loop keeps one running extreme, free of branches; a `k` of ±1
  /// (most pivots of a layout, and the dense rows of a stack) keeps none.
  @discardableResult
  mutating func scaleCoefficients(by k: Double) -> Scaling {
    withUnsafeMutableCells { _, c in
      if abs(k) == 1 {
        for i in c.indices { c[i] *= k }
        return Scaling(vanished: false, largest: 0)
      }
      guard abs(k) < 1 else {
        var largest = 0.0
        for i in c.indices {
          let x = c[i] * k
          c[i] = x
          largest = max(largest, abs(x))
        }
        return Scaling(vanished: false, largest: largest)
      }
      var smallest = Double.infinity
      for i in c.indices {
        let x = c[i] * k
        c[i] = x
        smallest = min(smallest, abs(x))
      }
      return Scaling(vanished: isResidue(smallest, scale: 0), largest: 0)
    }
  }

  /// Removes the cells under the zero threshold and returns their symbols (the rare cells a
  /// division by a pivot element over 1 took under 1e-10).
  mutating func removeZeroCells() -> [Symbol] {
    var removed: [Symbol] = []
    let kept = withUnsafeMutableCells { symbols, coefficients in
      var kept = 0
      for i in symbols.indices {
        if isResidue(coefficients[i], scale: 0) {
          removed.append(symbols[i])
        } else {
          symbols[kept] = symbols[i]
          coefficients[kept] = coefficients[i]
          kept &+= 1
        }
      }
      return kept
    }
    truncate(to: kept)
    return removed
  }

  /// `constant + Σ coefficient·value` over the given cells.
  ///
  /// Many cells (a dense expanded row has one per box of a stack) are summed in four
  /// interleaved partial sums, so that the additions do not wait on each other: one running
  /// sum costs an addition's latency per cell. The order is fixed by the cells alone, so the
  /// same cells over the same values give the same result to the last bit.
  /// `Tableau.evaluate(_:)` repeats this order over a row's basic cells.
  @inline(__always)
  static func sumCells(
    constant: Double, symbols: UnsafeBufferPointer<Symbol>,
    coefficients: UnsafeBufferPointer<Double>, over values: UnsafeBufferPointer<Double>
  ) -> Double {
    let n = symbols.count
    if n < 16 {
      var v = constant
      for i in 0..<n {
        v += coefficients[i] * values[symbols[i].index]
      }
      return v
    }
    var s0 = 0.0
    var s1 = 0.0
    var s2 = 0.0
    var s3 = 0.0
    var i = 0
    while i &+ 4 <= n {
      s0 += coefficients[i] * values[symbols[i].index]
      s1 += coefficients[i &+ 1] * values[symbols[i &+ 1].index]
      s2 += coefficients[i &+ 2] * values[symbols[i &+ 2].index]
      s3 += coefficients[i &+ 3] * values[symbols[i &+ 3].index]
      i &+= 4
    }
    while i < n {
      s0 += coefficients[i] * values[symbols[i].index]
      i &+= 1
    }
    return constant + ((s0 + s1) + (s2 + s3))
  }

  /// `self += k · other`, as a linear merge of the two sorted rows, leaving out the cell of
  /// `dropped` (the symbol `other` defines, in a substitution). Cells whose sum is zero
  /// (`isResidue`) are dropped. The symbols that appear or disappear become the lists
  /// `scratch.added` / `scratch.removed` (empty when no merge was needed); `dropped` is
  /// not reported.
  mutating func add(
    _ other: Row, times k: Double, dropping dropped: Symbol = .invalid,
    scratch: inout MergeScratch
  ) {
    scratch.clearLists()
    constant += k * other.constant
    if other.isConstant && !dropped.isValid { return }
    // Nothing here retains: both rows' cells are read unretained (the merge writes only to
    // the scratch buffer, and this row changes after it, in `replaceCells`), and the buffer
    // is lent by the scratch, which holds it. (Three retains and releases a merge, and a
    // substitution merges into every row that names its symbol.)
    Unmanaged.passUnretained(scratch.buffer)._withUnsafeGuaranteedRef { buffer in
      buffer.reserve(count &+ other.count)
      let n = scratch.merge(
        unretainedHandle, other.unretainedHandle, into: buffer, times: k, dropping: dropped)
      // Back into the row's own storage (kept when it is unique and large enough; else at
      // least twice the room, as an array grows).
      replaceCells(symbols: buffer.symbols, coefficients: buffer.coefficients, count: n)
    }
  }
}

extension MergeScratch {
  /// Writes the cells of `a + k · b`, without `dropped`, to the start of `buffer` (this
  /// scratch's, which must have room for both rows' cells) and returns how many there are.
  /// Symbols of `b` that `a` lacks become the `added` list when kept, symbols of `a` whose
  /// sum is zero the `removed` list.
  @inline(__always)
  mutating func merge(
    _ a: Row.UnsafeHandle, _ b: Row.UnsafeHandle, into buffer: MergeBuffer, times k: Double,
    dropping dropped: Symbol
  ) -> Int {
    let outS = buffer.symbols
    let outC = buffer.coefficients
    let added = buffer.added
    let removed = buffer.removed
    var addedCount = 0
    var removedCount = 0
    defer {
      self.addedCount = addedCount
      self.removedCount = removedCount
    }
    var n = 0
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if j == b.count || (i < a.count && a.symbols[i] < b.symbols[j]) {
        // Only in `a`: kept as it is.
        if a.symbols[i] != dropped {
          outS[n] = a.symbols[i]
          outC[n] = a.coefficients[i]
          n &+= 1
        }
        i &+= 1
      } else if i == a.count || b.symbols[j] < a.symbols[i] {
        // Only in `b`: a new cell, unless the scaled coefficient is a residue.
        let v = k * b.coefficients[j]
        if !isResidue(v, scale: 0) {
          outS[n] = b.symbols[j]
          outC[n] = v
          n &+= 1
          added[addedCount] = b.symbols[j]
          addedCount &+= 1
        }
        j &+= 1
      } else {
        // In both: the sum, or nothing when it cancels.
        let v = a.coefficients[i] + k * b.coefficients[j]
        if isResidue(v, scale: abs(a.coefficients[i])) {
          removed[removedCount] = a.symbols[i]
          removedCount &+= 1
        } else {
          outS[n] = a.symbols[i]
          outC[n] = v
          n &+= 1
        }
        i &+= 1
        j &+= 1
      }
    }
    return n
  }
}
