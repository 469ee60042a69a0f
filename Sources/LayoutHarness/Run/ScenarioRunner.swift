internal import Foundation
import BenchSupport
import LayoutModel

/// Counts allocations of the current thread. The executable supplies one backed by
/// jemalloc; the libraries never link an allocator.
public protocol AllocationProbe: AnyObject {
  /// Allocation requests and bytes allocated by this thread so far.
  func read() -> (count: UInt64, bytes: UInt64)
  /// Bytes this thread has freed so far, or nil when the allocator does not count them.
  /// With `read()`, it gives what a build leaves live: its memory, not its churn.
  func freedBytes() -> UInt64?
  /// Keeps the pages the allocator frees from now on (the whole process's, for jemalloc),
  /// so that the next build reuses them as they are, until `releaseHeldMemory()`. (From
  /// before the untimed cold build to the end of the timed ones: a build on pages the
  /// allocator handed back to the system would fault them in again.)
  func holdFreedMemory()
  /// Ends `holdFreedMemory()`, handing back to the system what no allocation reused.
  func releaseHeldMemory()
}

extension AllocationProbe {
  public func freedBytes() -> UInt64? { nil }
  public func holdFreedMemory() {}
  public func releaseHeldMemory() {}
}

/// What can stop a run.
public enum RunError: Error, CustomStringConvertible {
  case invalidScenario(Scenario, String)
  /// The strategies disagreed on a frame after a tick: the comparison would be unfair.
  case frameMismatch(scenario: Scenario, tick: Int, FrameMismatch)
  case handler(scenario: Scenario, strategy: StrategyKind, tick: Int, HandlerError)
  case layout(scenario: Scenario, strategy: StrategyKind, LayoutError)

  public var description: String {
    switch self {
    case .invalidScenario(let scenario, let reason): "scenario \(scenario): \(reason)"
    case .frameMismatch(let scenario, let tick, let mismatch):
      "scenario \(scenario), tick \(tick): \(mismatch)"
    case .handler(let scenario, let strategy, let tick, let error):
      "scenario \(scenario), \(strategy.rawValue), tick \(tick): \(error)"
    case .layout(let scenario, let strategy, let error):
      "scenario \(scenario), \(strategy.rawValue): \(error)"
    }
  }
}

/// How to run a scenario.
public struct RunSettings: Sendable {
  public var strategies: [StrategyKind]
  public var ticks: Int
  public var warmupTicks: Int
  public var hz: Int
  /// Stop measuring (keeping at least `minimumTicks`) once the measured ticks of all
  /// strategies together have taken this long, and cut the warm-up at a quarter of it; nil:
  /// always run `warmupTicks` + `ticks`.
  public var timeLimitNs: UInt64?
  public var minimumTicks: Int
  /// Compare every view's frame across the strategies after every tick (or, for a single
  /// strategy, against a bottom-up reference tree when the strategy uses the solver).
  public var verifyFrames: Bool
  /// The memory a scene may take (80% of it, see ``Scenario/memoryProblem(strategies:memory:)``):
  /// this machine's physical memory unless set.
  public var memoryBytes = Double(ProcessInfo.processInfo.physicalMemory)
  /// Cold layouts (build + first layout) timed per strategy, at most...
  public var coldBuilds: Int
  /// ...and no more builds once this much time went into them (at least one build).
  public var coldTimeLimitNs: UInt64 = 200_000_000

  public init(
    strategies: [StrategyKind] = StrategyKind.allCases, ticks: Int = 120, warmupTicks: Int = 10,
    hz: Int = 60, timeLimitNs: UInt64? = nil, minimumTicks: Int = 20, verifyFrames: Bool = true,
    coldBuilds: Int = 3
  ) {
    self.coldBuilds = coldBuilds
    self.strategies = strategies
    self.ticks = ticks
    self.warmupTicks = warmupTicks
    self.hz = hz
    self.timeLimitNs = timeLimitNs
    self.minimumTicks = minimumTicks
    self.verifyFrames = verifyFrames
  }
}

/// Which ticks of a run warm up, which are measured, and when the run stops: `warmupTicks`
/// then `ticks`; with a time limit, the warm-up ends after a quarter of it (at least two
/// ticks: caches are warm after a couple of ticks anyway), and measuring ends once it has
/// taken the limit with at least `minimumTicks` measured.
struct TickSchedule {
  enum Step: Equatable { case warmup, firstMeasured, measured, stop }

