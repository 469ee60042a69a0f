import ArgumentParser
import LayoutHarness

// The values the help lists: `scene` and `scripted` are what a scene file's results are
// keyed by, given with --scene FILE, not values of these flags (they are refused with a
// reason).
extension Shape: ExpressibleByArgument {
  public static var allValueStrings: [String] { builtIn.map(\.rawValue) }
}
extension MutationKind: ExpressibleByArgument {
  public static var allValueStrings: [String] { builtIn.map(\.rawValue) }
}
extension PeerScenario: ExpressibleByArgument {}

/// `--strategy`: one strategy or all three.
enum StrategyChoice: String, ExpressibleByArgument, CaseIterable {
  case coalesced, eager
  case bottomUp = "bottom-up"
  case all

  var kinds: [StrategyKind] {
    switch self {
    case .coalesced: [.coalesced]
    case .eager: [.eager]
    case .bottomUp: [.bottomUp]
    case .all: StrategyKind.allCases
    }
  }
}

/// The scenario flags shared by `run`, `sweep`, `baseline save` and `calibrate`.
struct ScenarioOptions: ParsableArguments {
  @Option(
    help:
      "Tree shape: \(Shape.builtIn.map(\.rawValue).joined(separator: ", ")). Default: deep, wide and feed."
  )
  var shape: Shape?

  @Option(
    help: "Scenario size (depth for deep, children for wide, cells for feed, views otherwise).")
  var size: Int?

  @Option(
    help:
      "Mutation per tick: \(MutationKind.builtIn.map(\.rawValue).joined(separator: ", ")). Default: text and resize, and, with --per-tick 1, the default matrix's batch and scroll scenarios of the shape (feed configure x4, wide configure and text x4, table scroll)."
  )
  var mutation: MutationKind?

  @Option(
    name: .customLong("per-tick"), help: "Mutations per tick (text, churn, configure, reparent).")
  var perTick: Int = 1

  @Option(
    help: """
      A scenario named after a peer's benchmark instead of --shape/--size/--mutation: \
      \(PeerScenario.names) (README: "Peer scenarios"). A sweep takes its shape and \
      mutation over the sizes of --sizes or the ladder.
      """)
  var preset: PeerScenario?

  @Option(
    help: """
      A scene file (JSON, README: "Scene files") instead of the built-in shapes: its view \
      tree, constraints and ticks; --size sets its size when it has one.
      """)
  var scene: String?

  /// The scene file of --scene, read and checked (nil without --scene).
  /// - Throws: ``CommandFailure`` naming the file, JSON path and reason.
  func sceneFile() throws -> SceneFile? {
    guard let scene else { return nil }
    let file: SceneFile
    do { file = try SceneFile.load(path: scene) } catch { throw CommandFailure(error.description) }
    if let size {
      do { _ = try Scenario(file: file, size: size) } catch {
        throw CommandFailure(error.description)
      }
    }
    return file
  }

  /// The shape, size, mutation and changes per tick: the preset's, or the flags'.
  var chosenShape: Shape? { preset?.scenario.shape ?? shape }
  var chosenSize: Int? { preset?.scenario.size ?? size }
  var chosenMutation: MutationKind? { preset?.scenario.mutation ?? mutation }
  var chosenPerTick: Int { preset?.scenario.perTick ?? perTick }

  @Option(help: "Measured ticks per scenario (after warm-up).")
  var ticks: Int?

  @Option(help: "Warm-up ticks, run and discarded.")
  var warmup: Int = 10

  @Option(help: "Strategy: coalesced, eager, bottom-up or all.")
  var strategy: StrategyChoice = .all

  @Option(help: "Display refresh rate for the frame budget, 30 to 240 (e.g. 60, 90, 120, 144).")
  var hz: Int = 60

  @Option(
    name: .customLong("seed"),
    help: "Seed of the scene and mutation generators (default 1; a scene file has its own).")
  var seedOption: UInt64?

  var seed: UInt64 { seedOption ?? 1 }

  @Option(
    help: """
      Cold layouts (build + first layout) timed per strategy, at most (fewer once 0.2 s went \
      into them), after one untimed build. 1 makes exactly one build, timed (the work of a \
      run is then independent of the clock, for instruction counts).
      """)
  var coldBuilds: Int = RunSettings().coldBuilds

  @Flag(help: "Skip the per-tick check that all strategies give the same frames.")
  var noVerify = false

  /// Set by a parent that measures in rounds: every round's ticks per scenario, chosen by a
  /// pilot (``RoundLength``), as `feed300/textx1=1000,...`.
  @Option(help: .hidden)
  var scenarioTicks: String?

