@testable import Cassowary
import Testing

/// An operation that its tableau accepts but that leaves the required constraints
/// infeasible is undone and refused (`Solver.refuseUnrepairable`). Before stop 70 the broken
/// state was kept and the operation reported success. Since the twin rule
/// (`RedundantEqualityTests`) the one input known to get an infeasible operation past a
/// tableau is soak seed 72110644 (a damaged rebuild took it; `DifferentialFuzzSliceTests`),
/// so these tests switch that rule off (`Tableau.skipsTwinRule`): removing one of two
/// `v == 20` then leaves the other's dummy row naming a strong constraint's errors, and the
/// tableau accepts what contradicts `v == 20`; the check at the end of the operation sees
/// the broken twin and every rebuild refuses.
@Suite struct UnrepairableRefusalTests {
  /// A solver holding `v == 20` (`twin`: required, its twin removed with the twin rule off),
  /// `v == 20` at strong, `w == 40` and a weak `v == w + 5`, and a soft `v >= 0` to change.
  static func solverWithALostTwin(
    _ representation: Solver.Representation
  ) throws -> (Solver, v: Variable, w: Variable, soft: Constraint, twin: Constraint) {
    let (solver, v, w, first, twin) = try RedundantEqualityTests.solverWithTwins(
      representation, weak: true)
    let soft = (v >= 0) | .medium
    try solver.addConstraint(soft)
    solver.tableau.skipsTwinRule = true
    try solver.removeConstraint(first)
    return (solver, v, w, soft, twin)
  }

  /// The conflicts of the refusal name the equality the operation contradicts, and not the
  /// refused constraint.
  static func expectConflicts(_ solver: Solver, twin: Constraint, refused: Constraint) {
    let conflicts = solver.conflictingConstraints
    #expect(conflicts.contains { $0 === twin }, "\(conflicts)")
    #expect(!conflicts.contains { $0 === refused })
  }

  static func expectUnchanged(_ solver: Solver, _ v: Variable, _ w: Variable, count: Int) {
    solver.updateVariables()
    #expect(solver.value(of: v) == 20)
    #expect(solver.value(of: w) == 40)
    #expect(solver.constraintCount == count)
  }

  @Test(arguments: representations)
  func anAdditionIsRefused(_ representation: Solver.Representation) throws {
    let (solver, v, w, _, twin) = try Self.solverWithALostTwin(representation)
    let count = solver.constraintCount
    let conflict = v == 60
    #expect(throws: SolverError.unsatisfiableConstraint(conflict)) {
      try solver.addConstraint(conflict)
    }
    Self.expectConflicts(solver, twin: twin, refused: conflict)
    #expect(!solver.hasConstraint(conflict))
    Self.expectUnchanged(solver, v, w, count: count)
    // The solver goes on: what holds with `v == 20` is accepted.
    try solver.addConstraint(v >= 10)
    Self.expectUnchanged(solver, v, w, count: count + 1)
  }

  @Test(arguments: representations)
  func aConstantChangeIsRefused(_ representation: Solver.Representation) throws {
    let (solver, v, w, _, twin) = try Self.solverWithALostTwin(representation)
    let floor = v >= 10
    try solver.addConstraint(floor)
    let count = solver.constraintCount
    #expect(throws: SolverError.unsatisfiableConstraint(floor)) {
      try solver.setConstant(-30, of: floor)
    }
    Self.expectConflicts(solver, twin: twin, refused: floor)
    #expect(solver.constant(of: floor) == -10)
    Self.expectUnchanged(solver, v, w, count: count)
  }

  @Test(arguments: representations)
  func aBatchOfConstantsIsRefused(_ representation: Solver.Representation) throws {
    let (solver, v, w, soft, twin) = try Self.solverWithALostTwin(representation)
    let floor = v >= 10
    let cap = v <= 100
    try solver.addConstraint(floor)
    try solver.addConstraint(cap)
    let count = solver.constraintCount
    // Named as `changeConstants` names a refusal: the first required change that moves a
    // constant (the cap's stays).
    #expect(throws: SolverError.unsatisfiableConstraint(floor)) {
      try solver.setConstants([(soft, -3), (cap, -100), (floor, -25), (floor, -30)])
    }
    Self.expectConflicts(solver, twin: twin, refused: floor)
    #expect(solver.constant(of: cap) == -100)
    #expect(solver.constant(of: floor) == -10)
    #expect(solver.constant(of: soft) == 0)
    Self.expectUnchanged(solver, v, w, count: count)
  }

  @Test(arguments: representations, [false, true])
  func aStrengthChangeIsRefused(_ representation: Solver.Representation, split: Bool) throws {
    let (solver, v, w, _, twin) = try Self.solverWithALostTwin(representation)
    let pull = (v == 50) | .weak
    try solver.addConstraint(pull)
    let count = solver.constraintCount
    #expect(throws: SolverError.unsatisfiableConstraint(pull)) {
      if split {
        try solver.setStrengths(excess: .required, shortfall: .required, of: pull)
      } else {
        try solver.setStrength(.required, of: pull)
      }
    }
    Self.expectConflicts(solver, twin: twin, refused: pull)
    #expect(solver.strength(of: pull) == .weak)
    #expect(solver.shortfallStrength(of: pull) == .weak)
    Self.expectUnchanged(solver, v, w, count: count)
  }
}