  let warmupTicks: Int
  let ticks: Int
  let minimumTicks: Int
  let limitNs: UInt64?
  let startedAt: UInt64
  private(set) var warmedUp = 0
  private(set) var measured = 0
  private var measuringSince: UInt64 = 0

  init(_ settings: RunSettings, startedAt: UInt64) {
    warmupTicks = settings.warmupTicks
    ticks = settings.ticks
    minimumTicks = settings.minimumTicks
    limitNs = settings.timeLimitNs
    self.startedAt = startedAt
  }

  /// What the next tick is, at clock time `now`.
  mutating func next(now: UInt64) -> Step {
    if measured == 0 {
      let cut = limitNs.map { warmedUp >= 2 && now &- startedAt > $0 / 4 } ?? false
      if warmedUp < warmupTicks && !cut {
        warmedUp += 1
        return .warmup
      }
      guard ticks > 0 else { return .stop }
      measuringSince = now
      measured = 1
      return .firstMeasured
    }
    if measured >= ticks { return .stop }
    if let limitNs, measured >= minimumTicks, now &- measuringSince > limitNs { return .stop }
    measured += 1
    return .measured
  }
}

/// Times the phases of a tick through the run loop's phase observer: one clock read per
/// phase boundary, into a preallocated buffer, so the instrumentation inside the measured
/// interval is a handful of clock reads.
final class PhaseRecorder {
  var phaseNs = [Double](repeating: 0, count: TickPhase.allCases.count)
  private var current = 0
  private var last: UInt64 = 0

  /// Zeroes the phase times: before the tick's allocation count starts, since the last
  /// tick's timeline shares the array and the first write copies it.
  func reset() {
    for i in phaseNs.indices { phaseNs[i] = 0 }
  }

  func start(at now: UInt64) {
    current = 0
    last = now
  }

  func observe(_ phase: TickPhase?) {
    let now = monotonicNanos()
    phaseNs[current] += Double(now &- last)
    last = now
    if let phase { current = Self.index(phase) }
  }

  static func index(_ phase: TickPhase) -> Int {
    switch phase {
    case .handlers: 0
    case .constraints: 1
    case .layout: 2
    case .display: 3
    }
  }
}

/// Runs scenarios: the strategies in lockstep (tick t of each, then the frame check), so
/// machine noise spreads evenly over them.
public struct ScenarioRunner {
  public var settings: RunSettings
  public var probe: (any AllocationProbe)?
  /// Told "strategy, tick, of" now and then (for a progress line).
  public var progress: ((String) -> Void)?

  public init(settings: RunSettings, probe: (any AllocationProbe)? = nil) {
    self.settings = settings
    self.probe = probe
  }

  private struct Lane {
    let strategy: LayoutStrategy
    let recorder = PhaseRecorder()
    var samples: [Double] = []
    var phases: [[Double]] = TickPhase.allCases.map { _ in [] }
    var timeline: [TickTimeline] = []
    var allocationCount: UInt64 = 0
    var allocationBytes: UInt64 = 0
    var countersStart = LayoutCounters()
  }

