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
        row.symbols.append(s)
        row.coefficients.append(rng.chanceOf(0.5) ? rng.double(0.01...9) : -rng.double(0.01...9))
      }
      let rhs = rng.element(of: symbols)!
      let expected = reference(row, for: rhs, replacing: lhs)
      var solved = row
      solved.solve(for: rhs, replacing: lhs)
      #expect(solved.symbols == expected.symbols, "trial \(trial): \(count) cells")
      #expect(solved.coefficients == expected.coefficients, "trial \(trial)")
      #expect(solved.constant == expected.constant, "trial \(trial)")
    }
  }
}
