import Cassowary
import Testing

/// A constant change refused because a redundant required equality would break names the
/// equalities it contradicts. No dual simplex runs there (the shift alone breaks the
/// redundant equality), so no pivot search names the blocking symbols; the conflicts come
/// from the broken dummy's row. Found by the fuzzer's probes: `setConstants` refusing
/// `1.25 * (b87.y + 0.5 * b87.h - b86.y - 0.5 * b86.h) == -3` beside that same
/// combination `== 0` named no conflicting constraint.
@Suite struct RefusedConstantConflictTests {
  enum Route: CaseIterable { case setConstant, setConstants }

  /// `x >= 10`, `x - y == 0` and its twin `2x - 2y == 0` (redundant), and a weak `y == 40`.
  static func solverWithTwins(
    _ representation: Solver.Representation
  ) throws -> (Solver, x: Variable, y: Variable, twins: [Constraint]) {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    let twins = [x - y == 0, 2 * x - 2 * y == 0]
    try solver.addConstraint(x >= 10)
    for twin in twins { try solver.addConstraint(twin) }
    try solver.addConstraint((y == 40) | .weak)
    return (solver, x, y, twins)
  }

  /// `x - y == 0` twice: the second is redundant. Moving either constant must be refused,
  /// naming the other.
  @Test(arguments: representations, Route.allCases)
  func aRedundantTwinIsNamed(_ representation: Solver.Representation, _ route: Route) throws {
    for moved in 0..<2 {
      let (solver, x, y, twins) = try Self.solverWithTwins(representation)
      #expect(throws: SolverError.unsatisfiableConstraint(twins[moved])) {
        switch route {
        case .setConstant: try solver.setConstant(6, of: twins[moved])
        case .setConstants: try solver.setConstants([(twins[moved], 6)])
        }
      }
      let conflicts = solver.conflictingConstraints
      #expect(conflicts.count == 1, "\(representation) \(route) moved \(moved): \(conflicts)")
      #expect(conflicts.contains { $0 === twins[1 - moved] })
      #expect(solver.constant(of: twins[moved]) == 0)
      solver.updateVariables()
      #expect(solver.value(of: x) == 40 && solver.value(of: y) == 40)
    }
  }

  /// A batch names its first required change, here a floor that is only loosened; the
  /// conflicts are still the broken twin and its partner.
  @Test(arguments: representations)
  func aBatchNamesTheBrokenTwins(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    let floor = x >= 10
    let twins = [x - y == 0, 2 * x - 2 * y == 0]
    try solver.addConstraint(floor)
    for twin in twins { try solver.addConstraint(twin) }
    try solver.addConstraint((y == 40) | .weak)
    #expect(throws: SolverError.unsatisfiableConstraint(floor)) {
      try solver.setConstants([(floor, -5), (twins[1], 6)])
    }
    let conflicts = solver.conflictingConstraints
    #expect(conflicts.count == 2, "\(representation): \(conflicts)")
    for twin in twins { #expect(conflicts.contains { $0 === twin }) }
    #expect(solver.constant(of: floor) == -10)
  }

  /// A batch that changes a twin twice (0 to 12 to 6) moved it by 6 in all: the conflict
  /// comes from that net shift (summing each entry from the final constant, 6 + (6 - 12),
  /// found no moved equality; the stop's review).
  @Test(arguments: representations)
  func aTwinChangedTwiceInABatchIsNamed(_ representation: Solver.Representation) throws {
    let (solver, _, _, twins) = try Self.solverWithTwins(representation)
    #expect(throws: SolverError.unsatisfiableConstraint(twins[0])) {
      try solver.setConstants([(twins[0], 12), (twins[0], 6)])
    }
    let conflicts = solver.conflictingConstraints
    #expect(conflicts.contains { $0 === twins[1] }, "\(representation): \(conflicts)")
    #expect(solver.constant(of: twins[0]) == 0)
  }

  /// Three equalities imply a fourth: `a == b`, `b == c` and `a - c == 0`. Moving the
  /// constant of any one names the other two.
  @Test(arguments: representations)
  func aChainOfEqualitiesIsNamed(_ representation: Solver.Representation) throws {
    for moved in 0..<3 {
      let solver = Solver(representation: representation)
      let a = solver.makeVariable("a")
      let b = solver.makeVariable("b")
      let c = solver.makeVariable("c")
      let equalities = [a - b == 0, b - c == 0, a - c == 0]
      for e in equalities { try solver.addConstraint(e) }
      try solver.addConstraint((a == 5) | .weak)
      #expect(throws: SolverError.unsatisfiableConstraint(equalities[moved])) {
        try solver.setConstant(-2, of: equalities[moved])
      }
      let conflicts = solver.conflictingConstraints
      let others = equalities.indices.filter { $0 != moved }.map { equalities[$0] }
      #expect(conflicts.count == 2, "\(representation) moved \(moved): \(conflicts)")
      for other in others { #expect(conflicts.contains { $0 === other }) }
    }
  }
}