  /// Runs `scenario` under every strategy of the settings.
  /// - Throws: ``RunError``; a frame mismatch stops the run (its numbers would not be a
  ///   fair comparison).
  public func run(_ scenario: Scenario) throws(RunError) -> (
    results: [RunResult], timelines: [RunTimeline]
  ) {
    if let problem = scenario.problem { throw .invalidScenario(scenario, problem) }
    if let problem = scenario.memoryProblem(
      strategies: settings.strategies, memory: settings.memoryBytes)
    {
      throw .invalidScenario(scenario, problem)
    }
    var (scene, workload) = try scenario.makeWorkload()
    // A scene that frame layout cannot lay out runs without bottom-up (the plan says so).
    if settings.strategies.contains(.bottomUp),
      let problem = scenario.file?.frameLayoutProblem ?? scene.frameLayoutProblem
    {
      throw .invalidScenario(scenario, "bottom-up cannot run it: " + problem)
    }
    var lanes: [Lane] = []
    var colds: [ColdLayout] = []
    for kind in settings.strategies {
      let (strategy, cold) = try measureCold(kind, scene: scene, scenario: scenario)
      lanes.append(Lane(strategy: strategy))
      colds.append(cold)
    }
    // A lone solver strategy is checked against a bottom-up tree that is not measured.
    var reference: (LayoutStrategy)?
    if settings.verifyFrames, lanes.count == 1, settings.strategies[0] != .bottomUp,
      (scenario.file?.frameLayoutProblem ?? scene.frameLayoutProblem) == nil
    {
      reference = try? LayoutStrategy(.bottomUp, scene: scene)
    }
    for i in lanes.indices {
      let recorder = lanes[i].recorder
      lanes[i].strategy.runLoop.phaseObserver = { recorder.observe($0) }
    }
    var speed = SpeedReference()
    var referenceSamples: [Double] = []
    referenceSamples.reserveCapacity(settings.ticks)
    let calibration = probeSelfCost()
    let switchesBefore = involuntaryContextSwitches()
    var schedule = TickSchedule(settings, startedAt: monotonicNanos())
    let total = settings.warmupTicks + settings.ticks
    var t = 0
    while true {
      let step = schedule.next(now: monotonicNanos())
      if step == .stop { break }
      let warm = step != .warmup
      if step == .firstMeasured {
        for i in lanes.indices { lanes[i].countersStart = lanes[i].strategy.window.counters }
      }
      let mutations = workload.next()
      if let failure = workload.failure { throw .invalidScenario(scenario, failure) }
      for i in lanes.indices {
        try measureTick(
          &lanes[i], mutations, record: warm, tick: t, scenario: scenario, calibration)
      }
      if let reference {
        do throws(HandlerError) { try reference.tick(mutations) } catch {
          throw .handler(scenario: scenario, strategy: .bottomUp, tick: t, error)
        }
      }
      let slice = speed.timeSlice()
      if warm { referenceSamples.append(slice) }
      if settings.verifyFrames {
        let checked = lanes.map(\.strategy) + (reference.map { [$0] } ?? [])
        do throws(FrameMismatch) { try FrameCheck.compare(checked) } catch {
          throw .frameMismatch(scenario: scenario, tick: t, error)
        }
      }
      if t % 16 == 0 { progress?("\(scenario) tick \(t + 1)/\(total)") }
      t += 1
    }
    let measured = schedule.measured
    var results: [RunResult] = []
    var timelines: [RunTimeline] = []
    let switches = involuntaryContextSwitches().map { $0 - (switchesBefore ?? $0) }
    let referenceNs = referenceSamples.isEmpty ? nil : median(referenceSamples)
    if speed.checksum.isNaN { referenceSamples.removeAll() }  // keeps the reference's work alive
    for lane in lanes {
      var result = summarize(lane, scenario: scenario, views: scene.viewCount, measured: measured)
      result.referenceNs = referenceNs
      result.preemptions = switches
      result.cold = colds[results.count]
      results.append(result)
      timelines.append(RunTimeline(key: result.key, ticks: lane.timeline))
    }
    return (results, timelines)
  }

