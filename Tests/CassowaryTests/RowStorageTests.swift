@testable import Cassowary
import BenchSupport
import Testing

/// A row's cells live in one shared, copy-on-write allocation (`RowStorage`): the row must
/// behave as a value (a copy never sees another's change), stay sorted and exact through
/// long runs of insertions and removals, and keep or drop its room as documented.
@Suite struct RowStorageTests {
  /// The cells as (symbol, coefficient) pairs, for comparisons.
  static func cells(_ row: Row) -> [(UInt32, Double)] {
    zip(row.symbols, row.coefficients).map { ($0.raw, $1) }
  }

  static func same(_ a: [(UInt32, Double)], _ b: [(UInt32, Double)]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
  }

  @Test func aChangedCopyLeavesTheOriginalAsItWas() {
    var scratch = MergeScratch()
    var original = Row(constant: 2)
    for i in 0..<40 { original.insert(Symbol(.slack, index: 2 * i + 1), Double(i) + 0.5) }
    let before = Self.cells(original)
    var other = Row(constant: 1)
    other.insert(Symbol(.error, index: 4), 3)

    // Each change on a fresh copy: every mutating path makes the storage its own first.
    let changes: [(inout Row) -> Void] = [
      { $0.insert(Symbol(.slack, index: 0), 9) },
      { $0.insert(Symbol(.slack, index: 81), 9) },
      { $0.insert(Symbol(.slack, index: 41), 1) },
      { $0.remove(Symbol(.slack, index: 41)) },
      { $0.scaleCoefficients(by: 3) },
      { $0.reverseSign() },
      { _ = $0.solve(for: Symbol(.slack, index: 41), replacing: Symbol(.dummy, index: 200)) },
      { $0.add(other, times: 2, scratch: &scratch) },
      { $0.appendCell(Symbol(.slack, index: 500), 1) },
      { row in
        row.withUnsafeMutableCells { _, coefficients in coefficients[0] = -7 }
      },
      { $0.solve(for: Symbol(.slack, index: 41)) },
      { row in
        // Cells that a division by 1e12 takes under the zero threshold.
        row.scaleCoefficients(by: 1e-12)
        _ = row.removeZeroCells()
      },
      { row in
        let symbols = [Symbol(.error, index: 1), Symbol(.error, index: 2)]
        let coefficients = [4.0, 5.0]
        symbols.withUnsafeBufferPointer { s in
          coefficients.withUnsafeBufferPointer { c in
            row.replaceCells(symbols: s.baseAddress!, coefficients: c.baseAddress!, count: 2)
          }
        }
        // Writing after a replacement reaches the new cells only.
        row.insert(Symbol(.error, index: 3), 6)
      },
      // Room asked below the cells held: the copy keeps them all.
      { row in
        row.reserveCapacity(2)
        row.insert(Symbol(.slack, index: 1), 100)
      },
    ]
    for (k, change) in changes.enumerated() {
      var copy = original
      change(&copy)
      #expect(!Self.same(Self.cells(copy), before), "change \(k) did nothing")
      #expect(Self.same(Self.cells(original), before), "change \(k) reached the original")
      #expect(original.constant == 2)
    }
  }

  /// A merge reads both rows' cells without retaining their storage (`Row.add`): a row
  /// merged with a copy of itself (one storage, shared) must read the cells as they were
  /// and leave the copy as it is.
  @Test func aRowMergedWithACopyOfItselfReadsTheCellsAsTheyWere() {
    var scratch = MergeScratch()
    var row = Row(constant: 3)
    for i in 0..<40 { row.insert(Symbol(.slack, index: 2 * i + 1), Double(i) + 0.5) }
    let before = Self.cells(row)

    var doubled = row
    doubled.add(row, times: 1, scratch: &scratch)
    #expect(doubled.constant == 6)
    #expect(Self.same(Self.cells(doubled), before.map { ($0.0, 2 * $0.1) }))
    #expect(Self.same(Self.cells(row), before))

    var cancelled = row
    cancelled.add(row, times: -1, scratch: &scratch)
    #expect(cancelled.constant == 0)
    #expect(cancelled.isConstant)
    #expect(Self.same(Self.cells(row), before))

    // The only holder of its storage, merged with a copy made just before: the copy keeps
    // the old cells.
    var only = Row(constant: 1)
    for i in 0..<10 { only.insert(Symbol(.error, index: i), 1) }
    let copy = only
    only.add(copy, times: 2, scratch: &scratch)
    #expect(Self.same(Self.cells(only), Self.cells(copy).map { ($0.0, 3 * $0.1) }))
    #expect(copy.count == 10 && copy.coefficients.allSatisfy { $0 == 1 })
  }

