import Testing

@testable import LayoutHarness

/// Cold layout: building a scene and laying it out once, timed per strategy beside the ticks.
struct ColdLayoutTests {
  @Test func everyStrategyReportsItsColdLayoutPerCell() throws {
    var settings = RunSettings(ticks: 4, warmupTicks: 1, timeLimitNs: nil, minimumTicks: 4)
    settings.coldBuilds = 3
    settings.coldTimeLimitNs = 10_000_000_000
    let scenario = Scenario(shape: .feed, size: 20, mutation: .text)
    let results = try ScenarioRunner(settings: settings).run(scenario).results
    #expect(results.map(\.strategy) == StrategyKind.allCases)
    for result in results {
      let cold = try #require(result.cold, "\(result.key) has no cold layout")
      #expect(cold.samplesNs.count == 3 && cold.samplesNs.allSatisfy { $0 > 0 })
      #expect(cold.unitCount == 20 && cold.perUnitNs == cold.p50Ns / 20)
      #expect(result.roundSummaries.first?.coldNs == cold.p50Ns)
    }
  }

  /// An allocator seen through its two counters: every read of the bytes allocated finds
  /// `allocatedStep` more, every read of the bytes freed `freedStep` more (nil: not counted).
  final class SteppingProbe: AllocationProbe {
    let allocatedStep: UInt64
    let freedStep: UInt64?
    var allocated: UInt64 = 1_000_000
    var freed: UInt64 = 500_000
    /// Reads of the bytes allocated so far: a build reads them before and after itself.
    var reads = 0
    /// What the runner asked, in order: `read` for each read of the bytes allocated,
    /// `hold` and `release` for the freed pages held over the cold builds.
    var log: [String] = []
    init(allocatedStep: UInt64, freedStep: UInt64?) {
      self.allocatedStep = allocatedStep
      self.freedStep = freedStep
    }
    func read() -> (count: UInt64, bytes: UInt64) {
      reads += 1
      log.append("read")
      allocated += allocatedStep
      return (0, allocated)
    }
    func freedBytes() -> UInt64? {
      guard let freedStep else { return nil }
      freed += freedStep
      return freed
    }
    func holdFreedMemory() { log.append("hold") }
    func releaseHeldMemory() { log.append("release") }
  }

  /// The untimed build's pages are held for the timed builds (the allocator purging them
  /// split a large tree's huge pages), and released once they are done.
  @Test func theUntimedBuildsPagesAreHeldFromBeforeItForTheTimedOnes() throws {
    var settings = RunSettings(
      strategies: [.bottomUp], ticks: 2, warmupTicks: 0, timeLimitNs: nil, minimumTicks: 2)
    settings.coldBuilds = 2
    settings.coldTimeLimitNs = 10_000_000_000
    let probe = SteppingProbe(allocatedStep: 1_000, freedStep: 500)
    _ = try ScenarioRunner(settings: settings, probe: probe).run(
      Scenario(shape: .feed, size: 6, mutation: .text))
    // Two reads per build: the pages held from before the untimed build (so that what its
    // arrays free as they grow is held too), then two timed ones, released.
    let cold = Array(probe.log.prefix(9))
    #expect(cold == ["hold", "read", "read", "read", "read", "read", "read", "release", "read"])
    #expect(probe.log.filter { $0 == "hold" }.count == 1)
    // One build alone holds nothing.
    settings.coldBuilds = 1
    let single = SteppingProbe(allocatedStep: 1_000, freedStep: 500)
    _ = try ScenarioRunner(settings: settings, probe: single).run(
      Scenario(shape: .feed, size: 6, mutation: .text))
    #expect(!single.log.contains("hold") && !single.log.contains("release"))
  }

