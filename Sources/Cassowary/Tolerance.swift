// The solver's numeric limits and tolerances, in one place.
//
// Cells, values and residuals below `nearZero`'s 1e-8 are zero, as in kiwi: layout numbers
// are points, and a hundred-millionth of a point is below anything a layout can show. That
// absolute rule only holds while the numbers in play stay within a few orders of magnitude
// of a point: `2e8 * x == 2` solves to `x = 1e-8 - 5e-9 * marker`, whose marker cell falls
// under the threshold (the constraint then cannot be removed), `z == 1e-9 * y` loses its
// only term, and values of 1e11 carry round-off larger than 1e-8. Rather than give answers
// that are silently wrong there, the solver refuses such inputs (``Limits``) with an error
// that names the number: coefficients from 1e-6 to 1e6 (multipliers, aspect ratios), and
// constants and suggested values up to 1e9 points.

/// Coefficients and values this close to zero are zero, as in kiwi (see above).
@inline(__always) func nearZero(_ x: Double) -> Bool { abs(x) < 1.0e-8 }

/// The magnitudes a constraint, a suggestion or a new constant may have.
public enum Limits {
  /// The largest magnitude of a coefficient.
  public static let largestCoefficient = 1.0e6
  /// The smallest magnitude of a non-zero coefficient.
  public static let smallestCoefficient = 1.0e-6
  /// The largest magnitude of a constant or a suggested value.
  public static let largestConstant = 1.0e9

  /// Whether a non-zero coefficient is within the limits (zero is always accepted).
  @inline(__always) static func accepts(coefficient c: Double) -> Bool {
    c == 0 || (abs(c) >= smallestCoefficient && abs(c) <= largestCoefficient)
  }

  @inline(__always) static func accepts(constant c: Double) -> Bool {
    abs(c) <= largestConstant
  }

  /// A limit as people write it (`1e9`, `1e-6`): each is a power of ten.
  public static func text(_ limit: Double) -> String {
    var exponent = 0
    var x = limit
    // Powers of ten below 1 are not exact in binary: compare with a margin.
    while x >= 9.99 { x /= 10; exponent += 1 }
    while x < 0.999 { x *= 10; exponent -= 1 }
    return "1e\(exponent)"
  }
}
