import BenchSupport
import Foundation
import Testing

@testable import LayoutHarness

/// Statistics with known answers, and comparisons of synthetic runs whose truth we set.
@Suite struct SampleStatisticsTests {
  @Test func mannWhitneyMatchesTheNormalApproximationByHand() {
    // U = 0 for fully separated samples of 5 and 5: mean 12.5, variance 25/12 * 11, so
    // z = (12.5 - 0.5) / 4.787 = 2.507 and p = erfc(z / sqrt 2) = 0.0122 (SciPy's asymptotic
    // two-sided p with continuity correction).
    let p = SampleStatistics.mannWhitneyP([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
    #expect(abs(p - 0.01219) < 1e-4)
    // Symmetric in its arguments; identical samples give no evidence at all.
    #expect(abs(SampleStatistics.mannWhitneyP([6, 7, 8, 9, 10], [1, 2, 3, 4, 5]) - p) < 1e-12)
    #expect(SampleStatistics.mannWhitneyP([1, 2, 3], [1, 2, 3]) == 1)
    #expect(SampleStatistics.mannWhitneyP([4, 4, 4], [4, 4, 4]) == 1)
    #expect(SampleStatistics.mannWhitneyP([], [1]) == 1)
  }

  @Test func mannWhitneySeesAShiftInLargeSamplesAndNotInEqualOnes() {
    var rng = SplitMix64(seed: 3)
    let a = (0..<200).map { _ in 100 + rng.unit() * 10 }
    let sameDistribution = (0..<200).map { _ in 100 + rng.unit() * 10 }
    let shifted = a.map { $0 + 2 }
    #expect(SampleStatistics.mannWhitneyP(a, shifted) < 1e-6)
    #expect(SampleStatistics.mannWhitneyP(a, sameDistribution) > 0.01)
  }
}

/// A run result with given samples and counters.
func syntheticResult(
  strategy: StrategyKind = .coalesced, samples: [Double],
  counters: [String: Double] = ["layoutSubviews": 12],
  allocations: Double = 40, ticks: Int? = nil, rounds: [RunResult.RoundSummary]? = nil
) -> RunResult {
  let stats = TickStatistics(samples: samples)
  let assessment = FrameBudget(hz: 60).assess(samples)
  var result = RunResult(
    strategy: strategy, shape: .feed, size: 100, mutation: .text, perTick: 1, seed: 1, views: 1100,
    ticks: ticks ?? samples.count, warmupTicks: 10, tickNs: stats,
    overBudget: assessment.overBudget,
    missedFrames: assessment.missedFrames, overrunNs: .init(p50: 0, p99: 0),
    hitchMsPerS: assessment.hitchMsPerS, budgets: [], phasesNs: [:], counters: counters,
    allocations: .init(countPerTick: allocations, bytesPerTick: 1000), samplesNs: samples)
  result.rounds = rounds
  return result
}

/// Ten rounds around `center` ns, each off by up to `spread` either way (p99 1.5x p50).
func rounds(_ center: Double, spread: Double = 0.1, count: Int = 10, seed: UInt64) -> [RunResult
  .RoundSummary]
{
  var rng = SplitMix64(seed: seed)
  return (0..<count).map { _ in
    let p50 = center * (1 + spread * (2 * rng.unit() - 1))
    return RunResult.RoundSummary(
      p50Ns: p50, p99Ns: 1.5 * p50 * (1 + spread * (2 * rng.unit() - 1)), ticks: 60)
  }
}

func syntheticReport(_ results: [RunResult]) -> RunReport {
  RunReport(hz: 60, measurementOverheadNs: 200, environment: [:], results: results)
}

/// Tick costs around `center` ns with a realistic right skew.
func ticks(_ center: Double, count: Int = 120, seed: UInt64) -> [Double] {
  var rng = SplitMix64(seed: seed)
  return (0..<count).map { _ in center * (0.9 + 0.2 * rng.unit() + (rng.chance(0.05) ? 0.5 : 0)) }
}

@Suite struct ComparisonTests {
  let strategies: [StrategyKind] = [.coalesced, .eager, .bottomUp]
  /// Both sides in one time window (as `ab` measures them): no run-to-run allowance, so the
  /// round statistics alone decide.
  let window = Comparison.Settings(interleaved: true)

  func report(
    scale: Double = 1, seed: UInt64, spread: Double = 0.1, roundCount: Int = 10,
    counters: [String: Double] = ["layoutSubviews": 12]
  ) -> RunReport {
    syntheticReport(
      strategies.enumerated().map { i, name in
        let center = 1_000_000 * Double(i + 1) * scale
        return syntheticResult(
          strategy: name, samples: ticks(center, seed: seed &+ UInt64(i)), counters: counters,
          rounds: rounds(center, spread: spread, count: roundCount, seed: seed &+ 77 &+ UInt64(i)))
      })
  }

  @Test func sameDistributionIsNoChangeInAtLeast95PercentOfTries() {
    // Rounds spread +-10% around the same centre on both sides: Holm keeps the family-wise
    // false-alarm rate of the six time metrics under 5%, and the 10% threshold lowers it
    // further. 200 fixed seeds, so the count is deterministic.
    var alarms = 0
    for attempt in 0..<200 {
      let comparison = Comparison.compare(
        base: report(seed: 1000 + UInt64(attempt)), new: report(seed: 5000 + UInt64(attempt)),
        settings: window)
      if comparison.exitStatus != .success { alarms += 1 }
      #expect(
        comparison.noise.count == 3
          && comparison.noise.values.allSatisfy { $0 > 0 && $0 <= 0.2 * 1.1 / 0.9 })
    }
    #expect(alarms <= 10, "\(alarms) false alarms in 200")
    let text = Comparison.compare(base: report(seed: 1), new: report(seed: 2), settings: window)
      .render(markdown: false)
    #expect(text.contains("Holm") && text.contains("Run-to-run spread"))
  }

  @Test func verdictsAreSymmetric() {
    let slow = report(scale: 1.3, seed: 3)
    let fast = report(seed: 4)
    let forward = Comparison.compare(base: fast, new: slow, settings: window)
    let backward = Comparison.compare(base: slow, new: fast, settings: window)
    #expect(forward.exitStatus == .regression && backward.exitStatus == .improvement)
    let up = forward.rows.filter { $0.verdict == .regression }.map { "\($0.scenario) \($0.metric)" }
    let down = backward.rows.filter { $0.verdict == .improvement }.map {
      "\($0.scenario) \($0.metric)"
    }
    #expect(up == down && up.count == 6)
  }

  /// Every round's reference at `reference` ns, scaled by the same per-round factor as its
  /// times: a machine that is faster or slower during a round moves both alike.
  func withReference(_ report: RunReport, _ reference: Double) -> RunReport {
    var report = report
    for i in report.results.indices {
      let center = median(report.results[i].rounds!.map(\.p50Ns))
      report.results[i].rounds = report.results[i].rounds!.map { round in
        var round = round
        round.referenceNs = reference * round.p50Ns / center
        return round
      }
    }
    return report
  }

  @Test func aSlowerMachineIsNotSlowerCode() throws {
    // The new side ran while the machine was 30% slower: its times and its reference moved
    // together. Raw times call that a regression; times relative to the reference do not.
    let base = withReference(report(seed: 11), 20_000)
    let slowMachine = withReference(report(scale: 1.3, seed: 12), 26_000)
    let adjusted = Comparison.compare(base: base, new: slowMachine, settings: window)
    #expect(adjusted.exitStatus == .success, "\(adjusted.render(markdown: false))")
    let row = try #require(adjusted.rows.first { $0.metric == "p50" })
    let rawChange = try #require(row.rawChange)
    let machineChange = try #require(row.machineChange)
    #expect(abs(rawChange - 0.3) < 0.15 && abs(machineChange - 0.3) < 0.15)
    #expect(abs(row.change) < 0.1 && row.confidence.contains("speed-adjusted"))
    #expect(adjusted.render(markdown: false).contains("Speed-adjusted"))
    let raw = Comparison.compare(
      base: base, new: slowMachine, settings: .init(speedAdjusted: false, interleaved: true))
    #expect(raw.exitStatus == .regression && raw.rows.allSatisfy { $0.rawChange == nil })

    // Slower code on an unchanged machine is still a regression, on every time metric.
    let slowCode = withReference(report(scale: 1.3, seed: 12), 20_000)
    let code = Comparison.compare(base: base, new: slowCode, settings: window)
    #expect(
      code.exitStatus == .regression && code.regressions.count == 6,
      "\(code.render(markdown: false))")

    // A side without the reference (an older report) is judged on raw times.
    let old = Comparison.compare(base: report(seed: 11), new: slowMachine, settings: window)
    #expect(old.exitStatus == .regression && old.rows.allSatisfy { $0.rawChange == nil })
  }

