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
      { $0.solve(for: Symbol(.slack, index: 41), replacing: Symbol(.dummy, index: 200)) },
      { $0.add(other, times: 2, scratch: &scratch) },
      { $0.truncate(to: 3) },
      { $0.removeAllCells() },
      { $0.appendCell(Symbol(.slack, index: 500), 1) },
      { row in
        row.withUnsafeMutableCells { _, coefficients in coefficients[0] = -7 }
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

  @Test func longRunsOfChangesMatchAReference() {
    var rng = SplitMix64(seed: 20_261_128)
    var row = Row()
    var reference: [UInt32: Double] = [:]
    for step in 0..<20_000 {
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
  }
}
