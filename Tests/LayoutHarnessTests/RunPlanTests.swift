import BenchSupport
import Testing

@testable import LayoutHarness

/// The run policy that the commands only parse flags for: the default matrix, timed and
/// fixed-tick settings, reruns of a report, and the sweep fit.
struct RunPlanTests {
  @Test func theDefaultMatrixCoversEveryShapeSizeAndMutation() {
    let plan = RunPlan.matrix(RunPlan.Choices())
    var expected: [String] = []
    for shape in RunPlan.defaultShapes {
      for size in RunPlan.defaultSizes(shape) {
        for mutation in RunPlan.defaultMutations {
          expected.append("\(shape)\(size)/\(mutation)x1")
        }
      }
    }
    // Then the batches where coalescing pays and the table, at the largest default size.
    expected += [
      "feed300/configurex4", "wide1000/configurex1", "wide1000/textx4", "table100000/scrollx1",
    ]
    #expect(plan.scenarios.map(\.description) == expected)
    for entry in plan.entries {
      #expect(entry.settings.strategies == StrategyKind.allCases)
      #expect(entry.settings.ticks == RunPlan.timedTicks)
      #expect(entry.settings.timeLimitNs == RunPlan.timeLimitNs)
      #expect(entry.settings.minimumTicks == RunPlan.minimumTimedTicks)
    }
  }

