import ArgumentParser
import JemallocProbe
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

  func validate() throws {
    if scenario.size != nil {
      throw ValidationError("Please give sizes with --sizes or --max-size, not --size.")
    }
    if maxSize < 1 { throw ValidationError("Please specify a --max-size of at least 1.") }
    _ = try parsedSizes()
  }

  func parsedSizes() throws -> [Int] {
    guard let sizes else { return SizeSweep.ladder.filter { $0 <= maxSize } }
    var list: [Int] = []
    for part in sizes.split(separator: ",") {
      guard let value = Int(part.trimmingCharacters(in: .whitespaces)), value >= 1,
        value <= 1_000_000
      else {
        throw ValidationError(
          "Please specify --sizes as sizes from 1 to 1000000 separated by commas (bad: '\(part)').")
      }
      list.append(value)
    }
    guard !list.isEmpty else {
      throw ValidationError("Please specify at least one size in --sizes.")
    }
    return list.sorted()
  }

  func run() throws {
    var sweep = SizeSweep(
      shapes: scenario.chosenShape.map { [$0] }, sizes: try parsedSizes(),
      mutation: scenario.chosenMutation ?? .text, perTick: scenario.chosenPerTick,
      seed: scenario.seed,
      strategies: scenario.strategy.kinds, ticks: scenario.ticks, warmup: scenario.warmup,
      hz: scenario.hz, verifyFrames: !scenario.noVerify, coldBuilds: scenario.coldBuilds)
    if let file = try scenario.sceneFile() {
      sweep.file = file
      sweep.shapes = [.scene]
      if let problem = file.frameLayoutProblem, sweep.settings.strategies.contains(.bottomUp) {
        sweep.settings.strategies.removeAll { $0 == .bottomUp }
        if !output.quiet {
          FileHandle.standardError.write(
            Data("note: \(file.name): bottom-up left out: \(problem)\n".utf8))
        }
        if sweep.settings.strategies.isEmpty {
          throw CommandFailure("nothing to run: \(file.name): bottom-up cannot run it: \(problem)")
        }
      }
    }
    if let problem = sweep.problem {
      throw CommandFailure("\(problem) (a sweep checks every size before it starts)")
    }
    let progress = Progress(quiet: output.quiet)
    let (report, timelines) = try onLargeStack { () throws -> (RunReport, [RunTimeline]) in
      do throws(RunError) {
        return try sweep.measure(
          probe: JemallocProbe(), environment: environmentInfo(),
          before: { noteLargeScene($0, sweep.settings.strategies) },
          progress: { progress.update($0) })
      } catch {
        throw CommandFailure(error.description)
      }
    }
    progress.finish()
    try emit(report, timelines: timelines, output: output)
  }
}
