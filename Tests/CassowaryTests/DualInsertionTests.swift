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
  /// left. The dual simplex undoes its pivots and drops the row, phase one decides (and
  /// refuses), and the solver is as it was: the same basis and values, no repair rebuild
  /// (only the three that verify a refusal), the conflict naming the constraints in the way.
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
    let basis = Set(solver.tableau.rowBasic.filter(\.isValid).map(\.raw))
    let before = solver.counters

    let push = x - y >= 20
    #expect(throws: SolverError.unsatisfiableConstraint(push)) { try solver.addConstraint(push) }
    let work = solver.counters - before
    #expect(work.dualInsertions >= 1 && work.phaseOnes >= 1, "\(work)")
    #expect(work.rebuilds == 3, "a rebuild beyond the three that verify the refusal: \(work)")
    #expect(Set(solver.tableau.rowBasic.filter(\.isValid).map(\.raw)) == basis)
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

  /// An equality whose dummy no cell can move toward zero: refused (by phase one, after the
  /// dual simplex hands it over), and the solver keeps its solution.
  @Test(arguments: representations)
  func anEqualityNoCellCanMeetIsRefused(_ representation: Solver.Representation) throws {
    let (solver, x, y, _) = try Self.refuseASumBelowTheFloors(representation)
    solver.updateVariables()
    expectValue(solver, x, 12)
    expectValue(solver, y, 12)
  }

  /// Floors of 10 under x and y, weak preferences for 12, then `x + y == 5`: refused, the
  /// conflict naming both floors. Returns the solver, x, y and x's floor.
  static func refuseASumBelowTheFloors(
    _ representation: Solver.Representation
  ) throws -> (Solver, Variable, Variable, Constraint) {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    let xFloor = x >= 10
    let yFloor = y >= 10
    try solver.addConstraint(xFloor)
    try solver.addConstraint(yFloor)
    try solver.addConstraint((x == 12) | .weak)
    try solver.addConstraint((y == 12) | .weak)
    let sum = x + y == 5
    #expect(throws: SolverError.unsatisfiableConstraint(sum)) { try solver.addConstraint(sum) }
    #expect(solver.conflictingConstraints.contains { $0 === xFloor })
    #expect(solver.conflictingConstraints.contains { $0 === yFloor })
    return (solver, x, y, xFloor)
  }

  /// The conflicting constraints are those of the last operation: a refusal names them, the
  /// next operation that succeeds (an addition, a constant change) empties the list, and a
  /// refused constant change names its own. (Each operation empties the list only when it
  /// holds something: this fails if it is never emptied.)
  @Test(arguments: representations)
  func theConflictsNamedAreTheLastOperations(_ representation: Solver.Representation) throws {
    let (solver, x, y, xFloor) = try Self.refuseASumBelowTheFloors(representation)

    try solver.addConstraint((x + y == 24) | .weak)
    #expect(solver.conflictingConstraints.isEmpty)

    // x <= 30, then x <= -5 (the constant of `x - 30 <= 0` set to 5): refused, naming the
    // floor, and the old constant kept.
    let cap = x <= 30
    try solver.addConstraint(cap)
    #expect(throws: SolverError.unsatisfiableConstraint(cap)) {
      try solver.setConstant(5, of: cap)
    }
    #expect(solver.conflictingConstraints.contains { $0 === xFloor })
    #expect(solver.constant(of: cap) == -30)
    try solver.setConstant(-20, of: cap)
    #expect(solver.conflictingConstraints.isEmpty)
    solver.updateVariables()
    expectValue(solver, x, 12)
    expectValue(solver, y, 12)
  }

  /// The operations that cannot refuse a required constraint empty the list as well: after
  /// one of them, the conflicts of an earlier refusal are not reported as its own.
  enum OtherOperation: CaseIterable, Sendable {
    case removeConstraint, addEditVariable, removeEditVariable, suggestValue, suggestValues
    case reset
  }

  @Test(arguments: OtherOperation.allCases)
  func anyOtherOperationEmptiesTheConflicts(_ operation: OtherOperation) throws {
    let (solver, x, y, _) = try Self.refuseASumBelowTheFloors(.adaptive)
    let preference = (x + y == 24) | .weak
    try solver.addConstraint(preference)
    try solver.addEditVariable(y, strength: .strong)
    let low = x + y <= 5
    #expect(throws: SolverError.unsatisfiableConstraint(low)) { try solver.addConstraint(low) }
    #expect(!solver.conflictingConstraints.isEmpty)
    switch operation {
    case .removeConstraint: try solver.removeConstraint(preference)
    case .addEditVariable: try solver.addEditVariable(x, strength: .medium)
    case .removeEditVariable: try solver.removeEditVariable(y)
    case .suggestValue: try solver.suggestValue(y, 15)
    case .suggestValues: try solver.suggestValues([(y, 16)])
    case .reset: solver.reset()
    }
    #expect(solver.conflictingConstraints.isEmpty)
  }

  /// An equality that already holds, over cells between the pivot threshold (1e-8) and the
  /// smallest a row keeps (1e-10): no cell is fit to pivot on, so the dual simplex hands the
  /// row to phase one, which adds it (its artificial symbol is zero at once). Refusing it
  /// would refuse a satisfiable system (w = y = 0).
  @Test(arguments: representations)
  func anEqualityOverTinyCellsIsAdded(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let w = solver.makeVariable("w")
    let y = solver.makeVariable("y")
    try solver.addConstraint(w >= 0)
    try solver.addConstraint(y - 0.001 * w == 0)
    let before = solver.counters
    try solver.addConstraint(1e-6 * y == 0)
    let work = solver.counters - before
    #expect(work.dualInsertions == 1 && work.phaseOnes == 1, "\(work)")
    solver.updateVariables()
    expectValue(solver, w, 0)
    expectValue(solver, y, 0)
  }

  /// The dummy's entering symbol is the cheapest: of two preferences the required sum
  /// breaks, the weak one gives way, in the one dual pivot (the strong one was added first,
  /// so its errors are the lower symbols: a rule that took the first cell would pivot on
  /// it and need a primal repair after).
  @Test(arguments: representations)
  func theCheapestPreferenceGivesWayInOnePivot(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    try solver.addConstraint((x == 5) | .strong)
    try solver.addConstraint((y == 5) | .weak)
    let before = solver.counters
    try solver.addConstraint(x + y == 30)
    let work = solver.counters - before
    #expect(work.dualInsertions == 1 && work.phaseOnes == 0 && work.pivots == 1, "\(work)")
    solver.updateVariables()
    expectValue(solver, x, 5)
    expectValue(solver, y, 25)
  }

  /// A strong equality made required goes back in through the dual insertion; its new
  /// constant then moves it in place, and removing it gives the preferences back.
  @Test(arguments: representations)
  func anEqualityMadeRequiredKeepsItsInPlaceChanges(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    try solver.addConstraint(x >= 0)
    try solver.addConstraint(y >= 0)
    try solver.addConstraint((x == 5) | .weak)
    try solver.addConstraint((y == 5) | .medium)
    let sum = (x + y == 30) | .strong
    try solver.addConstraint(sum)
    let before = solver.counters
    try solver.setStrength(.required, of: sum)
    #expect((solver.counters - before).dualInsertions == 1)
    try solver.setConstant(-40, of: sum)
    solver.updateVariables()
    expectValue(solver, x, 35)
    expectValue(solver, y, 5)
    #expect(throws: SolverError.unsatisfiableConstraint(sum)) {
      try solver.setConstant(10, of: sum)
    }
    solver.updateVariables()
    expectValue(solver, x, 35)
    try solver.removeConstraint(sum)
    solver.updateVariables()
    expectValue(solver, x, 5)
    expectValue(solver, y, 5)
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
