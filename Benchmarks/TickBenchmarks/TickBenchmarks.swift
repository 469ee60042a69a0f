import Benchmark
import LayoutHarness
import LayoutModel

// One run-loop tick per iteration, per strategy and scenario: `Tick.<strategy>.<shape><size>`
// (e.g. `Tick.coalesced.feed200`). Each iteration applies the next mutations of the seeded
// workload and runs the update cycle, exactly as `layout-bench run` measures a tick.
//
// Committed thresholds hold only deterministic metrics: malloc counts and the layout
// counters below (a fixed number of iterations over a seeded workload gives the same work
// on every machine). Wall clock is compared between baselines (Scripts/bench-baseline.sh).

let layoutSubviews = BenchmarkMetric.custom(
  "layoutSubviews", polarity: .prefersSmaller, useScalingFactor: false)
let solves = BenchmarkMetric.custom("solves", polarity: .prefersSmaller, useScalingFactor: false)
let sizeThatFits = BenchmarkMetric.custom(
  "sizeThatFits", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal, layoutSubviews, solves, sizeThatFits],
    warmupIterations: 3,
    scalingFactor: .one,
    // A fixed count (never cut by time) keeps the workload's ticks, and so the counts, the
    // same in every run.
    maxDuration: .seconds(60),
    maxIterations: 60,
    thresholds: [
      // A tick allocates a few dozen times; one allocation more or less between processes
      // (hash seeds reorder a table growth) is 3%, so the band is 5% or 3 allocations.
      .mallocCountTotal: .init(relative: [.p90: 5], absolute: [.p90: 3]),
      // Wall clock is only compared between baselines (Scripts/bench-baseline.sh), on the
      // median and the upper quartile, with bands wide enough for a shared 2-core machine.
      .wallClock: .init(relative: [.p50: 25, .p75: 40]),
      layoutSubviews: .init(relative: [.p90: 0], absolute: [.p90: 0]),
      solves: .init(relative: [.p90: 0], absolute: [.p90: 0]),
      sizeThatFits: .init(relative: [.p90: 0], absolute: [.p90: 0]),
    ]
  )

  let scenarios: [Scenario] = [
    Scenario(shape: .feed, size: 200, mutation: .text, perTick: 1, seed: 1),
    Scenario(shape: .deep, size: 100, mutation: .resize, perTick: 1, seed: 1),
    Scenario(shape: .wide, size: 1000, mutation: .text, perTick: 4, seed: 1),
  ]
  for scenario in scenarios {
    for kind in StrategyKind.allCases {
      let name = "Tick.\(kind.rawValue).\(scenario.shape.rawValue)\(scenario.size)"
      Benchmark(
        name,
        closure: { benchmark, ticker in
          let before = ticker.counters
          for _ in benchmark.scaledIterations { try ticker.tick() }
          let work = ticker.counters - before
          benchmark.measurement(layoutSubviews, work.layoutSubviews)
          benchmark.measurement(solves, work.solves)
          benchmark.measurement(sizeThatFits, work.sizeThatFits)
        },
        setup: { try SceneTicker(scenario: scenario, strategy: kind) })
    }
  }
}
