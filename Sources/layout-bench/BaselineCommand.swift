import ArgumentParser
import LayoutHarness
internal import Foundation

/// `layout-bench baseline save|list|delete`: named reports kept for later comparisons.
struct BaselineCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "baseline",
    abstract: "Save, list and delete named baselines (full JSON reports with per-tick samples).",
    subcommands: [Save.self, List.self, Delete.self]
  )

  struct Location: ParsableArguments {
    @Option(help: "Directory of the baselines.")
    var dir: String = BaselineStore.defaultDirectory

    var store: BaselineStore { BaselineStore(directory: dir) }
  }

  struct Save: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run the scenarios (default matrix, fixed tick count) and save the report as NAME.",
      discussion: """
        The scenarios run in --rounds separate processes (default 10), each with its own trees \
        and warm-up: time verdicts are judged on rounds. Ticks are not time-limited here: \
        each scenario runs a fixed count per round (--ticks, else chosen by a pilot run from \
        60 to 2,000 so that a round lasts about 0.25 s), so counters are averages over the \
        same ticks on every machine and compare exactly. The file is written only after every round \
        succeeded, atomically: a failed or interrupted run never replaces a good baseline. \
        With --from, an existing report file is validated and stored instead.
        """
    )

    @Argument(help: "Baseline name (letters, digits, . _ -).")
    var name: String

    @OptionGroup var scenario: ScenarioOptions
    @OptionGroup var location: Location

    @Option(help: "Store this report file instead of running.")
    var from: String?

    @Flag(help: "The smallest size of each default shape.")
    var quick = false

    @Flag(help: "No progress on standard error.")
    var quiet = false

    @Option(help: "Rounds: separate processes, each with its own trees and warm-up.")
    var rounds: Int = 10

    @Option(help: .hidden)
    var roundOutput: String?

    var roundOptions: RoundOptions { RoundOptions(rounds: rounds, roundOutput: roundOutput) }

    func validate() throws {
      try roundOptions.validateRounds()
      guard BaselineStore.isValidName(name) else {
        throw ValidationError(
          "Please specify a baseline name of letters, digits, '.', '_' or '-' (got '\(name)').")
      }
      // Before minutes of rounds: the store must be writable (or creatable).
      if roundOutput == nil, let problem = location.store.problemWriting() {
        throw ValidationError(problem)
      }
    }

    func run() throws {
      var report: RunReport
      if let from {
        do { report = try ReportFile.load(from) } catch { throw CommandFailure(error.description) }
      } else if roundOutput == nil && rounds > 1 {
        let progress = Progress(quiet: quiet)
        let pilot = try pilotArguments(
          try roundPlan(scenario, quick: quick), explicitTicks: scenario.ticks, progress: progress)
        report = try roundOptions.runRounds(progress: progress, extraArguments: pilot)
        progress.finish()
      } else {
        let progress = Progress(quiet: quiet)
        report = try measureRound(scenario, quick: quick, progress: progress)
        progress.finish()
        if let roundOutput { return try roundOptions.writeRound(report, to: roundOutput) }
      }
      if from == nil { report = try scenario.measuringInstructions(report, quiet: quiet) }
      do { try location.store.save(report, as: name) } catch {
        throw CommandFailure(error.description)
      }
      let path = location.store.path(of: name)
      print("saved baseline '\(name)' (\(report.results.count) results) to \(path)")
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the baselines.")
    @OptionGroup var location: Location

    func run() throws {
      let names = location.store.list()
      if names.isEmpty {
        print("no baselines in \(location.dir)")
        return
      }
      for name in names {
        let summary: String
        do {
          let report = try location.store.load(name)
          let date = report.environment["date"] ?? "?"
          summary = "\(report.results.count) results, \(report.hz) Hz, \(date)"
        } catch {
          summary = "unreadable: \(error.reason)"
        }
        print("\(name)\t\(summary)")
      }
    }
  }

  struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete a baseline.")
    @Argument(help: "Baseline name.")
    var name: String
    @OptionGroup var location: Location

    func run() throws {
      do { try location.store.delete(name) } catch { throw CommandFailure(error.description) }
      print("deleted baseline '\(name)'")
    }
  }
}

/// One round of a baseline (or a calibration run): the scenarios of `run` with these flags,
/// at a fixed number of ticks (``RunPlan/roundTicks`` unless --ticks or a pilot chose), so
/// that counters compare exactly.
func measureRound(_ scenario: ScenarioOptions, quick: Bool, progress: Progress) throws -> RunReport
{
  let plan = try roundPlan(scenario, quick: quick)
  return try onLargeStack { try measure(plan, progress: progress).0 }
}

/// The plan of a round of `baseline save` or `calibrate`.
func roundPlan(_ scenario: ScenarioOptions, quick: Bool) throws -> RunPlan {
  var choices = try scenario.choices(quick: quick, inRounds: true)
  choices.ticks = scenario.ticks ?? RunPlan.roundTicks
  return RunPlan.matrix(choices)
}

/// Without --ticks, the ticks per round of each scenario from a pilot (``RoundLength``), as
/// the arguments that give them to every round's process.
func pilotArguments(_ plan: RunPlan, explicitTicks: Int?, progress: Progress) throws -> [String] {
  guard explicitTicks == nil else { return [] }
  progress.update("pilot: choosing ticks per round")
  let ticks: [String: Int]
  do { ticks = try onLargeStack { try RoundLength.pilot(plan) } } catch {
    throw CommandFailure("\(error)")
  }
  return ["--scenario-ticks", RoundLength.encode(ticks)]
}

