import ArgumentParser
import LayoutHarness
internal import Foundation

/// `layout-bench ab OLD NEW -- RUN FLAGS`: two builds measured in alternating rounds.
struct AB: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ab",
    abstract: "Compare two builds of layout-bench, measured in alternating rounds in one time window.",
    discussion: """
      Runs `run RUN FLAGS` in separate processes of OLD and NEW, alternating (old, new, new, \
      old, ...), so that whatever the machine does during the comparison (a neighbour's \
      build, a thermal change) falls on both sides alike; then judges them like `compare`. \
      This is the gate to use on a shared CI runner: build main and the branch, then \
      `layout-bench ab main/layout-bench branch/layout-bench`. Without --ticks in the run \
      flags each round runs 60 ticks per scenario. Both builds must know `--round-output` \
      (this version or later). Exit status as for `compare`.
      """
  )

  @Argument(help: "The old build's layout-bench executable.")
  var old: String

  @Argument(help: "The new build's layout-bench executable.")
  var new: String

  @Option(help: "Rounds per side.")
  var rounds: Int = 10

  @Option(help: "Relative threshold for time metrics, e.g. 0.1 for 10%.")
  var threshold: Double = 0.10

  @Option(help: "Write the comparison as Markdown to this file, - for standard output.")
  var markdown: String?

  @Option(help: "Write the comparison as JSON to this file, - for standard output.")
  var json: String?

  @Flag(help: "No progress on standard error.")
  var quiet = false

  @Argument(parsing: .postTerminator, help: "Flags of `run` for both sides (after --).")
  var runFlags: [String] = []

  func validate() throws {
    guard (2...1000).contains(rounds) else {
      throw ValidationError("Please specify --rounds from 2 to 1000 (got \(rounds)).")
    }
    guard threshold.isFinite, threshold >= 0 else {
      throw ValidationError("Please specify a --threshold of 0 or more (got \(threshold)).")
    }
    for path in [old, new] where !FileManager.default.isExecutableFile(atPath: path) {
      throw ValidationError("'\(path)' is not an executable file.")
    }
    for flag in ["--json", "--html", "--markdown", "--trace", "--rounds", "--round-output"]
    where runFlags.contains(flag) {
      throw ValidationError("The run flags cannot include \(flag): ab writes its own reports.")
    }
    for path in [markdown, json].compactMap({ $0 }) where path != "-" {
      if let problem = OutputFile.problem(writing: path) { throw ValidationError(problem) }
    }
  }

  func run() throws {
    var arguments = ["run"] + runFlags + ["--quiet"]
    if !runFlags.contains("--ticks") { arguments += ["--ticks", "60"] }
    let progress = Progress(quiet: quiet)
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
      base: base, new: latest, settings: .init(thresholds: ["p50": threshold, "p99": threshold]))
    try emit(comparison, markdown: markdown, json: json)
  }
}

/// Prints a comparison (unless a report goes to standard output), writes its Markdown and
/// JSON, and exits with its status: shared by `compare` and `ab`.
func emit(_ comparison: Comparison, markdown: String?, json: String?) throws {
  if markdown != "-" && json != "-" { print(comparison.render(markdown: false), terminator: "") }
  if let markdown { try OutputFile.write(comparison.render(markdown: true), to: markdown) }
  if let json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    try OutputFile.write(String(decoding: try encoder.encode(comparison), as: UTF8.self) + "\n", to: json)
  }
  throw ExitCode(comparison.exitCode)
}