  @Test func reportsFromDifferentMachinesAreNotComparedUnlessAllowed() {
    var base = report(seed: 1)
    var new = report(scale: 1.3, seed: 2)
    base.environment = ["cpuModel": "AMD EPYC", "cpus": "2", "build": "release", "host": "a"]
    new.environment = ["cpuModel": "Apple M2", "cpus": "2", "build": "release", "host": "b"]
    let refused = Comparison.compare(base: base, new: new)
    #expect(refused.exitStatus == .failure)
    #expect(refused.environmentMismatches == ["cpuModel: AMD EPYC (base) vs Apple M2 (new)"])
    #expect(refused.verdictLine.hasPrefix("NOT COMPARABLE"))
    let text = refused.render(markdown: false)
    #expect(text.contains("cpuModel: AMD EPYC (base) vs Apple M2 (new)"))
    #expect(!text.contains("metrics unchanged"), "no table beside a refusal")
    // Allowed: judged as usual (a 30% slowdown is a regression), the mismatch still shown.
    let allowed = Comparison.compare(
      base: base, new: new, settings: .init(allowEnvironmentMismatch: true, interleaved: true))
    #expect(allowed.exitStatus == .regression)
    #expect(allowed.render(markdown: true).contains("judged anyway"))
    // Another host of the same kind, or a key an older report lacks, is no mismatch.
    new.environment = ["cpuModel": "AMD EPYC", "build": "release", "host": "c"]
    #expect(Comparison.compare(base: base, new: new).environmentMismatches.isEmpty)
    #expect(Comparison.compare(base: base, new: new, settings: window).exitStatus == .regression)
  }

