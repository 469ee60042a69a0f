import Benchmark
import LayoutHarness
import Screens

// The login screen's tick under each strategy, as package-benchmark measures it: one
// run-loop tick per iteration (the mutations of the scene's next tick, then the update
// cycle), the scene built and laid out once in setup.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(5), maxIterations: 200)
  for strategy in StrategyKind.allCases {
    Benchmark(
      "login.\(strategy.rawValue)",
      closure: { benchmark, ticker in
        for _ in benchmark.scaledIterations { try ticker.tick() }
      },
      setup: { try SceneTicker(scenario: Scenario(file: LoginScreen.file()), strategy: strategy) })
  }
}