  /// Cold layout: a fresh tree of `scene` built and laid out once (the work of pushing a
  /// new screen), timed, then again (each build dropped before the next) until
  /// ``RunSettings/coldBuilds`` builds or ``RunSettings/coldTimeLimitNs`` of building. The
  /// last tree becomes the lane the ticks run on.
  ///
  /// A first build, untimed, comes before: the first build of a tree in a process pays for
  /// growing the heap (a 100-cell feed: 33 ms, against 14 ms for the same build once freed
  /// memory can be reused), so the strategy measured first would look twice as slow as the
  /// others for the same work. It comes before at every size: a large scene whose first
  /// build took the time limit used to get that build as its one sample, so its figure
  /// carried the first touch of fresh memory that a small scene's did not (a bottom-up feed
  /// of 100,000 cells: 18-21 us per cell timed alone, 13-16 after an untimed build, on the
  /// virtual machines of the README). With `coldBuilds` 1 there is exactly one build, timed,
  /// whatever the clock says: the work of the run must not depend on time when its
  /// instructions are counted (`--instructions` runs under callgrind, 50 to 100 times
  /// slower, where a 3 ms build crosses the limit).
  private func measureCold(
    _ kind: StrategyKind, scene: Scene, scenario: Scenario
  ) throws(RunError) -> (LayoutStrategy, ColdLayout) {
    typealias Build = (LayoutStrategy, ns: Double, bytes: Double?, retained: Double?)
    // Returned from the `do`, not assigned to a `let` declared before it: the assignment
    // made the compiler call the `catch` unreachable (a false warning with typed throws).
    func make() throws(RunError) -> LayoutStrategy {
      do throws(LayoutError) { return try LayoutStrategy(kind, scene: scene) } catch {
        throw .layout(scenario: scenario, strategy: kind, error)
      }
    }
    func build() throws(RunError) -> Build {
      let before = probe?.read()
      let freedBefore = probe?.freedBytes()
      let start = monotonicNanos()
      let strategy = try make()
      do throws(HandlerError) { try strategy.tick([]) } catch {
        throw .handler(scenario: scenario, strategy: kind, tick: 0, error)
      }
      let ns = Double(monotonicNanos() &- start)
      guard let before, let after = probe?.read() else { return (strategy, ns, nil, nil) }
      let allocated = Double(after.bytes &- before.bytes)
      // Live after the build: allocated less what the build freed (which may include
      // memory allocated before it, so the difference is signed).
      var retained: Double?
      if let freedBefore, let freedAfter = probe?.freedBytes() {
        retained = allocated - Double(freedAfter &- freedBefore)
      }
      return (strategy, ns, allocated, retained)
    }
    var kept: LayoutStrategy?
    var samples: [Double] = []
    var bytes: [Double] = []
    var retained: [Double] = []
    func keep(_ made: Build) {
      kept = made.0
      samples.append(made.ns)
      if let b = made.bytes { bytes.append(b) }
      if let r = made.retained { retained.append(r) }
    }
    if settings.coldBuilds <= 1 {
      keep(try build())
    } else {
      // The untimed build is dropped, so that the timed builds reuse its memory: held, not
      // purged. (The allocator's purge of freed pages, spread over the next seconds, split
      // the huge pages of a large tree, and the tree the ticks then ran on was partly on
      // 4 KB pages: a feed of 100,000 cells ticked 8% slower on average, 20% at p99.) Held
      // from before it, so that the pages its arrays freed as they grew are held too: held
      // from after it, the timed builds of a feed of 100,000 cells spent 2.4-2.6 s of their
      // 8.8-9.4 s in the kernel, clearing pages the allocator had handed back.
      probe?.holdFreedMemory()
      defer { probe?.releaseHeldMemory() }  // also when a build throws
      _ = try build()
      let started = monotonicNanos()
      repeat {
        kept = nil  // the previous build is dropped before the next is made
        keep(try build())
      } while samples.count < settings.coldBuilds
        && monotonicNanos() &- started < settings.coldTimeLimitNs
    }
    let views = Double(max(kept!.tree.views.count, 1))
    return (
      kept!,
      ColdLayout(
        samplesNs: samples, unitCount: scenario.shape.coldUnits(size: scenario.size),
        bytesPerView: bytes.isEmpty ? nil : median(bytes) / views,
        retainedBytesPerView: retained.isEmpty ? nil : median(retained) / views)
    )
  }

  private func measureTick(
    _ lane: inout Lane, _ mutations: [SceneMutation], record: Bool, tick: Int,
    scenario: Scenario, _ calibration: (count: UInt64, bytes: UInt64)
  ) throws(RunError) {
    let strategy = lane.strategy
    strategy.post(mutations)
    let countersBefore = record ? strategy.window.counters : LayoutCounters()
    lane.recorder.reset()
    let before = probe?.read()
    let start = monotonicNanos()
    lane.recorder.start(at: start)
    do {
      try strategy.runLoop.tick()
    } catch let error as HandlerError {
      throw .handler(scenario: scenario, strategy: strategy.kind, tick: tick, error)
    } catch let error as LayoutError {
      throw .handler(scenario: scenario, strategy: strategy.kind, tick: tick, .layout(error))
    } catch {
      preconditionFailure("handlers throw HandlerError only: \(error)")
    }
    let end = monotonicNanos()
    let after = probe?.read()
    guard record else { return }
    lane.samples.append(Double(end &- start))
    for (i, ns) in lane.recorder.phaseNs.enumerated() { lane.phases[i].append(ns) }
    let work = strategy.window.counters - countersBefore
    lane.timeline.append(
      TickTimeline(
        startNs: start, phaseNs: lane.recorder.phaseNs,
        work: TickWork(
          solves: work.solves, layouts: work.layoutSubviews, moved: work.framesChanged,
          movedAgain: work.framesChangedAgain)))
    if let before, let after {
      lane.allocationCount += (after.count &- before.count) &- calibration.count
      lane.allocationBytes += (after.bytes &- before.bytes) &- calibration.bytes
    }
  }

