@testable import LayoutHarness
import BenchSupport
import Foundation
import Testing

/// Statistics with answers worked out by hand.
@Suite struct TickStatisticsTests {
  @Test func percentilesInterpolateBetweenClosestRanks() {
    // 1...101: the q quantile of an evenly spaced sample is 1 + 100q exactly.
    let samples = (1...101).map(Double.init).shuffled()
    let stats = TickStatistics(samples: samples)
    #expect(stats.min == 1 && stats.max == 101)
    #expect(stats.p50 == 51 && stats.p90 == 91 && stats.p99 == 100)
    #expect(stats.mean == 51)
    // Four values: rank 0.5 * 3 = 1.5 lies halfway between 20 and 30.
    #expect(percentile([10, 20, 30, 40], 0.5) == 25)
    #expect(percentile([7], 0.99) == 7)
  }

  @Test func budgetCountsOverrunsMissedFramesAndHitchRatio() {
    let budget = FrameBudget(hz: 60)
    let b = budget.nanoseconds
    #expect(abs(b - 16_666_666.67) < 0.01)
    // 10 ticks: 8 within, one at 1.5 budgets (misses 1 refresh), one at 3.2 (misses 3).
    let samples = Array(repeating: b / 2, count: 8) + [1.5 * b, 3.2 * b]
    let result = budget.assess(samples)
    #expect(result.overBudget == 2)
    #expect(result.missedFrames == 1 + 3)
    // Overrun 0.5b + 2.2b = 2.7b over a span of 10b + 2.7b.
    let expected = (2.7 * b / 1e6) / ((12.7 * b) / 1e9)
    #expect(abs(result.hitchMsPerS - expected) < 1e-9)
    #expect(result.verdict == .critical)
    #expect(budget.assess(Array(repeating: b, count: 5)).overBudget == 0)
  }

  @Test func hitchBandsFollowApplesThresholds() {
    #expect(HitchVerdict(hitchMsPerS: 0) == .good)
    #expect(HitchVerdict(hitchMsPerS: 4.99) == .good)
    #expect(HitchVerdict(hitchMsPerS: 5) == .warning)
    #expect(HitchVerdict(hitchMsPerS: 10) == .warning)
    #expect(HitchVerdict(hitchMsPerS: 10.01) == .critical)
    #expect(HitchVerdict.good < .warning && HitchVerdict.warning < .critical)
  }

  @Test func loglogSlopeRecoversPowerLaws() throws {
    let x: [Double] = [10, 100, 1000, 10_000]
    let linear = try #require(loglogSlope(x, x.map { 3 * $0 }))
    #expect(abs(linear - 1) < 1e-12)
    let quadratic = try #require(loglogSlope(x, x.map { 0.5 * $0 * $0 }))
    #expect(abs(quadratic - 2) < 1e-12)
    #expect(loglogSlope([10], [1]) == nil)
    #expect(loglogSlope([10, 10], [1, 2]) == nil)
  }

  @Test func loglogFitR2IsOneOnAPowerLawAndLessOnNoise() throws {
    let x: [Double] = [10, 30, 100, 300, 1000]
    let exact = try #require(loglogFitR2(x, x.map { 7 * pow($0, 1.3) }))
    #expect(abs(exact - 1) < 1e-12)
    // The same law with a deterministic scatter of up to 30% either way.
    let scatter = [1.3, 0.75, 1.15, 0.8, 1.25]
    let noisy = try #require(loglogFitR2(x, zip(x, scatter).map { 7 * pow($0, 1.3) * $1 }))
    #expect(noisy < 0.999 && noisy > 0.9, "\(noisy)")
    // Worked by hand: logs (0, 1, 2) against (0, 1, 1); sxy = 1, sxx = 2, syy = 2/3.
    let bent = try #require(loglogFitR2([1, 10, 100], [1, 10, 10]))
    #expect(abs(bent - 0.75) < 1e-12)
    // Equal costs at every size: the flat line fits them exactly.
    #expect(loglogFitR2(x, x.map { _ in 5e5 }) == 1)
    // Two sizes always fit; no spread in x has no line.
    #expect(loglogFitR2([10, 100], [1, 3]) == nil)
    #expect(loglogFitR2([10, 10, 10], [1, 2, 3]) == nil)
    #expect(loglogFitR2([10, 100, 1000], [1, 0, 3]) == nil)
  }

