// The solver's numeric limits and tolerances, in one place.
//
// Values, pivot elements and residuals below `nearZero`'s 1e-8 are zero, as in kiwi: layout
// numbers are points, and a hundred-millionth of a point is below anything a layout can
// show. That absolute rule only holds while the numbers in play stay within a few orders of
// magnitude of a point: `2e8 * x == 2` solves to `x = 1e-8 - 5e-9 * marker`, whose marker
// cell falls under the threshold (the constraint then cannot be removed), `z == 1e-9 * y`
// loses its only term, and values of 1e11 carry round-off larger than 1e-8. Rather than give
// answers that are silently wrong there, the solver refuses such inputs (``Limits``) with an
// error that names the number: coefficients from 1e-6 to 1e6 (multipliers, aspect ratios),
// and constants and suggested values up to 1e9 points.
//
// Cells of rows are another matter (`isResidue`). kiwi drops every cell under 1e-8. In a
// canonical tableau that cell multiplies a parametric symbol, whose value is 0, so nothing
// shows; in the lazy one it may multiply a basic symbol worth hundreds of points, and the
// row then disagrees with its constraint by a millionth of a point, which the differential
// fuzzer saw break required constraints (about 3% of systems of 60-200 boxes). So a cell is
// dropped only when it is below 1e-10 or when it is the residue of a cancellation: below
// 1e-8 and below 1e-11 of the magnitudes that summed to it (exact arithmetic would give 0;
// double round-off leaves about 1e-16 of them). Pivots still never divide by an element
// under 1e-8: the ratio tests skip such cells.
//
// Whatever is left of round-off is caught at read-out (`Solver+Audit.swift`): values that
// break a required constraint by more than `Tolerance.audit` of its magnitudes make the
// solver rebuild its tableau.

/// Values, pivot elements and residuals this close to zero are zero, as in kiwi (see above).
@inline(__always) func nearZero(_ x: Double) -> Bool { abs(x) < 1.0e-8 }

/// Whether a row cell that came out at `x` from terms whose magnitudes sum to `scale` is
/// zero: below 1e-10, or a cancellation's residue (see above). `scale` 0 asks only the
/// first.
@inline(__always) func isResidue(_ x: Double, scale: Double) -> Bool {
  let a = abs(x)
  return a < 1.0e-10 || (a < 1.0e-8 && a <= 1.0e-11 * scale)
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

  /// A limit as people write it (`1e9`, `1e-6`): each is a power of ten.
  public static func text(_ limit: Double) -> String {
    var exponent = 0
    var x = limit
    // Powers of ten below 1 are not exact in binary: compare with a margin.
    while x >= 9.99 {
      x /= 10
      exponent += 1
    }
    while x < 0.999 {
      x *= 10
      exponent -= 1
    }
    return "1e\(exponent)"
  }
}

