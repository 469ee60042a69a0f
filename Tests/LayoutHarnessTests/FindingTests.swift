import Testing

@testable import LayoutHarness

/// The one-line findings under the table, and the batch scenarios that give them something
/// to say.
struct FindingTests {
  func result(
    _ strategy: StrategyKind, p50: Double, counters: [String: Double], key size: Int = 300
  ) -> RunResult {
    var stats = TickStatistics(samples: [p50])
    stats.p50 = p50
    return RunResult(
      strategy: strategy, shape: .feed, size: size, mutation: .configure, perTick: 4, seed: 1,
      views: 3301, ticks: 1, warmupTicks: 0, tickNs: stats, overBudget: 0, missedFrames: 0,
      overrunNs: .init(p50: 0, p99: 0), hitchMsPerS: 0, budgets: [], phasesNs: [:],
      counters: counters, allocations: .init(countPerTick: nil, bytesPerTick: nil),
      samplesNs: [p50])
  }

  func report(_ results: [RunResult]) -> RunReport {
    RunReport(hz: 60, measurementOverheadNs: 0, environment: [:], results: results)
  }

  @Test func eagerSolvingPerChangeIsExplainedByItsCounters() throws {
    let findings = Finding.all(
      in: report([
        result(.coalesced, p50: 200_000, counters: ["solves": 1, "layoutRounds": 1]),
        result(
          .eager, p50: 420_000,
          counters: ["solves": 9.3, "layoutRounds": 9.3, "framesChangedAgain": 826]),
        result(.bottomUp, p50: 50_000, counters: ["sizeThatFits": 30]),
      ]))
    let finding = try #require(findings.first)
    #expect(findings.count == 1 && finding.scenario == "feed300/configurex4")
    #expect(
      finding.text
        == "eager: 9.3 solves and 9.3 layout passes per tick against coalesced's 1.0 and 1.0, "
        + "826 frames set again: 2.1x the time of coalesced; "
        + "bottom-up: no solver (30 sizeThatFits per tick), 4.0x faster than coalesced")
  }

  @Test func oneChangePerTickIsTheSameWorkWhateverTheClockSays() throws {
    let same = ["solves": 1.0, "layoutRounds": 1.0]
    let noisy = Finding.all(
      in: report([
        result(.coalesced, p50: 100_000, counters: same),
        result(.eager, p50: 150_000, counters: same),
      ]))
    #expect(
      noisy.first?.text
        == "eager: the same work as coalesced (one layout pass per tick), 1.5x its time (noise)")
    let quiet = Finding.all(
      in: report([
        result(.coalesced, p50: 100_000, counters: same),
        result(.eager, p50: 105_000, counters: same),
        result(.bottomUp, p50: 300_000, counters: ["sizeThatFits": 64]),
      ]))
    #expect(
      quiet.first?.text
        == "eager: the same work as coalesced (one layout pass per tick); "
        + "bottom-up: 64 sizeThatFits per tick, 3.0x slower than coalesced")
  }

  @Test func idleTicksAreTheSameWorkWithNoPassAtAll() {
    let none = ["solves": 0.0, "layoutRounds": 0.0]
    let findings = Finding.all(
      in: report([
        result(.coalesced, p50: 1000, counters: none), result(.eager, p50: 1000, counters: none),
      ]))
    #expect(
      findings.first?.text == "eager: the same work as coalesced (0.0 layout passes per tick)")
  }

  @Test func withoutCoalescedThereIsNothingToCompareWith() {
    let findings = Finding.all(
      in: report([result(.eager, p50: 1, counters: [:]), result(.bottomUp, p50: 1, counters: [:])]))
    #expect(findings.isEmpty)
  }

  /// A configuration is six changes to one cell, and the strategies agree on every tick.
  @Test func configuringCellsKeepsTheStrategiesInAgreement() throws {
    let scenario = Scenario(shape: .feed, size: 12, mutation: .configure, perTick: 2, seed: 4)
    let (scene, generator) = scenario.makeScene()
    var workload = MutationWorkload(scenario: scenario, scene: scene, generator: generator)
    let batch = workload.next()
    #expect(batch.count == 12)
    let settings = RunSettings(ticks: 20, warmupTicks: 2, timeLimitNs: nil, minimumTicks: 20)
    let results = try ScenarioRunner(settings: settings).run(scenario).results
    #expect(results.count == 3)
    let coalesced = try #require(results.first { $0.strategy == .coalesced })
    let eager = try #require(results.first { $0.strategy == .eager })
    #expect((eager.counters["solves"] ?? 0) > (coalesced.counters["solves"] ?? 0))
    #expect((eager.counters["framesChangedAgain"] ?? 0) > 0)
  }

  @Test func aSubMillisecondTailManyTimesTheMedianIsFlaggedAsPreemption() throws {
    var stats = TickStatistics(samples: [25_000, 25_000, 4_000_000])
    stats.p50 = 25_000
    stats.max = 4_000_000
    var flagged = result(.coalesced, p50: 25_000, counters: [:])
    flagged.tickNs = stats
    flagged.preemptions = 3
    var calm = result(.eager, p50: 25_000, counters: [:])
    calm.tickNs.max = 19 * 25_000  // under 20x the median: not flagged
    // A slow scenario's long tail is layout's own.
    var slow = result(.bottomUp, p50: 2_000_000, counters: [:])
    slow.tickNs.max = 100_000_000
    let warnings = TailWarning.all(in: report([flagged, calm, slow]))
    let warning = try #require(warnings.first)
    #expect(warnings.count == 1 && warning.scenario == "feed300/configurex4")
    #expect(
      warning.text.hasPrefix(
        "coalesced max 4.00 ms (160x its median); 3 involuntary context switches"),
      "\(warning.text)")
    flagged.preemptions = nil
    #expect(TailWarning.all(in: report([flagged]))[0].text.contains("context") == false)
    // A slow scenario's tail is flagged when the run recorded at least as many involuntary
    // context switches as it has ticks over 20x the median (a 100,000-cell feed: 4 ms
    // ticks, two of 82 and 124 ms and one of 36 ms, three switches); not with fewer.
    var interrupted = result(.bottomUp, p50: 4_000_000, counters: [:])
    interrupted.samplesNs =
      Array(repeating: 4_000_000, count: 57) + [81_680_000, 123_830_000, 36_390_000]
    interrupted.tickNs = TickStatistics(samples: interrupted.samplesNs)
    interrupted.preemptions = 3
    let tail = try #require(TailWarning.all(in: report([interrupted])).first)
    #expect(
      tail.text.hasPrefix(
        "bottom-up max 123.8 ms (31x its median); 3 involuntary context switches"),
      "\(tail.text)")
    interrupted.preemptions = 1
    #expect(TailWarning.all(in: report([interrupted])).isEmpty)
    interrupted.preemptions = nil
    #expect(TailWarning.all(in: report([interrupted])).isEmpty)
    // Slow ticks that recur are the scenario's work (a table reusing a cell every few
    // ticks), not preemption: 30 of 100 ticks at 40x the median.
    var recurring = result(.coalesced, p50: 25_000, counters: [:])
    recurring.samplesNs =
      Array(repeating: 25_000, count: 70) + Array(repeating: 1_000_000, count: 30)
    recurring.tickNs.max = 1_000_000
    #expect(TailWarning.all(in: report([recurring])).isEmpty)
    recurring.samplesNs =
      Array(repeating: 25_000, count: 98) + Array(repeating: 1_000_000, count: 2)
    #expect(TailWarning.all(in: report([recurring])).count == 1)
  }

  @Test func whenSlowTicksRecurTheFindingComparesMeanTicks() throws {
    // A scroll with cell reuse: the median is the cheap ticks alone.
    func bimodal(_ strategy: StrategyKind, cheap: Double, reuse: Double) -> RunResult {
      var r = result(strategy, p50: cheap, counters: ["sizeThatFits": 2])
      r.samplesNs =
        Array(repeating: cheap, count: 69) + Array(repeating: reuse, count: 30) + [50 * reuse]
      r.tickNs = TickStatistics(samples: r.samplesNs)
      return r
    }
    let coalesced = bimodal(.coalesced, cheap: 10_000, reuse: 100_000)
    let bottomUp = bimodal(.bottomUp, cheap: 15_000, reuse: 20_000)
    #expect(bottomUp.tickNs.p50 > coalesced.tickNs.p50)
    let finding = try #require(Finding.all(in: report([coalesced, bottomUp])).first)
    // Means without the top tick: (69 * 10 + 30 * 100) / 99 = 37.3 us against 16.5 us.
    #expect(
      finding.text == "bottom-up: no solver (2 sizeThatFits per tick), 2.3x faster than "
        + "coalesced (mean ticks: slow ticks recur)", "\(finding.text)")
    // Unimodal results keep comparing medians.
    let plain = Finding.all(
      in: report([
        result(.coalesced, p50: 10_000, counters: [:]),
        result(.bottomUp, p50: 15_000, counters: [:]),
      ]))
    #expect(plain.first?.text.hasSuffix("1.5x slower than coalesced") == true)
  }

  @Test func anyRateFrom30To240IsABudgetAndTheCommonPanelsAreAssessed() throws {
    let samples = [5_000_000.0, 7_500_000, 12_000_000]
    let at144 = FrameBudget.assessments(samples, hz: 144)
    #expect(at144.map(\.hz) == [60, 90, 120, 144])
    let at75 = FrameBudget.assessments(samples, hz: 75)
    #expect(at75.map(\.hz) == [60, 75, 90, 120, 144])
    // 144 Hz: a 6.94 ms budget; two of the three ticks miss it.
    #expect(at144.last?.overBudget == 2)
    #expect(FrameBudget.supportedHz.contains(30) && FrameBudget.supportedHz.contains(240))
    let settings = RunSettings(
      strategies: [.coalesced], ticks: 3, warmupTicks: 0, hz: 144, timeLimitNs: nil,
      minimumTicks: 3, verifyFrames: false)
    let run = try ScenarioRunner(settings: settings).run(
      Scenario(shape: .wide, size: 5, mutation: .text))
    #expect(run.results[0].budgets.map(\.hz) == [60, 90, 120, 144])
    #expect(run.results[0].preemptions != nil)
  }
}
