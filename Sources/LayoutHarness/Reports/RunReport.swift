import BenchSupport
internal import Foundation

/// A run's results: the JSON report contract (documented in the README). `schemaVersion`,
/// `budgetNs` and `results` at the top; per result `strategy`, `shape`, `size`, `mutation`,
/// `ticks`, `tickNs`, `overBudget`, `hitchMsPerS`, `counters`, `allocations`. Everything
/// else is additional and may grow; readers ignore keys they do not know.
public struct RunReport: Codable, Hashable, Sendable {
  public static let currentSchemaVersion = 1

  public var schemaVersion: Int
  /// The frame budget of the run's refresh rate.
  public var budgetNs: Double
  public var hz: Int
  /// What the harness's own per-tick instrumentation costs (clock reads, counters,
  /// allocation probes), measured at the start of the run.
  public var measurementOverheadNs: Double
  /// Where and how the run was made.
  public var environment: [String: String]
  public var results: [RunResult]
  /// Size sweeps (`layout-bench sweep`), empty for plain runs.
  public var sweeps: [SweepResult]

  public init(
    hz: Int, measurementOverheadNs: Double, environment: [String: String],
    results: [RunResult], sweeps: [SweepResult] = []
  ) {
    schemaVersion = Self.currentSchemaVersion
    budgetNs = FrameBudget(hz: hz).nanoseconds
    self.hz = hz
    self.measurementOverheadNs = measurementOverheadNs
    self.environment = environment
    self.results = results
    self.sweeps = sweeps
  }
}

/// One strategy on one scenario.
public struct RunResult: Codable, Hashable, Sendable {
  public var strategy: StrategyKind
  public var shape: Shape
  public var size: Int
  public var mutation: MutationKind
  public var perTick: Int
  public var seed: UInt64
  /// Views in the scene at the start.
  public var views: Int
  /// Measured ticks (warm-up not included).
  public var ticks: Int
  public var warmupTicks: Int
  public var tickNs: TickStatistics
  /// Ticks over the run's budget.
  public var overBudget: Int
  public var missedFrames: Int
  /// Overrun beyond the budget at p50 and p99 (0 when within).
  public var overrunNs: Overrun
  /// Hitch time ratio at the run's refresh rate, ms per s.
  public var hitchMsPerS: Double
  /// The same at the common refresh rates (``FrameBudget/namedHz``) and the run's own.
  public var budgets: [BudgetAssessment]
  /// Median time per tick in each phase: handlers, constraints, layout, display.
  public var phasesNs: [String: Double]
  /// Work per tick, averaged over the measured ticks (deterministic for a seed).
  public var counters: [String: Double]
  public var allocations: Allocations
  /// Every measured tick's cost, in order (every round's, one after the other).
  public var samplesNs: [Double]
  /// One entry per round (a separate process with its own trees and warm-up) when the
  /// run had several; time verdicts are judged on these, never on pooled ticks. `nil` in
  /// reports from before rounds existed, which count as one round.
  public var rounds: [RoundSummary]? = nil
  /// Instructions per measured tick, counted by callgrind (`run --instructions`); nil when
  /// not measured. Deterministic: the same code gives the same count on any run.
  public var instructionsPerTick: Double? = nil
  /// The median time of the machine-speed reference slice (``SpeedReference``) timed once
  /// per tick beside this scenario's ticks; nil in reports from before it existed.
  public var referenceNs: Double? = nil
  /// Involuntary context switches of the measuring thread during the scenario's ticks (all
  /// strategies together): the scheduler taking the core away. nil where not counted.
  public var preemptions: Int? = nil
  /// Cold layout: building the scene's tree and laying it out once; nil in reports from
  /// before it was measured.
  public var cold: ColdLayout? = nil
  /// The scene file this result measured (nil for the built-in shapes): its name keys the
  /// result, its hash tells a changed file from the one a baseline measured.
  public var scene: SceneIdentity? = nil

