import Cassowary
import Testing

/// Edit variables: `addEditVariable`, `removeEditVariable`, `hasEditVariable`,
/// `suggestValue` and the batch `suggestValues`. Their refusals are in `SolverErrorTests`.
@Suite struct EditVariableTests {
  @Test func addHasAndRemove() throws {
    let solver = Solver()
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    #expect(!solver.hasEditVariable(x))
    try solver.addEditVariable(x, strength: .strong)
    #expect(solver.hasEditVariable(x))
    #expect(!solver.hasEditVariable(y))
    // Edit constraints are not user constraints.
    #expect(solver.constraintCount == 0)
    try solver.removeEditVariable(x)
    #expect(!solver.hasEditVariable(x))
    try solver.addEditVariable(x, strength: .weak)
    #expect(solver.hasEditVariable(x))
  }

  @Test func suggestionMovesAnUnconstrainedVariable() throws {
    let solver = Solver()
    let x = solver.makeVariable("x")
    try solver.addEditVariable(x, strength: .strong)
    try solver.suggestValue(x, 42)
    solver.updateVariables()
    expectValue(solver, x, 42)
    try solver.suggestValue(x, -7.5)
    solver.updateVariables()
    expectValue(solver, x, -7.5)
  }

  @Test func editStartsBySuggestingZero() throws {
    // As in kiwi, a new edit variable pulls towards 0 at its strength until told otherwise.
    let solver = Solver()
    let x = solver.makeVariable("x")
    try solver.addConstraint((x == 10) | .weak)
    try solver.addEditVariable(x, strength: .medium)
    solver.updateVariables()
    expectValue(solver, x, 0)
  }

  @Test func suggestionBeatsAWeakerEquality() throws {
    // kiwi's example: a medium edit wins over a weak equality.
    let solver = Solver()
    let x = solver.makeVariable("x")
    try solver.addEditVariable(x, strength: .medium)
    try solver.addConstraint((x == 1) | .weak)
    try solver.suggestValue(x, 2)
    solver.updateVariables()
    expectValue(solver, x, 2)
  }

  @Test func aStrongerConstraintBeatsTheSuggestion() throws {
    let solver = Solver()
    let x = solver.makeVariable("x")
    try solver.addEditVariable(x, strength: .medium)
    try solver.addConstraint((x == 10) | .strong)
    try solver.suggestValue(x, 50)
    solver.updateVariables()
    expectValue(solver, x, 10)
  }

  @Test func requiredBoundsClampTheSuggestion() throws {
    let solver = Solver()
    let x = solver.makeVariable("x")
    let twice = solver.makeVariable("twice")
    try solver.addConstraint(x >= 10)
    try solver.addConstraint(x <= 50)
    try solver.addConstraint(twice == 2 * x)
    try solver.addEditVariable(x, strength: .strong)
    for (suggestion, expected) in [(30.0, 30.0), (100, 50), (-5, 10), (50, 50), (49, 49)] {
      try solver.suggestValue(x, suggestion)
      solver.updateVariables()
      expectValue(solver, x, expected)
      expectValue(solver, twice, 2 * expected)
    }
  }

  @Test func aWeakEditCannotBreakARequiredInequality() throws {
    // kiwi's example: v1 + v2 == 0 and v2 <= -1 (required) beat v2's edit to 0 and v2 >= 0.
    let solver = Solver()
    let v1 = solver.makeVariable("v1")
    let v2 = solver.makeVariable("v2")
    try solver.addEditVariable(v2, strength: .weak)
    try solver.addConstraint(v1 + v2 == 0)
    try solver.addConstraint(v2 <= -1)
    try solver.addConstraint((v2 >= 0) | .weak)
    try solver.suggestValue(v2, 0)
    solver.updateVariables()
    expectValue(solver, v2, -1)
    expectValue(solver, v1, 1)
  }

  @Test func editMovesAChainOfBoxes() throws {
    // Four boxes of width 20, 5 apart: left[i] = left[0] + 25i. A window edge at 200 caps
    // left[3] + 20 <= 200, so left[0] <= 105; left[0] >= 10 is a required floor.
    let solver = Solver()
    let lefts = (0..<4).map { solver.makeVariable("left\($0)") }
    let widths = (0..<4).map { solver.makeVariable("width\($0)") }
    for i in 0..<4 { try solver.addConstraint(widths[i] == 20) }
    for i in 0..<3 { try solver.addConstraint(lefts[i + 1] == lefts[i] + widths[i] + 5) }
    try solver.addConstraint(lefts[3] + widths[3] <= 200)
    try solver.addConstraint(lefts[0] >= 10)
    try solver.addEditVariable(lefts[0], strength: .strong)
    for (suggestion, first) in [(100.0, 100.0), (150, 105), (0, 10), (60, 60)] {
      try solver.suggestValue(lefts[0], suggestion)
      solver.updateVariables()
      for i in 0..<4 { expectValue(solver, lefts[i], first + 25 * Double(i)) }
    }
  }

