@testable import Cassowary
import Testing

/// A primal pivot on a row that round-off left just below zero must not step backwards: the
/// entering symbol would take the row's negative value over the pivot element, raise the
/// objective, and move every row that names it further below zero (seed 381 of 60-200 boxes
/// went through eight such pivots in one optimisation).
@Suite struct RoundOffDeficitTests {
  /// A tableau of rows `b_i = constant_i + element_i · x` over one parametric slack `x`,
  /// with the objective `-x` (x wants to grow), values up to date.
  private func tableau(
    lazy: Bool = false, rows: [(constant: Double, element: Double)]
  ) -> (tableau: Tableau, x: Symbol, basics: [Symbol]) {
    var tableau = Tableau(lazy: lazy)
    let x = tableau.newSymbol(.slack)
    var basics: [Symbol] = []
    for (constant, element) in rows {
      let basic = tableau.newSymbol(.slack)
      var row = Row(constant: constant)
      row.insert(x, element)
      tableau.addRow(row, basic: basic)
      basics.append(basic)
    }
    tableau.objective.add(x, -1)
    _ = tableau.updateValues()
    return (tableau, x, basics)
  }

  /// minimise -x subject to  b1 = -4e-9 - 0.01 x >= 0  and  b2 = 10 - x >= 0.
  /// The deficit row b1 (ratio 0 once its value counts as zero) limits x; the pivot must
  /// leave x at zero, not at -4e-9 / 0.01 = -4e-7.
  @Test(arguments: [false, true]) func aDeficitRowLeavesTheEnteringSymbolAtZero(lazy: Bool) {
    var (tableau, x, b) = tableau(lazy: lazy, rows: [(-4e-9, -0.01), (10, -1)])
    tableau.optimize()

    #expect(tableau.isBasic(x) && !tableau.isBasic(b[0]))
    let raised = tableau.counters.deficitsRaised
    #expect(raised == 1)
    let entering = tableau.values[x.index]
    #expect(entering == 0, "x stepped to \(entering)")
    // b2 did not move: 10, not 10 + 4e-7.
    let other = tableau.values[b[1].index]
    #expect(other == 10)
  }

  /// A value round-off left below zero counts as zero in the ratio test: the row ties with a
  /// degenerate row at ratio 0, and the larger pivot element (1 against 0.01) wins. Read as
  /// it is, the deficit row's ratio (-4e-7) would be the only one under the bound.
  @Test func aDeficitRowTiesWithADegenerateRow() {
    var (tableau, x, b) = tableau(rows: [(-4e-9, -0.01), (0, -1)])
    let leaving = tableau.leavingSymbol(for: x)
    #expect(leaving == b[1])
  }

  /// A deficit beyond the near-zero threshold is not round-off: it is left as it is.
  @Test func aDeficitBeyondTheThresholdIsNotRaised() {
    var (tableau, x, _) = tableau(rows: [(-2e-8, -1)])
    tableau.optimize()
    let raised = tableau.counters.deficitsRaised
    #expect(raised == 0)
    let entering = tableau.values[x.index]
    #expect(entering == -2e-8)
  }
}
