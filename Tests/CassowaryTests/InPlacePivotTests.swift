@testable import Cassowary
import Testing

/// The dual simplex's pivot on a lazy row that names basic symbols (`Tableau.pivotInPlace`):
/// when the entering symbol's cell is the row's own, the row is solved as it is, and only
/// the objective takes its expansion; otherwise the expansion is installed, as before.
@Suite struct InPlacePivotTests {
  /// `b = 5 + p` and `l = -20 + 2b + e` (so `l = -10 + 2p + e`, negative: it must leave),
  /// over the parametric errors `p` and `e`, with the objective `pCost·p + eCost·e`.
  /// In the canonical tableau `l`'s row is its expansion.
  private struct System {
    var tableau: Tableau
    let p, e, b, l: Symbol

    init(lazy: Bool, pCost: Double, eCost: Double) {
      tableau = Tableau(lazy: lazy)
      p = tableau.newSymbol(.error)
      e = tableau.newSymbol(.error)
      b = tableau.newSymbol(.external)
      l = tableau.newSymbol(.slack)
      var bRow = Row(constant: 5)
      bRow.insert(p, 1)
      tableau.addRow(bRow, basic: b)
      var lRow = Row(constant: lazy ? -20 : -10)
      if lazy {
        lRow.insert(b, 2)
      } else {
        lRow.insert(p, 2)
      }
      lRow.insert(e, 1)
      tableau.addRow(lRow, basic: l)
      tableau.objective.add(p, pCost)
      tableau.objective.add(e, eCost)
      _ = tableau.updateValues()
    }

    func value(_ s: Symbol) -> Double { tableau.values[s.index] }
  }

  /// Ratios: `p` 5 / 2, `e` 1 / 1, so `e` enters; no other row names it. Its new row is
  /// `e = 20 + l - 2b`: it still names `b` (two cells, where the expansion has `l` and `p`),
  /// sits above `b`, and the objective names parametric symbols only.
  @Test func anEnteringCellOfTheRowsOwnIsSolvedInTheRow() {
    var s = System(lazy: true, pCost: 5, eCost: 1)
    #expect(s.tableau.infeasible == [s.l])
    let pivots = s.tableau.counters.pivots
    let feasible = s.tableau.dualOptimize()
    #expect(feasible)
    #expect(s.tableau.counters.pivots == pivots + 1)
    #expect(s.tableau.isBasic(s.e) && !s.tableau.isBasic(s.l))
    let row = s.tableau.rows[Int(s.tableau.basicSlot[s.e.index])]
    #expect(Array(row.symbols) == [s.b, s.l].sorted())
    #expect(row.constant == 20)
    #expect(row.coefficient(for: s.b) == -2 && row.coefficient(for: s.l) == 1)
    #expect(s.tableau.symbolMarks[s.e.index].level > s.tableau.symbolMarks[s.b.index].level)
    // 5p + e = 5p + (10 + l - 2p) = 10 + 3p + l.
    #expect(Set(s.tableau.objective.symbols) == [s.p, s.l])
    #expect(s.tableau.objective.coefficient(for: s.p) == 3)
    #expect(s.tableau.objective.coefficient(for: s.l) == 1)
    #expect(s.value(s.e) == 10 && s.value(s.b) == 5 && s.value(s.l) == 0)
    // The expansion's buffer went back to the spares.
    #expect(s.tableau.spareRows.count == 1)
  }

  /// Ratios: `p` 1 / 2, `e` 3 / 1, so `p` enters, and `b`'s row names it: solving `l`'s row
  /// as it is would define `p` through `b`, which is defined through `p`. The expansion is
  /// installed: `p`'s row names no basic symbol.
  @Test func anEnteringSymbolNamedThroughAnotherRowGetsTheExpansion() {
    var s = System(lazy: true, pCost: 1, eCost: 3)
    let feasible = s.tableau.dualOptimize()
    #expect(feasible)
    #expect(s.tableau.isBasic(s.p) && !s.tableau.isBasic(s.l))
    let row = s.tableau.rows[Int(s.tableau.basicSlot[s.p.index])]
    #expect(Array(row.symbols) == [s.e, s.l].sorted())
    #expect(!row.symbols.contains { s.tableau.isBasic($0) })
    #expect(s.value(s.p) == 5 && s.value(s.b) == 10 && s.value(s.l) == 0 && s.value(s.e) == 0)
  }

