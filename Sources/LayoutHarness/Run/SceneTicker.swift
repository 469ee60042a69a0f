import LayoutModel

/// One strategy over a built scene and its workload, one run-loop tick per call: the tick
/// `layout-bench run` measures, for a benchmark of your own (package-benchmark, XCTest
/// `measure`, a plain loop). The scene is built and laid out once at creation (cold layout
/// is not in the ticks).
///
/// ```swift
/// Benchmark("chat-thread tick") { benchmark, ticker in
///   for _ in benchmark.scaledIterations { try ticker.tick() }
/// } setup: {
///   try SceneTicker(scenario: Scenario(file: SceneFile.load(path: "chat-thread.json")))
/// }
/// ```
public final class SceneTicker {
  public let scenario: Scenario
  public let strategy: LayoutStrategy
  private var workload: MutationWorkload
  /// Ticks run so far (the first layout not included).
  public private(set) var ticks = 0

  /// Builds the scenario's scene under `kind` and lays it out once.
  /// - Throws: ``RunError`` when the scene cannot be built or laid out by this strategy
  ///   (a scene with constraints under bottom-up, conflicting required constraints).
  public init(scenario: Scenario, strategy kind: StrategyKind = .coalesced) throws(RunError) {
    self.scenario = scenario
    let (scene, workload) = try scenario.makeWorkload()
    if kind == .bottomUp,
      let problem = scenario.file?.frameLayoutProblem ?? scene.frameLayoutProblem
    {
      throw .invalidScenario(scenario, "bottom-up cannot run it: " + problem)
    }
    do throws(LayoutError) { strategy = try LayoutStrategy(kind, scene: scene) } catch {
      throw .layout(scenario: scenario, strategy: kind, error)
    }
    self.workload = workload
    do throws(HandlerError) { try strategy.tick([]) } catch {
      throw .handler(scenario: scenario, strategy: kind, tick: 0, error)
    }
  }

  /// The next tick's mutations, generated (as the runner does, outside its timing) and
  /// then applied and laid out in one run-loop tick.
  public func tick() throws(RunError) {
    let mutations = workload.next()
    if let failure = workload.failure { throw .invalidScenario(scenario, failure) }
    do throws(HandlerError) { try strategy.tick(mutations) } catch {
      throw .handler(scenario: scenario, strategy: strategy.kind, tick: ticks + 1, error)
    }
    ticks += 1
  }

  /// The work counters of the window so far (solves, layout passes, frames moved, ...).
  public var counters: LayoutCounters { strategy.window.counters }
}

extension SceneFile {
  /// Measures this scene as `layout-bench run --scene` does: every strategy of `settings`
  /// that can lay it out, in lockstep, frames compared after every tick, with warm-up,
  /// budgets, cold layout and (with a `probe`) allocations per tick. Bottom-up is left out
  /// of a scene it cannot lay out (``frameLayoutProblem``; the report's environment says
  /// so under `notes`).
  /// - Throws: ``RunError``, or ``SceneFileError`` for a size the scene does not have.
  public func measure(
    size: Int? = nil, settings: RunSettings = RunSettings(), probe: (any AllocationProbe)? = nil,
    environment: [String: String] = [:]
  ) throws -> RunReport {
    var settings = settings
    var environment = environment
    let scenario = try Scenario(file: self, size: size)
    if let problem = frameLayoutProblem, settings.strategies.contains(.bottomUp) {
      settings.strategies.removeAll { $0 == .bottomUp }
      environment["notes"] = "\(name): bottom-up left out: \(problem)"
      if settings.strategies.isEmpty {
        throw RunError.invalidScenario(scenario, "bottom-up cannot run it: " + problem)
      }
    }
    let plan = RunPlan(entries: [.init(scenario: scenario, settings: settings)], hz: settings.hz)
    return try plan.measure(probe: probe, environment: environment).report
  }
}
