/// What dividing a row's cells by a pivot element did to them.
struct Scaling {
  /// Some cell came out under the zero threshold (only a factor under 1 in magnitude can
  /// take one there).
  var vanished: Bool
  /// The largest cell magnitude the division made when the factor was over 1 in magnitude,
  /// else 0: how far it enlarged the row (see `Tolerance.enlargedRow`).
  var largest: Double
}

/// The space of a row's cells: how many it holds.
struct RowStorageHeader {
  var capacity: Int
}

/// A row's cells in one allocation: `capacity` coefficients, then `capacity` symbols. (Two
/// arrays were two allocations, two headers and two reference counts per row: a feed's cold
/// build makes a row for each of its 50,000 constraints per 1,000 cells.)
final class RowStorage: ManagedBuffer<RowStorageHeader, Double> {
  /// Storage with room for at least `minimumCapacity` cells (more when the allocation has
  /// room to spare). `minimumCapacity` must be positive.
  static func make(minimumCapacity: Int) -> RowStorage {
    let buffer = RowStorage.create(minimumCapacity: minimumCapacity + (minimumCapacity + 1) / 2) {
      _ in RowStorageHeader(capacity: 0)
    }
    let storage = unsafeDowncast(buffer, to: RowStorage.self)
    // The cells that fit: c coefficients and c symbols take c + ⌈c/2⌉ doubles.
    let capacity = storage.capacity * 2 / 3
    storage.withUnsafeMutablePointerToHeader { $0.pointee.capacity = capacity }
    storage.withUnsafeMutablePointerToElements { elements in
      _ = UnsafeMutableRawPointer(elements + capacity).bindMemory(
        to: Symbol.self, capacity: capacity)
    }
    return storage
  }

  /// How many cells the storage holds. (Through the header's pointer: the `header`
  /// property of a buffer is checked for exclusive access at run time, which made the
  /// solver's cold builds 15% dearer in instructions.)
  @inline(__always) var cellCapacity: Int {
    withUnsafeMutablePointerToHeader { $0.pointee.capacity }
  }

  @inline(__always) var coefficients: UnsafeMutablePointer<Double> {
    withUnsafeMutablePointerToElements { $0 }
  }

  @inline(__always) var symbols: UnsafeMutablePointer<Symbol> {
    withUnsafeMutablePointers { header, elements in
      UnsafeMutableRawPointer(elements + header.pointee.capacity).assumingMemoryBound(
        to: Symbol.self)
    }
  }
}

/// A read-only view of a row's symbols or coefficients, which keeps the row's storage
/// alive while it is used (written through `Row`'s mutating methods only).
struct RowCells<Element>: RandomAccessCollection {
  let owner: RowStorage?
  let base: UnsafeMutablePointer<Element>?
  let count: Int

  @inline(__always) var startIndex: Int { 0 }
  @inline(__always) var endIndex: Int { count }

  @inline(__always) subscript(i: Int) -> Element {
    precondition(i >= 0 && i < count, "row cell index out of range")
    return base.unsafelyUnwrapped[i]
  }

  /// Calls `body` with the cells as a raw buffer.
  @inline(__always)
  func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows
    -> R
  {
    try withExtendedLifetime(owner) {
      try body(UnsafeBufferPointer(start: base, count: count))
    }
  }
}

extension RowCells: Equatable where Element: Equatable {
  static func == (lhs: RowCells, rhs: RowCells) -> Bool { lhs.elementsEqual(rhs) }
}

/// One tableau row: `basic = constant + Σ coefficient·symbol`, or, before it is solved for a
/// basic symbol, the expression `constant + Σ coefficient·symbol` that must equal zero.
///
/// Cells are sorted by symbol, so lookups are binary searches and adding one row to another
/// is a linear merge (see `Row+UnsafeHandle.swift`). No dictionaries and no class references
/// but its storage: a row is one buffer (`RowStorage`, none while it has no cells and no
/// room), its count and a number. Copies share the buffer until one of them changes.
struct Row {
  private(set) var storage: RowStorage?
  /// The number of cells.
  private(set) var count = 0
  var constant: Double

  init(constant: Double = 0) { self.constant = constant }

  var isConstant: Bool { count == 0 }
  /// How many cells the row holds without a new allocation.
  var capacity: Int { storage?.cellCapacity ?? 0 }

  var symbols: RowCells<Symbol> {
    RowCells(owner: storage, base: storage?.symbols, count: count)
  }

  var coefficients: RowCells<Double> {
    RowCells(owner: storage, base: storage?.coefficients, count: count)
  }

  /// Makes the storage this row's own with room for `minimumCapacity` cells, keeping the
  /// cells (a copy when it is shared or short; growing, at least twice the room).
  @inline(__always)
  mutating func makeUnique(minimumCapacity: Int) {
    if storage != nil && isKnownUniquelyReferenced(&storage) && capacity >= minimumCapacity {
      return
    }
    reallocate(minimumCapacity: minimumCapacity)
  }

