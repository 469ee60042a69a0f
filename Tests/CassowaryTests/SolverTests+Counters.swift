import Cassowary
import Testing

/// `counters`: deterministic work counts, cumulative over the solver's life.
extension SolverTests {
  // MARK: - Counters

  /// A fixed sequence that needs pivots: a clamped edit moved back and forth.
  static func clampScenario(_ solver: Solver) throws {
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    try solver.addConstraint(x >= 10)
    try solver.addConstraint(x <= 50)
    try solver.addConstraint(y == 2 * x)
    try solver.addEditVariable(x, strength: .strong)
    for value in [30.0, 100, -5, 40, 60] { try solver.suggestValue(x, value) }
  }

  @Test(arguments: representations)
  func countersStartAtZeroAndGrowWithWork(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    #expect(solver.counters == SolverCounters())
    let x = solver.makeVariable("x")
    try solver.addConstraint(x >= 10)
    try solver.addConstraint(x <= 50)
    try solver.addEditVariable(x, strength: .strong)
    try solver.suggestValue(x, 30)
    let before = solver.counters
    // 100 violates x <= 50: the dual simplex has to exchange the edit's error into the
    // basis, at least one pivot. The canonical tableau then eliminates the entering symbol
    // from the other rows (a substitution); the lazy one may defer that.
    try solver.suggestValue(x, 100)
    let delta = solver.counters - before
    #expect(delta.pivots >= 1)
    #expect(delta.rowsTouched >= 1)
    if representation == .canonical { #expect(delta.substitutions >= 1) }
    solver.updateVariables()
    expectValue(solver, x, 50)
  }

  @Test(arguments: representations)
  func countersAreDeterministic(_ representation: Solver.Representation) throws {
    let a = Solver(representation: representation)
    let b = Solver(representation: representation)
    try Self.clampScenario(a)
    try Self.clampScenario(b)
    #expect(a.counters.pivots > 0)
    #expect(a.counters == b.counters)
  }

  @Test func counterDifferenceSubtractsEachField() {
    var a = SolverCounters()
    a.pivots = 7
    a.rowsTouched = 20
    a.substitutions = 9
    a.expansions = 3
    a.repairs = 1
    a.cachedShifts = 6
    a.valuesUpdated = 40
    var b = SolverCounters()
    b.cachedShifts = 2
    b.valuesUpdated = 11
    b.pivots = 2
    b.rowsTouched = 5
    b.substitutions = 4
    b.expansions = 1
    a.phaseOnes = 3
    b.phaseOnes = 1
    let d = a - b
    #expect(d.phaseOnes == 2)
    #expect(d.pivots == 5 && d.rowsTouched == 15 && d.substitutions == 5 && d.expansions == 2)
    #expect(d.repairs == 1 && d.cachedShifts == 4 && d.valuesUpdated == 29)
  }

  @Test(arguments: representations)
  func aSuggestionCountsTheValuesItMoves(_ representation: Solver.Representation) throws {
    // A parent width and four children at a quarter of it: a new width moves the parent's
    // and the children's values, and a repeated suggestion moves the same ones again.
    let solver = Solver(representation: representation)
    let w = solver.makeVariable("w")
    try solver.addEditVariable(w, strength: .strong)
    for i in 0..<4 {
      try solver.addConstraint(solver.makeVariable("c\(i)") == 0.25 * w)
    }
    try solver.suggestValue(w, 100)
    var before = solver.counters
    try solver.suggestValue(w, 200)
    let first = solver.counters - before
    #expect(first.valuesUpdated >= 5, "w and four children")
    before = solver.counters
    try solver.suggestValue(w, 120)
    let second = solver.counters - before
    #expect(second.valuesUpdated == first.valuesUpdated)
    #expect(second.cachedShifts == 1)
    before = solver.counters
    try solver.suggestValue(w, 120)
    #expect(solver.counters - before == SolverCounters(), "the same value does nothing")
  }

  /// Containments added while a child and its parent are at zero, as when a layout is
  /// built: the `>=` one has its slack at coefficient -1 and takes it as subject; the `<=`
  /// one has it at +1 in a row of value 0, so it has no subject that keeps the tableau
  /// feasible by the rule, and is added with its slack basic at 0 (a dual insertion that
  /// needs no pivot). A containment the solution breaks is added with its slack basic and
  /// negative, and the dual simplex repairs it. Neither runs phase one, and the solution is
  /// the optimum either way.
  @Test(arguments: representations)
  func containmentsAddedAtZeroOrBrokenAreDualInsertions(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let px = solver.makeVariable("px")
    let pw = solver.makeVariable("pw")
    let cx = solver.makeVariable("cx")
    let cw = solver.makeVariable("cw")
    // Every variable named by a row, all at zero: the containment's rows have value 0.
    try solver.addConstraint(px == 0)
    try solver.addConstraint((pw == 0) | .weak)
    try solver.addConstraint((cx == 0) | .weak)
    try solver.addConstraint((cw == 0) | .weak)
    var before = solver.counters
    try solver.addConstraint(cx >= px)
    try solver.addConstraint(cx + cw <= px + pw)
    var work = solver.counters - before
    #expect(work.dualInsertions == 1 && work.phaseOnes == 0 && work.pivots == 0)
    // The parent 100 wide, the child at 40 asking for 150: it is kept inside, 60 wide.
    try solver.addConstraint((pw == 100) | .strong)
    try solver.addConstraint((cx == 40) | .strong)
    try solver.addConstraint((cw == 150) | .medium)
    solver.updateVariables()
    expectValue(solver, pw, 100)
    expectValue(solver, cw, 60)

    // A containment that the solution breaks (a point 30 past the child's right edge).
    let gx = solver.makeVariable("gx")
    try solver.addConstraint((gx == 130) | .medium)
    before = solver.counters
    try solver.addConstraint(gx <= cx + cw)
    work = solver.counters - before
    #expect(work.dualInsertions == 1 && work.phaseOnes == 0 && work.pivots >= 1)
    solver.updateVariables()
    expectValue(solver, gx, 100)
    expectValue(solver, cw, 60)
  }

  @Test(arguments: representations)
  func aSolverKeepsItsRepresentation(
    _ representation: Solver.Representation
  ) {
    #expect(Solver(representation: representation).representation == representation)
  }

  @Test func theDefaultRepresentationIsAdaptive() {
    #expect(Solver().representation == .adaptive)
  }

  @Test(arguments: representations)
  func countersAreCumulativeAcrossReset(_ representation: Solver.Representation) throws {
    // The documentation says "work done since the solver was created".
    let solver = Solver(representation: representation)
    try Self.clampScenario(solver)
    let before = solver.counters
    solver.reset()
    #expect(solver.counters.pivots >= before.pivots, "reset() zeroed the counters")
  }
}