  /// jemalloc's huge-page setting changes the times of large trees by itself: two reports
  /// that name different settings are not compared, a report that names none (written
  /// before the setting was recorded) is.
  @Test func reportsWithDifferentHugePageSettingsAreNotCompared() {
    let machine = [
      "cpuModel": "AMD EPYC", "cpus": "2", "build": "release", "allocator": "jemalloc 5.3.0",
    ]
    var base = report(seed: 1)
    var new = report(seed: 2)
    base.environment = machine.merging(["hugePages": "always"]) { $1 }
    new.environment = machine.merging(["hugePages": "never"]) { $1 }
    let refused = Comparison.compare(base: base, new: new)
    #expect(refused.exitStatus == .failure)
    #expect(refused.environmentMismatches == ["hugePages: always (base) vs never (new)"])
    base.environment = machine
    #expect(Comparison.compare(base: base, new: new).environmentMismatches.isEmpty)
    new.environment = machine.merging(["hugePages": "always"]) { $1 }
    base.environment = new.environment
    #expect(Comparison.compare(base: base, new: new).environmentMismatches.isEmpty)
  }

  @Test func instructionsPerTickAreJudgedExactlyAgainstTheirThreshold() {
    func withInstructions(_ report: RunReport, _ count: Double?) -> RunReport {
      var report = report
      for i in report.results.indices { report.results[i].instructionsPerTick = count }
      return report
    }
    let base = withInstructions(report(seed: 1), 1_000_000)
    let same = report(seed: 1)
    func verdicts(_ new: RunReport) -> [Comparison.Verdict] {
      Comparison.compare(base: base, new: new).rows.filter { $0.metric == "instructions" }
        .map(\.verdict)
    }
    // Identical times, so only the instruction rows can move the verdict.
    #expect(verdicts(withInstructions(same, 1_020_000)) == [.regression, .regression, .regression])
    #expect(verdicts(withInstructions(same, 1_005_000)) == [.unchanged, .unchanged, .unchanged])
    #expect(
      verdicts(withInstructions(same, 970_000)) == [.improvement, .improvement, .improvement])
    #expect(
      Comparison.compare(base: base, new: withInstructions(same, 1_020_000)).exitStatus
        == .regression)
    #expect(
      Comparison.compare(base: base, new: withInstructions(same, 1_005_000)).exitStatus == .success)
    // Counted on one side only: shown, not judged.
    #expect(verdicts(same) == [.skipped, .skipped, .skipped])
    // A looser threshold lets +2% through.
    let loose = Comparison.compare(
      base: base, new: withInstructions(same, 1_020_000),
      settings: .init(thresholds: ["instructions": 0.05]))
    #expect(loose.exitStatus == .success)
  }

  @Test func theDeterministicGateLetsOnlyInstructionsAndCountersDecide() {
    func withInstructions(_ report: RunReport, _ count: Double) -> RunReport {
      var report = report
      for i in report.results.indices { report.results[i].instructionsPerTick = count }
      return report
    }
    let gate = Comparison.Settings(deterministicGate: true, interleaved: true)
    let base = withInstructions(report(seed: 1), 1_000_000)
    // 30% slower on the clock, same instructions: a regression by default, not at the gate.
    let slower = withInstructions(report(scale: 1.3, seed: 2), 1_000_000)
    #expect(Comparison.compare(base: base, new: slower, settings: window).exitStatus == .regression)
    let judged = Comparison.compare(base: base, new: slower, settings: gate)
    #expect(judged.exitStatus == .success)
    #expect(judged.verdictLine.contains("deterministic gate"))
    #expect(judged.rows.contains { $0.metric == "p50" && $0.verdict == .regression }, "still shown")
    // More instructions, or a changed counter, still fail it.
    #expect(
      Comparison.compare(base: base, new: withInstructions(slower, 1_030_000), settings: gate)
        .exitStatus == .regression)
    let moreWork = withInstructions(report(seed: 2, counters: ["layoutSubviews": 13]), 1_000_000)
    #expect(Comparison.compare(base: base, new: moreWork, settings: gate).exitStatus == .regression)
    // Too few rounds is no reason to withhold a deterministic verdict.
    let fewRounds = withInstructions(report(seed: 2, roundCount: 3), 1_000_000)
    #expect(Comparison.compare(base: base, new: fewRounds, settings: gate).exitStatus == .success)
  }

  @Test func tooFewRoundsIsInsufficientDataNeverAPass() {
    let comparison = Comparison.compare(
      base: report(seed: 1, roundCount: 3), new: report(seed: 2), settings: window)
    #expect(comparison.exitStatus == .failure)
    #expect(comparison.undecided.count == 6)
    #expect(comparison.verdictLine.hasPrefix("INSUFFICIENT DATA"))
    // Reports without rounds (one process) count as one round.
    var old = report(seed: 1)
    for i in old.results.indices { old.results[i].rounds = nil }
    #expect(Comparison.compare(base: old, new: old, settings: window).exitStatus == .failure)
  }

  @Test func nothingInCommonIsNotAPass() {
    var other = report(seed: 2)
    for i in other.results.indices { other.results[i].shape = .wide }
    let comparison = Comparison.compare(base: report(seed: 1), new: other)
    #expect(comparison.exitStatus == .failure)
    #expect(comparison.verdictLine.hasPrefix("NOTHING COMPARED"))
    #expect(comparison.unmatched.count == 6)
  }

  @Test func halvedBaselineTimesAreRegressionsOnEveryTimeMetric() {
    let base = report(scale: 0.5, seed: 1)
    let new = report(seed: 2)
    let comparison = Comparison.compare(base: base, new: new, settings: window)
    #expect(comparison.exitStatus == .regression)
    let time = comparison.rows.filter { $0.metric == "p50" || $0.metric == "p99" }
    #expect(time.count == 6 && time.allSatisfy { $0.verdict == .regression })
    #expect(comparison.rows.filter { $0.verdict == .regression }.count == 6)
  }

  @Test func doubledBaselineTimesAreImprovementsOnly() {
    let comparison = Comparison.compare(
      base: report(scale: 2, seed: 1), new: report(seed: 2), settings: window)
    #expect(comparison.exitStatus == .improvement)
    #expect(comparison.improvements.count == 6 && comparison.regressions.isEmpty)
  }

  @Test func aLoweredCounterIsExactlyOneRegressionWhateverTheTiming() {
    var base = report(seed: 1)
    base.results[1].counters["layoutSubviews"] = 11
    // The new side's timing is noisy and a little different: counters do not care.
    let comparison = Comparison.compare(base: base, new: report(scale: 1.03, seed: 9))
    #expect(comparison.exitStatus == .regression)
    #expect(comparison.regressions.count == 1)
    let row = comparison.regressions[0]
    #expect(
      row.metric == "layoutSubviews" && row.scenario.hasPrefix("eager/")
        && row.confidence == "exact")
  }

  @Test func countersOverDifferentTickCountsAreNotCompared() {
    let base = syntheticReport([
      syntheticResult(
        samples: ticks(1e6, count: 100, seed: 1), counters: ["solves": 1],
        rounds: rounds(1e6, seed: 1))
    ])
    let new = syntheticReport([
      syntheticResult(
        samples: ticks(1e6, count: 60, seed: 2), counters: ["solves": 2],
        rounds: rounds(1e6, seed: 2))
    ])
    let comparison = Comparison.compare(base: base, new: new)
    #expect(comparison.rows.first { $0.metric == "solves" }?.verdict == .skipped)
    #expect(comparison.exitStatus == .success)
  }

  @Test func smallChangesStayUnderTheThreshold() {
    let comparison = Comparison.compare(
      base: report(seed: 1, spread: 0.01), new: report(scale: 1.05, seed: 1, spread: 0.01),
      settings: window)
    // Same draws scaled by 5%: significant, but under the 10% default threshold...
    #expect(comparison.exitStatus == .success)
    // ...and over a 2% one.
    let strict = Comparison.compare(
      base: report(seed: 1, spread: 0.01), new: report(scale: 1.05, seed: 1, spread: 0.01),
      settings: .init(thresholds: ["p50": 0.02, "p99": 0.02], interleaved: true))
    #expect(strict.rows.filter { $0.verdict == .regression }.count == 6)
  }

  @Test func budgetCrossingsAreNamedFirst() {
    // Spikes of the base reach 12 ms, under the 16.67 ms budget; the new run's median is over.
    let base = syntheticReport([
      syntheticResult(samples: ticks(8e6, seed: 1), rounds: rounds(8e6, seed: 1))
    ])
    let new = syntheticReport([
      syntheticResult(samples: ticks(24e6, seed: 2), rounds: rounds(24e6, seed: 2))
    ])
    let comparison = Comparison.compare(base: base, new: new, settings: window)
    #expect(comparison.budgetCrossings.count == 2)  // p99 over the budget, hitch ratio worse
    #expect(comparison.exitStatus == .regression)
    // Between separate windows times are not judged, so neither are crossings (still shown).
    let separate = Comparison.compare(base: base, new: new)
    #expect(separate.exitStatus == .success && separate.budgetCrossings.count == 2)
    #expect(separate.render(markdown: false).contains("budget crossings:"))
    #expect(comparison.verdictLine.contains("2 budget crossings"))
    let text = comparison.render(markdown: true)
    let crossing = text.range(of: "Budget crossings")!.lowerBound
    let table = text.range(of: "| scenario |")!.lowerBound
    #expect(crossing < table)
  }

  @Test func resultsOnOneSideOnlyAreListed() {
    let base = report(seed: 1)
    var new = report(seed: 2)
    new.results.removeLast()
    let comparison = Comparison.compare(base: base, new: new)
    #expect(comparison.unmatched == ["bottom-up/feed100/textx1@1"])
  }
}

