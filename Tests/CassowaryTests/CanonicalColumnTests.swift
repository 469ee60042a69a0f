@testable import Cassowary
import Testing

/// The canonical tableau's shortcut for a symbol's column (`Tableau.column(of:)`): the rows
/// that name the symbol and their cells, instead of the dependency traversal that a lazy
/// tableau needs. Both must give the same entries, to the bit, on layouts of the sizes users
/// build and after the operations they make (the ratio tests that read the column pick the
/// pivots, so a difference would change the path and could change the result).
@Suite struct CanonicalColumnTests {
  /// Every parametric symbol some row names: the symbols whose columns a ratio test reads.
  static func parametricSymbols(_ tableau: Tableau) -> [Symbol] {
    var seen = Set<Symbol>()
    for slot in tableau.rows.indices where tableau.rowBasic[slot].isValid {
      for symbol in tableau.rows[slot].symbols where !tableau.isBasic(symbol) {
        seen.insert(symbol)
      }
    }
    return seen.sorted()
  }

  /// The entries of a column as a map from basic symbol to coefficient.
  static func entries(_ column: [(basic: Symbol, coefficient: Double)]) -> [Symbol: Double] {
    Dictionary(column.map { ($0.basic, $0.coefficient) }, uniquingKeysWith: { a, _ in a })
  }

  @Test(arguments: [11, 12, 13, 14, 15] as [UInt64])
  func theShortcutMatchesTheTraversal(seed: UInt64) throws {
    let system = LayoutSystem(seed: seed, boxes: 60...150)
    let driver = try LayoutDriver(system, .canonical)
    var checkedColumns = 0
    for step in 0..<30 {
      if step > 0 { _ = try? driver.randomOperation() }
      let tableau = driver.solver.tableau
      let lazy = tableau.lazy
      #expect(!lazy, "seed \(seed), step \(step): the tableau should have stayed canonical")
      for symbol in Self.parametricSymbols(tableau) {
        var copy = tableau
        let shortcut = copy.column(of: symbol)
        let traversal = copy.generalColumn(of: symbol)
        #expect(shortcut.count == Set(shortcut.map(\.basic)).count, "an entry listed twice")
        #expect(
          Self.entries(shortcut) == Self.entries(traversal),
          "seed \(seed), step \(step), \(symbol): \(driver.recent)")
        checkedColumns += 1
      }
    }
    #expect(checkedColumns > 1_000)
  }

  /// End to end: a solver that reads columns from rows and one that traverses make the same
  /// pivots and hand out the same values, to the bit, through builds and operations (phase
  /// one and the optimisations included, where the ratio tests run).
  @Test(arguments: [21, 22, 23] as [UInt64])
  func theShortcutChangesNoPivotAndNoValue(seed: UInt64) throws {
    let system = LayoutSystem(seed: seed, boxes: 60...150)
    let shortcut = try LayoutDriver(system, .canonical)
    let traversal = try LayoutDriver(system, .canonical) {
      $0.tableau.readsColumnsFromRows = false
    }
    for step in 0..<40 {
      if step > 0 {
        let a = try? shortcut.randomOperation()
        let b = try? traversal.randomOperation()
        #expect(a == b, "seed \(seed), step \(step): the operations diverged")
      }
      #expect(
        shortcut.solver.counters.pivots == traversal.solver.counters.pivots,
        "seed \(seed), step \(step): \(shortcut.recent)")
      let same = zip(shortcut.values, traversal.values).allSatisfy {
        $0.bitPattern == $1.bitPattern
      }
      #expect(same, "seed \(seed), step \(step): values differ: \(shortcut.recent)")
    }
    #expect(shortcut.solver.counters.pivots > 100, "the operations should pivot")
    #expect(traversal.solver.counters.rebuilds == 0, "a rebuild would reset the switch")
  }
}
