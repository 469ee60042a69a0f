import BenchSupport
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
  /// The floor a tick is measured against: the median time of one multiply-add per value
  /// the average tick changed (`valuesPerTick`), over flat arrays, measured in the same run.
  /// It counts the slacks and errors that changed too, which a solver need not write at
  /// each tick (a cached column defers its restricted values), so a tick can come in under
  /// it; `movedFloorNs` is the floor of the values the caller reads.
  public var floorNs: Double
  /// Variables the reporting read-out moved per tick, on average, over untimed ticks after
  /// the measured ones (a whole number of the workloads' six-tick cycles).
  public var movedPerTick: Double
  /// The median time of one multiply-add per moved variable (`movedPerTick`), measured as
  /// `floorNs` is: the work no solver can avoid, since the caller reads every one.
  public var movedFloorNs: Double

  /// Values of basic symbols changed per tick, on average.
  public var valuesPerTick: Double {
    Double(tickCounters.valuesUpdated) / Double(max(ticks, 1))
  }

  /// How many times the floor a tick costs (`nil` when ticks change no value).
  public var tickOverFloor: Double? { floorNs > 0 ? tickNs / floorNs : nil }

  /// How many times the floor of the moved variables a tick costs (`nil` when ticks move
  /// none).
  public var tickOverMovedFloor: Double? { movedFloorNs > 0 ? tickNs / movedFloorNs : nil }

  /// JSON with the contract keys `buildNs` and `tickNs`, plus the counters.
  public var json: String {
    // Encoding fails only for non-finite numbers; the clock and the counters give none.
    (try? JSONText.encode(self)) ?? "{}\n"
  }
}

extension SolverBenchResult: Encodable {
  enum Key: String, CodingKey {
    case workload, size, buildNs, tickNs, ticks, pivotsPerTick, valuesPerTick, floorNs
    case tickOverFloor, movedPerTick, movedFloorNs, tickOverMovedFloor, buildCounters
    case tickCounters
  }

  /// The solver's counters under their JSON names.
  struct Counters: Encodable {
    var pivots, rowsTouched, substitutions, expansions, cachedShifts, valuesUpdated: Int
    var repairs, rebuilds, objectiveRefreshes: Int

    init(_ c: SolverCounters) {
      pivots = c.pivots
      rowsTouched = c.rowsTouched
      substitutions = c.substitutions
      expansions = c.expansions
      cachedShifts = c.cachedShifts
      valuesUpdated = c.valuesUpdated
      repairs = c.repairs
      rebuilds = c.rebuilds
      objectiveRefreshes = c.objectiveRefreshes
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Key.self)
    try c.encode(workload.rawValue, forKey: .workload)
    try c.encode(size, forKey: .size)
    try c.encode(Int(buildNs), forKey: .buildNs)
    try c.encode(Int(tickNs.rounded()), forKey: .tickNs)
    try c.encode(ticks, forKey: .ticks)
    try c.encode(Double(tickCounters.pivots) / Double(max(ticks, 1)), forKey: .pivotsPerTick)
    try c.encode(valuesPerTick, forKey: .valuesPerTick)
    try c.encode(Int(floorNs.rounded()), forKey: .floorNs)
    try c.encode(tickOverFloor, forKey: .tickOverFloor)
    try c.encode(movedPerTick, forKey: .movedPerTick)
    try c.encode(Int(movedFloorNs.rounded()), forKey: .movedFloorNs)
    try c.encode(tickOverMovedFloor, forKey: .tickOverMovedFloor)
    try c.encode(Counters(buildCounters), forKey: .buildCounters)
    try c.encode(Counters(tickCounters), forKey: .tickCounters)
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
    // A build of a small system takes a millisecond or less, and one such build moves by 2x
    // between runs on a shared machine: small systems get a warm-up build, then the median
    // of several (Scripts/kiwi_bench.py does the same for kiwi).
    let small = size <= 200 || self == .enaml
    if small { _ = build(size: size, representation: representation) }
    var builds: [Double] = []
    var built: SolverSystem?
    for _ in 0..<(small ? smallBuildRepeats : 1) {
      let start = monotonicNanos()
      built = build(size: size, representation: representation)
      builds.append(Double(monotonicNanos() - start))
    }
    let system = built!
    let buildNs = median(builds)
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
    let tickCounters = system.solver.counters - buildCounters
    let changed = Int((Double(tickCounters.valuesUpdated) / Double(t)).rounded())
    // Up to ten cycles of six ticks more, untimed, counted through the reporting read-out.
    let counted = 6 * Swift.max(1, Swift.min(t, 60) / 6)
    var moved = 0
    for u in t..<(t + counted) { moved += system.movedVariables(u) }
    let movedPerTick = Double(moved) / Double(counted)
    return SolverBenchResult(
      workload: self, size: size, buildNs: buildNs, tickNs: median(samples), ticks: t,
      buildCounters: buildCounters, tickCounters: tickCounters,
      floorNs: updateFloorNs(values: changed), movedPerTick: movedPerTick,
      movedFloorNs: updateFloorNs(values: Int(movedPerTick.rounded())))
  }
}

/// Builds timed for a small system (`buildNs` is their median).
public let smallBuildRepeats = 7

/// The median time of updating `values` numbers once each, `value[i] += coefficient[i] * d`
/// through an index array (a solver's values are indexed by symbol), over 101 passes. This
/// is the work no solver can avoid when a tick changes that many values.
func updateFloorNs(values count: Int) -> Double {
  guard count > 0 else { return 0 }
  var values = [Double](repeating: 1, count: count)
  let indices = (0..<count).map { Int32($0) }
  let coefficients = (0..<count).map { 0.5 + Double($0 % 7) / 8 }
  var samples: [Double] = []
  var delta = 1.0
  for _ in 0..<101 {
    let start = monotonicNanos()
    values.withUnsafeMutableBufferPointer { values in
      for i in 0..<count {
        values[Int(indices[i])] += coefficients[i] * delta
      }
    }
    samples.append(Double(monotonicNanos() - start))
    delta = -delta * 1.0000001
  }
  // Keeps the passes observable, so that they cannot be optimised away.
  floorSink = values[count / 2]
  return median(samples)
}

nonisolated(unsafe) var floorSink = 0.0
