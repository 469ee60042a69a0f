/// What a run measures: scenarios, each with the settings it runs under. The commands build
/// a plan from their flags (``matrix(_:)``, ``rerunning(_:)``), then ``measure(_:)`` it;
/// the policy (the default matrix, time limits, fixed ticks for rounds) lives here.
public struct RunPlan: Sendable {
  public struct Entry: Sendable {
    public var scenario: Scenario
    public var settings: RunSettings

    public init(scenario: Scenario, settings: RunSettings) {
      self.scenario = scenario
      self.settings = settings
    }
  }

  public var entries: [Entry]
  /// The refresh rate of the report (every entry's settings share it).
  public var hz: Int
  /// What the plan left out and why (a strategy that cannot run a scene file), for the
  /// command to print before it runs.
  public var notes: [String] = []

  public init(entries: [Entry], hz: Int) {
    self.entries = entries
    self.hz = hz
  }

  public var scenarios: [Scenario] { entries.map(\.scenario) }

  // MARK: - The default matrix

  public static let defaultShapes: [Shape] = [.deep, .wide, .feed]
  public static let defaultMutations: [MutationKind] = [.text, .resize]

  /// The sizes of a shape in the default matrix: big enough to show growth, small enough
  /// that the whole matrix runs well under a minute.
  public static func defaultSizes(_ shape: Shape) -> [Int] {
    switch shape {
    case .deep, .wide: [100, 1000]
    // A 1000-cell feed (11,000 views) takes seconds to build under Auto Layout.
    case .feed: [100, 300]
    case .balanced, .random: [1000]
    // Only the cells on screen exist, whatever the row count.
    case .table: [1000, 100_000]
    case .grid: [300, 3000]
    // A scene file has its own size (run --scene FILE).
    case .scene: []
    }
  }

  /// Scenarios beside the shapes' text and resize: several changes per tick, where
  /// coalescing pays (a feed configuring 4 cells, 24 changes; a batch of 6 rows; 4 rows of
  /// a list changing text, as a chat receiving messages), and a table view scrolling with
  /// cell reuse, what a list does every frame. Added to the default matrix (at the shape's
  /// largest default size; the smallest with `--quick`) unless a mutation or a per-tick
  /// count is given.
  public static let defaultBatches: [(shape: Shape, mutation: MutationKind, perTick: Int)] = [
    (.feed, .configure, 4), (.wide, .configure, 1), (.wide, .text, 4), (.table, .scroll, 1),
  ]

  /// A timed run stops a slow scenario after this much measuring (keeping
  /// ``minimumTimedTicks``), so that the default matrix stays well under a minute.
  public static let timeLimitNs: UInt64 = 1_500_000_000
  public static let minimumTimedTicks = 20
  /// Measured ticks of a timed run (`run` without `--ticks`; 20 with `--quick`).
  public static let timedTicks = 120
  public static let quickTicks = 20
  /// Ticks per scenario of a baseline's or a calibration's rounds when neither `--ticks` nor
  /// a pilot chose them.
  public static let roundTicks = 60

  /// The user's choices: every axis left `nil` takes the default matrix's values.
  public struct Choices: Sendable {
    public var shape: Shape?
    public var size: Int?
    public var mutation: MutationKind?
    public var perTick = 1
    public var seed: UInt64 = 1
    public var strategies = StrategyKind.allCases
    /// Measured ticks; nil: ``timedTicks`` (``quickTicks`` when quick), time-limited unless
    /// in rounds.
    public var ticks: Int?
    public var warmup = 10
    public var hz = 60
    public var verifyFrames = true
    /// Cold layouts timed per strategy (``RunSettings/coldBuilds``).
    public var coldBuilds = RunSettings().coldBuilds
    /// The smallest size of each shape, 20 ticks, at most 3 warm-up ticks.
    public var quick = false
    /// Every round of a run in rounds must do the same work (their counters are merged
    /// and must agree), so it measures a fixed number of ticks.
    public var inRounds = false
    /// Ticks per scenario chosen by a pilot (``RoundLength``), keyed by description.
    public var ticksByScenario: [String: Int] = [:]
    /// A scene file to run instead of the built-in shapes (at `size`, or its own size).
    public var scene: SceneFile?

    public init() {}
  }