  /// The plan's choices these flags make.
  func choices(quick: Bool, inRounds: Bool) throws -> RunPlan.Choices {
    var choices = RunPlan.Choices()
    choices.scene = try sceneFile()
    choices.shape = chosenShape
    choices.size = chosenSize
    choices.mutation = chosenMutation
    choices.perTick = chosenPerTick
    choices.seed = seed
    choices.strategies = strategy.kinds
    choices.ticks = ticks
    choices.warmup = warmup
    choices.hz = hz
    choices.verifyFrames = !noVerify
    choices.coldBuilds = coldBuilds
    choices.quick = quick
    choices.inRounds = inRounds
    choices.ticksByScenario = ticksByScenario
    return choices
  }

  /// ``scenarioTicks`` parsed (empty when not given).
  var ticksByScenario: [String: Int] { scenarioTicks.flatMap(RoundLength.decode) ?? [:] }

  @Flag(
    help: """
      Also count instructions per tick of every result under valgrind's callgrind (needs \
      valgrind): a deterministic metric that compare judges against a 1% threshold.
      """)
  var instructions = false

  /// Counts the instructions per tick of every result when `--instructions` asks for it.
  func measuringInstructions(_ report: RunReport, quiet: Bool) throws -> RunReport {
    guard instructions else { return report }
    let progress = Progress(quiet: quiet)
    defer { progress.finish() }
    return try InstructionCounter.locate().measuring(report, progress: progress)
  }

  func validate() throws {
    if scene != nil,
      preset != nil || shape != nil || mutation != nil || perTick != 1 || seedOption != nil
    {
      throw ValidationError(
        "Please give either --scene or --shape/--preset/--mutation/--per-tick/--seed, not "
          + "both (a scene file has its own tree, ticks and seed).")
    }
    if shape == .scene || mutation == .scripted {
      throw ValidationError(
        "Please run a scene file with --scene FILE (--shape scene and --mutation scripted "
          + "name what a scene file's results are).")
    }
    if let preset, shape != nil || size != nil || mutation != nil || perTick != 1 {
      throw ValidationError(
        "Please give either --preset \(preset.rawValue) or --shape/--size/--mutation/--per-tick, "
          + "not both (the preset is \(preset.scenario)).")
    }
    if let size, size < 1 {
      throw ValidationError("Please specify a --size of at least 1 (got \(size)).")
    }
    if let size, size > 1_000_000 {
      throw ValidationError("Please specify a --size up to 1000000 (got \(size)).")
    }
    if perTick < 1 {
      throw ValidationError("Please specify --per-tick of at least 1 (got \(perTick)).")
    }
    if let ticks, ticks < 1 {
      throw ValidationError("Please specify --ticks of at least 1 (got \(ticks)).")
    }
    let maximum = RunReport.maximumTicks
    if let ticks, ticks > maximum {
      throw ValidationError("Please specify --ticks up to \(maximum) (got \(ticks)).")
    }
    if warmup < 0 { throw ValidationError("Please specify --warmup of 0 or more (got \(warmup)).") }
    if warmup > maximum {
      throw ValidationError("Please specify --warmup up to \(maximum) (got \(warmup)).")
    }
    if perTick > RunReport.maximumPerTick {
      throw ValidationError(
        "Please specify --per-tick up to \(RunReport.maximumPerTick) (got \(perTick)).")
    }
    if !FrameBudget.supportedHz.contains(hz) {
      throw ValidationError("Please specify --hz from 30 to 240 (got \(hz)).")
    }
    if let scenarioTicks, RoundLength.decode(scenarioTicks) == nil {
      throw ValidationError("--scenario-ticks must be SCENARIO=TICKS,... (got '\(scenarioTicks)').")
    }
    if !(1...100).contains(coldBuilds) {
      throw ValidationError("Please specify --cold-builds from 1 to 100 (got \(coldBuilds)).")
    }
    if let mutation, let shape, !Scenario.supports(shape, mutation) {
      throw ValidationError(
        "Please use --mutation scroll with --shape feed, table or grid (only lists scroll).")
    }
  }
}

/// Where reports go. Every path is checked before the run starts, and every file is
/// written atomically, so a failed run leaves no half-written report.
struct ReportOptions: ParsableArguments {
  @Option(
    help: "Write the JSON report (with per-tick samples) to this file, - for standard output.")
  var json: String?

  @Option(
    help: "Write the table as Markdown (for a PR comment) to this file, - for standard output.")
  var markdown: String?

  @Option(help: "Write a self-contained HTML report with charts to this file.")
  var html: String?

  @Option(help: "Write a Chrome trace-event file of every tick's phases (open in Perfetto).")
  var trace: String?

  @Flag(help: "No progress on standard error.")
  var quiet = false

  var paths: [String] { [json, markdown, html, trace].compactMap { $0 }.filter { $0 != "-" } }

  func validate() throws {
    for path in paths {
      if let problem = OutputFile.problem(writing: path) { throw ValidationError(problem) }
    }
    if let duplicate = OutputFile.duplicate(among: paths) {
      throw ValidationError("Please give each report its own file: \(duplicate).")
    }
    if json == "-" && markdown == "-" {
      throw ValidationError("Please send at most one of --json and --markdown to standard output.")
    }
  }
}
