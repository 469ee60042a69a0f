import BenchSupport
import ArgumentParser
import LayoutHarness
internal import Foundation

/// `layout-bench ab OLD NEW -- RUN FLAGS`: two builds measured in alternating rounds.
struct AB: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ab",
    abstract:
      "Compare two builds of layout-bench, measured in alternating rounds in one time window.",
    discussion: """
      Runs `run RUN FLAGS` in separate processes of OLD and NEW, alternating (old, new, new, \
      old, ...), so that whatever the machine does during the comparison (a neighbour's \
      build, a thermal change) falls on both sides alike; then judges them like `compare`. \
      This is the gate to use on a shared CI runner: build main and the branch, then \
      `layout-bench ab main/layout-bench branch/layout-bench`. Without --ticks in the run \
      flags a pilot picks each scenario's ticks so that a round covers about 0.25 s of it. \
      Both builds must know `--round-output` and `--scenario-ticks` (this version or later). \
      Exit status as for `compare`.
      """
  )

  @Argument(help: "The old build's layout-bench executable.")
  var old: String

  @Argument(help: "The new build's layout-bench executable.")
  var new: String

  /// 15: with rounds spread by about 8% (speed-adjusted, 0.25 s of ticks each), the exact
  /// Mann-Whitney test at Holm's first step (0.05 / 12 metrics) sees a 13% change 9 times in
  /// 10; 10 rounds need about 16%.
  @Option(help: "Rounds per side.")
  var rounds: Int = 15

  @OptionGroup var judge: JudgeOptions

  @Argument(parsing: .postTerminator, help: "Flags of `run` for both sides (after --).")
  var runFlags: [String] = []

  func validate() throws {
    guard (2...1000).contains(rounds) else {
      throw ValidationError("Please specify --rounds from 2 to 1000 (got \(rounds)).")
    }
    for path in [old, new] where !FileManager.default.isExecutableFile(atPath: path) {
      throw ValidationError("'\(path)' is not an executable file.")
    }
    for flag in ["--json", "--html", "--markdown", "--trace", "--rounds", "--round-output"]
    where runFlags.contains(flag) {
      throw ValidationError("The run flags cannot include \(flag): ab writes its own reports.")
    }
  }

  /// `flags` with `--preset NAME` spelled out as the scenario flags it stands for, so that an
  /// old build that predates the preset (or the option) runs the same scenario.
  static func expandingPreset(_ flags: [String]) -> [String] {
    var result: [String] = []
    var i = 0
    while i < flags.count {
      var name: String?
      var step = 1
      if flags[i] == "--preset", i + 1 < flags.count {
        name = flags[i + 1]
        step = 2
      } else if flags[i].hasPrefix("--preset=") {
        name = String(flags[i].dropFirst("--preset=".count))
      }
      if let name, let preset = PeerScenario(rawValue: name) {
        let s = preset.scenario
        result += [
          "--shape", s.shape.rawValue, "--size", "\(s.size)", "--mutation", s.mutation.rawValue,
          "--per-tick", "\(s.perTick)",
        ]
      } else {
        result += flags[i..<min(i + step, flags.count)]
      }
      i += step
    }
    return result
  }

  func run() throws {
    var arguments = ["run"] + Self.expandingPreset(runFlags) + ["--quiet"]
    let progress = Progress(quiet: judge.quiet)
    // Without --ticks, a pilot (with this build) picks every scenario's ticks per round.
    let run: Run
    do { run = try Run.parse(runFlags) } catch { throw CommandFailure(Run.message(for: error)) }
    arguments += try pilotArguments(
      try run.plan(), explicitTicks: run.scenario.ticks, progress: progress)
    let (oldRounds, newRounds) = try RoundProcess.withDirectory { directory in
      var oldRounds: [RunReport] = []
      var newRounds: [RunReport] = []
      for round in 0..<rounds {
        // ABBA order: neither side always goes first.
        let sides = round % 2 == 0 ? [(old, true), (new, false)] : [(new, false), (old, true)]
        for (executable, isOld) in sides {
          let side = isOld ? "old" : "new"
          progress.update("round \(round + 1)/\(rounds): \(side)")
          let report = try RoundProcess.run(
            executable, arguments, in: directory, name: "\(side)-\(round)",
            label: "round \(round + 1) of \(rounds) (\(side))")
          if isOld { oldRounds.append(report) } else { newRounds.append(report) }
        }
      }
      return (oldRounds, newRounds)
    }
    progress.finish()
    let base: RunReport
    let latest: RunReport
    do {
      base = try RunReport.mergingRounds(oldRounds)
      latest = try RunReport.mergingRounds(newRounds)
    } catch {
      throw CommandFailure(error.description)
    }
    let comparison = Comparison.compare(
      base: base, new: latest, settings: try judge.settings(interleaved: true))
    try emit(comparison, markdown: judge.markdown, json: judge.json)
  }
}

/// Prints a comparison (unless a report goes to standard output), writes its Markdown and
/// JSON, and exits with its status: shared by `compare` and `ab`.
func emit(_ comparison: Comparison, markdown: String?, json: String?) throws {
  if markdown != "-" && json != "-" { print(comparison.render(markdown: false), terminator: "") }
  if let markdown { try OutputFile.write(comparison.render(markdown: true), to: markdown) }
  if let json {
    try OutputFile.write(try JSONText.encode(comparison, pretty: true), to: json)
  }
  throw ExitCode(comparison.exitStatus.rawValue)
}
