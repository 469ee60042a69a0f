@testable import Cassowary
import Testing

/// Required constraints whose row has no subject that keeps the tableau feasible (it names
/// only restricted symbols once its basic variables are written out) go in with their own
/// slack or dummy as the basic symbol, and the dual simplex repairs the row
/// (`Tableau.addByDualSimplex`); a rebuild keeps to phase one.
@Suite struct DualInsertionTests {
  /// Two boxes that prefer 5 (weak), then a required sum that breaks the preferences: an
  /// equality, so its dummy starts basic at 20 off (or -20) and must leave the basis in the
  /// direction that takes it to zero, in one pivot. The optimum gives one box the whole
  /// difference.
  @Test(arguments: representations, [30.0, -10.0])
  func aBrokenRequiredEqualityIsRepairedByTheDualSimplex(
    _ representation: Solver.Representation, _ sum: Double
  ) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    try solver.addConstraint(x >= -100)
    try solver.addConstraint(y >= -100)
    try solver.addConstraint((x == 5) | .weak)
    try solver.addConstraint((y == 5) | .weak)
    let before = solver.counters
    try solver.addConstraint(x + y == sum)
    let work = solver.counters - before
    // One pivot: the dummy leaves for the error that moves it toward zero (the other
    // direction also ends at the optimum, through a second, primal, repair).
    #expect(work.dualInsertions == 1 && work.phaseOnes == 0 && work.pivots == 1)
    solver.updateVariables()
    let (vx, vy) = (solver.value(of: x), solver.value(of: y))
    #expect(isClose(vx + vy, sum), "x = \(vx), y = \(vy)")
    #expect(isClose(abs(vx - 5) + abs(vy - 5), abs(sum - 10)), "x = \(vx), y = \(vy)")
  }

  /// A required constraint that conflicts only once the dual simplex has moved: `x - y >= 20`
  /// pushes x up (a dual pivot), which breaks `x + y <= 10`, whose repair finds no symbol
  /// left. The pivots are undone and the row dropped: the values are those before, the
  /// conflict names the constraints in the way, and the solver goes on as if the attempt
  /// had never been made.
  @Test(arguments: representations)
  func aConflictFoundAfterDualPivotsLeavesTheSolverAsItWas(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    try solver.addConstraint(x >= 0)
    try solver.addConstraint(y >= 0)
    let room = x + y <= 10
    try solver.addConstraint(room)
    try solver.addConstraint((x == 5) | .weak)
    try solver.addConstraint((y == 3) | .weak)
    solver.updateVariables()
    expectValue(solver, x, 5)
    expectValue(solver, y, 3)

    let push = x - y >= 20
    #expect(throws: SolverError.unsatisfiableConstraint(push)) { try solver.addConstraint(push) }
    #expect(solver.tableau.pivotLog.count >= 1, "the dual simplex pivoted before it failed")
    #expect(solver.conflictingConstraints.contains { $0 === room })
    #expect(!solver.hasConstraint(push))
    solver.updateVariables()
    expectValue(solver, x, 5)
    expectValue(solver, y, 3)

    // Without the room, the push holds: x - y = 20 at the least weighted error (y keeps 3).
    try solver.removeConstraint(room)
    try solver.addConstraint(push)
    solver.updateVariables()
    expectValue(solver, x, 23)
    expectValue(solver, y, 3)
  }

  /// A required inequality the solution meets exactly, over basic variables only (as when a
  /// layout is built with every frame at zero): its row's value is 0, so its slack is not a
  /// subject by the usual rule (a `<=` slack has coefficient +1), but basic at 0 it is
  /// feasible, and nothing pivots. (Met with room to spare, the row's sign is reversed and
  /// the slack is an ordinary subject.)
  @Test(arguments: representations)
  func anExactlyMetRequiredInequalityNeedsNoPivot(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    try solver.addConstraint((x == 5) | .weak)
    try solver.addConstraint((y == 3) | .weak)
    let before = solver.counters
    try solver.addConstraint(x + y <= 8)
    let work = solver.counters - before
    #expect(work.dualInsertions == 1 && work.pivots == 0 && work.phaseOnes == 0)
    solver.updateVariables()
    expectValue(solver, x, 5)
    expectValue(solver, y, 3)
  }
}
