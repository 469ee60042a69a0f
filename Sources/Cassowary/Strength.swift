/// How strongly the solver should try to satisfy a constraint.
///
/// Strengths follow kiwi's scale: three symbolic levels folded into one number,
/// `strong = 1e6`, `medium = 1e3`, `weak = 1`, and `required` above every combination of
/// them. Required constraints must hold; the others are satisfied as well as possible, a
/// stronger one winning over any number of weaker ones in practice.
public struct Strength: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The raw weight, always in `0...Strength.required.value`.
  public let value: Double

  /// Clamps `value` into `0...required` as kiwi does; NaN becomes 0.
  public init(_ value: Double) {
    if value.isNaN {
      self.value = 0
    } else {
      self.value = Swift.min(Swift.max(value, 0), Strength.requiredValue)
    }
  }

  /// kiwi's `strength::create`: each level clamped to `0...1000`, then weighted.
  public static func create(
    _ strong: Double, _ medium: Double, _ weak: Double, weight: Double = 1
  ) -> Strength {
    func clip(_ x: Double) -> Double { Swift.min(Swift.max(x * weight, 0), 1000) }
    return Strength(clip(strong) * 1_000_000 + clip(medium) * 1000 + clip(weak))
  }

  static let requiredValue = 1000.0 * 1_000_000 + 1000 * 1000 + 1000

  public static let required = Strength(requiredValue)
  public static let strong = Strength(1_000_000)
  public static let medium = Strength(1000)
  public static let weak = Strength(1)

  public var isRequired: Bool { value >= Strength.requiredValue }

  public static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.value < rhs.value }

  public var description: String {
    switch value {
    case Strength.requiredValue: "required"
    case 1_000_000: "strong"
    case 1000: "medium"
    case 1: "weak"
    default: "\(value)"
    }
  }
}