  /// A build's memory is what it allocated less what it freed; its churn is what it
  /// allocated. Both per view of the built tree.
  @Test func theMemoryABuildLeavesIsItsAllocationsLessItsFrees() throws {
    var settings = RunSettings(
      strategies: [.coalesced, .bottomUp], ticks: 2, warmupTicks: 0, timeLimitNs: nil,
      minimumTicks: 2)
    settings.coldBuilds = 2
    settings.coldTimeLimitNs = 10_000_000_000
    let scenario = Scenario(shape: .feed, size: 6, mutation: .text)
    let probe = SteppingProbe(allocatedStep: 10_000, freedStep: 4_000)
    for result in try ScenarioRunner(settings: settings, probe: probe).run(scenario).results {
      let cold = try #require(result.cold)
      let views = Double(result.views)
      #expect(cold.bytesPerView == 10_000 / views, "\(result.key)")
      #expect(cold.retainedBytesPerView == 6_000 / views, "\(result.key)")
    }
    // An allocator that does not count frees: the churn alone.
    let blind = SteppingProbe(allocatedStep: 10_000, freedStep: nil)
    let result = try ScenarioRunner(settings: settings, probe: blind).run(scenario).results[0]
    #expect(result.cold?.bytesPerView == 10_000 / Double(result.views))
    #expect(result.cold != nil && result.cold?.retainedBytesPerView == nil)
    // A build that frees more memory from before it than it keeps: a negative figure, which
    // a report may hold (a check that wanted it non-negative refused such reports on read).
    let shrinking = SteppingProbe(allocatedStep: 1_000, freedStep: 4_000)
    let results = try ScenarioRunner(settings: settings, probe: shrinking).run(scenario).results
    #expect(results[0].cold?.retainedBytesPerView == -3_000 / Double(results[0].views))
    let report = RunReport(hz: 60, measurementOverheadNs: 0, environment: [:], results: results)
    #expect(report.problem() == nil)
    var broken = report
    broken.results[0].cold?.retainedBytesPerView = .infinity
    #expect(broken.problem()?.contains("cold.retainedBytesPerView is inf") == true)
  }

  /// A scene whose builds take the whole time limit gets one timed build, and it still
  /// follows an untimed one: the first build of a tree in a process pays for growing the
  /// heap at every size, and timed alone it made a large scene's figure a different
  /// measurement from a small one's (README, "Cold layout, fairly").
  @Test func aTimeLimitKeepsOneBuildOfAnExpensiveSceneAfterAnUntimedOne() throws {
    func run(coldBuilds: Int) throws -> (reads: Int, samples: Int) {
      var settings = RunSettings(
        strategies: [.coalesced], ticks: 2, warmupTicks: 0, timeLimitNs: nil, minimumTicks: 2)
      settings.coldBuilds = coldBuilds
      settings.coldTimeLimitNs = 0
      let probe = SteppingProbe(allocatedStep: 1_000, freedStep: 500)
      let result = try ScenarioRunner(settings: settings, probe: probe).run(
        Scenario(shape: .wide, size: 50, mutation: .text)
      ).results[0]
      return (probe.reads, result.cold?.samplesNs.count ?? 0)
    }
    let one = try run(coldBuilds: 1)
    let limited = try run(coldBuilds: 5)
    #expect(one.samples == 1 && limited.samples == 1)
    // The same run but for one more build, which reads the counter twice.
    #expect(limited.reads == one.reads + 2)
  }

  /// The first measured tick no longer carries the first layout: it is the cold layout's.
  @Test func theFirstTickIsNotTheFirstLayout() throws {
    let settings = RunSettings(
      strategies: [.coalesced], ticks: 3, warmupTicks: 0, timeLimitNs: nil, minimumTicks: 3)
    let result = try ScenarioRunner(settings: settings).run(
      Scenario(shape: .wide, size: 200, mutation: .idle)
    ).results[0]
    // Idle ticks after the first layout do nothing at all.
    #expect(result.counters["layoutSubviews"] == 0 && result.counters["solves"] == 0)
  }

