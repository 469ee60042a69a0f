import ArgumentParser
import LayoutHarness
internal import Foundation

/// `layout-bench run` (and `layout-bench` alone): the frame-budget matrix.
struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure the cost of every tick of each layout strategy against the frame budget.",
    discussion: """
      With no scenario flags this runs the default matrix: the three strategies (coalesced \
      setNeedsLayout, eager layoutIfNeeded, bottom-up sizing) on deep, wide and feed trees at \
      two sizes, with text and resize mutations. All strategies run in lockstep on the same \
      scene and mutations, and after every tick every view must have the same frame under \
      all three (or the run stops: the comparison would not be fair).
      """
  )

  @OptionGroup var scenario: ScenarioOptions
  @OptionGroup var output: ReportOptions

  @Flag(help: "A short smoke run: the smallest size of each shape, 20 ticks.")
  var quick = false

  @OptionGroup var roundOptions: RoundOptions

  func validate() throws {
    try roundOptions.validateRounds()
    if roundOptions.rounds > 1 && output.trace != nil {
      throw ValidationError("Please use --trace with --rounds 1 (a trace shows one process's ticks).")
    }
  }

  static let defaultShapes: [Shape] = [.deep, .wide, .feed]
  static let defaultMutations: [MutationKind] = [.text, .resize]

  static func defaultSizes(_ shape: Shape) -> [Int] {
    switch shape {
    case .deep, .wide: [100, 1000]
    // A 1000-cell feed (11,000 views) takes over a minute to build under Auto Layout: each
    // required inequality that needs a phase-one insertion copies the solver's tableau.
    case .feed: [100, 300]
    case .balanced, .random: [1000]
    }
  }

  /// The scenarios the flags ask for.
  func scenarios() -> [Scenario] {
    let shapes = scenario.shape.map { [$0] } ?? Self.defaultShapes
    var mutations = scenario.mutation.map { [$0] } ?? Self.defaultMutations
    var list: [Scenario] = []
    for shape in shapes {
      if scenario.mutation == nil, shape == .feed, scenario.shape == .feed { mutations = Self.defaultMutations }
      var sizes = scenario.size.map { [$0] } ?? Self.defaultSizes(shape)
      if quick && scenario.size == nil { sizes = [sizes[0]] }
      for size in sizes {
        for mutation in mutations {
          list.append(
            Scenario(shape: shape, size: size, mutation: mutation, perTick: scenario.perTick, seed: scenario.seed))
        }
      }
    }
    return list
  }

  var settings: RunSettings {
    let explicitTicks = scenario.ticks
    let ticks = explicitTicks ?? (quick ? 20 : 120)
    // Rounds must do the same work (their counters are merged and must agree), so a run in
    // rounds measures a fixed number of ticks.
    let fixed = explicitTicks != nil || roundOptions.rounds > 1
    return RunSettings(
      strategies: scenario.strategy.kinds, ticks: ticks,
      warmupTicks: quick ? min(scenario.warmup, 3) : scenario.warmup, hz: scenario.hz,
      // Otherwise slow scenarios stop after 1.5 s of measuring (but keep 20 ticks) so the
      // default matrix stays well under a minute.
      timeLimitNs: fixed ? nil : 1_500_000_000,
      minimumTicks: fixed ? ticks : 20,
      verifyFrames: !scenario.noVerify)
  }

  func run() throws {
    let progress = Progress(quiet: output.quiet)
    if roundOptions.roundOutput == nil && roundOptions.rounds > 1 {
      let report = try roundOptions.runRounds(progress: progress)
      progress.finish()
      return try emit(
        try scenario.measuringInstructions(report, quiet: output.quiet), timelines: [],
        output: output)
    }
    let scenarios = scenarios()
    let settings = settings
    let (report, timelines) = try onLargeStack {
      try measure(scenarios, settings: settings, ticks: scenario.ticksByScenario, progress: progress)
    }
    progress.finish()
    if let path = roundOptions.roundOutput { return try roundOptions.writeRound(report, to: path) }
    try emit(
      try scenario.measuringInstructions(report, quiet: output.quiet), timelines: timelines,
      output: output)
  }
}

/// Runs scenarios into a report.
/// `ticks` overrides the settings' tick count per scenario (keyed by its description).
func measure(
  _ scenarios: [Scenario], settings: RunSettings, ticks: [String: Int] = [:], progress: Progress
) throws -> (RunReport, [RunTimeline]) {
  var runner = ScenarioRunner(settings: settings, probe: JemallocProbe())
  var results: [RunResult] = []
  var timelines: [RunTimeline] = []
  for (i, scenario) in scenarios.enumerated() {
    noteLargeScene(scenario, settings.strategies)
    runner.settings = settings
    if let count = ticks[scenario.description] {
      runner.settings.ticks = count
      runner.settings.minimumTicks = count
      runner.settings.timeLimitNs = nil
    }
    runner.progress = { progress.update("[\(i + 1)/\(scenarios.count)] \($0)") }
    do {
      let (r, t) = try runner.run(scenario)
      results += r
      timelines += t
    } catch {
      throw CommandFailure(error.description)
    }
  }
  let report = RunReport(
    hz: settings.hz, measurementOverheadNs: ScenarioRunner.measureOverhead(),
    environment: environmentInfo(), results: results)
  return (report, timelines)
}

/// Prints the table (unless a report goes to standard output) and writes the report files.
func emit(_ report: RunReport, timelines: [RunTimeline], output: ReportOptions) throws {
  if output.json != "-" && output.markdown != "-" {
    print(ReportTable.render(report, style: .terminal), terminator: "")
    let sweeps = ReportTable.renderSweeps(report, style: .terminal)
    if !sweeps.isEmpty { print("\n" + sweeps, terminator: "") }
  }
  if let path = output.json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(report)
    try OutputFile.write(String(decoding: data, as: UTF8.self) + "\n", to: path)
  }
  if let path = output.html {
    try OutputFile.write(renderHTML(report), to: path)
  }
  if let path = output.trace {
    try OutputFile.write(renderChromeTrace(timelines), to: path)
  }
  if let path = output.markdown {
    let text = ReportTable.render(report, style: .markdown) + "\n" + ReportTable.renderSweeps(report, style: .markdown)
    try OutputFile.write(text, to: path)
  }
}

/// A scene of several gigabytes takes minutes to build: say so before the wait.
func noteLargeScene(_ scenario: Scenario, _ strategies: [StrategyKind]) {
  let bytes = scenario.estimatedBytes(strategies: strategies)
  let memory = Double(ProcessInfo.processInfo.physicalMemory)
  guard bytes > 2 * 1_073_741_824, scenario.memoryProblem(strategies: strategies, memory: memory) == nil else {
    return  // small, or refused by the runner with its own message
  }
  let gigabytes = (bytes / 1_073_741_824 * 10).rounded() / 10
  FileHandle.standardError.write(
    Data("note: \(scenario) builds about \(scenario.estimatedViews) views (about \(gigabytes) GB); building takes minutes\n".utf8))
}
