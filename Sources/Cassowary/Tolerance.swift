// Every tolerance the solver uses, in one place.
//
// kiwi treats any number below 1e-8 as zero. That absolute rule is wrong at both ends of the
// scale: `2e8 * x == 2` solves to `x = 1e-8 - 5e-9 * marker`, and dropping the 5e-9 cell
// loses the constraint's marker (the constraint can then not be removed); `z == 1e-9 * y`
// loses its only term. Conversely, with strengths of 1e6 the round-off in an objective
// coefficient is about 1e-10 and with positions of 1e9 the round-off in a value about 1e-7,
// so "below 1e-8" is not noise there either.
//
// The rule here is relative: a sum is zero when it cancels, that is when it is smaller than
// `Tolerance.cancellation` times the larger of its operands (or, for a row's value, times
// the sum of its terms' magnitudes). Double arithmetic leaves a relative error of about
// 1e-16 per operation; a long chain of substitutions accumulates a few hundred times that,
// so 1e-11 separates round-off from real quantities with room on both sides. Results are
// snapped to exactly zero, so that later tests (`value < 0`, a redundant equality's `== 0`)
// are exact comparisons with no second tolerance.
//
// Inputs are limited (``Limits``) so that no intermediate product overflows: with
// coefficients within 1e-12...1e12 and constants within 1e15 the solver's numbers stay far
// below Double's 1.8e308 on any realistic system, and a value that does not is refused.

/// The relative size below which a sum counts as a cancellation to zero.
@usableFromInline let cancellationTolerance = 1.0e-11

/// How far, relative to the magnitudes of its terms, a required constraint may miss when it
/// is judged satisfiable: the residual that phase one leaves, or the constant of a
/// constraint implied by required equalities. Larger than the round-off of a few hundred
/// operations, far smaller than any difference a layout can show.
@usableFromInline let feasibilityTolerance = 1.0e-9

/// `a + b`, or exactly zero when the two cancel (see the file comment).
@inline(__always) func cancellingSum(_ a: Double, _ b: Double) -> Double {
  let s = a + b
  // A sum far smaller than `a` means that `b` is about `-a`: `|a|` stands for the larger
  // operand within a factor of two, one comparison cheaper than `max(|a|, |b|)`.
  return abs(s) <= cancellationTolerance * abs(a) ? 0 : s
}

/// A computed value `v` whose terms had magnitudes summing to `magnitude`, snapped to zero
/// when it is round-off of that size.
@inline(__always) func snapped(_ v: Double, magnitude: Double) -> Double {
  abs(v) <= cancellationTolerance * magnitude ? 0 : v
}

/// The magnitudes a constraint, a suggestion or a new constant may have.
public enum Limits {
  /// The largest magnitude of a coefficient.
  public static let largestCoefficient = 1.0e12
  /// The smallest magnitude of a non-zero coefficient.
  public static let smallestCoefficient = 1.0e-12
  /// The largest magnitude of a constant or a suggested value.
  public static let largestConstant = 1.0e15

  /// Whether a non-zero coefficient is within the limits (zero is always accepted).
  @inline(__always) static func accepts(coefficient c: Double) -> Bool {
    c == 0 || (abs(c) >= smallestCoefficient && abs(c) <= largestCoefficient)
  }

  @inline(__always) static func accepts(constant c: Double) -> Bool {
    abs(c) <= largestConstant
  }

  /// A limit as people write it (`1e15`, `1e-12`): each is a power of ten.
  public static func text(_ limit: Double) -> String {
    var exponent = 0
    var x = limit
    while x >= 10 { x /= 10; exponent += 1 }
    while x < 1 { x *= 10; exponent -= 1 }
    return "1e\(exponent)"
  }
}