@Suite struct ReportFileTests {
  func withDirectory(_ body: (String) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reports-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try body(directory)
  }

  @Test func roundTripThroughABaselineStore() throws {
    try withDirectory { directory in
      let store = BaselineStore(directory: directory + "/baselines")
      let report = syntheticReport([syntheticResult(samples: ticks(1e6, seed: 1))])
      try store.save(report, as: "main")
      try store.save(report, as: "a-1.x")
      #expect(store.list() == ["a-1.x", "main"])
      let loaded = try store.load("main")
      #expect(loaded == report)
      try store.delete("a-1.x")
      #expect(store.list() == ["main"])
      #expect(throws: ReportFileError.self) { try store.delete("a-1.x") }
      #expect(throws: ReportFileError.self) { try store.save(report, as: "../escape") }
      #expect(throws: ReportFileError.self) { try store.load("missing") }
    }
  }

  @Test func badFilesAreClearErrorsAndAreNeverOverwritten() throws {
    try withDirectory { directory in
      let store = BaselineStore(directory: directory)
      let good = try ReportFile.encode(
        syntheticReport([syntheticResult(samples: ticks(1e6, seed: 1))]))
      let cases: [(String, String, String)] = [
        ("corrupt", "{not json", "not valid JSON"),
        ("truncated", String(good.prefix(good.count / 2)), "not valid JSON"),
        (
          "wrongschema",
          good.replacingOccurrences(of: "\"schemaVersion\":1", with: "\"schemaVersion\":7"),
          "schema version 7"
        ),
        (
          "nokey", good.replacingOccurrences(of: "\"budgetNs\"", with: "\"budget\""),
          "missing budgetNs"
        ),
        ("empty", "", "empty file"),
      ]
      for (name, text, expected) in cases {
        let path = store.path(of: name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
          try store.load(name)
        } throws: { error in
          let message = (error as? ReportFileError)?.description ?? ""
          return message.contains(path) && message.contains(expected)
        }
        // Reading never changes the file.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
      }
    }
  }

