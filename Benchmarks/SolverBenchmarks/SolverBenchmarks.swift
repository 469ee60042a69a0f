import Benchmark
import Cassowary
import SolverBench

// Solver benchmarks: build and tick of the kiwi comparison workloads at two sizes, churn,
// and the in-place constant change. Names follow `Solver.operation.shapeN`.
//
// Wall clock is noisy on shared machines and is compared between baselines only; the
// committed thresholds (Benchmarks/Thresholds, `thresholds check --path
// Benchmarks/Thresholds`) hold malloc counts and the solver's pivot counter, which are
// deterministic (malloc counts to within a few allocations).

/// A built system plus the index of the next tick, shared across iterations.
final class TickState {
  let system: SolverSystem
  var t = 0
  init(_ system: SolverSystem) { self.system = system }
}

let pivots = BenchmarkMetric.custom("pivots", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal, pivots],
    warmupIterations: 2,
    scalingFactor: .one,
    maxDuration: .seconds(1),
    maxIterations: 200,
    thresholds: [
      // Malloc counts move by a handful between processes (hash seeds reorder a few
      // internal tables), never by 1%; pivots are exactly reproducible.
      .mallocCountTotal: .init(relative: [.p90: 1]),
      // Wall clock is only compared between baselines (Scripts/bench-baseline.sh), on the
      // median and the upper quartile, with bands wide enough for a shared 2-core machine.
      .wallClock: .init(relative: [.p50: 25, .p75: 40]),
      pivots: .init(relative: [.p90: 0], absolute: [.p90: 0]),
    ]
  )

  let cases: [(SolverWorkload, [Int])] = [
    (.chain, [100, 1000]), (.wide, [100, 1000]), (.deep, [100, 1000]), (.enaml, [1]),
  ]
  for (workload, sizes) in cases {
    for n in sizes {
      let shape = workload == .enaml ? "enaml" : "\(workload.rawValue)\(n)"
      Benchmark("Solver.build.\(shape)") { benchmark in
        var work = 0
        for _ in benchmark.scaledIterations {
          let system = workload.build(size: n)
          work += system.solver.counters.pivots
          blackHole(system)
        }
        benchmark.measurement(pivots, work)
      }
      Benchmark(
        "Solver.tick.\(shape)",
        closure: { benchmark, state in
          let before = state.system.solver.counters.pivots
          for _ in benchmark.scaledIterations {
            state.system.tick(state.t)
            state.t += 1
          }
          benchmark.measurement(pivots, state.system.solver.counters.pivots - before)
        },
        setup: { TickState(workload.build(size: n)) })
    }
  }

  Benchmark(
    "Solver.churn.chain1000",
    closure: { benchmark, state in
      for _ in benchmark.scaledIterations {
        state.system.tick(state.t)
        state.t += 1
      }
    },
    setup: { TickState(SolverWorkload.churn.build(size: 1000)) })

  // Auto Layout's fast path: the spacing of one link changes in place, no remove + add.
  Benchmark(
    "Solver.setConstant.chain1000",
    closure: { benchmark, state in
      let solver = state.solver
      for i in benchmark.scaledIterations {
        try! solver.setConstant(-8 - Double(i % 7), of: state.link)
        solver.updateVariables()
      }
    },
    setup: { () -> ConstantState in
      let solver = Solver()
      var x = [solver.makeVariable()]
      var w = [solver.makeVariable()]
      try! solver.addConstraint(x[0] == 8)
      var link = x[0] == 8
      for i in 1..<1000 {
        x.append(solver.makeVariable())
        w.append(solver.makeVariable())
        link = x[i] == x[i - 1] + w[i - 1] + 8
        try! solver.addConstraint(link)
        try! solver.addConstraint((w[i - 1] == 50) | .weak)
      }
      return ConstantState(solver: solver, link: link)
    })
}

final class ConstantState {
  let solver: Solver
  let link: Constraint
  init(solver: Solver, link: Constraint) {
    self.solver = solver
    self.link = link
  }
}
