import Cassowary
import Testing

/// Edit variables: `addEditVariable`, `removeEditVariable`, `hasEditVariable`,
/// `suggestValue` and the batch `suggestValues`. Their refusals are in `SolverErrorTests`.
@Suite struct EditVariableTests {
  @Test(arguments: representations)
  func addHasAndRemove(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
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

  @Test(arguments: representations)
  func theChangeCallbackMayCallTheSolverAgain(_ representation: Solver.Representation) throws {
    // A client that reacts to a moved value by suggesting another (a view that follows its
    // parent's width, say) calls back into the solver from `updateVariables(_:)`.
    let solver = Solver(representation: representation)
    let parent = solver.makeVariable("parent")
    let child = solver.makeVariable("child")
    let follower = solver.makeVariable("follower")
    try solver.addEditVariable(parent, strength: .strong)
    try solver.addEditVariable(follower, strength: .strong)
    try solver.addConstraint(child == parent - 20)
    try solver.suggestValue(parent, 100)
    var reported: [(String, Double)] = []
    solver.updateVariables { variable, value in
      reported.append((solver.name(of: variable), value))
      if variable == child { try? solver.suggestValue(follower, value / 2) }
    }
    #expect(reported.map(\.0).sorted() == ["child", "parent"])
    #expect(reported.first { $0.0 == "child" }?.1 == 80)
    solver.updateVariables { variable, value in reported.append((solver.name(of: variable), value))
    }
    #expect(reported.last?.0 == "follower" && reported.last?.1 == 40)
    expectValue(solver, follower, 40)
  }

  @Test(arguments: representations)
  func suggestionMovesAnUnconstrainedVariable(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    try solver.addEditVariable(x, strength: .strong)
    try solver.suggestValue(x, 42)
    solver.updateVariables()
    expectValue(solver, x, 42)
    try solver.suggestValue(x, -7.5)
    solver.updateVariables()
    expectValue(solver, x, -7.5)
  }

  @Test(arguments: representations)
  func editStartsBySuggestingZero(_ representation: Solver.Representation) throws {
    // As in kiwi, a new edit variable pulls towards 0 at its strength until told otherwise.
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    try solver.addConstraint((x == 10) | .weak)
    try solver.addEditVariable(x, strength: .medium)
    solver.updateVariables()
    expectValue(solver, x, 0)
  }

  @Test(arguments: representations)
  func suggestionBeatsAWeakerEquality(_ representation: Solver.Representation) throws {
    // kiwi's example: a medium edit wins over a weak equality.
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    try solver.addEditVariable(x, strength: .medium)
    try solver.addConstraint((x == 1) | .weak)
    try solver.suggestValue(x, 2)
    solver.updateVariables()
    expectValue(solver, x, 2)
  }

  @Test(arguments: representations)
  func aStrongerConstraintBeatsTheSuggestion(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    try solver.addEditVariable(x, strength: .medium)
    try solver.addConstraint((x == 10) | .strong)
    try solver.suggestValue(x, 50)
    solver.updateVariables()
    expectValue(solver, x, 10)
  }

  @Test(arguments: representations)
  func requiredBoundsClampTheSuggestion(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
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

  @Test(arguments: representations)
  func aWeakEditCannotBreakARequiredInequality(_ representation: Solver.Representation) throws {
    // kiwi's example: v1 + v2 == 0 and v2 <= -1 (required) beat v2's edit to 0 and v2 >= 0.
    let solver = Solver(representation: representation)
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

  @Test(arguments: representations)
  func editMovesAChainOfBoxes(_ representation: Solver.Representation) throws {
    // Four boxes of width 20, 5 apart: left[i] = left[0] + 25i. A window edge at 200 caps
    // left[3] + 20 <= 200, so left[0] <= 105; left[0] >= 10 is a required floor.
    let solver = Solver(representation: representation)
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

  @Test(arguments: representations)
  func removingTheEditLeavesTheConstraintsOptimum(_ representation: Solver.Representation) throws {
    // x is pulled weakly to 10 and kept in [0, 30]; the edit drags it to 25, then to 40
    // (clamped to 30); without the edit it returns to 10.
    let solver = Solver(representation: representation)
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

  @Test(arguments: representations)
  func reAddingAnEditForgetsTheOldSuggestion(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    try solver.addConstraint((x == 10) | .weak)
    try solver.addEditVariable(x, strength: .strong)
    try solver.suggestValue(x, 70)
    try solver.removeEditVariable(x)
    try solver.addEditVariable(x, strength: .strong)
    solver.updateVariables()
    expectValue(solver, x, 0)
  }

  @Test(arguments: representations)
  func strongerEditWinsAConflictBetweenEdits(_ representation: Solver.Representation) throws {
    // y >= x + 10 (required): suggesting x = 50 (strong) and y = 55 (medium) cannot both
    // hold; the medium edit gives way, y = 60.
    let solver = Solver(representation: representation)
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

  // MARK: - Termination

  /// A suggestion over rows that name each other (reduced from property-test seed 45082, which
  /// hung `removingAndAddingBackRestoresTheValues` at 5a51ea9 in the lazy representation).
  /// The optimum, by hand: the strong pair (edit d = 800, d <= b + c) holds once
  /// a >= b + c >= 800; then 0.696a + 0.298b + |c - 300| + 0.656|e - 200| with e >= b is
  /// least at a = 800, b = 500, c = 300, e = 500 (moving 1 from b to c costs 1 - 0.298 -
  /// 0.656 > 0). f is only bounded, to [200, 300].
  /// Returns the mismatches, empty when the layout is right.
  static func nestedRowsMismatches(_ representation: Solver.Representation) throws -> [String] {
    let solver = Solver(representation: representation)
    let v = (0..<6).map { solver.makeVariable("v\($0)") }
    let (a, b, c, d, e, f) = (v[0], v[1], v[2], v[3], v[4], v[5])
    for constraint in [
      a >= 600, b + c <= a, d >= b, (d <= b + c) | .strong, f >= 200, e >= b, e + f <= b + c,
      (a == 0) | Strength(0.696), (b == 0) | Strength(0.298), (c == 300) | .weak,
      (e == 200) | Strength(0.656),
    ] {
      try solver.addConstraint(constraint)
    }
    try solver.addEditVariable(d, strength: .strong)
    try solver.suggestValue(d, 800)
    solver.updateVariables()
    var mismatches: [String] = []
    for (variable, expected) in [(a, 800.0), (b, 500), (c, 300), (d, 800), (e, 500)]
    where !isClose(solver.value(of: variable), expected, tolerance: 1e-9) {
      mismatches.append(
        "\(representation) \(solver.name(of: variable)) = \(solver.value(of: variable))")
    }
    if !(200 - 1e-9...300 + 1e-9).contains(solver.value(of: f)) {
      mismatches.append("\(representation) f = \(solver.value(of: f))")
    }
    return mismatches
  }

  @Test func suggestionOverNestedRowsTerminatesWithTheOptimum() async {
    // In a child process with a watchdog, so that a hang fails the test instead of the run.
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      armWatchdog(seconds: 60)
      var problems: [String] = []
      for representation in representations {
        problems += (try? EditVariableTests.nestedRowsMismatches(representation)) ?? ["throws"]
      }
      exitReporting(problems)
    }
    let problems = childProblems(result)
    #expect(problems == nil, "\(problems ?? "")")
  }

  // MARK: - Batches

  /// Two edits and a spacing rule, for comparing batches with single suggestions.
  static func pair(_ representation: Solver.Representation) throws -> (Solver, Variable, Variable) {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    try solver.addConstraint(y >= x + 10)
    try solver.addConstraint(x >= 0)
    try solver.addEditVariable(x, strength: .strong)
    try solver.addEditVariable(y, strength: .medium)
    return (solver, x, y)
  }

  @Test(arguments: representations)
  func batchSuggestionsEqualOneByOne(_ representation: Solver.Representation) throws {
    let (batch, x, y) = try Self.pair(representation)
    let (single, _, _) = try Self.pair(representation)
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

  @Test(arguments: representations)
  func batchMayNameAVariableTwiceAndTheLastValueWins(_ representation: Solver.Representation) throws
  {
    let (solver, x, y) = try Self.pair(representation)
    try solver.suggestValues([(x, 5), (y, 40), (x, 20)])
    solver.updateVariables()
    expectValue(solver, x, 20)
    expectValue(solver, y, 40)
  }

  @Test(arguments: representations)
  func anEmptyBatchChangesNothing(_ representation: Solver.Representation) throws {
    let (solver, x, y) = try Self.pair(representation)
    try solver.suggestValues([(x, 5), (y, 40)])
    try solver.suggestValues([(Variable, Double)]())
    solver.updateVariables()
    expectValue(solver, x, 5)
    expectValue(solver, y, 40)
  }
}
