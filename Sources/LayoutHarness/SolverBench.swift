import Cassowary

/// One `solver-bench` measurement: the build time, the median tick, and the solver's work.
public struct SolverBenchResult: Sendable {
  public var workload: SolverWorkload
  public var size: Int
  /// Adding every constraint, then `updateVariables()`.
  public var buildNs: Double
  /// Median over the measured ticks of one tick (suggestions or remove + re-add, then
  /// `updateVariables()`).
  public var tickNs: Double
  public var ticks: Int
  /// Work of the build.
  public var buildCounters: SolverCounters
  /// Work of all measured ticks together.
  public var tickCounters: SolverCounters

  /// JSON with the contract keys `buildNs` and `tickNs`, plus the counters.
  public var json: String {
    func counters(_ c: SolverCounters) -> String {
      "{\"pivots\": \(c.pivots), \"rowsTouched\": \(c.rowsTouched), "
        + "\"substitutions\": \(c.substitutions)}"
    }
    let perTick = Double(tickCounters.pivots) / Double(max(ticks, 1))
    return """
      {"workload": "\(workload.rawValue)", "size": \(size), "buildNs": \(Int(buildNs)), \
      "tickNs": \(Int(tickNs.rounded())), "ticks": \(ticks), \
      "pivotsPerTick": \(perTick), "buildCounters": \(counters(buildCounters)), \
      "tickCounters": \(counters(tickCounters))}
      """
  }
}

extension SolverWorkload {
  /// Builds the system (after one untimed warm-up build when that is cheap), then runs
  /// ticks until `minimumTicks` ticks or `timeLimitNs` have passed, whichever comes first,
  /// but always at least one full cycle of six tick values.
  public func measure(
    size: Int, representation: Solver.Representation = .adaptive, minimumTicks: Int = 200,
    timeLimitNs: UInt64 = 1_000_000_000
  ) -> SolverBenchResult {
    if size <= 200 || self == .enaml { _ = build(size: size, representation: representation) }
    let start = monotonicNanos()
    let system = build(size: size, representation: representation)
    let buildNs = Double(monotonicNanos() - start)
    let buildCounters = system.solver.counters

    var samples: [Double] = []
    samples.reserveCapacity(minimumTicks)
    let ticksStart = monotonicNanos()
    var t = 0
    while t < 6 || (t < minimumTicks && monotonicNanos() - ticksStart < timeLimitNs) {
      let before = monotonicNanos()
      system.tick(t)
      samples.append(Double(monotonicNanos() - before))
      t += 1
    }
    return SolverBenchResult(
      workload: self, size: size, buildNs: buildNs, tickNs: median(samples), ticks: t,
      buildCounters: buildCounters, tickCounters: system.solver.counters - buildCounters)
  }
}
