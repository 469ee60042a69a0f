import ArgumentParser
import JemallocProbe
import LayoutHarness
internal import Foundation

/// `layout-bench run` (and `layout-bench` alone): the frame-budget matrix.
struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure the cost of every tick of each layout strategy against the frame budget.",
    discussion: """
      With no scenario flags this runs the default matrix: the three strategies (coalesced \
      setNeedsLayout, eager layoutIfNeeded, bottom-up sizing) on deep, wide and feed trees at \
      two sizes, with text and resize mutations, and four scenarios of several changes per \
      tick or scrolling (feed300/configurex4, wide1000/configurex1, wide1000/textx4, \
      table100000/scrollx1). All strategies run in lockstep on the same \
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
      throw ValidationError(
        "Please use --trace with --rounds 1 (a trace shows one process's ticks).")
    }
  }

  /// What these flags measure.
  func plan() throws -> RunPlan {
    RunPlan.matrix(try scenario.choices(quick: quick, inRounds: roundOptions.rounds > 1))
  }

  func run() throws {
    let plan = try plan()
    try checkRunnable(plan, quiet: output.quiet || roundOptions.roundOutput != nil)
    let progress = Progress(quiet: output.quiet)
    if roundOptions.roundOutput == nil && roundOptions.rounds > 1 {
      let report = try roundOptions.runRounds(progress: progress)
      progress.finish()
      return try emit(
        try scenario.measuringInstructions(report, quiet: output.quiet), timelines: [],
        output: output)
    }
    let (report, timelines) = try onLargeStack { try measure(plan, progress: progress) }
    progress.finish()
    if let path = roundOptions.roundOutput { return try roundOptions.writeRound(report, to: path) }
    try emit(
      try scenario.measuringInstructions(report, quiet: output.quiet), timelines: timelines,
      output: output)
  }
}

/// Prints the plan's notes (a strategy left out of a scene file, and why); a plan with
/// nothing left to run is an error.
func checkRunnable(_ plan: RunPlan, quiet: Bool) throws {
  if !quiet {
    for note in plan.notes { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
  }
  if plan.entries.isEmpty {
    throw CommandFailure(
      "nothing to run: " + (plan.notes.isEmpty ? "no scenario" : plan.notes.joined(separator: "; "))
    )
  }
}

/// Runs a plan in this process, with allocation counts, notes on large scenes and progress.
func measure(_ plan: RunPlan, progress: Progress) throws -> (RunReport, [RunTimeline]) {
  try checkRunnable(plan, quiet: true)
  for entry in plan.entries { noteLargeScene(entry.scenario, entry.settings.strategies) }
  do {
    return try plan.measure(
      probe: JemallocProbe(), environment: environmentInfo(), progress: { progress.update($0) })
  } catch {
    throw CommandFailure(error.description)
  }
}

/// Prints the table (unless a report goes to standard output) and writes the report files.
func emit(_ report: RunReport, timelines: [RunTimeline], output: ReportOptions) throws {
  if output.json != "-" && output.markdown != "-" {
    print(ReportTable.render(report, style: .terminal), terminator: "")
    let sweeps = ReportTable.renderSweeps(report, style: .terminal)
    if !sweeps.isEmpty { print("\n" + sweeps, terminator: "") }
  }
  if let path = output.json {
    try OutputFile.write(try ReportFile.encode(report), to: path)
  }
  if let path = output.html {
    try OutputFile.write(renderHTML(report), to: path)
  }
  if let path = output.trace {
    try OutputFile.write(renderChromeTrace(timelines), to: path)
  }
  if let path = output.markdown {
    let text =
      ReportTable.render(report, style: .markdown) + "\n"
      + ReportTable.renderSweeps(report, style: .markdown)
    try OutputFile.write(text, to: path)
  }
}

/// A scene of several gigabytes takes minutes to build: say so before the wait.
func noteLargeScene(_ scenario: Scenario, _ strategies: [StrategyKind]) {
  let bytes = scenario.estimatedBytes(strategies: strategies)
  let memory = Double(ProcessInfo.processInfo.physicalMemory)
  guard bytes > 2 * 1_073_741_824,
    scenario.memoryProblem(strategies: strategies, memory: memory) == nil
  else {
    return  // small, or refused by the runner with its own message
  }
  let gigabytes = (bytes / 1_073_741_824 * 10).rounded() / 10
  FileHandle.standardError.write(
    Data(
      ("note: \(scenario) builds about \(scenario.estimatedViews) views (about \(gigabytes) "
        + "GB); building takes minutes\n").utf8))
}
