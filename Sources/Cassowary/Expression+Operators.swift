// The operator DSL: `x + 2 * y <= w - 8`. Overloads are concrete (Variable, Expression,
// Double) rather than generic so the type checker stays fast on long layout expressions.

// MARK: - Arithmetic

public func + (lhs: Expression, rhs: Expression) -> Expression {
  Expression(lhs.terms + rhs.terms, constant: lhs.constant + rhs.constant)
}
public func + (lhs: Expression, rhs: Variable) -> Expression { lhs + Expression(rhs) }
public func + (lhs: Variable, rhs: Expression) -> Expression { Expression(lhs) + rhs }
public func + (lhs: Variable, rhs: Variable) -> Expression { Expression(lhs) + Expression(rhs) }
public func + (lhs: Expression, rhs: Double) -> Expression {
  Expression(lhs.terms, constant: lhs.constant + rhs)
}
public func + (lhs: Double, rhs: Expression) -> Expression { rhs + lhs }
public func + (lhs: Variable, rhs: Double) -> Expression { Expression(lhs) + rhs }
public func + (lhs: Double, rhs: Variable) -> Expression { Expression(rhs) + lhs }

public prefix func - (operand: Expression) -> Expression { operand.scaled(by: -1) }
public prefix func - (operand: Variable) -> Expression { Expression([Term(operand, -1)]) }

public func - (lhs: Expression, rhs: Expression) -> Expression { lhs + rhs.scaled(by: -1) }
public func - (lhs: Expression, rhs: Variable) -> Expression { lhs + -rhs }
public func - (lhs: Variable, rhs: Expression) -> Expression { Expression(lhs) - rhs }
public func - (lhs: Variable, rhs: Variable) -> Expression { Expression(lhs) + -rhs }
public func - (lhs: Expression, rhs: Double) -> Expression { lhs + -rhs }
public func - (lhs: Double, rhs: Expression) -> Expression { -rhs + lhs }
public func - (lhs: Variable, rhs: Double) -> Expression { Expression(lhs) + -rhs }
public func - (lhs: Double, rhs: Variable) -> Expression { -rhs + lhs }

public func * (lhs: Double, rhs: Expression) -> Expression { rhs.scaled(by: lhs) }
public func * (lhs: Expression, rhs: Double) -> Expression { lhs.scaled(by: rhs) }
public func * (lhs: Double, rhs: Variable) -> Expression { Expression([Term(rhs, lhs)]) }
public func * (lhs: Variable, rhs: Double) -> Expression { Expression([Term(lhs, rhs)]) }

/// Division by a number. Dividing by zero yields non-finite coefficients, which the solver
/// rejects with ``SolverError/nonFiniteConstraint(_:)``.
public func / (lhs: Expression, rhs: Double) -> Expression {
  Expression(
    lhs.terms.map { Term($0.variable, $0.coefficient / rhs) }, constant: lhs.constant / rhs)
}
public func / (lhs: Variable, rhs: Double) -> Expression { Expression([Term(lhs, 1 / rhs)]) }

// MARK: - Relations

public func == (lhs: Expression, rhs: Expression) -> Constraint { Constraint(lhs, .equal, rhs) }
public func == (lhs: Expression, rhs: Variable) -> Constraint { lhs == Expression(rhs) }
public func == (lhs: Variable, rhs: Expression) -> Constraint { Expression(lhs) == rhs }
/// Two bare variables: write it where a `Constraint` is expected (`solver.addConstraint(x == y)`
/// or `let c: Constraint = x == y`), since `Variable` is also `Equatable`.
public func == (lhs: Variable, rhs: Variable) -> Constraint { Expression(lhs) == Expression(rhs) }
public func == (lhs: Expression, rhs: Double) -> Constraint { lhs == Expression(constant: rhs) }
public func == (lhs: Double, rhs: Expression) -> Constraint { Expression(constant: lhs) == rhs }
public func == (lhs: Variable, rhs: Double) -> Constraint { Expression(lhs) == rhs }
public func == (lhs: Double, rhs: Variable) -> Constraint { lhs == Expression(rhs) }

public func <= (lhs: Expression, rhs: Expression) -> Constraint {
  Constraint(lhs, .lessOrEqual, rhs)
}
public func <= (lhs: Expression, rhs: Variable) -> Constraint { lhs <= Expression(rhs) }
public func <= (lhs: Variable, rhs: Expression) -> Constraint { Expression(lhs) <= rhs }
public func <= (lhs: Variable, rhs: Variable) -> Constraint { Expression(lhs) <= Expression(rhs) }
public func <= (lhs: Expression, rhs: Double) -> Constraint { lhs <= Expression(constant: rhs) }
public func <= (lhs: Double, rhs: Expression) -> Constraint { Expression(constant: lhs) <= rhs }
public func <= (lhs: Variable, rhs: Double) -> Constraint { Expression(lhs) <= rhs }
public func <= (lhs: Double, rhs: Variable) -> Constraint { lhs <= Expression(rhs) }

public func >= (lhs: Expression, rhs: Expression) -> Constraint {
  Constraint(lhs, .greaterOrEqual, rhs)
}
public func >= (lhs: Expression, rhs: Variable) -> Constraint { lhs >= Expression(rhs) }
public func >= (lhs: Variable, rhs: Expression) -> Constraint { Expression(lhs) >= rhs }
public func >= (lhs: Variable, rhs: Variable) -> Constraint { Expression(lhs) >= Expression(rhs) }
public func >= (lhs: Expression, rhs: Double) -> Constraint { lhs >= Expression(constant: rhs) }
public func >= (lhs: Double, rhs: Expression) -> Constraint { Expression(constant: lhs) >= rhs }
public func >= (lhs: Variable, rhs: Double) -> Constraint { Expression(lhs) >= rhs }
public func >= (lhs: Double, rhs: Variable) -> Constraint { lhs >= Expression(rhs) }