  /// Both pivots give the canonical tableau's values and objective.
  @Test(arguments: [(5.0, 1.0), (1.0, 3.0)])
  func theLazyTableauAgreesWithTheCanonicalOne(costs: (Double, Double)) {
    var lazy = System(lazy: true, pCost: costs.0, eCost: costs.1)
    var canonical = System(lazy: false, pCost: costs.0, eCost: costs.1)
    let feasible = (lazy.tableau.dualOptimize(), canonical.tableau.dualOptimize())
    #expect(feasible == (true, true))
    for symbol in [lazy.p, lazy.e, lazy.b, lazy.l] {
      #expect(lazy.value(symbol) == canonical.value(symbol), "\(symbol)")
      #expect(lazy.tableau.isBasic(symbol) == canonical.tableau.isBasic(symbol), "\(symbol)")
      #expect(
        lazy.tableau.objective.coefficient(for: symbol)
          == canonical.tableau.objective.coefficient(for: symbol), "\(symbol)")
    }
  }

  /// `l = -20 + 2b + p + e` over `b = 5 + p`: `l` names `p` itself, and so does `b`'s row,
  /// so the expanded cell (3) is not the row's (1). Ratios `p` 1 / 3, `e` 3 / 1: `p` enters,
  /// and solving `l`'s row as it is would define `p` through `b`, defined through `p`. The
  /// expansion is installed, and the values are the canonical tableau's.
  @Test func anEnteringSymbolTheRowAndItsClosureBothNameGetsTheExpansion() {
    func make(lazy: Bool) -> (Tableau, [Symbol]) {
      var tableau = Tableau(lazy: lazy)
      let p = tableau.newSymbol(.error)
      let e = tableau.newSymbol(.error)
      let b = tableau.newSymbol(.external)
      let l = tableau.newSymbol(.slack)
      var bRow = Row(constant: 5)
      bRow.insert(p, 1)
      tableau.addRow(bRow, basic: b)
      var lRow = Row(constant: lazy ? -20 : -10)
      if lazy { lRow.insert(b, 2) }
      lRow.insert(p, lazy ? 1 : 3)
      lRow.insert(e, 1)
      tableau.addRow(lRow, basic: l)
      tableau.objective.add(p, 1)
      tableau.objective.add(e, 3)
      _ = tableau.updateValues()
      return (tableau, [p, e, b, l])
    }
    var (lazy, s) = make(lazy: true)
    var (canonical, _) = make(lazy: false)
    let feasible = (lazy.dualOptimize(), canonical.dualOptimize())
    #expect(feasible == (true, true))
    let (p, e, l) = (s[0], s[1], s[3])
    #expect(lazy.isBasic(p))
    let row = lazy.rows[Int(lazy.basicSlot[p.index])]
    #expect(Array(row.symbols) == [e, l].sorted())
    for symbol in s {
      #expect(lazy.values[symbol.index] == canonical.values[symbol.index], "\(symbol)")
    }
  }

  /// Another row names the entering symbol, outside the closure: `c = 7 + e` beside the
  /// system of the first test. The pivot is made in place, and `c`'s row, which now names
  /// a basic symbol, is raised above it.
  @Test func aRowOutsideTheClosureThatNamesTheEnteringSymbolIsRaised() {
    var s = System(lazy: true, pCost: 5, eCost: 1)
    let c = s.tableau.newSymbol(.external)
    var cRow = Row(constant: 7)
    cRow.insert(s.e, 1)
    s.tableau.addRow(cRow, basic: c)
    _ = s.tableau.updateValues()
    let feasible = s.tableau.dualOptimize()
    #expect(feasible)
    let row = s.tableau.rows[Int(s.tableau.basicSlot[s.e.index])]
    #expect(Array(row.symbols) == [s.b, s.l].sorted(), "pivoted in place")
    let level = { (symbol: Symbol) in s.tableau.symbolMarks[symbol.index].level }
    #expect(level(c) > level(s.e) && level(s.e) > level(s.b))
    #expect(s.value(c) == 17 && s.value(s.e) == 10)
  }

  /// Up to `inPlaceExpansionLimit` cells read, the row is pivoted in place; one more, and
  /// the expansion is installed, even with the entering cell the row's own: `l = -1000 +
  /// b_k + e` over a chain of `b_i = 1 + b_(i-1)` from `p` (the expansion reads `l`'s two
  /// cells and one per link).
  @Test(arguments: [Tableau.inPlaceExpansionLimit - 2, Tableau.inPlaceExpansionLimit - 1])
  func anExpansionPastTheLimitIsInstalled(links: Int) {
    var tableau = Tableau(lazy: true)
    let p = tableau.newSymbol(.error)
    let e = tableau.newSymbol(.error)
    var previous = p
    var chain: [Symbol] = []
    for _ in 0..<links {
      let b = tableau.newSymbol(.external)
      var row = Row(constant: 1)
      row.insert(previous, 1)
      tableau.addRow(row, basic: b)
      chain.append(b)
      previous = b
    }
    let l = tableau.newSymbol(.slack)
    var lRow = Row(constant: -1000)
    lRow.insert(previous, 1)
    lRow.insert(e, 1)
    tableau.addRow(lRow, basic: l)
    tableau.objective.add(p, 5)
    tableau.objective.add(e, 1)
    _ = tableau.updateValues()
    let feasible = tableau.dualOptimize()
    #expect(feasible)
    #expect(tableau.isBasic(e))
    let row = tableau.rows[Int(tableau.basicSlot[e.index])]
    let inPlace = 2 + links <= Tableau.inPlaceExpansionLimit
    #expect(Array(row.symbols) == (inPlace ? [previous, l] : [p, l]).sorted())
    #expect(tableau.values[e.index] == 1000 - Double(chain.count))
  }
}
