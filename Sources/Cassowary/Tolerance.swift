// Every tolerance the solver uses, in one place.
//
// kiwi treats any number below 1e-8 as zero. That absolute rule is wrong at both ends of the
// scale: `2e8 * x == 2` solves to `x = 1e-8 - 5e-9 * marker`, and dropping the 5e-9 cell
// loses the constraint's marker (the constraint can then not be removed); `z == 1e-9 * y`
// loses its only term. Conversely, with strengths of 1e6 the round-off in an objective
// coefficient is about 1e-10, and with positions of 1e9 the round-off in a value about 1e-7,
// so "below 1e-8" is not noise there either. Every rule here is relative instead:
//
// - Coefficients (row cells, the objective): a sum is zero when it cancels, that is when it
//   is smaller than `cancellationTolerance` times its operands (or the magnitudes of the
//   terms it was summed from). Nothing else is ever dropped, however small.
// - Values and constants are never rounded where they are computed; only where they are
//   tested (is a restricted value negative, is a redundant equality's dummy zero) is a value
//   within `valueTolerance` of the magnitudes it came from taken as zero. A row carries the
//   largest magnitude that went into its constant (`Row.scale`) for that test.
// - Satisfiability: a required constraint whose residual after phase one is zero by that
//   same value test is satisfiable.
//
// Double arithmetic leaves a relative error of about 1e-16 per operation; a long chain of
// substitutions accumulates a few hundred times that. The tolerances sit between that and
// any difference a layout can show.
//
// Inputs are limited (``Limits``) so that no intermediate product overflows: with
// coefficients within 1e-12...1e12 and constants within 1e15 the numbers stay far below
// Double's 1.8e308 on any realistic system.

/// The relative size below which a sum counts as a cancellation to zero.
@usableFromInline let cancellationTolerance = 1.0e-11

/// `a + b`, or exactly zero when the two cancel (see the file comment).
@inline(__always) func cancellingSum(_ a: Double, _ b: Double) -> Double {
  let s = a + b
  // A sum far smaller than `a` means that `b` is about `-a`: `|a|` stands for the larger
  // operand within a factor of two, one comparison cheaper than `max(|a|, |b|)`.
  return abs(s) <= cancellationTolerance * abs(a) ? 0 : s
}

/// A coefficient `c` summed from terms whose magnitudes add up to `magnitude`, zero when
/// those terms cancelled.
@inline(__always) func snappedCoefficient(_ c: Double, magnitude: Double) -> Double {
  abs(c) <= cancellationTolerance * magnitude ? 0 : c
}

/// The relative size below which a computed value is round-off of the magnitudes it was
/// computed from. Smaller than `cancellationTolerance`: a value of -1 computed from numbers
/// of 1e11 (a suggestion of 1.2e11 against a required `x <= -1`) is real, while the
/// round-off of a few hundred operations on such numbers stays below 1e-12 of them.
@usableFromInline let valueTolerance = 1.0e-12

/// A computed value `v` whose terms had magnitudes up to `magnitude`, snapped to zero when
/// it is round-off of that size.
@inline(__always) func snapped(_ v: Double, magnitude: Double) -> Double {
  abs(v) <= valueTolerance * magnitude ? 0 : v
}

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

  /// A limit as people write it (`1e15`, `1e-12`): each is a power of ten.
  public static func text(_ limit: Double) -> String {
    var exponent = 0
    var x = limit
    // Powers of ten below 1 are not exact in binary: compare with a margin.
    while x >= 9.99 { x /= 10; exponent += 1 }
    while x < 0.999 { x *= 10; exponent -= 1 }
    return "1e\(exponent)"
  }
}
