import ArgumentParser
import Cassowary
import SolverFuzzing

/// `solver-fuzz`: replays seeded layout-like systems on the solver's representations and
/// checks each against a fresh canonical solve (see `DifferentialOracle`).
@main
struct SolverFuzz: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "solver-fuzz",
    abstract: "Differential fuzzing of the Cassowary solver on layout-like systems.",
    discussion: """
      System i of a run is the case of seed SEED+i; its box count is drawn from the seed and \
      the box range, so replaying a seed needs the same --min-boxes and --max-boxes. Exits 1 \
      when any check fails, 3 when a system exceeds --timeout-per-system (the solver hangs).
      """
  )

  @Option(help: "How many systems to run.")
  var count = 1000

  @Option(help: "The seed of the first system; system i uses SEED+i.")
  var seed: UInt64 = 1

  @Option(help: "The fewest boxes in a system.")
  var minBoxes = 2

  @Option(help: "The most boxes in a system.")
  var maxBoxes = 200

  @Option(help: "The representation to replay on: all, adaptive, lazy or canonical.")
  var representation: RepresentationChoice = .all

  @Option(help: "How many systems to run at once (threads).")
  var jobs = 1

  @Option(help: "Leave out this seed (repeatable), e.g. one that hangs.")
  var skip: [UInt64] = []

  @Option(help: "Run only the system of this seed, and print its failures in full.")
  var replay: UInt64?

  @Option(help: "With --replay: write the case as a `layout-bench solve` script to this file.")
  var dump: String?

  @Flag(help: "Print each seed to stderr before it runs, so that a trap can be attributed.")
  var verbose = false

  @Option(help: "Weighted errors agree within this times max(1, e1, e2).")
  var errorTolerance = FuzzTolerance.weightedError

  @Option(help: "End the run, naming the seed, when one replay takes longer (0: no limit).")
  var timeoutPerSystem: Double = 60

  @Flag(
    help: """
      Make no soft equality weigh its two directions apart: a seed then makes the case it \
      made before split equalities (those of earlier failures).
      """)
  var noSplits = false

  @Flag(
    help: """
      Follow no suggestion with a drag (a run of small suggestions of the same edit): a \
      seed then makes the case it made before drags (those of earlier failures).
      """)
  var noDrags = false

  @Flag(
    help: """
      End no round with a probe (a required constraint the active ones rule out, which the \
      solver must refuse): a seed then makes the case it made before probes (those of \
      earlier failures).
      """)
  var noProbes = false

  @Flag(
    help: """
      With --replay: judge the solution after every operation, not only at checkpoints, so \
      that a failure names the first operation that left a wrong solution (slow: a fresh \
      solve per operation).
      """)
  var judgeEveryOperation = false

  @Flag(
    help: """
      Replay the representations of a case on the same constraint instances, keeping each \
      solver until the case ends: later solvers find instances that earlier ones hold \
      (the lookups of solvers that share constraints).
      """)
  var shareConstraints = false

  func validate() throws {
    guard minBoxes >= 1, minBoxes <= maxBoxes else {
      throw ValidationError("Please specify 1 <= --min-boxes <= --max-boxes.")
    }
    guard jobs >= 1 else { throw ValidationError("Please provide --jobs of 1 or more.") }
    guard count >= 0 else { throw ValidationError("Please provide a --count of 0 or more.") }
    guard errorTolerance >= 0 else {
      throw ValidationError("Please provide an --error-tolerance of 0 or more.")
    }
    guard timeoutPerSystem >= 0 else {
      throw ValidationError("Please provide a --timeout-per-system of 0 or more seconds.")
    }
    if dump != nil && replay == nil {
      throw ValidationError("Please provide --replay SEED with --dump FILE.")
    }
    if judgeEveryOperation && replay == nil {
      throw ValidationError("Please provide --replay SEED with --judge-every-operation.")
    }
  }

  func run() throws {
    var fuzzer = DifferentialFuzzer(
      boxes: minBoxes...maxBoxes, errorTolerance: errorTolerance, splits: !noSplits,
      drags: !noDrags, probes: !noProbes)
    fuzzer.sharesConstraints = shareConstraints
    var runner = FuzzRunner(
      fuzzer: fuzzer,
      representations: representation.representations,
      representationName: representation.rawValue, verbose: verbose, timeout: timeoutPerSystem)
    runner.judgesEveryOperation = judgeEveryOperation
    if let replay {
      try runReplay(replay, runner)
    } else {
      try runMany(runner)
    }
  }
}

enum RepresentationChoice: String, ExpressibleByArgument, CaseIterable {
  case all, adaptive, lazy, canonical

  var representations: [Solver.Representation] {
    switch self {
    case .all: DifferentialFuzzer.allRepresentations
    case .adaptive: [.adaptive]
    case .lazy: [.lazy]
    case .canonical: [.canonical]
    }
  }
}