/// `layout-bench compare BASE [NEW]`.
struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Compare two reports (files or baseline names); without NEW, run BASE's scenarios now.",
    discussion: """
      Results are matched by strategy, scenario and seed. Counters, allocations and \
      instructions per tick compare exactly. Times of two separate runs are shown, not \
      judged, unless a run-to-run spread is known (--calibration from `calibrate`, or \
      --run-spread): a whole time window can run slow on a shared machine. Then a time \
      metric (p50, p99, relative to the machine-speed reference) changes when an exact \
      Mann-Whitney test over the two sides' rounds, Holm-adjusted over every time metric of \
      the comparison, is below 0.05 and the change passes both the threshold and three \
      standard deviations of the run-to-run difference; a side with fewer than 5 rounds is \
      insufficient data. `ab` judges times of two builds measured in one window. Reports \
      from different machines or builds (CPU model, core count, build \
      configuration, Swift version, allocator, the allocator's huge-page setting) are not \
      compared unless \
      --allow-environment-mismatch is given; a live comparison checks this before running. \
      Exit status: 0 no significant change; 2 a regression or a budget crossing; \
      4 improvements only; 1 bad input, no result in common, insufficient data, or reports \
      that are not comparable.
      """
  )

  @Argument(help: "The baseline: a report file or a baseline name.")
  var base: String

  @Argument(help: "The new report (file or baseline name); omitted: run BASE's scenarios now.")
  var new: String?

  @Option(help: "Live comparison: rounds of the new side (separate processes).")
  var rounds: Int = 10

  @Option(help: .hidden)
  var roundOutput: String?

  var roundOptions: RoundOptions { RoundOptions(rounds: rounds, roundOutput: roundOutput) }

  @OptionGroup var location: BaselineCommand.Location

  @OptionGroup var judge: JudgeOptions

  @Option(
    help: """
      A calibration of this machine (`calibrate --json`): its run-to-run spreads and \
      detectable changes.
      """)
  var calibration: String?

  @Option(
    help: """
      Judge times of separate runs assuming this run-to-run spread (coefficient of variation, \
      e.g. 0.05) for results the calibration does not cover.
      """)
  var runSpread: Double?

  func validate() throws {
    try roundOptions.validateRounds()
    if let runSpread, !(runSpread.isFinite && runSpread >= 0 && runSpread < 10) {
      throw ValidationError("Please specify a --run-spread from 0 to 10 (got \(runSpread)).")
    }
  }

  /// A report from a file path or a baseline name.
  func load(_ reference: String) throws -> RunReport {
    let isFile = FileManager.default.fileExists(atPath: reference)
    // Neither a file nor a baseline: a reference that looks like a path (a slash or a
    // `.json` ending) is named as a missing file, not as a missing baseline
    // `missing.json.json`.
    if !isFile && !location.store.exists(reference)
      && (reference.contains("/") || reference.hasSuffix(".json"))
    {
      throw CommandFailure(
        "\(reference): no such report file (nor a baseline of that name in \(location.dir))")
    }
    do {
      if isFile { return try ReportFile.load(reference) }
      return try location.store.load(reference)
    } catch {
      throw CommandFailure(error.description)
    }
  }

  func run() throws {
    let baseReport = try load(base)
    let newReport: RunReport
    if let new {
      newReport = try load(new)
    } else if let roundOutput {
      // One round of a live comparison, in its own process (checked by its parent).
      let report = try onLargeStack { try rerun(baseReport, progress: Progress(quiet: true)) }
      return try roundOptions.writeRound(report, to: roundOutput)
    } else {
      // A scene file that changed (or went missing) is refused before any round starts.
      do { _ = try RunPlan.rerunning(baseReport) } catch { throw CommandFailure(error.description) }
      // A baseline from another machine or build is refused before minutes of rounds.
      let mismatches = Comparison.environmentMismatches(
        base: baseReport.environment, new: environmentInfo())
      if !mismatches.isEmpty && !judge.allowEnvironmentMismatch {
        throw CommandFailure(
          "\(base) was measured on another machine or build, so times cannot be compared "
            + "(\(mismatches.joined(separator: "; "))); save a baseline here, or give "
            + "--allow-environment-mismatch")
      }
      let progress = Progress(quiet: judge.quiet)
      var live =
        rounds > 1
        ? try roundOptions.runRounds(progress: progress)
        : try onLargeStack { try rerun(baseReport, progress: progress) }
      progress.finish()
      // A baseline with instruction counts gets them counted again: the deterministic gate.
      if baseReport.results.contains(where: { $0.instructionsPerTick != nil }) {
        let progress = Progress(quiet: judge.quiet)
        live = try InstructionCounter.locate().measuring(live, progress: progress)
        progress.finish()
      }
      newReport = live
    }
    var settings = try judge.settings(interleaved: false)
    if let runSpread {
      settings.defaultRunSpread = Dictionary(
        uniqueKeysWithValues: Comparison.timeMetrics.map { ($0, runSpread) })
    }
    if let calibration {
      do { settings.calibration = try CalibrationFile.load(calibration) } catch {
        throw CommandFailure(error.description)
      }
    }
    let changed = Comparison.sceneChanges(base: baseReport, new: newReport)
    if !changed.isEmpty { throw CommandFailure(changed.joined(separator: "\n")) }
    let comparison = Comparison.compare(base: baseReport, new: newReport, settings: settings)
    try emit(comparison, markdown: judge.markdown, json: judge.json)
  }

  /// Runs the base report's scenarios again, once, in this process.
  func rerun(_ base: RunReport, progress: Progress) throws -> RunReport {
    try measure(RunPlan.rerunning(base), progress: progress).0
  }
}