  /// Reports written before sweeps carried R² have no `p50FitR2` / `p99FitR2`: they still
  /// read, with no fit quality, and a report with it reads back what was written.
  @Test func aSweepWithoutFitQualityStillReads() throws {
    var report = syntheticReport([syntheticResult(samples: ticks(1e6, seed: 1))])
    report.sweeps = [
      SweepResult(
        strategy: .coalesced, shape: .feed, mutation: .text, sizes: [10, 100, 1000],
        p50Ns: [1e4, 1e5, 1e6], p99Ns: [2e4, 2e5, 2e6], p50Exponent: 1, p99Exponent: 1,
        largestSizeWithinBudget: 1000, p50FitR2: 0.998, p99FitR2: 0.97)
    ]
    let text = try ReportFile.encode(report)
    #expect(text.contains("\"p50FitR2\":0.998") && text.contains("\"p99FitR2\":0.97"))
    #expect(try ReportFile.decode(text, path: "new.json") == report)

    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    var sweeps = try #require(object["sweeps"] as? [[String: Any]])
    sweeps[0]["p50FitR2"] = nil
    sweeps[0]["p99FitR2"] = nil
    object["sweeps"] = sweeps
    let old = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    #expect(!old.contains("FitR2"))
    let decoded = try ReportFile.decode(old, path: "old.json")
    #expect(decoded.sweeps.count == 1)
    #expect(decoded.sweeps[0].p50FitR2 == nil && decoded.sweeps[0].p99FitR2 == nil)
    #expect(decoded.sweeps[0].p50Exponent == 1)
  }