  @Test func numbersReadTheSameEverywhere() {
    #expect(NumberFormat.fixed(1.005, 1) == "1.0")  // 1.005 is 1.00499... in binary
    #expect(NumberFormat.fixed(2.25, 1) == "2.3")  // half away from zero
    #expect(NumberFormat.fixed(-2.25, 1) == "-2.3")
    #expect(NumberFormat.fixed(-0.04, 1) == "0.0")  // no negative zero
    #expect(NumberFormat.fixed(12.0, 0) == "12")
    #expect(NumberFormat.fixed(0.0123, 4) == "0.0123")
    #expect(NumberFormat.fixed(.nan, 2) == NumberFormat.missing)
    #expect(NumberFormat.fixed(-.infinity, 2) == NumberFormat.missing)
    #expect(NumberFormat.ms(16_666_667) == "16.67")
    #expect(NumberFormat.ms(123_456_789) == "123.5")
    #expect(NumberFormat.ms(1_234_567) == "1.23")
    #expect(NumberFormat.ms(123_456) == "0.123")
    #expect(NumberFormat.ms(12_345) == "0.0123")
    #expect(NumberFormat.percent(0.425) == "43%" && NumberFormat.percent(0.0425) == "4.3%")
    #expect(NumberFormat.percent(0.00004) == "<0.01%" && NumberFormat.percent(0) == "0.00%")
    #expect(NumberFormat.change(0.125) == "+12.5%" && NumberFormat.change(-0.03) == "-3.0%")
    #expect(NumberFormat.duration(850) == "850 ns")
    #expect(NumberFormat.duration(12_500) == "12.50 \u{B5}s")
    #expect(NumberFormat.duration(3_200_000) == "3.20 ms")
    #expect(NumberFormat.duration(1.5e9) == "1.50 s")
    #expect(NumberFormat.count(12) == "12" && NumberFormat.count(2.25) == "2.3")
  }
}

/// Workloads are deterministic and do what their names say.
@Suite struct MutationWorkloadTests {
  func mutations(_ scenario: Scenario, ticks: Int) -> [[SceneMutation]] {
    let (scene, generator) = scenario.makeScene()
    var workload = MutationWorkload(scenario: scenario, scene: scene, generator: generator)
    return (0..<ticks).map { _ in workload.next() }
  }

  @Test func sameSeedSameMutations() {
    for kind in MutationKind.builtIn {
      let scenario = Scenario(shape: .feed, size: 20, mutation: kind, perTick: 3, seed: 9)
      #expect(mutations(scenario, ticks: 10) == mutations(scenario, ticks: 10))
    }
    let a = mutations(
      Scenario(shape: .feed, size: 20, mutation: .text, perTick: 3, seed: 9), ticks: 5)
    let b = mutations(
      Scenario(shape: .feed, size: 20, mutation: .text, perTick: 3, seed: 10), ticks: 5)
    #expect(a != b)
  }

  @Test func perTickCountsAndKinds() {
    let text = mutations(Scenario(shape: .wide, size: 50, mutation: .text, perTick: 4), ticks: 3)
    #expect(text.allSatisfy { $0.count == 4 })
    let churn = mutations(Scenario(shape: .feed, size: 30, mutation: .churn, perTick: 2), ticks: 3)
    // Each replacement is a removal and an insertion at the same place.
    #expect(churn.allSatisfy { $0.count == 4 })
    #expect(mutations(Scenario(shape: .deep, size: 10, mutation: .idle), ticks: 2) == [[], []])
    let resize = mutations(Scenario(shape: .deep, size: 10, mutation: .resize), ticks: 6)
    #expect(Set(resize.map { $0.description }).count == 5)
  }

  @Test func churnKeepsTheSceneConsistent() throws {
    let scenario = Scenario(shape: .feed, size: 10, mutation: .churn, perTick: 3, seed: 4)
    var (scene, generator) = scenario.makeScene()
    var workload = MutationWorkload(scenario: scenario, scene: scene, generator: generator)
    let views = scene.viewCount
    for _ in 0..<20 { for m in workload.next() { try scene.apply(m) } }
    // Cells are replaced by cells: the count of views does not drift.
    #expect(scene.viewCount == views)
    _ = generator.rng.next()
  }

  @Test func impossibleScenariosAreRefusedWithAReason() {
    #expect(Scenario(shape: .deep, size: 0, mutation: .text).problem?.contains("size") == true)
    #expect(
      Scenario(shape: .deep, size: 10, mutation: .text, perTick: 0).problem?.contains("per-tick")
        == true)
    #expect(Scenario(shape: .wide, size: 10, mutation: .scroll).problem?.contains("feed") == true)
    #expect(Scenario(shape: .feed, size: 10, mutation: .scroll).problem == nil)
  }
}