  @Test func quickTakesTheSmallestSizeAndFewTicks() {
    var choices = RunPlan.Choices()
    choices.quick = true
    choices.warmup = 10
    let plan = RunPlan.matrix(choices)
    #expect(
      plan.scenarios.count
        == RunPlan.defaultShapes.count * RunPlan.defaultMutations.count
        + RunPlan.defaultBatches.count)
    for entry in plan.entries {
      #expect(entry.scenario.size == RunPlan.defaultSizes(entry.scenario.shape)[0])
      #expect(entry.settings.ticks == RunPlan.quickTicks && entry.settings.warmupTicks == 3)
    }
  }

  @Test func roundsAndExplicitTicksAreNotTimeLimited() {
    var choices = RunPlan.Choices()
    choices.shape = .feed
    choices.size = 10
    choices.inRounds = true
    let rounds = RunPlan.matrix(choices).entries[0].settings
    #expect(rounds.timeLimitNs == nil && rounds.ticks == rounds.minimumTicks)
    choices.inRounds = false
    choices.ticks = 33
    let fixed = RunPlan.matrix(choices).entries[0].settings
    #expect(fixed.timeLimitNs == nil && fixed.ticks == 33 && fixed.minimumTicks == 33)
  }

  @Test func aPilotsTicksOverrideTheirScenarioOnly() {
    var choices = RunPlan.Choices()
    choices.shape = .wide
    choices.size = 100
    choices.inRounds = true
    choices.ticks = 60
    choices.ticksByScenario = ["wide100/resizex1": 500]
    let plan = RunPlan.matrix(choices)
    let ticks = Dictionary(
      uniqueKeysWithValues: plan.entries.map {
        ($0.scenario.description, $0.settings.ticks)
      })
    #expect(
      ticks == [
        "wide100/textx1": 60, "wide100/resizex1": 500, "wide100/configurex1": 60,
        "wide100/textx4": 60,
      ])
  }

  @Test func scrollWithoutAShapeRunsOnlyWhereItCan() {
    var choices = RunPlan.Choices()
    choices.mutation = .scroll
    let plan = RunPlan.matrix(choices)
    #expect(!plan.entries.isEmpty && plan.scenarios.allSatisfy { $0.shape == .feed })
    #expect(plan.scenarios.allSatisfy { $0.problem == nil })
  }

  @Test func aRerunMeasuresEachScenarioOnceWithItsStrategiesAndTicks() throws {
    var choices = RunPlan.Choices()
    choices.shape = .deep
    choices.size = 8
    choices.ticks = 4
    choices.warmup = 1
    choices.strategies = [.coalesced, .bottomUp]
    choices.seed = 5
    let (report, _) = try RunPlan.matrix(choices).measure(probe: nil, environment: [:])
    #expect(report.results.count == 4)
    let again = try RunPlan.rerunning(report)
    #expect(again.scenarios.map(\.description) == ["deep8/textx1", "deep8/resizex1"])
    for entry in again.entries {
      #expect(entry.settings.strategies == [.coalesced, .bottomUp])
      #expect(entry.settings.ticks == 4 && entry.settings.warmupTicks == 1)
      #expect(entry.settings.timeLimitNs == nil && entry.scenario.seed == 5)
    }
    // The same work again: counters are deterministic for a seed.
    let (rerun, _) = try again.measure(probe: nil, environment: [:])
    #expect(rerun.results.map(\.key) == report.results.map(\.key))
    #expect(rerun.results.map(\.counters) == report.results.map(\.counters))
  }

  @Test func aSweepFitsTheExponentAndTheLargestSizeWithinBudget() {
    // p50 grows as size^1.5, p99 is twice p50; a 16.67 ms budget holds sizes up to 1000.
    func row(_ size: Int) -> RunResult {
      let p50 = 100 * pow15(Double(size))
      var result = syntheticRow(size: size, p50: p50, p99: 2 * p50)
      result.strategy = .coalesced
      return result
    }
    let rows = [10, 100, 1000, 10_000].map(row)
    let sweep = SweepResult(
      fitting: rows, strategy: .coalesced, shape: .feed, mutation: .text, budgetNs: 16_666_667)
    #expect(sweep.sizes == [10, 100, 1000, 10_000])
    #expect(abs((sweep.p50Exponent ?? 0) - 1.5) < 1e-9)
    #expect(abs((sweep.p99Exponent ?? 0) - 1.5) < 1e-9)
    // An exact power law: both fits are perfect.
    #expect(abs((sweep.p50FitR2 ?? 0) - 1) < 1e-9)
    #expect(abs((sweep.p99FitR2 ?? 0) - 1) < 1e-9)
    // p99 at 1000: 2 * 100 * 31,623 ns = 6.3 ms (fits); at 10,000: 200 ms (does not).
    #expect(sweep.largestSizeWithinBudget == 1000)
    // Two sizes give an exponent but no R².
    let short = SweepResult(
      fitting: Array(rows.prefix(2)), strategy: .coalesced, shape: .feed, mutation: .text,
      budgetNs: 16_666_667)
    #expect(short.p50Exponent != nil && short.p50FitR2 == nil && short.p99FitR2 == nil)
  }

  @Test func theSweepTableShowsEachExponentWithItsFit() {
    func sweep(sizes: [Int], p50: [Double]) -> SweepResult {
      let x = sizes.map(Double.init)
      return SweepResult(
        strategy: .coalesced, shape: .wide, mutation: .text, sizes: sizes, p50Ns: p50,
        p99Ns: p50.map { $0 * 2 }, p50Exponent: loglogSlope(x, p50),
        p99Exponent: loglogSlope(x, p50.map { $0 * 2 }), largestSizeWithinBudget: sizes.last,
        p50FitR2: loglogFitR2(x, p50), p99FitR2: loglogFitR2(x, p50.map { $0 * 2 }))
    }
    var report = RunReport(hz: 60, measurementOverheadNs: 0, environment: [:], results: [])
    report.sweeps = [
      sweep(sizes: [10, 100, 1000], p50: [1e4, 1.3e5, 9e5]),
      sweep(sizes: [10, 100], p50: [1e4, 1e5]),
    ]
    for style in [ReportTable.Style.terminal, .markdown] {
      let table = ReportTable.renderSweeps(report, style: style)
      // log10 costs 4, 5.114, 5.954 against 1, 2, 3: slope 0.98, R² 0.994.
      #expect(table.contains("0.98 (R\u{B2} 0.994)"), "\(table)")
      #expect(table.contains("1.00 (R\u{B2} -)"), "\(table)")
    }
    let html = renderHTML(report)
    #expect(html.contains("0.98 <span class=\"fit\">(R&#178; 0.994)</span>"))
    #expect(html.contains("1.00 <span class=\"fit\">(R&#178; &#8211;)</span>"))
  }

  func pow15(_ x: Double) -> Double { x * x.squareRoot() }

  func syntheticRow(size: Int, p50: Double, p99: Double) -> RunResult {
    var stats = TickStatistics(samples: [p50])
    stats.p50 = p50
    stats.p99 = p99
    return RunResult(
      strategy: .coalesced, shape: .feed, size: size, mutation: .text, perTick: 1, seed: 1,
      views: size, ticks: 1, warmupTicks: 0, tickNs: stats, overBudget: 0, missedFrames: 0,
      overrunNs: .init(p50: 0, p99: 0), hitchMsPerS: 0, budgets: [], phasesNs: [:],
      counters: [:], allocations: .init(countPerTick: nil, bytesPerTick: nil), samplesNs: [p50])
  }
}
