import BenchSupport
@testable import Cassowary
import Testing

/// `Row.solve(for:replacing:)`, a pivot's rewrite of its row, shifts only the cells between
/// the old and the new symbol's positions. It must give exactly the row that removing the
/// one and inserting the other gives, wherever the two symbols sit (first, last, adjacent,
/// far apart) and however long the row is.
@Suite struct RowSolveTests {
  /// The row as a removal, an insertion and a scaling would leave it (the earlier method).
  private func reference(_ row: Row, for rhs: Symbol, replacing lhs: Symbol) -> Row {
    var result = row
    let b = result.remove(rhs)
    result.insert(lhs, -1)
    let k = -1.0 / b
    result.constant *= k
    result.scaleCoefficients(by: k)
    return result
  }

  /// A division by an element over 1 can take a cell under the zero threshold (1e-10), which
  /// no row may keep (the internal checks stopped seed 381 of 60-200 boxes on one): the
  /// pivot's solve reports it for `removeZeroCells`, and `solve(for:)` drops it itself.
  @Test func cellsADivisionTakesUnderTheThresholdAreDropped() {
    let a = Symbol(.slack, index: 1)
    let b = Symbol(.slack, index: 2)
    let lhs = Symbol(.slack, index: 4)
    let c = Symbol(.error, index: 3)
    // 0 = 6 + 4a + 1.5e-10 b + 2c
    var row = Row(constant: 6)
    row.insert(a, 4)
    row.insert(b, 1.5e-10)
    row.insert(c, 2)
    #expect(Array(row.symbols) == [a, b, c])

    var pivoted = row
    let scaling = pivoted.solve(for: a, replacing: lhs)
    #expect(scaling.vanished)
    #expect(scaling.largest == 0)  // a division by 4 enlarges nothing
    let removed = pivoted.removeZeroCells()
    #expect(removed == [b])
    #expect(Array(pivoted.symbols) == [lhs, c])
    #expect(Array(pivoted.coefficients) == [0.25, -0.5])
    #expect(pivoted.constant == -1.5)

    var solved = row
    solved.solve(for: a)
    #expect(Array(solved.symbols) == [c])
    #expect(Array(solved.coefficients) == [-0.5])

    // An element of 1 takes no cell under the threshold.
    var unit = Row(constant: 1)
    unit.insert(a, 1)
    unit.insert(b, 1.5e-10)
    let unitScaling = unit.solve(for: a, replacing: lhs)
    #expect(!unitScaling.vanished)
    #expect(unitScaling.largest == 0)  // a division by 1 enlarges nothing
    #expect(Array(unit.symbols) == [b, lhs])
  }

  /// A division by an element under 1 in magnitude reports the largest cell it made, the
  /// replaced symbol's included: the solver's measure of how far a pivot enlarged its row
  /// (`Tolerance.enlargedRow`).
  @Test func aDivisionReportsTheLargestCellItMade() {
    let a = Symbol(.slack, index: 1)
    let b = Symbol(.error, index: 2)
    let lhs = Symbol(.slack, index: 3)
    // lhs = 1 + 9.3e-4 a + 26.7 b: a pivot on 9.3e-4 makes cells of 26.7 / 9.3e-4.
    var row = Row(constant: 1)
    row.insert(a, 9.3e-4)
    row.insert(b, 26.7)
    var pivoted = row
    let scaling = pivoted.solve(for: a, replacing: lhs)
    #expect(!scaling.vanished)
    #expect(abs(scaling.largest - 26.7 / 9.3e-4) < 1e-6)
    #expect(scaling.largest == pivoted.coefficients.map(abs).max())

    // Small cells beside a small element: the replaced symbol's 1 / 1e-4 is the largest.
    var small = Row(constant: 1)
    small.insert(a, 1e-4)
    small.insert(b, 1e-5)
    #expect(abs(small.solve(for: a, replacing: lhs).largest - 1e4) < 1e-6)

    // `solve(for:)` drops the subject's cell: the largest is among the rest.
    var subject = row
    #expect(abs(subject.solve(for: a).largest - 26.7 / 9.3e-4) < 1e-6)
  }

  @Test func solvingMatchesARemovalAndAnInsertion() {
    var rng = SplitMix64(seed: 20_261_126)
    for trial in 0..<2_000 {
      let count = rng.int(1...(trial % 5 == 0 ? 300 : 12))
      // Distinct symbols of every kind, one more than the row holds: the spare is `lhs`.
      var pool = Set<UInt32>()
      while pool.count < count + 1 {
        let kind = Symbol.Kind(rawValue: UInt32(rng.int(0...3)))!
        pool.insert(Symbol(kind, index: rng.int(0...2_000)).raw)
      }
      var symbols = pool.map { Symbol(raw: $0) }
      symbols.shuffle(using: &rng)
      let lhs = symbols.removeLast()
      var row = Row(constant: rng.double(-500...500))
      for s in symbols.sorted() {
        row.appendCell(s, rng.chanceOf(0.5) ? rng.double(0.01...9) : -rng.double(0.01...9))
      }
      let rhs = rng.element(of: symbols)!
      let expected = reference(row, for: rhs, replacing: lhs)
      var solved = row
      _ = solved.solve(for: rhs, replacing: lhs)
      #expect(solved.symbols == expected.symbols, "trial \(trial): \(count) cells")
      #expect(solved.coefficients == expected.coefficients, "trial \(trial)")
      #expect(solved.constant == expected.constant, "trial \(trial)")
    }
  }
}
