import ArgumentParser
import LayoutHarness

/// How a comparison is judged and where it is written: shared by `compare` and `ab`.
struct JudgeOptions: ParsableArguments {
  @Option(help: "Relative threshold for time metrics, e.g. 0.1 for 10%.")
  var threshold: Double = 0.10

  @Option(
    help: "Threshold for one metric, as metric=value (p50=0.05, instructions=0.02); repeatable.")
  var metricThreshold: [String] = []

  @Flag(help: "Judge even when the reports come from different machines or builds.")
  var allowEnvironmentMismatch = false

  @Flag(
    help: """
      Only deterministic metrics (instructions per tick, counters, allocations) decide the \
      exit status; times and budget crossings are shown, not judged.
      """)
  var deterministic = false

  @Flag(
    help: """
      Judge raw times, not times relative to the machine-speed reference timed beside them.
      """)
  var rawTimes = false

  @Option(help: "Write the comparison as Markdown to this file, - for standard output.")
  var markdown: String?

  @Option(help: "Write the comparison as JSON to this file, - for standard output.")
  var json: String?

  @Flag(help: "No progress on standard error.")
  var quiet = false

  func validate() throws {
    guard threshold.isFinite, threshold >= 0 else {
      throw ValidationError("Please specify a --threshold of 0 or more (got \(threshold)).")
    }
    _ = try thresholds()
    for path in [markdown, json].compactMap({ $0 }) where path != "-" {
      if let problem = OutputFile.problem(writing: path) { throw ValidationError(problem) }
    }
  }

  func thresholds() throws -> [String: Double] {
    var result = ["p50": threshold, "p99": threshold, "cold": threshold]
    for item in metricThreshold {
      let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, (Comparison.timeMetrics + ["instructions"]).contains(parts[0]),
        let value = Double(parts[1]),
        value.isFinite, value >= 0
      else {
        throw ValidationError(
          "Please specify --metric-threshold as p50=, p99=, cold= or instructions=VALUE "
            + "(got '\(item)').")
      }
      result[parts[0]] = value
    }
    return result
  }

  func settings(interleaved: Bool) throws -> Comparison.Settings {
    Comparison.Settings(
      thresholds: try thresholds(), allowEnvironmentMismatch: allowEnvironmentMismatch,
      deterministicGate: deterministic, speedAdjusted: !rawTimes, interleaved: interleaved)
  }
}
