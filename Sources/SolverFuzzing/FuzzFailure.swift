import Cassowary

/// A check that failed: where (seed, representation, box count, operation) and what.
public struct FuzzFailure: Sendable, CustomStringConvertible {
  public let seed: UInt64
  public let representation: Solver.Representation
  public let boxCount: Int
  /// The index in ``FuzzCase/operations`` of the operation that threw or of the checkpoint
  /// whose values were wrong; the dump up to it reproduces the failure.
  public let operationIndex: Int
  public let operationCount: Int
  /// The operation, described with its constraint as a script line.
  public let operation: String
  public let message: String

  public var description: String {
    "seed \(seed) (\(representation), \(boxCount) boxes), operation \(operationIndex) of "
      + "\(operationCount) (\(operation)): \(message)"
  }
}

/// The tolerances of the oracle's checks, in one place.
public enum FuzzTolerance {
  /// A required constraint holds when its residual is at most this times the magnitude it
  /// was computed from (the sum of `|coefficient * value|` and `|constant|`), plus this:
  /// values come out of a tableau after hundreds of pivots, each of which may round, so
  /// exact residuals are not to be expected; 1e-7 is far above that round-off at layout
  /// magnitudes (values below 1e4) and far below any broken constraint that matters.
  public static let required = 1e-7

  /// The round-off allowed in a residual computed from terms of total magnitude `scale`.
  /// A non-required constraint's violation within it counts as none in the weighted error:
  /// otherwise a strong constraint off by a few ulps of 1000 (5e-12) in one solution and
  /// not in the other weighs 5e-6, above the band below when the errors are small (seed
  /// 1873 of 2...200 boxes did that). Violations that would pass as required pass here. A
  /// larger violation counts whole: netting the allowance off every violation (as this
  /// once did) takes about 200 off each violated strong constraint at 1000 points, so two
  /// tied optima that violate different numbers of strong constraints looked 200 apart
  /// (seed 105608 of 2...200 boxes).
  public static func roundOff(_ scale: Double) -> Double { required * scale + required }

  /// The weighted errors of the incremental solve and of a fresh one agree when they differ
  /// by at most this times `max(1, e1, e2)` (the default; `solver-fuzz --error-tolerance`
  /// changes it). The two solvers reach an optimal vertex by different pivots; net of
  /// round-off their errors agree far more closely than this (measured over 150 systems:
  /// canonical replays within 2e-11, lazy ones within 1e-8, before round-off was netted
  /// out). A wrong optimum leaves a whole violation unaccounted for, far above the band,
  /// unless strong violations dominate the error: at an error of 1e9 the band is 1e3, one
  /// medium-strength point, and weaker misses go unseen (a smaller band would see them).
  public static let weightedError = 1e-6
}
