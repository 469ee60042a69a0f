import Cassowary

/// One generated system and everything done to it: the constraints over the boxes'
/// variables, a witness layout, and the operations a replay performs, building included.
///
/// A case is pure data, independent of any solver, so that every tableau representation
/// replays exactly the same thing and a failure can be written out as a script.
public struct FuzzCase: Sendable {
  public let seed: UInt64
  public let boxCount: Int
  /// Whether the boxes have a vertical axis (`y`, `h`) besides `x` and `w`.
  public let vertical: Bool
  /// `b12.x`, `b12.w`, ... indexed like `witness`.
  public let variableNames: [String]
  /// One value per variable satisfying every required constraint of the case, at every
  /// constant and strength the operations ever give it. Required constraints are only ever
  /// made to hold there, so no subset of them can be unsatisfiable.
  public let witness: [Double]
  public let constraints: [FuzzConstraint]
  /// Building first (`add` in shuffled order, the root edit), then the rounds.
  public let operations: [FuzzOperation]
}

/// `coefficient * variable`, the variable an index into ``FuzzCase/variableNames``.
public struct FuzzTerm: Sendable, Hashable {
  public let variable: Int
  public let coefficient: Double
}

/// A constraint `terms + constant relation 0` as generated; the operations may later change
/// its constant and strength.
public struct FuzzConstraint: Sendable {
  /// What the constraint means in the layout, for messages and script comments.
  public enum Role: String, Sendable {
    case origin, inset, minimum, preferred, gap, chain, ratio, centring, equalSize, aspect
    case tieBreaker = "tie-breaker"
  }

  public let label: String
  public let role: Role
  /// The boxes involved, e.g. "b5 in b2".
  public let note: String
  public let terms: [FuzzTerm]
  public let constant: Double
  public let relation: Relation
  public let strength: Strength
  /// For a non-required equality that weighs its two directions differently, the weight of
  /// a shortfall (``strength`` is then that of an excess); nil otherwise.
  public let shortfall: Strength?

  /// `terms + constant` at `values`.
  public func residual(_ values: [Double], constant: Double) -> Double {
    var sum = constant
    for term in terms { sum += term.coefficient * values[term.variable] }
    return sum
  }

  /// The weighted violation at `strength` and `shortfall` (see ``shortfall``), `noise` and
  /// below counting as none.
  public func weightedViolation(
    _ values: [Double], constant: Double, strength: Strength, shortfall: Strength?,
    noise: Double
  ) -> Double {
    let r = residual(values, constant: constant)
    guard let shortfall, relation == .equal else {
      let v = violation(values, constant: constant)
      return v > noise ? strength.value * v : 0
    }
    guard abs(r) > noise else { return 0 }
    return r > 0 ? strength.value * r : shortfall.value * -r
  }

  /// How far `values` are from satisfying the constraint with `constant`, 0 if they do.
  public func violation(_ values: [Double], constant: Double) -> Double {
    let r = residual(values, constant: constant)
    switch relation {
    case .equal: return abs(r)
    case .lessOrEqual: return max(0, r)
    case .greaterOrEqual: return max(0, -r)
    }
  }

  /// The magnitude the residual is computed from: round-off in it scales with this.
  public func scale(_ values: [Double], constant: Double) -> Double {
    var sum = abs(constant)
    for term in terms { sum += abs(term.coefficient * values[term.variable]) }
    return sum
  }
}

/// A suggested value for an edit variable.
public struct FuzzSuggestion: Sendable {
  public let variable: Int
  public let value: Double
}

/// A new constant for a constraint, an element of a batch change.
public struct FuzzConstantChange: Sendable {
  public let constraint: Int
  public let constant: Double
}

/// One step of a replay. Constraints and variables are indices into the case's arrays.
public enum FuzzOperation: Sendable {
  /// Adds a constraint at its current constant and strength (a re-add after a removal is
  /// the same operation, with a new `Constraint` instance).
  case add(Int)
  case remove(Int)
  case setConstant(Int, Double)
  case setConstants([FuzzConstantChange])
  /// A new strength; with a shortfall, the two weights of a split equality
  /// (``Solver/setStrengths(excess:shortfall:of:)``).
  case setStrength(Int, Strength, shortfall: Strength?)
  case addEdit(variable: Int, strength: Strength)
  case removeEdit(variable: Int)
  /// One suggestion goes through `suggestValue`, several through `suggestValues`.
  case suggest([FuzzSuggestion])
  /// Values are read and judged here.
  case checkpoint
  /// A required constraint the active required constraints rule out, offered to the
  /// solver, which must refuse it and stay as it was; values are judged after it.
  case probe(FuzzProbe)
}

/// A required constraint `terms + constant relation 0` that no solution of the active
/// required constraints satisfies at ``infeasibleConstant``, with the proof: a combination
/// of those constraints (a Farkas certificate). With multipliers `m` (positive on a `>=`
/// constraint, negative on a `<=` one, either sign on an equality), the sum
/// `S = sum of m * (terms + constant)` is at least 0 wherever they all hold; the probe
/// says `S + gap <= 0` (or `-S - gap >= 0`, or `S + gap == 0`), with `gap > 0`.
///
/// Generated from its own random stream (see `CaseGenerator+Probes.swift`); every
/// multiplier, coefficient and witness value is a multiple of a small power of two, so the
/// proof holds exactly.
public struct FuzzProbe: Sendable {
  /// Which solver calls offer it.
  public enum Route: String, Sendable, CaseIterable {
    /// `addConstraint` at the infeasible constant.
    case add
    /// `addConstraint` at ``FuzzProbe/feasibleConstant`` (which must be accepted), then
    /// `setConstant` to the infeasible one, then `removeConstraint`.
    case setConstant
    /// As `setConstant`, the infeasible constant going through `setConstants` in a batch
    /// with ``FuzzProbe/companions``: the whole batch must be refused.
    case setConstants
  }

  /// A source of the proof: an active required constraint and its multiplier.
  public struct Source: Sendable {
    public let constraint: Int
    public let multiplier: Double
  }

  public let route: Route
  public let terms: [FuzzTerm]
  public let relation: Relation
  public let infeasibleConstant: Double
  /// A constant at which the witness satisfies the probe.
  public let feasibleConstant: Double
  /// How far the probe is from possible: `S + gap <= 0` with `S >= 0`.
  public let gap: Double
  public let sources: [Source]
  /// With route `setConstants`: other changes in the refused batch (of active
  /// constraints, each to a constant the witness allows).
  public let companions: [FuzzConstantChange]

  /// `terms + constant` at `values`.
  public func residual(_ values: [Double], constant: Double) -> Double {
    var sum = constant
    for term in terms { sum += term.coefficient * values[term.variable] }
    return sum
  }
}