  /// One round's tick statistics.
  public struct RoundSummary: Codable, Hashable, Sendable {
    public var p50Ns: Double
    public var p99Ns: Double
    public var ticks: Int
    /// The round's median machine-speed reference slice (``RunResult/referenceNs``).
    public var referenceNs: Double?
    /// The round's median cold layout (``RunResult/cold``).
    public var coldNs: Double? = nil

    public init(p50Ns: Double, p99Ns: Double, ticks: Int, referenceNs: Double? = nil) {
      self.p50Ns = p50Ns
      self.p99Ns = p99Ns
      self.ticks = ticks
      self.referenceNs = referenceNs
    }
  }

  /// The rounds this result stands on: its own when recorded, else itself as one round.
  public var roundSummaries: [RoundSummary] {
    if let rounds { return rounds }
    var round = RoundSummary(
      p50Ns: tickNs.p50, p99Ns: tickNs.p99, ticks: ticks, referenceNs: referenceNs)
    round.coldNs = cold?.p50Ns
    return [round]
  }

  public struct Overrun: Codable, Hashable, Sendable {
    public var p50: Double
    public var p99: Double
  }

  public struct Allocations: Codable, Hashable, Sendable {
    /// Allocation requests per tick (nil when no allocation probe was available).
    public var countPerTick: Double?
    public var bytesPerTick: Double?
  }

  /// Identifies the scenario and strategy across runs (for comparisons).
  public var key: String { "\(strategy.rawValue)/\(scenarioKey)" }

  /// The scene (shape and size, or a scene file's name and size) and the mutation.
  public var scenarioKey: String { "\(sceneName)/\(mutation.rawValue)x\(perTick)" }

  /// `feed300`, or a scene file's name (with its size when it has one: `chat-thread40`).
  public var sceneName: String {
    guard let scene else { return "\(shape.rawValue)\(size)" }
    return scene.sized ? "\(scene.name)\(size)" : scene.name
  }

  /// What a comparison matches results on: the key, the seed, and a scene file's hash.
  public var matchKey: String { "\(key)@\(seed)" + (scene.map { "#\($0.hash)" } ?? "") }
}

/// A scene file as a result records it.
public struct SceneIdentity: Codable, Hashable, Sendable {
  public var name: String
  /// The file's content hash (``SceneFile/hash``).
  public var hash: String
  /// The path it was read from, to run it again (`compare` without a new report).
  public var file: String
  /// Whether the scene has a size (its key then carries it).
  public var sized: Bool

  public init(_ file: SceneFile) {
    self.init(name: file.name, hash: file.hash, file: file.file, sized: file.defaultSize != nil)
  }

  public init(name: String, hash: String, file: String, sized: Bool) {
    self.name = name
    self.hash = hash
    self.file = file
    self.sized = sized
  }
}

/// A size ladder of one strategy on one shape and mutation.
public struct SweepResult: Codable, Hashable, Sendable {
  public var strategy: StrategyKind
  public var shape: Shape
  public var mutation: MutationKind
  public var sizes: [Int]
  public var p50Ns: [Double]
  public var p99Ns: [Double]
  /// Fitted exponent of cost against size (log-log least squares).
  public var p50Exponent: Double?
  public var p99Exponent: Double?
  /// The largest measured size whose p99 tick fits the budget (nil: none does).
  public var largestSizeWithinBudget: Int?
  /// How well each exponent's line fits, as R² of the log-log fit: near 1, one power law
  /// describes the ladder; lower, the exponent averages over a bend or noise. nil with
  /// fewer than three sizes, and in reports from before it was recorded.
  public var p50FitR2: Double? = nil
  public var p99FitR2: Double? = nil
  /// Cold layout (build + first layout) per size, its log-log exponent and fit; nil when a
  /// size lacks it, and in reports from before it was measured.
  public var coldNs: [Double]? = nil
  public var coldExponent: Double? = nil
  public var coldFitR2: Double? = nil
  /// Bytes per view each size's cold build left allocated (``ColdLayout/retainedBytesPerView``);
  /// nil when a size lacks it, and in reports from before it was measured.
  public var coldRetainedBytesPerView: [Double]? = nil
  /// The scene file swept (nil for a built-in shape).
  public var scene: String? = nil

