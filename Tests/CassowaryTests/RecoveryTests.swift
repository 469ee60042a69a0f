@testable import Cassowary
import Testing

/// Recovery from round-off (`Solver+Recovery.swift`): a damaged tableau is rebuilt with the
/// same solution, and a lazy tableau's refusal is verified before it is reported. The
/// damage itself only shows on large systems after many operations (the differential
/// fuzzer's slice replays such seeds); here it is set by hand, which needs `@testable`.
@Suite struct RecoveryTests {
  /// A root of edited width with `count` nested boxes, each inside the previous with an
  /// inset (a binary tree), a minimum width and a weak preferred width: enough rows for the
  /// lazy tableau to name basic symbols.
  static func nestedBoxes(
    _ solver: Solver, count: Int
  ) throws -> (root: Variable, widths: [Variable], constraints: [Constraint]) {
    let root = solver.makeVariable("root")
    var widths = [root]
    var constraints: [Constraint] = []
    try solver.addEditVariable(root, strength: .strong)
    try solver.suggestValue(root, 1000)
    for i in 1...count {
      let w = solver.makeVariable("w\(i)")
      let parent = widths[(i - 1) / 2]
      // Preferred widths shrink with depth faster than the insets, so the optimum is unique.
      let depth = Double((i + 1).bitWidth - (i + 1).leadingZeroBitCount - 1)
      let list = [w <= parent - 8, w >= 10, (w == 900 - 20 * depth) | .weak]
      for c in list { try solver.addConstraint(c) }
      constraints += list
      widths.append(w)
    }
    return (root, widths, constraints)
  }

  static func values(_ solver: Solver, _ variables: [Variable]) -> [Double] {
    solver.updateVariables()
    return variables.map { solver.value(of: $0) }
  }

  @Test(arguments: [Solver.Representation.adaptive, .lazy, .canonical])
  func aDamagedTableauIsRebuiltWithTheSameSolution(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let (root, widths, _) = try Self.nestedBoxes(solver, count: 60)
    let before = Self.values(solver, widths)
    #expect(solver.counters.rebuilds == 0)

    solver.tableau.damaged = true
    try solver.suggestValue(root, 1000)  // the same value: only the repair runs
    #expect(solver.counters.rebuilds == 1)
    let stillDamaged = solver.tableau.damaged
    #expect(!stillDamaged)
    let after = Self.values(solver, widths)
    for (a, b) in zip(before, after) { #expect(abs(a - b) < 1e-9) }

    // The rebuilt solver goes on like a fresh one given the same history.
    let fresh = Solver(representation: representation)
    let (freshRoot, freshWidths, _) = try Self.nestedBoxes(fresh, count: 60)
    for value in [400.0, 1200, 90] {
      try solver.suggestValue(root, value)
      try fresh.suggestValue(freshRoot, value)
      let got = Self.values(solver, widths)
      let want = Self.values(fresh, freshWidths)
      for (a, b) in zip(got, want) { #expect(abs(a - b) < 1e-9, "at root \(value)") }
    }
    #expect(solver.counters.rebuilds == 1)
  }

  /// Round-off that leaves a row off its constraint shows only in the values; the check at
  /// read-out (`Solver+Audit.swift`) must catch it and rebuild, in every representation.
  @Test(arguments: [Solver.Representation.adaptive, .lazy, .canonical])
  func valuesThatBreakARequiredConstraintAreCaughtAtReadOut(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let (root, widths, _) = try Self.nestedBoxes(solver, count: 60)
    // Every width is then at its inset bound, `w <= parent - 8`.
    try solver.suggestValue(root, 100)
    let before = Self.values(solver, widths)

    // Knock one basic width's row off its constraints by a thousandth of a point (outwards,
    // through its bound), as a pivot on a round-off element would, and let the values
    // follow it.
    let symbol = try #require(
      widths.dropFirst().map { solver.variableSymbols[Int($0.index)] }.first {
        solver.tableau.isBasic($0)
      })
    let slot = Int(solver.tableau.basicSlot[symbol.index])
    solver.tableau.rows[slot].constant += 1e-3
    solver.tableau.structureChanged()
    solver.tableau.staleValues.append(symbol)
    solver.tableau.updateValues()

    let after = Self.values(solver, widths)
    #expect(solver.counters.rebuilds == 1)
    for (a, b) in zip(before, after) { #expect(abs(a - b) < 1e-9) }
    // A clean read-out does not rebuild again.
    try solver.suggestValue(root, 800)
    _ = Self.values(solver, widths)
    #expect(solver.counters.rebuilds == 1)
  }

  @Test(arguments: [Solver.Representation.adaptive, .lazy])
  func aRebuildKeepsEditsConstantsAndStrengths(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let (root, widths, constraints) = try Self.nestedBoxes(solver, count: 40)
    try solver.suggestValue(root, 700)
    try solver.setConstant(-300, of: constraints[5])  // w2 == 300, still weak
    try solver.setStrength(.strong, of: constraints[5])
    solver.tableau.damaged = true
    try solver.removeConstraint(constraints[0])
    #expect(solver.counters.rebuilds == 1)
    #expect(solver.hasEditVariable(root))
    #expect(solver.constant(of: constraints[5]) == -300)
    #expect(solver.strength(of: constraints[5]) == .strong)
    #expect(!solver.hasConstraint(constraints[0]))
    #expect(solver.constraintCount == constraints.count - 1)
    solver.updateVariables()
    #expect(solver.value(of: root) == 700)
    #expect(abs(solver.value(of: widths[2]) - 300) < 1e-9)
    try solver.suggestValue(root, 500)
    solver.updateVariables()
    #expect(solver.value(of: root) == 500)
  }

  /// Every representation verifies a refusal on three rebuilt tableaux before it reports it
  /// (a lazy one: a fresh lazy tableau and canonical ones in record and reverse order; a
  /// canonical one: a fresh canonical tableau, one in reverse order and a lazy one; seed
  /// 37928 of 2-200 boxes: a canonical tableau refused, after 2,144 operations, a required
  /// inset that a rebuilt one accepts). A true conflict is still refused, nothing changed.
  @Test(arguments: [Solver.Representation.lazy, .canonical, .adaptive])
  func aTrueConflictIsVerifiedThenRefusedWithNothingChanged(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let (root, widths, constraints) = try Self.nestedBoxes(solver, count: 30)
    let cap = root <= 1000
    try solver.addConstraint(cap)
    let before = Self.values(solver, widths)
    // w1 <= root - 8 and root <= 1000: w1 >= 2000 cannot hold.
    let impossible = widths[1] >= 2000
    #expect(throws: SolverError.self) { try solver.addConstraint(impossible) }
    #expect(solver.counters.rebuilds == 3)
    #expect(solver.conflictingConstraints.contains { $0 === constraints[0] })
    #expect(solver.conflictingConstraints.contains { $0 === cap })
    #expect(!solver.hasConstraint(impossible))
    let after = Self.values(solver, widths)
    for (a, b) in zip(before, after) { #expect(abs(a - b) < 1e-9) }
    try solver.suggestValue(root, 500)
    solver.updateVariables()
    #expect(solver.value(of: root) == 500)
  }
}
