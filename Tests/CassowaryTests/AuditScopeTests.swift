@testable import Cassowary
import Testing

/// What the check at the end of an operation that changed rows looks at
/// (`Solver+Audit.swift`): the variables whose values were recomputed from a row changed
/// since the last check, directly or through internal symbols, and not the values that
/// only moved through rows the last check saw (as every value of a suggestion moves).
@Suite struct AuditScopeTests {
  /// A stack of `n` boxes of weak width 50 and minimum 10, between 8 and an edited width
  /// (`solver-bench --workload chain`).
  static func stack(
    _ solver: Solver, count n: Int
  ) throws -> (width: Variable, x: [Variable], w: [Variable]) {
    let width = solver.makeVariable("W")
    try solver.addEditVariable(width, strength: .strong)
    try solver.suggestValue(width, 58 * Double(n) + 8)
    var x: [Variable] = []
    var w: [Variable] = []
    for i in 0..<n {
      x.append(solver.makeVariable("x\(i)"))
      w.append(solver.makeVariable("w\(i)"))
      try solver.addConstraint(i == 0 ? x[0] == 8 : x[i] == x[i - 1] + w[i - 1] + 8)
      try solver.addConstraint(x[i] >= 0)
      try solver.addConstraint(w[i] >= 10)
      try solver.addConstraint((w[i] == 50) | .weak)
    }
    try solver.addConstraint(x[n - 1] + w[n - 1] + 8 == width)
    solver.updateVariables()
    return (width, x, w)
  }

  /// A narrower window takes 60 points from one box's width, 20 past its minimum: the dual
  /// simplex pivots, and the boxes after the ones that shrank all move. Their values come
  /// through rows no pivot changed, so the check evaluates a few constraints, not the
  /// hundreds that name a moved variable; the values are the solution all the same.
  @Test(arguments: [Solver.Representation.lazy, .adaptive])
  func aPivotChecksWhatItsChangedRowsRecompute(_ representation: Solver.Representation) throws {
    let n = 200
    let solver = Solver(representation: representation)
    let (width, x, w) = try Self.stack(solver, count: n)
    let pivots = solver.counters.pivots
    let checks = solver.audit.checks
    var moved = 0
    try solver.suggestValue(width, 58 * Double(n) + 8 - 60)
    solver.updateVariables { _, _ in moved += 1 }
    #expect(solver.counters.pivots > pivots, "the narrower window pivots")
    #expect(moved > n / 2, "most boxes move")
    #expect(solver.audit.checks - checks <= 12, "checked: \(solver.audit.checks - checks)")
    // The solution: widths of at least 10 that sum to 60 less than their 50s, each box
    // after its predecessor, the last one ending at the window's edge.
    let widths = w.map { solver.value(of: $0) }
    #expect(widths.allSatisfy { $0 >= 10 - 1e-9 })
    #expect(abs(widths.reduce(0, +) - (50 * Double(n) - 60)) < 1e-6)
    for i in 1..<n {
      #expect(abs(solver.value(of: x[i]) - (solver.value(of: x[i - 1]) + widths[i - 1] + 8)) < 1e-9)
    }
    #expect(abs(solver.value(of: x[n - 1]) + widths[n - 1] + 8 - solver.value(of: width)) < 1e-9)
  }

  /// A row changed behind an internal symbol (an error, which no constraint names) reaches
  /// the check through the variables whose rows name it: changed by hand, as a pivot would
  /// change it, the width whose row names the error is listed for the check, and the boxes
  /// after it, which move through rows that did not change, are not. (Lazy: there the
  /// positions' rows name the widths, not the errors.)
  @Test func aChangedInternalRowListsTheVariablesThatNameIt() throws {
    let n = 40
    let solver = Solver(representation: .lazy)
    let (width, x, w) = try Self.stack(solver, count: n)
    // The narrower window's pivot makes a box's width error basic, and that width's row
    // names it.
    try solver.suggestValue(width, 58 * Double(n) + 8 - 60)
    solver.updateVariables()
    let tableau = solver.tableau
    var found: (box: Int, error: Symbol)?
    for (i, v) in w.enumerated() {
      let symbol = solver.variableSymbols[Int(v.index)]
      guard tableau.isBasic(symbol) else { continue }
      let row = tableau.rows[Int(tableau.basicSlot[symbol.index])]
      if let error = row.symbols.first(where: { !$0.isExternal && tableau.isBasic($0) }) {
        found = (i, error)
        break
      }
    }
    let (box, error) = try #require(found, "no width's row names a basic internal symbol")
    #expect(solver.tableau.taintedExternals.isEmpty, "the check emptied the list")
    RecoveryTests.knockOff(solver, error)
    let listed = Set(solver.tableau.taintedExternals)
    #expect(listed.contains(solver.variableSymbols[Int(w[box].index)]))
    // The boxes after it moved (their positions), through rows that did not change.
    let after = x[(box + 1)...].map { solver.variableSymbols[Int($0.index)] }
    #expect(after.allSatisfy { tableau.isBasic($0) })
    #expect(after.allSatisfy { solver.tableau.changeState(of: $0).unchecked })
    #expect(after.allSatisfy { !listed.contains($0) })
  }
}
