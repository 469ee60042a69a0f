import Cassowary
import Foundation
import SolverBench
import Testing

/// The kiwi comparison workloads: what `solver-bench` builds must be the systems the kiwi
/// scripts build (sizes, constraint counts), its ticks must do solver work, and its JSON must
/// carry every counter the kiwi comparison and the README read.
struct SolverBenchTests {
  @Test(arguments: SolverWorkload.allCases)
  func everyWorkloadBuildsAndTicksAtSeveralSizes(_ workload: SolverWorkload) {
    for size in [workload.minimumSize, 10, 100] {
      let system = workload.build(size: size)
      let built = system.solver.counters
      for t in 0..<12 { system.tick(t) }
      let ticks = system.solver.counters - built
      // A tick that did no solver work would time an empty loop: suggestions move values;
      // a remove + re-add restores the same values but must touch rows to do it (pivots,
      // merges, or at least the substitution of the re-added row's subject into the
      // objective: a one-box chain whose preference is basic needs only that).
      let work =
        workload.suggests
        ? ticks.valuesUpdated : ticks.rowsTouched + ticks.pivots + ticks.substitutions
      #expect(work > 0, "\(workload) \(size): ticks did no solver work (\(ticks))")
      #expect(ticks.rebuilds == 0, "\(workload) \(size): a tick rebuilt the tableau")
      #expect(
        system.solver.counters.objectiveRefreshes == 0,
        "\(workload) \(size): a layout pivot was taken for an ill-conditioned one")
    }
  }

  @Test func theEnamlSystemHasKiwisConstraintAndVariableCounts() {
    // nucleic/kiwi's enaml_like_benchmark.cpp: 37 variables (2 edited), 111 constraints.
    let system = SolverWorkload.enaml.build(size: 0)
    #expect(system.solver.constraintCount == 111)
    #expect(system.solver.variableCount == 37)
  }

  @Test func theEnamlDataFileHoldsKiwisSystem() {
    // Sources/SolverBench/enaml.cass, embedded at build time; Scripts/kiwi_bench.py reads the
    // same file. kiwi declares width and height first, then 35 more variables.
    let system = SolverWorkload.enamlSystem
    #expect(system.variables.count == 37)
    #expect(system.variables.prefix(4) == ["width", "height", "left", "top"])
    #expect(system.variables.last == "fl3width")
    #expect(system.edits.map(\.name) == ["width", "height"])
    #expect(system.edits.allSatisfy { $0.strength == .strong })
    #expect(system.constraints.count == 111)
    #expect(system.constraints.filter { $0.strength == .required }.count == 57)
    #expect(system.ticks.count == 6)
    #expect(system.ticks.first?.map(\.value) == [400, 600])
    // A build reads each constraint's terms by variable position: they must name the
    // form's variables with its non-zero coefficients, in its order.
    #expect(system.terms.count == system.constraints.count)
    for (constraint, terms) in zip(system.constraints, system.terms) {
      let named = zip(constraint.form.names, constraint.form.coefficients).filter { $0.1 != 0 }
      #expect(terms.map { system.variables[$0.variable] } == named.map(\.0))
      #expect(terms.map(\.coefficient) == named.map(\.1))
    }
  }

  @Test func theAdaptiveTableauTurnsLazyWhereSubstitutionsKeepRewritingRows() {
    // kiwi's enaml system ties its 37 variables together: its substitutions rewrite about
    // five rows per constraint, and the adaptive tableau turns lazy part of the way through.
    // A wide container's children rewrite a row per five constraints: it stays canonical,
    // where it builds cheaper.
    #expect(SolverWorkload.enaml.build(size: 1).solver.isLazy)
    #expect(!SolverWorkload.wide.build(size: 50).solver.isLazy)
    #expect(!SolverWorkload.wide.build(size: 200).solver.isLazy)
  }

  @Test func chainHasFourConstraintsPerBoxAndOneEnd() {
    // Per box: the link to its predecessor, x >= 0, w >= 10, the weak width preference;
    // then the last box's end at the edited width (Scripts/kiwi_bench.py builds the same).
    for n in [1, 10, 100] {
      #expect(SolverWorkload.chain.build(size: n).solver.constraintCount == 4 * n + 1)
    }
  }

  @Test func theResultJSONCarriesEveryCounter() throws {
    let result = SolverWorkload.wide.measure(size: 20, minimumTicks: 12)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.json.utf8)) as? [String: Any])
    #expect(object["workload"] as? String == "wide")
    #expect(object["size"] as? Int == 20)
    #expect(object["ticks"] as? Int == result.ticks)
    #expect(result.ticks >= 6, "a measurement runs at least one cycle of six tick values")
    let counterKeys: Set<String> = [
      "pivots", "rowsTouched", "substitutions", "expansions", "cachedShifts",
      "valuesUpdated", "repairs", "rebuilds", "objectiveRefreshes",
    ]
    for key in ["buildCounters", "tickCounters"] {
      let counters = try #require(object[key] as? [String: Int], "\(key) missing")
      #expect(Set(counters.keys) == counterKeys, "\(key): \(counters.keys.sorted())")
    }
    let tickCounters = try #require(object["tickCounters"] as? [String: Int])
    #expect(tickCounters["valuesUpdated"] == result.tickCounters.valuesUpdated)
    #expect(tickCounters["repairs"] == result.tickCounters.repairs)
    #expect(object["movedPerTick"] as? Double == result.movedPerTick)
    #expect(object["tickMeanNs"] as? Double == (result.tickMeanNs * 10).rounded() / 10)
    #expect(object["ticksPerBatch"] as? Int == result.ticksPerBatch)
    #expect(object["batches"] as? Int == result.batches)
    let ratio = try #require(object["tickOverMovedFloor"] as? Double)
    #expect(abs(ratio - (result.tickOverMovedFloor ?? 0)) <= 1e-12 * ratio)
    #expect(object["floorNs"] as? Double == (result.floorNs * 10).rounded() / 10)
    let changedRatio = try #require(object["tickOverFloor"] as? Double)
    #expect(abs(changedRatio - (result.tickOverFloor ?? 0)) <= 1e-12 * changedRatio)
    #expect(object["movedFloorNs"] as? Double == (result.movedFloorNs * 10).rounded() / 10)
  }

  /// The floor counts the variables a tick moves. A `wide` tick edits the container's width
  /// and every child's width is half of it (their x do not depend on it): N + 1 variables.
  /// A `deep` tick edits the outer width, and each nested width follows it (the x are
  /// fixed): depth + 1. Both move more basic values than that (slacks, errors), which the
  /// other floor counts.
  @Test func theFloorCountsTheVariablesATickMoves() {
    let wide = SolverWorkload.wide.measure(size: 40, minimumTicks: 12)
    #expect(wide.movedPerTick == 41)
    let deep = SolverWorkload.deep.measure(size: 30, minimumTicks: 12)
    #expect(deep.movedPerTick == 31)
    for result in [wide, deep] {
      #expect(result.valuesPerTick > result.movedPerTick)
      #expect(result.movedFloorNs > 0 && result.tickOverMovedFloor != nil)
    }
  }

  /// Ticks are also timed in batches of whole six-value cycles, 21 or more when they fit
  /// in a second (these do), each paired with a sample of each floor, so that a tick under
  /// a microsecond is not the clock's. The batches come after the ticks timed one by one,
  /// whose count and work the result keeps.
  @Test func ticksAreAlsoTimedInBatchesOfWholeCycles() throws {
    let result = SolverWorkload.deep.measure(size: 30, minimumTicks: 12)
    #expect(result.ticksPerBatch % 6 == 0 && result.ticksPerBatch >= 6)
    #expect(result.batches >= 21 && result.batches <= 101)
    // A mean over ticks of the same system is of the order of the median tick.
    #expect(result.tickMeanNs > result.tickNs / 10 && result.tickMeanNs < result.tickNs * 10)
    // Each ratio is the median of the batches' ratios, tick over floor: near the quotient of
    // the medians, and not its inverse (a deep tick costs more than its floor).
    let ratio = try #require(result.tickOverMovedFloor)
    let quotient = result.tickMeanNs / result.movedFloorNs
    #expect(
      quotient > 1 && ratio > quotient / 2 && ratio < quotient * 2, "\(ratio), \(quotient)")
    let changedRatio = try #require(result.tickOverFloor)
    let changedQuotient = result.tickMeanNs / result.floorNs
    #expect(changedRatio > changedQuotient / 2 && changedRatio < changedQuotient * 2)
    // `ticks` and `tickCounters` are those of the ticks timed one by one, as a fresh system
    // counts them.
    #expect(result.ticks == 12)
    let fresh = SolverWorkload.deep.build(size: 30)
    let built = fresh.solver.counters
    for t in 0..<12 { fresh.tick(t) }
    #expect(fresh.solver.counters - built == result.tickCounters)
  }

  /// A batch is as few whole cycles as reach the target, and a floor sample as few passes.
  @Test(arguments: [5.0, 40, 99, 1_000, 16_666, 16_667, 50_000, 3e6])
  func batchesAreTheFewestCyclesThatReachTheTarget(_ meanTickNs: Double) {
    let ticks = ticksPerBatch(meanTickNs: meanTickNs)
    #expect(ticks % 6 == 0 && ticks >= 6)
    #expect(Double(ticks) * meanTickNs >= batchTargetNs || ticks == 6_000)
    if ticks > 6 {
      #expect(Double(ticks - 6) * meanTickNs < batchTargetNs, "\(ticks) ticks: one cycle too many")
    }
    let passes = passesPerSample(passNs: meanTickNs)
    #expect(passes >= 1 && Double(passes) * meanTickNs >= batchTargetNs)
    if passes > 1 {
      #expect(Double(passes - 1) * meanTickNs < batchTargetNs, "\(passes) passes: one too many")
    }
  }

  /// A mean the clock could not read (zero, or no figure) gives the longest batch and
  /// sample; an infinite one, the shortest.
  @Test(arguments: [0.0, -.infinity, .nan, .infinity])
  func anUnreadableMeanGivesTheLongestBatch(_ meanTickNs: Double) {
    let infinite = meanTickNs == .infinity
    #expect(ticksPerBatch(meanTickNs: meanTickNs) == (infinite ? 6 : 6_000))
    #expect(passesPerSample(passNs: meanTickNs) == (infinite ? 1 : 100_000))
  }

  /// Batches stop at 101, go on to 21 for up to a second, and past that only while they
  /// have taken under a quarter of a second.
  @Test func batchesStopByCountAndTime() {
    #expect(batchesGoOn(count: 1, elapsedNs: 0))
    #expect(batchesGoOn(count: 20, elapsedNs: 999_000_000))
    #expect(!batchesGoOn(count: 20, elapsedNs: 1_000_000_000))
    #expect(batchesGoOn(count: 21, elapsedNs: 249_000_000))
    #expect(!batchesGoOn(count: 21, elapsedNs: 250_000_000))
    #expect(batchesGoOn(count: 100, elapsedNs: 0))
    #expect(!batchesGoOn(count: 101, elapsedNs: 0))
  }

  /// Scripts/kiwi_bench.py times kiwi's batches by the same rule, with the same constants.
  @Test func theKiwiScriptBatchesByTheSameRule() throws {
    let script = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Scripts/kiwi_bench.py"), encoding: .utf8)
    func constant(_ name: String) -> Double? {
      for line in script.split(separator: "\n") where line.hasPrefix(name + " = ") {
        return Double(line.dropFirst(name.count + 3).replacingOccurrences(of: "_", with: ""))
      }
      return nil
    }
    #expect(constant("BATCH_TARGET_NS") == batchTargetNs)
    #expect(constant("MINIMUM_BATCHES") == Double(minimumBatches))
    #expect(constant("MAXIMUM_BATCHES") == Double(maximumBatches))
    #expect(constant("BATCH_LIMIT_NS") == Double(batchLimitNs))
    #expect(constant("BATCH_PATIENCE_NS") == Double(batchPatienceNs))
    #expect(script.contains("def ticks_per_batch(") && script.contains("def batches_go_on("))
  }
}
