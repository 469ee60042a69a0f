/// Why a solver operation was refused. Each case carries the offending value.
///
/// Every throwing ``Solver`` method leaves the solver as it was before the call when it
/// throws.
public enum SolverError: Error, Equatable, CustomStringConvertible {
  /// The constraint instance is already in the solver.
  case duplicateConstraint(Constraint)
  /// The constraint instance is not in the solver.
  case unknownConstraint(Constraint)
  /// A required constraint (or a required constraint's new constant) cannot hold together
  /// with the required constraints already in the solver.
  case unsatisfiableConstraint(Constraint)
  /// The variable already is an edit variable.
  case duplicateEditVariable(Variable)
  /// The variable is not an edit variable.
  case unknownEditVariable(Variable)
  /// Edit variables must be weaker than required.
  case requiredEditStrength(Variable)
  /// A constraint whose two directions weigh differently
  /// (``Constraint/init(_:equalWithExcess:shortfall:)``, ``Solver/setStrengths(excess:shortfall:of:)``)
  /// must be a non-required equality with both weights non-required.
  case requiredSplitStrength(Constraint)
  /// A coefficient or the constant of the constraint is infinite or NaN.
  case nonFiniteConstraint(Constraint)
  /// A suggested value or a new constant is infinite or NaN.
  case nonFiniteValue(Double)
  /// A coefficient of the constraint (the number given) is outside what the solver's
  /// precision handles: non-zero magnitudes from ``Limits/smallestCoefficient`` to
  /// ``Limits/largestCoefficient``.
  case coefficientOutOfRange(Constraint, Double)
  /// The constant of the constraint is larger than ``Limits/largestConstant``.
  case constantOutOfRange(Constraint, Double)
  /// A suggested value or a new constant is larger than ``Limits/largestConstant``.
  case valueOutOfRange(Double)
  /// The variable was not created by this solver.
  case unknownVariable(Variable)

  public var description: String {
    switch self {
    case .duplicateConstraint(let c): "duplicate constraint: \(c)"
    case .unknownConstraint(let c): "unknown constraint: \(c)"
    case .unsatisfiableConstraint(let c): "unsatisfiable required constraint: \(c)"
    case .duplicateEditVariable(let v): "duplicate edit variable v\(v.index)"
    case .unknownEditVariable(let v): "unknown edit variable v\(v.index)"
    case .requiredEditStrength(let v): "edit variable v\(v.index) cannot have required strength"
    case .requiredSplitStrength(let c):
      "only a non-required equality can weigh its two directions differently: \(c)"
    case .nonFiniteConstraint(let c): "non-finite coefficient or constant in \(c)"
    case .nonFiniteValue(let x): "non-finite value \(x)"
    case .coefficientOutOfRange(let c, let x):
      "coefficient \(x) out of range (non-zero magnitudes"
        + " \(Limits.text(Limits.smallestCoefficient)) to"
        + " \(Limits.text(Limits.largestCoefficient))) in \(c)"
    case .constantOutOfRange(let c, let x):
      "constant \(x) out of range (magnitudes up to \(Limits.text(Limits.largestConstant))) in \(c)"
    case .valueOutOfRange(let x):
      "value \(x) out of range (magnitudes up to \(Limits.text(Limits.largestConstant)))"
    case .unknownVariable(let v): "variable v\(v.index) does not belong to this solver"
    }
  }
}
