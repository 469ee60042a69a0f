import BenchSupport

/// A size ladder per shape with every strategy in lockstep, with the growth exponent of the
/// tick cost and the largest size within the frame budget (`layout-bench sweep`).
public struct SizeSweep: Sendable {
  /// The default ladder, cut at `--max-size`.
  public static let ladder = [10, 30, 100, 300, 1000, 3000, 10_000, 30_000, 100_000]
  /// A shape's ladder stops once every strategy's p50 is over this many budgets: larger
  /// sizes would only take longer to say the same.
  public static let stopBudgets = 4.0
  /// Measured ticks per size unless given; slow sizes stop after ``RunPlan/timeLimitNs``.
  public static let defaultTicks = 60

  public var shapes: [Shape]
  public var sizes: [Int]
  public var mutation: MutationKind
  public var perTick: Int
  public var seed: UInt64
  public var settings: RunSettings
  /// A scene file swept over its size instead of the shapes (its own ticks).
  public var file: SceneFile?

  /// - Parameter ticks: fixed measured ticks per size; nil: ``defaultTicks``, time-limited.
  public init(
    shapes: [Shape]?, sizes: [Int], mutation: MutationKind, perTick: Int, seed: UInt64,
    strategies: [StrategyKind], ticks: Int?, warmup: Int, hz: Int, verifyFrames: Bool,
    coldBuilds: Int = RunSettings().coldBuilds
  ) {
    self.shapes = (shapes ?? RunPlan.defaultShapes).filter { Scenario.supports($0, mutation) }
    self.sizes = sizes.sorted()
    self.mutation = mutation
    self.perTick = perTick
    self.seed = seed
    settings = RunSettings(
      strategies: strategies, ticks: ticks ?? Self.defaultTicks, warmupTicks: warmup, hz: hz,
      timeLimitNs: ticks == nil ? RunPlan.timeLimitNs : nil,
      minimumTicks: ticks.map { min($0, RunPlan.minimumTimedTicks) } ?? RunPlan.minimumTimedTicks,
      verifyFrames: verifyFrames, coldBuilds: coldBuilds)
  }

  /// Why some size of the ladders cannot run (the first such scenario), checked before any
  /// runs: a sweep of deep removals must not stop at 10,000 after minutes of smaller sizes.
  public var problem: String? {
    if let file, file.defaultSize == nil {
      return "\(file.name) has no size to sweep: give it a top-level \"size\" and a repeat "
        + "with \"count\": \"size\""
    }
    if let file {
      for size in sizes {
        if let problem = file.sizeProblem(size) { return "\(file.name): \(problem)" }
      }
    }
    for shape in shapes {
      for size in sizes {
        let scenario = self.scenario(shape, size)
        if let problem = scenario.problem { return "\(scenario): \(problem)" }
      }
    }
    return nil
  }

  /// Runs the ladders; `before` is told each scenario before it runs (for notes on large
  /// scenes), `progress` now and then.
  /// The scenario of one size: of the shape, or of the scene file.
  private func scenario(_ shape: Shape, _ size: Int) -> Scenario {
    if let file, let scenario = try? Scenario(file: file, size: size) { return scenario }
    return Scenario(shape: shape, size: size, mutation: mutation, perTick: perTick, seed: seed)
  }

  public func measure(
    probe: (any AllocationProbe)?, environment: [String: String],
    before: (Scenario) -> Void = { _ in }, progress: @escaping (String) -> Void = { _ in }
  ) throws(RunError) -> (report: RunReport, timelines: [RunTimeline]) {
    var results: [RunResult] = []
    var timelines: [RunTimeline] = []
    var sweeps: [SweepResult] = []
    let budget = FrameBudget(hz: settings.hz).nanoseconds
    for shape in shapes {
      var rows: [RunResult] = []
      for size in sizes {
        let scenario = self.scenario(shape, size)
        before(scenario)
        var runner = ScenarioRunner(settings: settings, probe: probe)
        runner.progress = progress
        let (r, t) = try runner.run(scenario)
        rows += r
        timelines += t
        if r.allSatisfy({ $0.tickNs.p50 > Self.stopBudgets * budget }) { break }
      }
      results += rows
      for kind in settings.strategies {
        sweeps.append(
          SweepResult(
            fitting: rows.filter { $0.strategy == kind }, strategy: kind, shape: shape,
            mutation: rows.first?.mutation ?? mutation, budgetNs: budget))
      }
    }
    let report = RunReport(
      hz: settings.hz, measurementOverheadNs: ScenarioRunner.measureOverhead(),
      environment: environment, results: results, sweeps: sweeps)
    return (report, timelines)
  }
}

extension SweepResult {
  /// One strategy's ladder: p50 and p99 per size, their log-log exponents with the fits'
  /// R², the largest size whose p99 fits `budgetNs`, and the cold layout's growth.
  public init(
    fitting rows: [RunResult], strategy: StrategyKind, shape: Shape, mutation: MutationKind,
    budgetNs: Double
  ) {
    let x = rows.map { Double($0.size) }
    let p50 = rows.map(\.tickNs.p50)
    let p99 = rows.map(\.tickNs.p99)
    self.init(
      strategy: strategy, shape: shape, mutation: mutation, sizes: rows.map(\.size),
      p50Ns: p50, p99Ns: p99, p50Exponent: loglogSlope(x, p50), p99Exponent: loglogSlope(x, p99),
      largestSizeWithinBudget: rows.filter { $0.tickNs.p99 <= budgetNs }.map(\.size).max(),
      p50FitR2: loglogFitR2(x, p50), p99FitR2: loglogFitR2(x, p99))
    let cold = rows.compactMap { $0.cold?.p50Ns }
    if !rows.isEmpty && cold.count == rows.count {
      coldNs = cold
      coldExponent = loglogSlope(x, cold)
      coldFitR2 = loglogFitR2(x, cold)
    }
    let retained = rows.compactMap { $0.cold?.retainedBytesPerView }
    if !rows.isEmpty && retained.count == rows.count { coldRetainedBytesPerView = retained }
    scene = rows.first?.scene?.name
  }
}
