/// The exit statuses of `layout-bench` and of the scripts beside it (`bench-baseline.sh`,
/// `bench-thresholds.sh`), named once so that a CI step can branch on them.
public enum ExitStatus: Int32, Sendable {
  /// Ran, and nothing significant changed (or nothing was compared by design).
  case success = 0
  /// Bad input (flags, files, reports), a failed run, or a comparison that cannot decide:
  /// no result in common, too few rounds, reports from different machines or builds.
  case failure = 1
  /// A regression: a metric worse beyond its threshold, or a budget newly crossed.
  case regression = 2
  /// Improvements only.
  case improvement = 4
}
