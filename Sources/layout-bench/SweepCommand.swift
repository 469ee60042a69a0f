import ArgumentParser
import BenchSupport
import LayoutHarness
internal import Foundation

/// `layout-bench sweep`: a size ladder per strategy and shape, with fitted exponents and
/// the largest size that fits the budget.
struct Sweep: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure how tick cost grows with size, and the largest size within the budget.",
    discussion: """
      For each shape (default: deep, wide, feed), runs the sizes of the ladder (default \
      10, 30, 100, 300, 1000, 3000, 10000, up to --max-size) with all strategies in \
      lockstep, fits the exponent of p50 and p99 against size (log-log least squares), and \
      reports the largest size whose p99 tick fits the budget. A shape's ladder stops once \
      every strategy's p50 is over four budgets.
      """
  )

  @OptionGroup var scenario: ScenarioOptions
  @OptionGroup var output: ReportOptions

  @Option(help: "Largest size of the ladder.")
  var maxSize: Int = 10_000

  @Option(help: "Comma-separated sizes instead of the default ladder.")
  var sizes: String?

  static let ladder = [10, 30, 100, 300, 1000, 3000, 10_000, 30_000, 100_000]

  func validate() throws {
    if scenario.size != nil {
      throw ValidationError("Please give sizes with --sizes or --max-size, not --size.")
    }
    if maxSize < 1 { throw ValidationError("Please specify a --max-size of at least 1.") }
    _ = try parsedSizes()
  }

  func parsedSizes() throws -> [Int] {
    guard let sizes else { return Self.ladder.filter { $0 <= maxSize } }
    var list: [Int] = []
    for part in sizes.split(separator: ",") {
      guard let value = Int(part.trimmingCharacters(in: .whitespaces)), value >= 1, value <= 1_000_000 else {
        throw ValidationError("Please specify --sizes as sizes from 1 to 1000000 separated by commas (bad: '\(part)').")
      }
      list.append(value)
    }
    guard !list.isEmpty else { throw ValidationError("Please specify at least one size in --sizes.") }
    return list.sorted()
  }

  func run() throws {
    let sizes = try parsedSizes()
    let shapes = scenario.shape.map { [$0] } ?? Run.defaultShapes
    let mutation = scenario.mutation ?? .text
    let settings = RunSettings(
      strategies: scenario.strategy.kinds, ticks: scenario.ticks ?? 60, warmupTicks: scenario.warmup,
      hz: scenario.hz, timeLimitNs: scenario.ticks == nil ? 1_500_000_000 : nil,
      minimumTicks: scenario.ticks.map { min($0, 20) } ?? 20, verifyFrames: !scenario.noVerify)
    let progress = Progress(quiet: output.quiet)
    let perTick = scenario.perTick
    let seed = scenario.seed
    let (report, timelines) = try onLargeStack { () throws -> (RunReport, [RunTimeline]) in
      var results: [RunResult] = []
      var timelines: [RunTimeline] = []
      var sweeps: [SweepResult] = []
      let budget = FrameBudget(hz: settings.hz).nanoseconds
      for shape in shapes where !(mutation == .scroll && shape != .feed) {
        var shapeResults: [RunResult] = []
        for size in sizes {
          let scenario = Scenario(shape: shape, size: size, mutation: mutation, perTick: perTick, seed: seed)
          let (r, t) = try runOne(scenario, settings, progress)
          shapeResults += r
          timelines += t
          if r.allSatisfy({ $0.tickNs.p50 > 4 * budget }) { break }
        }
        results += shapeResults
        for kind in settings.strategies {
          let rows = shapeResults.filter { $0.strategy == kind.rawValue }
          let x = rows.map { Double($0.size) }
          sweeps.append(
            SweepResult(
              strategy: kind.rawValue, shape: shape.rawValue, mutation: mutation.rawValue,
              sizes: rows.map(\.size), p50Ns: rows.map(\.tickNs.p50), p99Ns: rows.map(\.tickNs.p99),
              p50Exponent: loglogSlope(x, rows.map(\.tickNs.p50)),
              p99Exponent: loglogSlope(x, rows.map(\.tickNs.p99)),
              largestSizeWithinBudget: rows.filter { $0.tickNs.p99 <= budget }.map(\.size).max()))
        }
      }
      let report = RunReport(
        hz: settings.hz, measurementOverheadNs: ScenarioRunner.measureOverhead(),
        environment: environmentInfo(), results: results, sweeps: sweeps)
      return (report, timelines)
    }
    progress.finish()
    try emit(report, timelines: timelines, output: output)
  }
}

private func runOne(_ scenario: Scenario, _ settings: RunSettings, _ progress: Progress) throws
  -> ([RunResult], [RunTimeline])
{
  noteLargeScene(scenario, settings.strategies)
  var runner = ScenarioRunner(settings: settings, probe: JemallocProbe())
  runner.progress = { progress.update($0) }
  do {
    return try runner.run(scenario)
  } catch {
    throw CommandFailure(error.description)
  }
}