  /// Reports that decode but would trap or run forever later (a live compare of `ticks: -5`
  /// crashed in the runner, `ticks: 0` in a statistic, `ticks: 1e15` never ended): refused
  /// when read, naming the JSON path and the value.
  @Test(arguments: [
    ("results[0].ticks = -5", "results[0].ticks is -5, not a whole number of at least 1"),
    ("results[0].ticks = 0", "results[0].ticks is 0, not a whole number of at least 1"),
    ("results[0].ticks = 1e15", "results[0].ticks is 1000000000000000, not 1 to 1000000"),
    ("results[0].seed = -1", "results[0].seed is -1, not a whole number of at least 0"),
    ("results[0].size = 100.5", "results[0].size is 100.5, not a whole number of at least 1"),
    ("results[0].size = -3", "results[0].size is -3"),
    ("hz = 500", "hz is 500, not 30 to 240"),
    ("hz = 0", "hz is 0, not a whole number of at least 1"),
    ("budgetNs = -1", "budgetNs is -1.0, not a positive finite number"),
    ("results[0].shape = 'circle'", "invalid value at results[0].shape: 'circle' is not one of"),
    ("results[0].strategy = 'lazy'", "invalid value at results[0].strategy: 'lazy' is not one of"),
    ("results = []", "results is empty"),
    ("results[0].samplesNs = []", "results[0].samplesNs is empty"),
    ("results[0].samplesNs[3] = -2", "results[0].samplesNs[3] is -2.0"),
    ("results[0].counters.layoutSubviews = -1", "results[0].counters.layoutSubviews is -1.0"),
    ("results[0].rounds[1].ticks = 0", "results[0].rounds[1].ticks is 0"),
  ])
  func reportsThatWouldTrapLaterAreRefusedWhenRead(edit: String, expected: String) throws {
    let report = syntheticReport([
      syntheticResult(samples: ticks(1e6, seed: 1), rounds: rounds(1e6, count: 3, seed: 2))
    ])
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(try ReportFile.encode(report).utf8))
        as? [String: Any])
    var results = try #require(object["results"] as? [[String: Any]])
    let value = String(
      edit.split(separator: "=", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces))
    let parsed: Any
    if value == "[]" {
      parsed = [Any]()
    } else if value.hasPrefix("'") {
      parsed = String(value.dropFirst().dropLast())
    } else {
      parsed = try #require(Double(value))
    }
    let key = String(edit.split(separator: "=")[0].trimmingCharacters(in: .whitespaces))
    switch key {
    case "hz", "budgetNs": object[key] = parsed
    case "results": results = []
    default:
      var field = String(key.dropFirst("results[0].".count))
      if let dot = field.firstIndex(of: "."), field.hasPrefix("counters") {
        var counters = try #require(results[0]["counters"] as? [String: Any])
        counters[String(field[field.index(after: dot)...])] = parsed
        results[0]["counters"] = counters
      } else if field.hasPrefix("rounds[1].") {
        var rounds = try #require(results[0]["rounds"] as? [[String: Any]])
        rounds[1][String(field.dropFirst("rounds[1].".count))] = parsed
        results[0]["rounds"] = rounds
      } else if field.hasPrefix("samplesNs[3]") {
        var samples = try #require(results[0]["samplesNs"] as? [Any])
        samples[3] = parsed
        results[0]["samplesNs"] = samples
      } else {
        field = field.replacingOccurrences(of: " ", with: "")
        results[0][field] = parsed
      }
    }
    if key != "hz" && key != "budgetNs" { object["results"] = results }
    let data = try JSONSerialization.data(withJSONObject: object)
    let error = #expect(throws: ReportFileError.self) {
      try ReportFile.decode(String(decoding: data, as: UTF8.self), path: "edited.json")
    }
    #expect(
      error?.description.hasPrefix("edited.json: \(expected)") == true,
      "\(String(describing: error))")
  }
}

/// The round-level tests: exact Mann-Whitney p-values and Holm's adjustment, against
/// values worked out by hand from the permutation distribution.
@Suite struct RoundStatisticsTests {
  @Test func exactMannWhitneyMatchesThePermutationDistribution() {
    // m = n = 3: C(6, 3) = 20 arrangements; U counts 1,1,2,3,3,3,3,2,1,1 for U = 0...9.
    #expect(abs(SampleStatistics.mannWhitneyExactP([1, 2, 3], [4, 5, 6]) - 2.0 / 20) < 1e-12)
    #expect(abs(SampleStatistics.mannWhitneyExactP([4, 5, 6], [1, 2, 3]) - 2.0 / 20) < 1e-12)
    // U = 3 (3 > 2, 5 > 2, 5 > 4): P(U <= 3) = 7 / 20, two-sided 0.7.
    #expect(abs(SampleStatistics.mannWhitneyExactP([1, 3, 5], [2, 4, 6]) - 0.7) < 1e-12)
    // m = n = 5, complete separation: 2 / C(10, 5) = 2 / 252.
    let low = [1.0, 2, 3, 4, 5]
    let high = [6.0, 7, 8, 9, 10]
    #expect(abs(SampleStatistics.mannWhitneyExactP(low, high) - 2.0 / 252) < 1e-12)
    // Unequal sizes, m = 2, n = 4, separated: 2 / C(6, 2) = 2 / 15.
    #expect(abs(SampleStatistics.mannWhitneyExactP([1, 2], [3, 4, 5, 6]) - 2.0 / 15) < 1e-12)
  }

  @Test func exactMannWhitneyFallsBackOnTies() {
    let a = [1.0, 2, 2, 3]
    let b = [2.0, 4, 5, 6]
    #expect(SampleStatistics.mannWhitneyExactP(a, b) == SampleStatistics.mannWhitneyP(a, b))
    #expect(SampleStatistics.mannWhitneyExactP([], [1]) == 1)
  }