  @Test func removingTheEditLeavesTheConstraintsOptimum() throws {
    // x is pulled weakly to 10 and kept in [0, 30]; the edit drags it to 25, then to 40
    // (clamped to 30); without the edit it returns to 10.
    let solver = Solver()
    let x = solver.makeVariable("x")
    try solver.addConstraint((x == 10) | .weak)
    try solver.addConstraint(x >= 0)
    try solver.addConstraint(x <= 30)
    try solver.addEditVariable(x, strength: .strong)
    try solver.suggestValue(x, 25)
    solver.updateVariables()
    expectValue(solver, x, 25)
    try solver.suggestValue(x, 40)
    solver.updateVariables()
    expectValue(solver, x, 30)
    try solver.removeEditVariable(x)
    solver.updateVariables()
    expectValue(solver, x, 10)
    #expect(solver.constraintCount == 3)
  }

  @Test func reAddingAnEditForgetsTheOldSuggestion() throws {
    let solver = Solver()
    let x = solver.makeVariable("x")
    try solver.addConstraint((x == 10) | .weak)
    try solver.addEditVariable(x, strength: .strong)
    try solver.suggestValue(x, 70)
    try solver.removeEditVariable(x)
    try solver.addEditVariable(x, strength: .strong)
    solver.updateVariables()
    expectValue(solver, x, 0)
  }

  @Test func strongerEditWinsAConflictBetweenEdits() throws {
    // y >= x + 10 (required): suggesting x = 50 (strong) and y = 55 (medium) cannot both
    // hold; the medium edit gives way, y = 60.
    let solver = Solver()
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    try solver.addConstraint(y >= x + 10)
    try solver.addEditVariable(x, strength: .strong)
    try solver.addEditVariable(y, strength: .medium)
    try solver.suggestValue(x, 50)
    try solver.suggestValue(y, 55)
    solver.updateVariables()
    expectValue(solver, x, 50)
    expectValue(solver, y, 60)
  }

  // MARK: - Batches

  /// Two edits and a spacing rule, for comparing batches with single suggestions.
  static func pair() throws -> (Solver, Variable, Variable) {
    let solver = Solver()
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    try solver.addConstraint(y >= x + 10)
    try solver.addConstraint(x >= 0)
    try solver.addEditVariable(x, strength: .strong)
    try solver.addEditVariable(y, strength: .medium)
    return (solver, x, y)
  }

  @Test func batchSuggestionsEqualOneByOne() throws {
    let (batch, x, y) = try Self.pair()
    let (single, _, _) = try Self.pair()
    // x = 50 holds; y = 55 gives way to y >= 60. Then x = -20 is clamped to 0 and y = 5
    // gives way to y >= 10.
    for (sx, sy, ex, ey) in [(50.0, 55.0, 50.0, 60.0), (-20, 5, 0, 10), (3, 100, 3, 100)] {
      try batch.suggestValues([(x, sx), (y, sy)])
      try single.suggestValue(x, sx)
      try single.suggestValue(y, sy)
      batch.updateVariables()
      single.updateVariables()
      for solver in [batch, single] {
        expectValue(solver, x, ex)
        expectValue(solver, y, ey)
      }
    }
  }

  @Test func batchMayNameAVariableTwiceAndTheLastValueWins() throws {
    let (solver, x, y) = try Self.pair()
    try solver.suggestValues([(x, 5), (y, 40), (x, 20)])
    solver.updateVariables()
    expectValue(solver, x, 20)
    expectValue(solver, y, 40)
  }

  @Test func anEmptyBatchChangesNothing() throws {
    let (solver, x, y) = try Self.pair()
    try solver.suggestValues([(x, 5), (y, 40)])
    try solver.suggestValues([(Variable, Double)]())
    solver.updateVariables()
    expectValue(solver, x, 5)
    expectValue(solver, y, 40)
  }
}
