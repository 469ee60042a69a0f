@testable import Cassowary
import Testing

/// Removing a required equality that another required equality repeats: the twin must stay
/// required. (A review at stop 69 found it lost: `v == 20` added twice and once at strong,
/// the first removed, then `v == 60` was accepted and `v` read 60. The removal made the
/// twin's basic dummy a row of the strong constraint's errors; the check then saw the broken
/// twin, every rebuild refused the new constraint, and the broken state was kept.)
@Suite struct RedundantEqualityTests {
  /// Whether every basic dummy's row names dummies only: the form in which a required
  /// equality that others imply stays held at zero.
  static func dummyRowsHoldDummiesOnly(_ solver: Solver) -> Bool {
    var tableau = solver.tableau
    for slot in tableau.rows.indices where tableau.rowBasic[slot].isDummy {
      let row = tableau.rows[slot]
      let expanded = tableau.lazy ? tableau.expand(row, slot: slot) : row
      if !expanded.symbols.allSatisfy(\.isDummy) { return false }
    }
    return true
  }

  /// `w == 40`, `v == 20` twice (`first` and `twin`) and once at strong, and with `weak` a
  /// weak `v == w + 5`: the system of the review's report, before the removal.
  static func solverWithTwins(
    _ representation: Solver.Representation, weak: Bool
  ) throws -> (Solver, v: Variable, w: Variable, first: Constraint, twin: Constraint) {
    let solver = Solver(representation: representation)
    let v = solver.makeVariable("v")
    let w = solver.makeVariable("w")
    try solver.addConstraint(w == 40)
    let first = v == 20
    let twin = v == 20
    try solver.addConstraint(first)
    try solver.addConstraint(twin)
    try solver.addConstraint((v == 20) | .strong)
    if weak { try solver.addConstraint((v == w + 5) | .weak) }
    return (solver, v, w, first, twin)
  }

  @Test(arguments: representations, [false, true])
  func theTwinOfARemovedEqualityStaysRequired(
    _ representation: Solver.Representation, weak: Bool
  ) throws {
    let (solver, v, w, first, twin) = try Self.solverWithTwins(representation, weak: weak)
    try solver.removeConstraint(first)
    #expect(Self.dummyRowsHoldDummiesOnly(solver))
    let rebuilds = solver.counters.rebuilds
    for conflict in [v == 60, v >= w + 20, v <= 0] {
      #expect(throws: SolverError.unsatisfiableConstraint(conflict)) {
        try solver.addConstraint(conflict)
      }
    }
    solver.updateVariables()
    #expect(solver.value(of: v) == 20)
    #expect(solver.value(of: w) == 40)
    // The twin goes too: then `v` is free of required constraints.
    try solver.removeConstraint(twin)
    try solver.addConstraint(v == 60)
    solver.updateVariables()
    #expect(solver.value(of: v) == 60)
    #expect(solver.counters.rebuilds >= rebuilds)
  }

  /// Three equal equalities removed in every order: whichever is left holds.
  @Test(arguments: representations)
  func anyOfThreeEqualEqualitiesKeepsTheValue(_ representation: Solver.Representation) throws {
    for order in [[0, 1], [1, 0], [2, 0], [0, 2], [1, 2], [2, 1]] {
      let solver = Solver(representation: representation)
      let v = solver.makeVariable("v")
      let equalities = (0..<3).map { _ in v == 20 }
      for c in equalities { try solver.addConstraint(c) }
      try solver.addConstraint((v == 30) | .strong)
      for i in order { try solver.removeConstraint(equalities[i]) }
      #expect(Self.dummyRowsHoldDummiesOnly(solver), "order \(order)")
      let conflict = v == 25
      #expect(throws: SolverError.unsatisfiableConstraint(conflict)) {
        try solver.addConstraint(conflict)
      }
      solver.updateVariables()
      #expect(solver.value(of: v) == 20, "order \(order)")
    }
  }
}