  @Test func holmAdjustsStepDownAndKeepsTheOrder() {
    // Sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> 0.06
    // (monotone).
    let adjusted = SampleStatistics.holmAdjusted([0.01, 0.04, 0.03, 0.005])
    let expected = [0.03, 0.06, 0.06, 0.02]
    for (a, e) in zip(adjusted, expected) { #expect(abs(a - e) < 1e-12) }
    #expect(SampleStatistics.holmAdjusted([0.5, 0.9]) == [1, 1])
    #expect(SampleStatistics.holmAdjusted([]).isEmpty)
  }
}

/// Merging the reports of separate rounds.
@Suite struct RoundMergeTests {
  func round(_ center: Double, seed: UInt64, counters: [String: Double] = ["solves": 1])
    -> RunReport
  {
    syntheticReport([
      syntheticResult(
        strategy: .coalesced, samples: ticks(center, count: 50, seed: seed), counters: counters),
      syntheticResult(
        strategy: .eager, samples: ticks(2 * center, count: 50, seed: seed + 1),
        counters: counters),
    ])
  }

  @Test func roundsKeepTheirOwnStatisticsAndPoolTheirSamples() throws {
    let parts = [round(1e6, seed: 1), round(2e6, seed: 3), round(1.5e6, seed: 5)]
    let merged = try RunReport.mergingRounds(parts)
    #expect(merged.results.count == 2)
    let coalesced = merged.results[0]
    #expect(coalesced.samplesNs.count == 150 && coalesced.ticks == 50)
    #expect(coalesced.rounds?.map(\.p50Ns) == parts.map { $0.results[0].tickNs.p50 })
    #expect(coalesced.tickNs == TickStatistics(samples: coalesced.samplesNs))
  }

  @Test func roundsThatDidDifferentWorkAreRefused() {
    #expect(throws: RoundsError.self) {
      try RunReport.mergingRounds([
        round(1e6, seed: 1), round(1e6, seed: 2, counters: ["solves": 2]),
      ])
    }
    #expect(throws: RoundsError.self) { try RunReport.mergingRounds([]) }
  }
}

/// Separate time windows: the run-to-run allowance, and the calibration that measures it.
@Suite struct RunToRunTests {
  /// Rounds of `strategies` results at `center` x `scale`, with a tight round spread.
  func report(scale: Double, seed: UInt64, spread: Double = 0.02) -> RunReport {
    syntheticReport(
      StrategyKind.allCases.enumerated().map { i, name in
        let center = 1_000_000 * Double(i + 1) * scale
        return syntheticResult(
          strategy: name, samples: ticks(center, seed: seed &+ UInt64(i)),
          rounds: rounds(center, spread: spread, count: 10, seed: seed &+ 31 &+ UInt64(i)))
      })
  }