  /// The scenarios and settings that `choices` ask for.
  public static func matrix(_ choices: Choices) -> RunPlan {
    let fixed = choices.ticks != nil || choices.inRounds
    let ticks = choices.ticks ?? (choices.quick ? quickTicks : timedTicks)
    let settings = RunSettings(
      strategies: choices.strategies, ticks: ticks,
      warmupTicks: choices.quick ? min(choices.warmup, 3) : choices.warmup, hz: choices.hz,
      timeLimitNs: fixed ? nil : timeLimitNs, minimumTicks: fixed ? ticks : minimumTimedTicks,
      verifyFrames: choices.verifyFrames, coldBuilds: choices.coldBuilds)
    // A pilot's choice of ticks overrides the plan's for its scenario.
    func settingsFor(_ scenario: Scenario) -> RunSettings {
      guard let count = choices.ticksByScenario[scenario.description] else { return settings }
      var own = settings
      own.ticks = count
      own.minimumTicks = count
      own.timeLimitNs = nil
      return own
    }
    var entries: [Entry] = []
    if let file = choices.scene {
      var strategies = settings.strategies
      var notes: [String] = []
      if let problem = file.frameLayoutProblem, strategies.contains(.bottomUp) {
        strategies.removeAll { $0 == .bottomUp }
        notes.append("\(file.name): bottom-up left out: \(problem)")
      }
      // A file's size is checked when the command reads it (Scenario(file:size:)).
      guard !strategies.isEmpty, let scenario = try? Scenario(file: file, size: choices.size)
      else {
        var plan = RunPlan(entries: [], hz: choices.hz)
        plan.notes = notes
        return plan
      }
      var chosen = settingsFor(scenario)
      chosen.strategies = strategies
      entries.append(Entry(scenario: scenario, settings: chosen))
      var plan = RunPlan(entries: entries, hz: choices.hz)
      plan.notes = notes
      return plan
    }
    // Without a shape, a mutation only some shapes support runs on those (only lists scroll).
    let shapes =
      choices.shape.map { [$0] }
      ?? defaultShapes.filter { shape in
        choices.mutation.map { Scenario.supports(shape, $0) } ?? true
      }
    for shape in shapes {
      var sizes = choices.size.map { [$0] } ?? defaultSizes(shape)
      if choices.quick && choices.size == nil { sizes = [sizes[0]] }
      for size in sizes {
        for mutation in choices.mutation.map({ [$0] }) ?? defaultMutations {
          let scenario = Scenario(
            shape: shape, size: size, mutation: mutation, perTick: choices.perTick,
            seed: choices.seed)
          entries.append(Entry(scenario: scenario, settings: settingsFor(scenario)))
        }
      }
    }
    if choices.mutation == nil && choices.perTick == 1 {
      for batch in defaultBatches where choices.shape == nil || choices.shape == batch.shape {
        let sizes = choices.size.map { [$0] } ?? defaultSizes(batch.shape)
        let scenario = Scenario(
          shape: batch.shape, size: choices.quick ? sizes.first! : sizes.last!,
          mutation: batch.mutation, perTick: batch.perTick, seed: choices.seed)
        entries.append(Entry(scenario: scenario, settings: settingsFor(scenario)))
      }
    }
    return RunPlan(entries: entries, hz: choices.hz)
  }

  /// The scenarios of `base` again, each with the strategies, ticks and warm-up it was
  /// measured with (a merged report's `ticks` are one round's), frames verified.
  /// - Throws: ``SceneFileError`` when a scene file the report measured cannot be read,
  ///   or has changed since (its hash differs): a changed scene is a different benchmark.
  public static func rerunning(_ base: RunReport) throws(SceneFileError) -> RunPlan {
    var entries: [Entry] = []
    var index: [Scenario: Int] = [:]
    var files: [String: SceneFile] = [:]
    for result in base.results {
      var scenario = Scenario(
        shape: result.shape, size: result.size, mutation: result.mutation,
        perTick: result.perTick, seed: result.seed)
      if let identity = result.scene {
        let file: SceneFile
        if let known = files[identity.file] {
          file = known
        } else {
          if identity.file == SceneFile.builtInSwift(identity.name) {
            throw SceneFileError(
              file: identity.file, path: "$",
              reason: "the scene was built in Swift, not read from a file, so it cannot be "
                + "run again here: compare two report files")
          }
          do throws(SceneFileError) { file = try SceneFile.load(path: identity.file) } catch {
            var reason = error.reason
            if error.reason == "no such file", !identity.file.hasPrefix("/") {
              reason +=
                " (the report recorded a relative path: run compare from the "
                + "directory it was made in)"
            }
            throw SceneFileError(file: error.file, path: error.path, reason: reason)
          }
          files[identity.file] = file
        }
        guard file.hash == identity.hash else {
          throw SceneFileError(
            file: identity.file, path: "$",
            reason: "the scene changed since the report was made (hash \(identity.hash), now "
              + "\(file.hash)): a changed scene is a different benchmark; save a new baseline")
        }
        scenario = try Scenario(file: file, size: identity.sized ? result.size : nil)
      }
      if let i = index[scenario] {
        entries[i].settings.strategies.append(result.strategy)
        continue
      }
      index[scenario] = entries.count
      let settings = RunSettings(
        strategies: [result.strategy], ticks: result.ticks, warmupTicks: result.warmupTicks,
        hz: base.hz, timeLimitNs: nil, minimumTicks: result.ticks, verifyFrames: true)
      entries.append(Entry(scenario: scenario, settings: settings))
    }
    return RunPlan(entries: entries, hz: base.hz)
  }

  // MARK: - Measuring

  /// Runs every entry in this process, in order.
  /// - Parameters:
  ///   - probe: counts allocations per tick (nil: not counted).
  ///   - environment: where and how the run is made, for the report.
  ///   - progress: told "[i/n] scenario tick t/T" now and then.
  /// - Throws: the first entry's ``RunError``.
  public func measure(
    probe: (any AllocationProbe)?, environment: [String: String],
    progress: @escaping (String) -> Void = { _ in }
  ) throws(RunError) -> (report: RunReport, timelines: [RunTimeline]) {
    var results: [RunResult] = []
    var timelines: [RunTimeline] = []
    for (i, entry) in entries.enumerated() {
      var runner = ScenarioRunner(settings: entry.settings, probe: probe)
      let prefix = entries.count > 1 ? "[\(i + 1)/\(entries.count)] " : ""
      runner.progress = { progress(prefix + $0) }
      let (r, t) = try runner.run(entry.scenario)
      results += r
      timelines += t
    }
    let report = RunReport(
      hz: hz, measurementOverheadNs: ScenarioRunner.measureOverhead(), environment: environment,
      results: results)
    return (report, timelines)
  }
}
