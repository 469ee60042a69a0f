import Testing

@testable import LayoutHarness

/// The runner's warm-up and time-limit policy, on a clock the test moves.
struct TickScheduleTests {
  /// Runs a schedule whose every tick takes `tickNs`, and returns its steps.
  func steps(_ settings: RunSettings, tickNs: UInt64) -> [TickSchedule.Step] {
    var schedule = TickSchedule(settings, startedAt: 1_000)
    var now: UInt64 = 1_000
    var steps: [TickSchedule.Step] = []
    while steps.count < 10_000 {
      let step = schedule.next(now: now)
      steps.append(step)
      if step == .stop { break }
      now += tickNs
    }
    return steps
  }

  func count(_ step: TickSchedule.Step, in steps: [TickSchedule.Step]) -> Int {
    steps.filter { $0 == step }.count
  }

  @Test func withoutALimitEveryWarmupAndMeasuredTickRuns() {
    let settings = RunSettings(ticks: 50, warmupTicks: 7, timeLimitNs: nil, minimumTicks: 5)
    let steps = steps(settings, tickNs: 1_000_000_000)
    #expect(Array(steps.prefix(7)) == Array(repeating: .warmup, count: 7))
    #expect(steps[7] == .firstMeasured)
    #expect(count(.measured, in: steps) == 49)
    #expect(steps.last == .stop && steps.count == 7 + 50 + 1)
  }

  @Test func fastTicksRunInFullUnderALimit() {
    // 1 us ticks against a 1 s limit: the limit never binds.
    let settings = RunSettings(
      ticks: 120, warmupTicks: 10, timeLimitNs: 1_000_000_000, minimumTicks: 20)
    let steps = steps(settings, tickNs: 1_000)
    #expect(count(.warmup, in: steps) == 10)
    #expect(count(.firstMeasured, in: steps) + count(.measured, in: steps) == 120)
  }

  @Test func slowTicksCutTheWarmupAndStopAfterTheLimitWithTheMinimum() {
    // 300 ms ticks, a 1 s limit: the warm-up stops after two ticks (600 ms > 250 ms), and
    // measuring stops once 20 ticks are in, although they took 6 s.
    let settings = RunSettings(
      ticks: 120, warmupTicks: 10, timeLimitNs: 1_000_000_000, minimumTicks: 20)
    let steps = steps(settings, tickNs: 300_000_000)
    #expect(count(.warmup, in: steps) == 2)
    #expect(count(.firstMeasured, in: steps) + count(.measured, in: steps) == 20)
    #expect(steps.last == .stop)
  }

  @Test func theLimitCountsFromTheFirstMeasuredTick() {
    // 10 ms ticks, a 1 s limit: warm-up (100 ms) stays within a quarter of it; measuring
    // stops at the first tick past 1 s of measuring: 101 measured ticks, not 120 and not 75.
    let settings = RunSettings(
      ticks: 120, warmupTicks: 10, timeLimitNs: 1_000_000_000, minimumTicks: 20)
    let steps = steps(settings, tickNs: 10_000_000)
    #expect(count(.warmup, in: steps) == 10)
    #expect(count(.firstMeasured, in: steps) + count(.measured, in: steps) == 101)
  }

  @Test func noWarmup() {
    let settings = RunSettings(ticks: 3, warmupTicks: 0, timeLimitNs: nil, minimumTicks: 3)
    #expect(steps(settings, tickNs: 1) == [.firstMeasured, .measured, .measured, .stop])
  }
}