  private mutating func reallocate(minimumCapacity: Int) {
    let grown = Swift.max(
      minimumCapacity, capacity > 0 && minimumCapacity > capacity ? 2 * capacity : 0)
    // Never less room than the cells it keeps (a shared row asked for less than it holds).
    let fresh = RowStorage.make(minimumCapacity: Swift.max(grown, count, 1))
    if let old = storage, count > 0 {
      fresh.symbols.initialize(from: old.symbols, count: count)
      fresh.coefficients.initialize(from: old.coefficients, count: count)
    }
    storage = fresh
  }

  /// Makes room for `n` cells.
  mutating func reserveCapacity(_ n: Int) {
    guard n > 0 else { return }
    makeUnique(minimumCapacity: n)
  }

  /// Calls `body` with the storage, which must be this row's own (after `makeUnique`),
  /// unretained: nothing in the writers that use it releases it. (Bound to a local, it was
  /// retained and released per call.)
  @inline(__always) private func withOwnStorage<R>(_ body: (RowStorage) -> R) -> R {
    Unmanaged.passUnretained(storage.unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
  }

  /// Appends a cell after the last (tests and row building; the caller keeps the order).
  mutating func appendCell(_ symbol: Symbol, _ coefficient: Double) {
    makeUnique(minimumCapacity: count &+ 1)
    // The storage is this row's own: used unretained, as in `replaceCells`.
    let at = count
    withOwnStorage { storage in
      storage.symbols[at] = symbol
      storage.coefficients[at] = coefficient
    }
    count &+= 1
  }

  /// Inserts a cell at position `i`, moving the later ones up.
  private mutating func insertCell(_ symbol: Symbol, _ coefficient: Double, at i: Int) {
    makeUnique(minimumCapacity: count &+ 1)
    // The storage is this row's own: used unretained, as in `replaceCells`.
    let moved = count &- i
    withOwnStorage { storage in
      if moved > 0 {
        (storage.symbols + i + 1).update(from: storage.symbols + i, count: moved)
        (storage.coefficients + i + 1).update(from: storage.coefficients + i, count: moved)
      }
      storage.symbols[i] = symbol
      storage.coefficients[i] = coefficient
    }
    count &+= 1
  }

  /// Removes the cell at position `i`, returning its coefficient.
  @discardableResult
  private mutating func removeCell(at i: Int) -> Double {
    makeUnique(minimumCapacity: count)
    let moved = count &- i &- 1
    let coefficient = withOwnStorage { storage in
      let coefficient = storage.coefficients[i]
      if moved > 0 {
        (storage.symbols + i).update(from: storage.symbols + i + 1, count: moved)
        (storage.coefficients + i).update(from: storage.coefficients + i + 1, count: moved)
      }
      return coefficient
    }
    count &-= 1
    return coefficient
  }

  /// Keeps the first `n` cells.
  mutating func truncate(to n: Int) {
    precondition(n >= 0 && n <= count, "row truncated past its cells")
    count = n
  }

  /// Drops every cell, keeping the room when the storage is this row's own.
  mutating func removeAllCells() {
    if storage != nil && !isKnownUniquelyReferenced(&storage) { storage = nil }
    count = 0
  }

  /// Replaces the cells with `n` cells read from raw buffers (which must not be this row's).
  mutating func replaceCells(
    symbols: UnsafePointer<Symbol>, coefficients: UnsafePointer<Double>, count n: Int
  ) {
    assert(
      storage.map { UnsafePointer($0.symbols) != symbols } ?? true,
      "cells replaced from the row's own storage")
    count = 0
    guard n > 0 else { return }
    makeUnique(minimumCapacity: n)
    // The storage is this row's own now, and nothing releases it here: used unretained.
    withOwnStorage { storage in
      storage.symbols.update(from: symbols, count: n)
      storage.coefficients.update(from: coefficients, count: n)
    }
    count = n
  }

  /// Calls `body` with the cells as raw mutable buffers (the storage made this row's own
  /// first); `body` may rewrite cells but not change their number.
  @inline(__always)
  mutating func withUnsafeMutableCells<R>(
    _ body: (UnsafeMutableBufferPointer<Symbol>, UnsafeMutableBufferPointer<Double>) -> R
  ) -> R {
    guard count > 0 else { return body(.init(start: nil, count: 0), .init(start: nil, count: 0)) }
    makeUnique(minimumCapacity: count)
    // The storage is this row's own, and `body` cannot reach the row: used unretained.
    let n = count
    return withOwnStorage {
      storage in
      body(
        UnsafeMutableBufferPointer(start: storage.symbols, count: n),
        UnsafeMutableBufferPointer(start: storage.coefficients, count: n))
    }
  }

  /// Position of `symbol`, or the position where it would be inserted.
  @inline(__always)
  func search(_ symbol: Symbol) -> (found: Bool, index: Int) {
    guard let storage else { return (false, 0) }
    let symbols = storage.symbols
    var low = 0
    var high = count
    while low < high {
      let mid = (low &+ high) >> 1
      let s = symbols[mid]
      if s == symbol { return (true, mid) }
      if s < symbol { low = mid &+ 1 } else { high = mid }
    }
    return (false, low)
  }

  func coefficient(for symbol: Symbol) -> Double {
    let (found, i) = search(symbol)
    return found ? storage.unsafelyUnwrapped.coefficients[i] : 0
  }

  func contains(_ symbol: Symbol) -> Bool { search(symbol).found }

  /// What a single-cell update did to the row's set of symbols.
  enum CellChange { case added, removed, updated, unchanged }

  /// Adds `coefficient·symbol`, dropping the cell when the sum is zero (`isResidue`).
  @discardableResult
  mutating func insert(_ symbol: Symbol, _ coefficient: Double) -> CellChange {
    // New rows are mostly built in increasing symbol order (variables, then the
    // constraint's fresh markers): appending needs no search and no shifting.
    if count == 0 || storage.unsafelyUnwrapped.symbols[count &- 1] < symbol {
      if isResidue(coefficient, scale: 0) { return .unchanged }
      appendCell(symbol, coefficient)
      return .added
    }
    let (found, i) = search(symbol)
    if found {
      let sum = storage.unsafelyUnwrapped.coefficients[i] + coefficient
      if isResidue(sum, scale: abs(coefficient)) {
        removeCell(at: i)
        return .removed
      }
      makeUnique(minimumCapacity: count)
      storage.unsafelyUnwrapped.coefficients[i] = sum
      return .updated
    }
    if isResidue(coefficient, scale: 0) { return .unchanged }
    insertCell(symbol, coefficient, at: i)
    return .added
  }

  /// Removes the cell for `symbol`, returning its coefficient (0 when absent).
  @discardableResult
  mutating func remove(_ symbol: Symbol) -> Double {
    let (found, i) = search(symbol)
    guard found else { return 0 }
    return removeCell(at: i)
  }

  mutating func reverseSign() {
    constant = -constant
    scaleCoefficients(by: -1)
  }

  /// Turns `0 = constant + a·symbol + rest` into `symbol = -constant/a - rest/a`.
  ///
  /// Cells that the division takes under the zero threshold are dropped, as a sum drops
  /// them (`isResidue`). Returns what the division did to the cells.
  @discardableResult
  mutating func solve(for symbol: Symbol) -> Scaling {
    let a = remove(symbol)
    let k = -1.0 / a
    constant *= k
    let scaling = scaleCoefficients(by: k)
    if scaling.vanished { _ = removeZeroCells() }
    return scaling
  }

  /// Turns `lhs = constant + b·rhs + rest` into `rhs = (lhs - constant - rest) / b`.
  ///
  /// The cell of `rhs` goes before the cell of `lhs` comes, so the row never holds more
  /// cells than it did: a pivot then never grows (reallocates) the row's buffers.
  ///
  /// One pass: the cells between the two positions shift by one, the rest stay (a dense row
  /// in a stack has a cell per box, and a removal then an insertion each moved half of them).
  ///
  /// Returns what the division did: when it took some cell under the zero threshold, the
  /// caller, which keeps the column counts, removes it (`removeZeroCells`).
  mutating func solve(for rhs: Symbol, replacing lhs: Symbol) -> Scaling {
    let (found, i) = search(rhs)
    let (named, j) = search(lhs)
    assert(!named, "the symbol replacing the solved one is already in its row")
    guard found else {
      // Absent: a zero coefficient, which the caller refuses before solving.
      let b = remove(rhs)
      insert(lhs, -1)
      let k = -1.0 / b
      constant *= k
      return scaleCoefficients(by: k)
    }
    let b = storage.unsafelyUnwrapped.coefficients[i]
    withUnsafeMutableCells { symbols, coefficients in
      do {
        if j > i {
          // `lhs` goes after `rhs`: the cells in between move down one place.
          var p = i
          while p &+ 1 < j {
            symbols[p] = symbols[p &+ 1]
            coefficients[p] = coefficients[p &+ 1]
            p &+= 1
          }
          symbols[j &- 1] = lhs
          coefficients[j &- 1] = -1
        } else {
          // `lhs` goes before `rhs`: the cells in between move up one place.
          var p = i
          while p > j {
            symbols[p] = symbols[p &- 1]
            coefficients[p] = coefficients[p &- 1]
            p &-= 1
          }
          symbols[j] = lhs
          coefficients[j] = -1
        }
      }
    }
    let k = -1.0 / b
    constant *= k
    return scaleCoefficients(by: k)
  }
}
