import BenchSupport
import ArgumentParser
import LayoutHarness
internal import Foundation

/// `layout-bench calibrate`: identical code against itself, to see this machine's noise.
struct Calibrate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure this machine's run-to-run noise and the smallest change `compare` can see.",
    discussion: """
      Runs the scenarios (the flags of `baseline save`) --runs times, each run of --rounds \
      rounds (separate processes), as `baseline save` and a later `compare` would; compares \
      every pair of runs as `compare` does (identical code: every regression or improvement \
      is a false alarm) and, per scenario and time metric, finds the smallest slowdown \
      flagged in 9 of 10 pairs by slowing one run's rounds by 2%, 3%, 5%, ... 100%. \
      --from calibrates from existing reports instead (separate runs of the same \
      scenarios). Save it with --json and give it to `compare --calibration` to print the \
      detectable change beside every verdict.
      """
  )

  @OptionGroup var scenario: ScenarioOptions

  @Flag(help: "The smallest size of each default shape.")
  var quick = false

  @Option(help: "Runs of identical code (at least 3; pairs compared: runs x (runs - 1) / 2).")
  var runs: Int = 5

  @Option(help: "Rounds per run (separate processes), as `baseline save --rounds`.")
  var rounds: Int = 10

  @Option(
    parsing: .upToNextOption,
    help: "Calibrate from these reports (separate runs) instead of running.")
  var from: [String] = []

  @Option(help: "Relative threshold for time metrics, e.g. 0.1 for 10%.")
  var threshold: Double = 0.10

  @Flag(help: "Judge raw times, not times relative to the machine-speed reference.")
  var rawTimes = false

  @Option(help: "Write the calibration as JSON to this file (for `compare --calibration`).")
  var json: String?

  @Flag(help: "No progress on standard error.")
  var quiet = false

  @Option(help: .hidden)
  var roundOutput: String?

  var roundOptions: RoundOptions { RoundOptions(rounds: rounds, roundOutput: roundOutput) }

  func validate() throws {
    try roundOptions.validateRounds()
    guard (3...100).contains(runs) else {
      throw ValidationError("Please specify --runs from 3 to 100 (got \(runs)).")
    }
    guard rounds >= 5 else {
      throw ValidationError(
        "Please specify --rounds of at least 5 (time metrics need 5 a side; got \(rounds)).")
    }
    guard threshold.isFinite, threshold >= 0 else {
      throw ValidationError("Please specify a --threshold of 0 or more (got \(threshold)).")
    }
    if let json, json != "-", let problem = OutputFile.problem(writing: json) {
      throw ValidationError(problem)
    }
  }

  func run() throws {
    if let roundOutput {
      let report = try measureRound(scenario, quick: quick, progress: Progress(quiet: true))
      return try roundOptions.writeRound(report, to: roundOutput)
    }
    var reports: [RunReport] = []
    if from.isEmpty {
      let progress = Progress(quiet: quiet)
      // One pilot for every run, so that all runs measure the same ticks.
      let pilot = try pilotArguments(
        try roundPlan(scenario, quick: quick), explicitTicks: scenario.ticks, progress: progress)
      for run in 0..<runs {
        progress.update("run \(run + 1)/\(runs)")
        reports.append(try roundOptions.runRounds(progress: progress, extraArguments: pilot))
      }
      progress.finish()
    } else {
      for path in from {
        do { reports.append(try ReportFile.load(path)) } catch {
          throw CommandFailure(error.description)
        }
      }
    }
    let settings = Comparison.Settings(
      thresholds: ["p50": threshold, "p99": threshold], speedAdjusted: !rawTimes)
    let calibration: Calibration
    do { calibration = try Calibration.measure(reports, settings: settings) } catch {
      throw CommandFailure(error.description)
    }
    if json != "-" { print(calibration.render(), terminator: "") }
    if let json {
      try OutputFile.write(try JSONText.encode(calibration, pretty: true), to: json)
    }
  }
}