  @Test func aViewKeepsTheCellsItWasTakenFrom() {
    var row = Row()
    for i in 0..<5 { row.insert(Symbol(.slack, index: i), Double(i + 1)) }
    let symbols = row.symbols
    let coefficients = row.coefficients
    row.insert(Symbol(.slack, index: 2), 10)
    row.remove(Symbol(.slack, index: 0))
    row.scaleCoefficients(by: 2)
    #expect(Array(symbols) == (0..<5).map { Symbol(.slack, index: $0) })
    #expect(Array(coefficients) == [1, 2, 3, 4, 5])
    #expect(Array(row.coefficients) == [4, 26, 8, 10])
  }

  /// Every storage holds its cells within its allocation: c coefficients and c symbols
  /// take c + ⌈c/2⌉ of its doubles.
  @Test func storageRoomFitsItsAllocation() {
    for minimum in 1...300 {
      let storage = RowStorage.make(minimumCapacity: minimum)
      let cells = storage.cellCapacity
      #expect(cells >= minimum)
      #expect(cells + (cells + 1) / 2 <= storage.capacity, "minimum \(minimum)")
    }
  }

  @Test func longRunsOfChangesMatchAReference() {
    var rng = SplitMix64(seed: 20_261_128)
    var row = Row()
    var reference: [UInt32: Double] = [:]
    var keptCopy = row
    var keptCells = Self.cells(row)
    for step in 0..<20_000 {
      // Now and then a copy shares the storage: the next change must leave it alone.
      if step % 97 == 0 {
        #expect(Self.same(Self.cells(keptCopy), keptCells), "step \(step)")
        keptCopy = row
        keptCells = Self.cells(row)
      }
      let symbol = Symbol(.slack, index: rng.int(0...600))
      if rng.chanceOf(0.3) {
        #expect(row.remove(symbol) == (reference.removeValue(forKey: symbol.raw) ?? 0))
      } else {
        // Exact binary fractions: sums are exact, and a zero sum removes the cell.
        let c = Double(rng.int(-8...8)) / 4
        row.insert(symbol, c)
        let sum = (reference[symbol.raw] ?? 0) + c
        reference[symbol.raw] = sum == 0 ? nil : sum
      }
      if step % 500 == 0 || step == 19_999 {
        let expected = reference.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        #expect(Self.same(Self.cells(row), expected), "step \(step)")
        #expect(row.count == reference.count)
        #expect(row.capacity >= row.count)
      }
    }
  }

  @Test func roomIsKeptByTheOwnerAndDroppedByASharer() {
    var row = Row()
    row.reserveCapacity(100)
    #expect(row.capacity >= 100)
    for i in 0..<100 { row.appendCell(Symbol(.slack, index: i), 1) }
    let room = row.capacity
    row.removeAllCells()
    #expect(row.count == 0 && row.capacity == room)

    for i in 0..<10 { row.appendCell(Symbol(.slack, index: i), 1) }
    let copy = row
    row.removeAllCells()
    #expect(row.capacity == 0, "a shared storage is left to its other owner")
    #expect(copy.count == 10 && copy.capacity == room)

    // A shared row asked for less room than its cells gets a storage that holds them all.
    var shared = copy
    shared.reserveCapacity(2)
    #expect(shared.capacity >= 10)
    #expect(Self.same(Self.cells(shared), Self.cells(copy)))
  }
}
