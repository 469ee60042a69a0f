import Cassowary
import Testing

// Shared comparisons: solver values are doubles, so every check uses a tolerance.

/// Tolerance for hand-computed layouts: the pivots on small integer systems are exact up to
/// a few ulps.
let exactTolerance = 1.0e-9

func isClose(_ a: Double, _ b: Double, tolerance: Double = exactTolerance) -> Bool {
  abs(a - b) <= tolerance
}

/// Checks the value of `variable` read after `updateVariables()`.
func expectValue(
  _ solver: Solver, _ variable: Variable, _ expected: Double,
  tolerance: Double = exactTolerance, sourceLocation: SourceLocation = #_sourceLocation
) {
  let actual = solver.value(of: variable)
  #expect(
    isClose(actual, expected, tolerance: tolerance),
    "\(solver.name(of: variable)) = \(actual), expected \(expected)",
    sourceLocation: sourceLocation)
}

/// Checks an expression term by term (order included) and its constant.
func expectExpression(
  _ expression: Expression, _ terms: [(Variable, Double)], constant: Double,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let same =
    expression.terms.count == terms.count
    && zip(expression.terms, terms).allSatisfy { term, expected in
      term.variable.index == expected.0.index && isClose(term.coefficient, expected.1)
    }
    && isClose(expression.constant, constant)
  #expect(same, "got \(expression)", sourceLocation: sourceLocation)
}

/// `expression` evaluated at the solver's current values (after `updateVariables()`).
func evaluate(_ expression: Expression, in solver: Solver) -> Double {
  expression.terms.reduce(expression.constant) {
    $0 + $1.coefficient * solver.value(of: $1.variable)
  }
}

/// Every tableau representation; the solver promises the same solutions from each.
let representations: [Solver.Representation] = [.adaptive, .lazy, .canonical]