/// Tolerances of the solver's own checks.
public enum Tolerance {
  /// A required constraint's residual at the values the solver hands out may be at most
  /// this times (1 + the sum of the magnitudes of its terms and constant); beyond it the
  /// rows have drifted from the constraints and the tableau is rebuilt
  /// (`Solver+Audit.swift`). Round-off at layout magnitudes is near 1e-13 of that scale.
  public static let audit = 1.0e-9
  /// The most the shifts may add up to (`Tableau.shiftDrift`) before every required
  /// constraint is checked: at an ulp of round-off per unit, half of `audit` at the check's
  /// smallest scale (1). Constraints with larger coefficients, or with round-off already in
  /// them, lower it (`Audit.measure`). Shifts of hundreds of points run thousands of ticks
  /// between two such checks; a swing to 1e9 and back is checked on the way.
  static let shiftDrift = audit / 2 / Double.ulpOfOne
  /// The least the budget is set to (`Solver.measureRequired`): a thousandth of
  /// `shiftDrift`, so that one constraint with large coefficients cannot make every shift
  /// check every constraint.
  static let shiftDriftFloor = shiftDrift / 1024
  /// Whether a value read out at `new` keeps its last reading `old`: they are apart by no
  /// more than round-off, 1e-12 plus 1e-14 of the reading's magnitude (equal values
  /// included). A reporting read-out (`Solver.updateVariables(_:)` and the engine's
  /// `updateVariables(collectingMoved:)`) then neither changes the variable's value nor
  /// reports it as moved; the plain `updateVariables()` copies values as computed. A
  /// reading or a value that is not finite always compares as moved (the difference, less
  /// the reading's share, is then infinite or not a number).
  ///
  /// Rows that say the same thing in other words give the same value to within an ulp or
  /// two: a dual pivot rewrites the rows a value is summed from, and the next sum lands an
  /// ulp away although nothing moved. Read out as changes, those ulps made work for
  /// clients: over 600 text ticks of a 1,000-view grid, 497 frames moved by 1.4e-14 points
  /// (one ulp at 64 to 128), and each one laid its view's subviews out again. The largest
  /// such step seen in the built-in scenarios was 9.5e-16 of the value (about 4 ulps);
  /// the threshold is ten times that. At layout magnitudes (up to 1e5 points) it is at
  /// most about 1e-9 points, a tenth of what the solver takes for zero (`nearZero`). A
  /// reading lags its value by at most the threshold: steps that each fall under it add up
  /// until the value is that far from its reading, which then moves. The threshold scales
  /// with the value, not with the terms it was summed from: a small value left by the
  /// cancellation of large ones carries their round-off, and may still be reported for it
  /// (none was, in the scenarios above).
  ///
  /// A sum rather than the larger of the two terms, the reading's magnitude rather than the
  /// larger one's, and no separate test of equality, for a cheaper test (five instructions
  /// per changed value): against no test, a 1,000-view wide text tick took 3.7% more
  /// instructions with `max` of both and an equality test first, 1.9% with the sum and the
  /// equality test, 1.55% with the sum alone. (Written `abs(new - old) <= 1e-12 + 1e-14 *
  /// abs(old)`, an infinite reading would have held every later value.)
  @inline(__always) package static func sameReading(_ old: Double, _ new: Double) -> Bool {
    abs(new - old) - 1.0e-14 * abs(old) <= 1.0e-12
  }
  /// A pivot divides its row by its element; one on an element under 1 in magnitude that
  /// leaves a cell larger than this in the row (the replaced symbol's 1 / element included,
  /// so any element under 1e-3) puts cells of that size, times weights up to a strong 1e6,
  /// into the objective and into every row it is substituted in, where they later cancel
  /// and leave their round-off behind: the objective is then recomputed from the
  /// constraints once the operation ends. (A new row solved for its subject counts the same
  /// way, less the subject's own cell.) Layout systems pivot on elements near 1 (multipliers and ratios) over
  /// rows of cells near 1. The differential fuzzer's nested ratios of 1/8 to 4 go much
  /// further: a pivot of 4e-8 left the objective 49,647 off its true value and the simplex
  /// at a vertex whose weak errors were 175 over the optimum (seed 112481 of 2-200 boxes);
  /// and the pivot that removed a required constraint, on an element of 9.3e-4 in a row
  /// whose cells reached 27, made cells of 28,763 that left the objective's cells 0.8 to 9
  /// off, enough to take a strong constraint's error (2/3 of a point) for optimal (seed
  /// 2408220, lazy). The bound was an element under 1e-5; it is the size of what the
  /// division makes, with a margin of 30 below that seed.
  static let enlargedRow = 1.0e3
  /// A pivot that enlarges its row beyond this (an element under 1e-7 against cells near 1)
  /// spoils the rows, not only the objective: every row that reads the new one multiplies
  /// the round-off of the values it names by as much. Seed 50113251 of 2-200 boxes
  /// (adaptive and lazy), removing an edit variable: the primal ratio test took a degenerate
  /// row whose entering cell, 1.06e-8, was the residue of a cancellation (the row said that
  /// two insets' slacks are equal, exactly); its cells reached 1.9e8, and 3.6e10 two pivots
  /// later, where a slack's round-off of 2.7e-7 counted for 760 points. Required
  /// constraints still held, and the objective recomputed from the constraints agreed with
  /// the values, so no other check noticed: the simplex stopped at a vertex of rows that no
  /// longer described the constraints, its weighted error 2,432 over the optimum's, one box
  /// 28 points too tall. Such a pivot marks the tableau damaged, and it is rebuilt once the
  /// operation ends. Layout systems pivot nowhere near it; a system whose constraints mix
  /// coefficients 1e7 apart (the limits allow 1e12) can, and then pays for rebuilds.
  static let ruinedRow = 1.0e7
  /// How far below zero a ratio test may leave a row of value `value` that it passes over
  /// for a larger pivot element (`Tableau.leavingSymbol(for:)`): the round-off such a value
  /// carries, 1e-11 of its magnitude and at least 1e-11, at most 1e-9 (a tenth of the
  /// near-zero threshold, so the row still reads as zero).
  @inline(__always) static func ratioSlack(_ value: Double) -> Double {
    min(1.0e-9, 1.0e-11 * max(1, abs(value)))
  }
}