  @Test func compareShowsColdLayoutWithoutLettingItDecide() throws {
    var settings = RunSettings(
      strategies: [.coalesced], ticks: 3, warmupTicks: 0, timeLimitNs: nil, minimumTicks: 3)
    settings.coldBuilds = 2
    let run = try RunPlan(
      entries: [
        .init(scenario: Scenario(shape: .wide, size: 10, mutation: .text), settings: settings)
      ],
      hz: 60
    ).measure(probe: nil, environment: [:]).report
    var slower = run
    slower.results[0].cold = slower.results[0].cold.map {
      ColdLayout(samplesNs: $0.samplesNs.map { $0 * 3 }, unitCount: $0.unitCount, bytesPerView: nil)
    }
    let comparison = Comparison.compare(
      base: run, new: slower, settings: Comparison.Settings(interleaved: true))
    let row = try #require(comparison.rows.first { $0.metric == "cold" })
    #expect(row.verdict == .notJudged && abs(row.change - 2) < 1e-9)
    #expect(!comparison.regressions.contains { $0.metric == "cold" })
  }

  @Test func aSweepFitsTheColdLayoutsGrowth() throws {
    var settings = RunSettings(
      strategies: [.bottomUp], ticks: 2, warmupTicks: 0, timeLimitNs: nil, minimumTicks: 2)
    settings.coldBuilds = 1
    let runner = ScenarioRunner(settings: settings)
    var rows: [RunResult] = []
    for size in [4, 8, 16] {
      rows += try runner.run(Scenario(shape: .feed, size: size, mutation: .idle)).results
    }
    // Replace the measured times with an exact power law, so the fit is checked exactly.
    for i in rows.indices {
      let size = Double(rows[i].size)
      rows[i].cold = ColdLayout(
        samplesNs: [1000 * size * size.squareRoot()], unitCount: rows[i].size,
        bytesPerView: nil, retainedBytesPerView: 700 * size)
    }
    let sweep = SweepResult(
      fitting: rows, strategy: .bottomUp, shape: .feed, mutation: .idle, budgetNs: 1e9)
    #expect(abs((sweep.coldExponent ?? 0) - 1.5) < 1e-9)
    #expect(abs((sweep.coldFitR2 ?? 0) - 1) < 1e-9)
    // 1000 * 16^1.5 ns = 64 us for 16 cells: 4 us per cell.
    #expect(ReportTable.coldPerUnit(sweep) == "4.00 \u{B5}s per cell")
    // 700 bytes a view times 16: 11,200 bytes, 10.9 KiB.
    #expect(sweep.coldRetainedBytesPerView == [2800, 5600, 11200])
    #expect(ReportTable.memoryPerView(sweep) == "10.9 KiB per view")
    #expect(
      ReportTable.renderSweeps(
        RunReport(
          hz: 60, measurementOverheadNs: 0, environment: [:], results: rows, sweeps: [sweep]),
        style: .markdown
      ).contains("| 4.00 \u{B5}s per cell | 10.9 KiB per view |"))
    let html = renderHTML(
      RunReport(
        hz: 60, measurementOverheadNs: 0, environment: [:], results: rows, sweeps: [sweep]))
    #expect(html.contains("<th class=\"num\">Cold exponent</th>"))
    #expect(html.contains("1.50 <span class=\"fit\">(R&#178; 1.000)</span>"))
    #expect(html.contains("4.00 \u{B5}s per cell"))
    #expect(html.contains("<td class=\"num\">10.9 KiB per view</td>"))
    rows[1].cold = nil
    let partial = SweepResult(
      fitting: rows, strategy: .bottomUp, shape: .feed, mutation: .idle, budgetNs: 1e9)
    #expect(partial.coldNs == nil && partial.coldExponent == nil)
    #expect(partial.coldRetainedBytesPerView == nil && ReportTable.memoryPerView(partial) == "-")
  }
}
