import Synchronization

/// The relation of a constraint's expression to zero.
public enum Relation: String, Hashable, Sendable {
  case lessOrEqual = "<="
  case equal = "=="
  case greaterOrEqual = ">="
}

/// An immutable linear constraint `expression relation 0` with a strength.
///
/// A non-required equality can weigh its two directions differently
/// (``init(_:equalWithExcess:shortfall:)``): one row with two error terms instead of two
/// inequalities, each with a slack and an error, in two rows.
///
/// A constraint has identity, like kiwi's: the solver tracks the instance, so adding the same
/// instance twice is a ``SolverError/duplicateConstraint(_:)`` while an equal-looking second
/// instance is a separate constraint. Its constant and strength can later be changed inside a
/// solver (``Solver/setConstant(_:of:)``, ``Solver/setStrength(_:of:)``); the values here
/// are the ones it was created with.
public final class Constraint: Hashable, Sendable, CustomStringConvertible {
  public let expression: Expression
  public let relation: Relation
  /// The index of this constraint's record in the solver that claimed it (`place`), written
  /// and read by that solver only. (Declared here, after the one-byte relation, so that
  /// the two fields of the place add no size class: 64 bytes with them, 56 without.)
  let placeRecord = Atomic<UInt32>(0)
  /// The constraint's strength; for an equality made with
  /// ``init(_:equalWithExcess:shortfall:)``, the weight of an excess (`expression > 0`).
  public let strength: Strength
  /// The weight of a shortfall: `expression < 0` for an equality, a violation for an
  /// inequality. Equal to ``strength`` unless the constraint was made with
  /// ``init(_:equalWithExcess:shortfall:)``.
  public let shortfallStrength: Strength
  /// The token of the solver whose record index `placeRecord` holds, 0 while none has
  /// claimed it (see `ConstraintIndex`).
  let placeOwner = Atomic<UInt64>(0)

  /// `expression relation 0` at `strength`. Repeated variables are combined.
  public init(
    _ expression: consuming Expression, _ relation: Relation, strength: Strength = .required
  ) {
    // Taken as it is when reduced already (most are): `reduced()` returned a copy, a retain
    // and a release of the terms per constraint made.
    self.expression = expression.isReduced ? expression : expression.reduced()
    self.relation = relation
    self.strength = strength
    self.shortfallStrength = strength
  }

  /// `expression == 0` with an excess (`expression > 0`) weighing `excess` and a shortfall
  /// weighing `shortfall`: the same objective as the pair `expression <= 0` at `excess` and
  /// `expression >= 0` at `shortfall` (a view's content hugging and compression resistance),
  /// in one row. Neither may be required (a solver refuses it with
  /// ``SolverError/requiredSplitStrength(_:)``): a required side is an inequality of its own.
  public init(
    _ expression: consuming Expression, equalWithExcess excess: Strength, shortfall: Strength
  ) {
    self.expression = expression.isReduced ? expression : expression.reduced()
    self.relation = .equal
    self.strength = excess
    self.shortfallStrength = shortfall
  }

  /// Whether the two directions weigh differently.
  public var isSplit: Bool { shortfallStrength != strength }

  /// `lhs relation rhs`, stored as `lhs - rhs relation 0`.
  public convenience init(
    _ lhs: Expression, _ relation: Relation, _ rhs: Expression, strength: Strength = .required
  ) {
    self.init(lhs + rhs.scaled(by: -1), relation, strength: strength)
  }

  /// The same constraint at another strength (a new instance; both directions of a split
  /// equality alike).
  public func withStrength(_ strength: Strength) -> Constraint {
    Constraint(expression, relation, strength: strength)
  }

  public static func == (lhs: Constraint, rhs: Constraint) -> Bool { lhs === rhs }

  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  public var description: String {
    var text = ""
    for term in expression.terms {
      let sign = term.coefficient < 0 ? "-" : "+"
      let magnitude = abs(term.coefficient)
      let factor = magnitude == 1 ? "" : "\(magnitude) * "
      text += text.isEmpty ? (sign == "-" ? "-" : "") : " \(sign) "
      text += "\(factor)v\(term.variable.index)"
    }
    if expression.constant != 0 || text.isEmpty {
      let sign = expression.constant < 0 ? "-" : "+"
      text += text.isEmpty ? "\(expression.constant)" : " \(sign) \(abs(expression.constant))"
    }
    let weight = isSplit ? "\(strength)/\(shortfallStrength)" : "\(strength)"
    return "\(text) \(relation.rawValue) 0 @\(weight)"
  }
}

/// `constraint | strength`: the same constraint at another strength, as kiwisolver spells it.
public func | (constraint: Constraint, strength: Strength) -> Constraint {
  constraint.withStrength(strength)
}