  /// The shape swept, or the scene file's name.
  public var sceneName: String { scene ?? shape.rawValue }

  public init(
    strategy: StrategyKind, shape: Shape, mutation: MutationKind, sizes: [Int], p50Ns: [Double],
    p99Ns: [Double], p50Exponent: Double?, p99Exponent: Double?, largestSizeWithinBudget: Int?,
    p50FitR2: Double? = nil, p99FitR2: Double? = nil
  ) {
    self.strategy = strategy
    self.shape = shape
    self.mutation = mutation
    self.sizes = sizes
    self.p50Ns = p50Ns
    self.p99Ns = p99Ns
    self.p50Exponent = p50Exponent
    self.p99Exponent = p99Exponent
    self.largestSizeWithinBudget = largestSizeWithinBudget
    self.p50FitR2 = p50FitR2
    self.p99FitR2 = p99FitR2
  }
}

/// The phases of every measured tick of one run, for trace files (not part of the JSON
/// report, which keeps only per-tick totals).
public struct RunTimeline: Sendable {
  /// The run's `RunResult.key`.
  public var key: String
  public var ticks: [TickTimeline]

  public init(key: String, ticks: [TickTimeline]) {
    self.key = key
    self.ticks = ticks
  }
}

public struct TickTimeline: Sendable {
  /// Monotonic clock at the start of the tick.
  public var startNs: UInt64
  /// Duration of each phase, indexed like `TickPhase.allCases` (handlers, constraints,
  /// layout, display).
  public var phaseNs: [Double]
  /// What the tick did (nil where not recorded).
  public var work: TickWork?

  public init(startNs: UInt64, phaseNs: [Double], work: TickWork? = nil) {
    self.startNs = startNs
    self.phaseNs = phaseNs
    self.work = work
  }

  public var totalNs: Double { phaseNs.reduce(0, +) }
}

/// Building a scene's tree and laying it out once: what pushing a new screen or showing a
/// new cell costs before any tick. Repeated builds of the same scene, each timed alone.
public struct ColdLayout: Codable, Hashable, Sendable {
  public var samplesNs: [Double]
  /// The median build + first layout.
  public var p50Ns: Double
  /// The scene's size (cells for a feed, depth for deep, children for wide, views
  /// otherwise), so that ``perUnitNs`` is the cost per cell of a list.
  public var unitCount: Int
  /// Bytes allocated per view while building, freed or not: the build's allocation churn
  /// (nil without an allocation probe).
  public var bytesPerView: Double?
  /// Bytes per view still allocated when the build is done: the memory the tree, its
  /// constraints and the engine hold (the median over builds; signed, as a build may free
  /// memory allocated before it; nil without an allocation probe that counts frees, and in
  /// reports from before it was measured).
  public var retainedBytesPerView: Double?

  public init(
    samplesNs: [Double], unitCount: Int, bytesPerView: Double?,
    retainedBytesPerView: Double? = nil
  ) {
    self.samplesNs = samplesNs
    p50Ns = samplesNs.isEmpty ? 0 : median(samplesNs)
    self.unitCount = unitCount
    self.bytesPerView = bytesPerView
    self.retainedBytesPerView = retainedBytesPerView
  }

  /// The median cost per unit of size (per cell of a feed).
  public var perUnitNs: Double { p50Ns / Double(max(unitCount, 1)) }
}

/// One tick's counters, for the trace: the work that explains its cost.
public struct TickWork: Hashable, Sendable {
  public var solves: Int
  public var layouts: Int
  /// Views moved or resized, and of those the ones already moved earlier in the tick.
  public var moved: Int
  public var movedAgain: Int

  public init(solves: Int, layouts: Int, moved: Int, movedAgain: Int) {
    self.solves = solves
    self.layouts = layouts
    self.moved = moved
    self.movedAgain = movedAgain
  }
}
