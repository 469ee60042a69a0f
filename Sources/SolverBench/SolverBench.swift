import BenchSupport
import Cassowary

/// One `solver-bench` measurement: the build time, the median tick, and the solver's work.
public struct SolverBenchResult: Sendable {
  public var workload: SolverWorkload
  public var size: Int
  /// Adding every constraint, then `updateVariables()`.
  public var buildNs: Double
  /// Median over the measured ticks of one tick (suggestions or remove + re-add, then
  /// `updateVariables()`), each timed on its own: the contract's figure. A tick under a
  /// microsecond or so is mostly the clock's (two reads of 20-50 ns, in steps of 10 ns).
  public var tickNs: Double
  public var ticks: Int
  /// The mean tick, timed in batches: the median over `batches` batches of
  /// `ticksPerBatch` consecutive ticks (whole cycles of the six tick values, sized from a
  /// trial batch to last `batchTargetNs` or longer) of the batch's time divided by its
  /// ticks. Two clock reads
  /// per batch, so short ticks are timed without the clock in them; a tick's share of the
  /// cycle's expensive ticks (pivots) is in it, as it is in the floors' average counts.
  public var tickMeanNs: Double
  public var ticksPerBatch: Int
  public var batches: Int
  /// Work of the build.
  public var buildCounters: SolverCounters
  /// Work of the measured ticks together (`ticks`, the ones timed one by one).
  public var tickCounters: SolverCounters
  /// The floor a tick is measured against: one multiply-add per value the average tick
  /// changed (`valuesPerTick`), over flat arrays (`UpdateFloor`), timed in batches of
  /// passes between the tick batches: the median over those samples of a pass. It counts
  /// the slacks and errors that changed too, which a solver need not write at each tick (a
  /// cached column defers its restricted values), so a tick can come in under it;
  /// `movedFloorNs` is the floor of the values the caller reads.
  public var floorNs: Double
  /// Variables the reporting read-out moved per tick, on average, over untimed ticks after
  /// the ones timed one by one (a whole number of the workloads' six-tick cycles).
  public var movedPerTick: Double
  /// One multiply-add per moved variable (`movedPerTick`), measured as `floorNs` is: the
  /// work no solver can avoid, since the caller reads every one.
  public var movedFloorNs: Double
  /// How many times the floor a mean tick costs (`nil` when ticks change no value): the
  /// median over the batches of a tick batch's mean over the floor sample timed right after
  /// it (not the quotient of the two medians). Paired so that a slow spell of the machine
  /// (whole processes here run up to 1.8x slower for seconds, a neighbour's load) falls on
  /// both sides of each ratio; it does not slow both alike, so ratios from slow spells still
  /// differ.
  public var tickOverFloor: Double?
  /// How many times the floor of the moved variables a mean tick costs (`nil` when ticks
  /// move none), paired as `tickOverFloor` is.
  public var tickOverMovedFloor: Double?

  /// Values of basic symbols changed per tick, on average.
  public var valuesPerTick: Double {
    Double(tickCounters.valuesUpdated) / Double(max(ticks, 1))
  }

  /// JSON with the contract keys `buildNs` and `tickNs`, plus the counters.
  public var json: String {
    // Encoding fails only for non-finite numbers; the clock and the counters give none.
    (try? JSONText.encode(self)) ?? "{}\n"
  }
}

extension SolverBenchResult: Encodable {
  enum Key: String, CodingKey {
    case workload, size, buildNs, tickNs, ticks, tickMeanNs, ticksPerBatch, batches
    case pivotsPerTick, valuesPerTick, floorNs
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
    try c.encode((tickMeanNs * 10).rounded() / 10, forKey: .tickMeanNs)
    try c.encode(ticksPerBatch, forKey: .ticksPerBatch)
    try c.encode(batches, forKey: .batches)
    try c.encode(Double(tickCounters.pivots) / Double(max(ticks, 1)), forKey: .pivotsPerTick)
    try c.encode(valuesPerTick, forKey: .valuesPerTick)
    try c.encode((floorNs * 10).rounded() / 10, forKey: .floorNs)
    try c.encode(tickOverFloor, forKey: .tickOverFloor)
    try c.encode(movedPerTick, forKey: .movedPerTick)
    try c.encode((movedFloorNs * 10).rounded() / 10, forKey: .movedFloorNs)
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
    t += counted
    let movedPerTick = Double(moved) / Double(counted)

    // The same ticks in batches of whole cycles (`tickMeanNs`), each followed by a sample of
    // each floor. A single tick's time holds two clock reads, so the batch is sized again
    // from one untimed trial batch.
    var perBatch = ticksPerBatch(meanTickNs: samples.reduce(0, +) / Double(samples.count))
    let trialStart = monotonicNanos()
    for u in t..<(t + perBatch) { system.tick(u) }
    t += perBatch
    perBatch = ticksPerBatch(meanTickNs: Double(monotonicNanos() - trialStart) / Double(perBatch))
    var movedFloor = PairedFloor(values: Int(movedPerTick.rounded()))
    var changedFloor = PairedFloor(values: changed)
    var means: [Double] = []
    var batchesNs: UInt64 = 0
    while means.isEmpty || batchesGoOn(count: means.count, elapsedNs: batchesNs) {
      let before = monotonicNanos()
      for u in t..<(t + perBatch) { system.tick(u) }
      let elapsed = monotonicNanos() - before
      batchesNs += elapsed
      let mean = Double(elapsed) / Double(perBatch)
      t += perBatch
      means.append(mean)
      movedFloor.sample(after: mean)
      changedFloor.sample(after: mean)
    }
    return SolverBenchResult(
      workload: self, size: size, buildNs: buildNs, tickNs: median(samples),
      ticks: samples.count, tickMeanNs: median(means), ticksPerBatch: perBatch,
      batches: means.count, buildCounters: buildCounters, tickCounters: tickCounters,
      floorNs: changedFloor.ns, movedPerTick: movedPerTick, movedFloorNs: movedFloor.ns,
      tickOverFloor: changedFloor.ratio, tickOverMovedFloor: movedFloor.ratio)
  }
}