  /// What two back-to-back probe reads count of their own (subtracted from every tick).
  private func probeSelfCost() -> (count: UInt64, bytes: UInt64) {
    guard let probe else { return (0, 0) }
    var best: (count: UInt64, bytes: UInt64) = (.max, .max)
    for _ in 0..<5 {
      let a = probe.read()
      let b = probe.read()
      best = (min(best.count, b.count &- a.count), min(best.bytes, b.bytes &- a.bytes))
    }
    return best
  }

  private func summarize(_ lane: Lane, scenario: Scenario, views: Int, measured: Int) -> RunResult {
    let samples = lane.samples.isEmpty ? [0] : lane.samples
    let stats = TickStatistics(samples: samples)
    let budget = FrameBudget(hz: settings.hz)
    let own = budget.assess(samples)
    let perTick = Double(max(1, measured))
    var counters: [String: Double] = [:]
    let delta = lane.strategy.window.counters - lane.countersStart
    for (name, value) in delta.fields { counters[name] = Double(value) / perTick }
    counters["views"] = Double(lane.strategy.tree.views.count)
    var phases: [String: Double] = [:]
    for (i, phase) in TickPhase.allCases.enumerated() where !lane.phases[i].isEmpty {
      phases[phase.rawValue] = median(lane.phases[i])
    }
    return RunResult(
      strategy: lane.strategy.kind, shape: scenario.shape, size: scenario.size,
      mutation: scenario.mutation, perTick: scenario.perTick, seed: scenario.seed,
      views: views, ticks: lane.samples.count, warmupTicks: settings.warmupTicks, tickNs: stats,
      overBudget: own.overBudget, missedFrames: own.missedFrames,
      overrunNs: .init(
        p50: max(0, stats.p50 - budget.nanoseconds), p99: max(0, stats.p99 - budget.nanoseconds)),
      hitchMsPerS: own.hitchMsPerS,
      budgets: FrameBudget.assessments(samples, hz: settings.hz),
      phasesNs: phases, counters: counters,
      allocations: .init(
        countPerTick: probe == nil ? nil : Double(lane.allocationCount) / perTick,
        bytesPerTick: probe == nil ? nil : Double(lane.allocationBytes) / perTick),
      samplesNs: lane.samples, scene: scenario.file.map(SceneIdentity.init))
  }

  /// The cost of the instrumentation inside a measured tick: the clock reads at its ends and
  /// at each phase boundary of an empty update cycle, measured on a window with nothing to
  /// do (so the time is all instrumentation and the empty cycle's own bookkeeping).
  public static func measureOverhead(iterations: Int = 20_000) -> Double {
    let recorder = PhaseRecorder()
    var best = Double.infinity
    for _ in 0..<5 {
      let start = monotonicNanos()
      for _ in 0..<iterations {
        let s = monotonicNanos()
        recorder.start(at: s)
        for phase in TickPhase.allCases { recorder.observe(phase) }
        recorder.observe(nil)
        _ = monotonicNanos()
      }
      best = min(best, Double(monotonicNanos() &- start) / Double(iterations))
    }
    return best
  }
}

/// The calling thread's involuntary context switches so far (Linux), nil elsewhere.
func involuntaryContextSwitches() -> Int? {
  #if os(Linux)
    var usage = rusage()
    // RUSAGE_THREAD (1) is a GNU extension the Glibc module does not export by name.
    guard getrusage(__rusage_who_t(1), &usage) == 0 else { return nil }
    return Int(usage.ru_nivcsw)
  #else
    return nil
  #endif
}
