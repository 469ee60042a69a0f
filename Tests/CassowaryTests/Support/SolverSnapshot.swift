import Cassowary
import Testing

/// Everything observable about a solver for a given set of variables and constraints, to
/// check that a refused operation left it as it was.
struct SolverSnapshot {
  var values: [Double]
  var hasConstraint: [Bool]
  var hasEditVariable: [Bool]
  var constants: [Double?]
  var strengths: [Strength?]
  var constraintCount: Int

  /// Calls `updateVariables()` first, so the values are those of the current solution.
  init(_ solver: Solver, variables: [Variable], constraints: [Constraint]) {
    solver.updateVariables()
    values = variables.map { solver.value(of: $0) }
    hasConstraint = constraints.map { solver.hasConstraint($0) }
    hasEditVariable = variables.map { solver.hasEditVariable($0) }
    constants = constraints.map { solver.constant(of: $0) }
    strengths = constraints.map { solver.strength(of: $0) }
    constraintCount = solver.constraintCount
  }

  /// The first difference from `other`, or `nil` when they agree (values within `tolerance`).
  func difference(from other: SolverSnapshot, tolerance: Double) -> String? {
    for (i, (a, b)) in zip(values, other.values).enumerated()
    where !isClose(a, b, tolerance: tolerance) {
      return "value of variable \(i): \(a) versus \(b)"
    }
    if hasConstraint != other.hasConstraint { return "hasConstraint differs" }
    if hasEditVariable != other.hasEditVariable { return "hasEditVariable differs" }
    if constants != other.constants { return "constant(of:) differs" }
    if strengths != other.strengths { return "strength(of:) differs" }
    if constraintCount != other.constraintCount { return "constraintCount differs" }
    return nil
  }
}

/// Expects `solver` to look exactly like `before` (values within `tolerance`).
func expectUnchanged(
  _ solver: Solver, since before: SolverSnapshot, variables: [Variable],
  constraints: [Constraint], tolerance: Double = exactTolerance, _ context: String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let after = SolverSnapshot(solver, variables: variables, constraints: constraints)
  let difference = after.difference(from: before, tolerance: tolerance)
  #expect(difference == nil, "\(context) \(difference ?? "")", sourceLocation: sourceLocation)
}