/// Builds timed for a small system (`buildNs` is their median).
public let smallBuildRepeats = 7

/// The shortest batch `tickMeanNs` and the floors time: the clock's two reads (20-50 ns)
/// and its steps (10 ns) are then under 0.1% of a sample, and so is refilling the first
/// level of cache that the other side's batch took (32 KB from the second level).
package let batchTargetNs = 100_000.0

/// Batches timed for `tickMeanNs` (each with a sample of each floor after it): at least
/// one; then up to `minimumBatches` for as long as `batchPatienceNs`, and more up to
/// `maximumBatches` while they have taken under `batchLimitNs`.
package let minimumBatches = 21
package let maximumBatches = 101
package let batchLimitNs: UInt64 = 250_000_000
package let batchPatienceNs: UInt64 = 1_000_000_000

/// Whether another batch is timed after `count` batches that took `elapsedNs` in all (the
/// batches' own time, not the floor samples between them).
/// Ticks of a millisecond and more get fewer than `minimumBatches` (kiwi's chain of 3,000
/// boxes ticks in about 0.1 s: 21 batches of six would be 13 s more, with a build of a
/// minute before them); they are timed to well under a percent one by one anyway.
package func batchesGoOn(count: Int, elapsedNs: UInt64) -> Bool {
  guard count < maximumBatches else { return false }
  return elapsedNs < batchLimitNs || (count < minimumBatches && elapsedNs < batchPatienceNs)
}

/// Ticks per batch for ticks of `meanTickNs` on average: whole cycles of the six tick
/// values, as few as make a batch of `batchTargetNs` or longer (one cycle for ticks of
/// 17 us or more).
package func ticksPerBatch(meanTickNs: Double) -> Int {
  // No time read (or no figure): the longest batch.
  guard meanTickNs > 0 else { return 6 * 1_000 }
  let cycles = (batchTargetNs / (6 * meanTickNs)).rounded(.up)
  return 6 * Int(Swift.min(Swift.max(cycles, 1), 1_000))
}

/// Passes per sample of the floor when one pass takes `passNs`: as few as make a sample of
/// `batchTargetNs` or longer (at most 100,000: a pass of one value takes about 1 ns).
package func passesPerSample(passNs: Double) -> Int {
  guard passNs > 0 else { return 100_000 }
  return Int(Swift.min(Swift.max((batchTargetNs / passNs).rounded(.up), 1), 100_000))
}

/// The work no solver can avoid when a tick changes `values` numbers: updating each once,
/// `value[i] += coefficient[i] * d` through an index array (a solver's values are indexed by
/// symbol), timed in samples of as many passes as make a sample last `batchTargetNs` (one
/// pass from about 100 us on), as `tickMeanNs` is timed: the time of a pass among passes
/// run back to back, as a tick is among ticks.
struct UpdateFloor {
  private var values: [Double]
  private let indices: [Int32]
  private let coefficients: [Double]
  private var delta = 1.0
  /// Passes per sample.
  private var passes = 1

  /// `nil` for no values: nothing to time.
  init?(values count: Int) {
    guard count > 0 else { return nil }
    values = [Double](repeating: 1, count: count)
    indices = (0..<count).map { Int32($0) }
    coefficients = (0..<count).map { 0.5 + Double($0 % 7) / 8 }
    // Warm the arrays, then size the samples from the mean of eight passes.
    _ = time(passes: 1)
    passes = passesPerSample(passNs: time(passes: 8) / 8)
  }

  /// One sample: the time of a pass, in nanoseconds.
  mutating func sample() -> Double { time(passes: passes) / Double(passes) }

  private mutating func time(passes n: Int) -> Double {
    let count = values.count
    var delta = self.delta
    let start = monotonicNanos()
    values.withUnsafeMutableBufferPointer { values in
      indices.withUnsafeBufferPointer { indices in
        coefficients.withUnsafeBufferPointer { coefficients in
          for _ in 0..<n {
            for i in 0..<count {
              values[Int(indices[i])] += coefficients[i] * delta
            }
            delta = -delta * 1.0000001
          }
        }
      }
    }
    let elapsed = Double(monotonicNanos() - start)
    self.delta = delta
    // Keeps the passes observable, so that they cannot be optimised away.
    floorSink = values[count / 2]
    return elapsed
  }
}

/// A floor sampled after each tick batch: its samples, and each batch's mean tick over the
/// sample after it. No values, no floor: 0 and no ratio.
struct PairedFloor {
  private var floor: UpdateFloor?
  private var samples: [Double] = []
  private var ratios: [Double] = []

  init(values count: Int) { floor = UpdateFloor(values: count) }

  /// Times a sample after a batch whose mean tick was `mean`.
  mutating func sample(after mean: Double) {
    guard let sample = floor?.sample() else { return }
    samples.append(sample)
    ratios.append(mean / sample)
  }

  /// The median sample, 0 without values.
  var ns: Double { samples.isEmpty ? 0 : median(samples) }
  /// The median of the batches' ratios, `nil` without values.
  var ratio: Double? { ratios.isEmpty ? nil : median(ratios) }
}

nonisolated(unsafe) var floorSink = 0.0