  @Test func separateRunsMustExceedTheRunToRunAllowance() throws {
    // 25% slower with rounds tight enough for any test: in one window (ab) that is a
    // regression; between separate runs the default allowance (10% run spread, so about
    // +53%) says it could be the machine; a calibration that measured 2% says it is not.
    let base = report(scale: 1, seed: 1)
    let slower = report(scale: 1.25, seed: 2)
    let window = Comparison.compare(base: base, new: slower, settings: .init(interleaved: true))
    #expect(window.exitStatus == .regression && window.regressions.count == 6)
    #expect(window.rows.allSatisfy { $0.runAllowance == nil })
    // Separate windows and no known spread: shown, not judged, and the output says so.
    let unknown = Comparison.compare(base: base, new: slower)
    #expect(unknown.exitStatus == .success && !unknown.timesJudged)
    #expect(unknown.rows.filter { $0.verdict == .notJudged }.count == 6)
    #expect(unknown.verdictLine.contains("times shown, not judged"))
    #expect(unknown.render(markdown: false).contains("`layout-bench ab OLD NEW`"))
    // An assumed spread of 10% allows about +53%: 25% could be the machine.
    let separate = Comparison.compare(
      base: base, new: slower, settings: .init(defaultRunSpread: ["p50": 0.10, "p99": 0.10]))
    #expect(separate.exitStatus == .success, "\(separate.render(markdown: false))")
    let row = try #require(separate.rows.first { $0.metric == "p50" })
    #expect(abs(try #require(row.runAllowance) - (exp(3 * 2.0.squareRoot() * 0.10) - 1)) < 1e-9)
    #expect(row.confidence.contains("run-to-run +-53%") && row.verdict == .unchanged)
    #expect(separate.render(markdown: false).contains("run-to-run allowance"))
    var calibrated = Comparison.Settings()
    calibrated.runSpread = Dictionary(
      uniqueKeysWithValues: base.results.flatMap { r in
        ["p50", "p99"].map { ("\(r.key) \($0)", 0.02) }
      })
    #expect(
      Comparison.compare(base: base, new: slower, settings: calibrated).regressions.count == 6)
    // Twice as slow is beyond that allowance.
    #expect(
      Comparison.compare(
        base: base, new: report(scale: 2, seed: 3),
        settings: .init(defaultRunSpread: ["p50": 0.10, "p99": 0.10])
      ).regressions.count == 6)
  }

  /// Runs of identical code whose medians land `offsets` apart (the machine in each window).
  func runs(_ offsets: [Double], spread: Double = 0.03) -> [RunReport] {
    offsets.enumerated().map { i, offset in
      report(scale: 1 + offset, seed: 100 + UInt64(i) * 7, spread: spread)
    }
  }

  @Test func calibrationMeasuresTheRunSpreadAndTheSmallestVisibleSlowdown() throws {
    let offsets = [0.0, 0.04, -0.04, 0.02, -0.02, 0.0]
    let calibration = try Calibration.measure(runs(offsets), settings: .init())
    #expect(calibration.runs == 6 && calibration.pairs == 15 && calibration.roundsPerRun == 10)
    #expect(calibration.falseRegressions == 0 && calibration.falseImprovements == 0)
    #expect(calibration.entries.count == 6)
    // The run medians' spread is that of the offsets (sample sd 2.97%), give or take the
    // rounds' own noise; p99 rounds carry a second +-3% factor.
    let p50 = try #require(
      calibration.entries.first { $0.scenario == "coalesced/feed100/textx1" && $0.metric == "p50" })
    #expect(abs(p50.runSpread - 0.0297) < 0.01, "\(p50.runSpread)")
    #expect(p50.roundSpread > 0.01 && p50.roundSpread < 0.03)
    // Detectable: beyond the allowance it implies (3 sqrt 2 x 3% = about 13%), and seen.
    let detectable = try #require(p50.detectable)
    #expect(detectable >= 0.1 && detectable <= 0.3, "\(detectable)")
    let text = calibration.render()
    #expect(text.contains("15 pairs") && text.contains("coalesced/feed100/textx1"))

    // A noisier machine sees less.
    let noisy = try Calibration.measure(runs(offsets.map { $0 * 4 }), settings: .init())
    let noisyP50 = try #require(
      noisy.entries.first { $0.scenario == p50.scenario && $0.metric == "p50" })
    #expect(noisyP50.detectable == nil || noisyP50.detectable! > detectable)

    // A comparison given the calibration uses its spreads and shows what it can see.
    var settings = Comparison.Settings()
    settings.calibration = calibration
    let compared = Comparison.compare(
      base: runs([0])[0], new: report(scale: 1.25, seed: 9), settings: settings)
    let row = try #require(
      compared.rows.first { $0.scenario == p50.scenario && $0.metric == "p50" })
    #expect(row.detectable == detectable && row.verdict == .regression)
    #expect(compared.render(markdown: false).contains("flagged 9 times in 10"))
  }

  @Test func calibrationRefusesWhatItCannotMeasure() {
    #expect(throws: CalibrationError.self) {
      try Calibration.measure(runs([0, 0.01]), settings: .init())
    }
    var other = runs([0, 0.01, 0.02])
    other[2].results.removeLast()
    #expect(throws: CalibrationError.self) { try Calibration.measure(other, settings: .init()) }
    var few = runs([0, 0.01, 0.02])
    for i in few.indices {
      for j in few[i].results.indices { few[i].results[j].rounds!.removeLast(6) }
    }
    #expect(throws: CalibrationError.self) { try Calibration.measure(few, settings: .init()) }
  }

  @Test func aBadCalibrationFileNamesTheField() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "calibration-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let calibration = try Calibration.measure(runs([0, 0.01, -0.01]), settings: .init())
    var object = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(calibration)) as? [String: Any])
    var entries = try #require(object["entries"] as? [[String: Any]])
    entries[1]["runSpread"] = -0.5
    object["entries"] = entries
    let path = directory.appendingPathComponent("c.json").path
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: ReportFileError.self) { try CalibrationFile.load(path) }
    #expect(
      error?.description.contains("entries[1].runSpread is -0.5") == true,
      "\(String(describing: error))")
    entries[1]["runSpread"] = "wide"
    object["entries"] = entries
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    let typed = #expect(throws: ReportFileError.self) { try CalibrationFile.load(path) }
    #expect(
      typed?.description.contains("entries[1].runSpread") == true, "\(String(describing: typed))")
  }
}

/// The one atomic writer: whole files or none, and no garbage left by killed writers.
@Suite struct AtomicFileTests {
  @Test func writesWholeFilesAndCleansUpAfterDeadWriters() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "atomic-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/report.json"
    try AtomicFile.write("first", to: path)
    try AtomicFile.write("second", to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["report.json"])
    // A writer killed mid-write leaves its temporary; a live process's one stays.
    let dead = directory + "/.base.json.tmp-2147483000"
    let live = directory + "/.other.json.tmp-\(ProcessInfo.processInfo.processIdentifier)"
    try Data("partial".utf8).write(to: URL(fileURLWithPath: dead))
    try Data("partial".utf8).write(to: URL(fileURLWithPath: live))
    AtomicFile.removeStaleTemporaries(in: directory)
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(FileManager.default.fileExists(atPath: live))
    // A write that cannot happen is an error naming the path; the old file stays.
    let error = #expect(throws: AtomicFile.Failure.self) {
      try AtomicFile.write("x", to: directory + "/missing/r.json")
    }
    #expect(
      error?.description.contains("missing/r.json: cannot write: No such file or directory") == true
    )
  }
}
