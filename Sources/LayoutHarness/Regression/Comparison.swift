import BenchSupport

internal import Foundation

/// How two runs of the same scenarios differ, metric by metric, and how sure we are.
///
/// The unit of evidence for time is the round (a separate process, see `Rounds.swift`),
/// never the tick: ticks of one process share its luck, and a whole process runs 10-40%
/// faster or slower than the next on a shared machine. A time metric (p50, p99) changes
/// when the rounds' values of the two sides differ by an exact Mann-Whitney test whose
/// p-value, adjusted by Holm's method over every time metric of the comparison, is below
/// `alpha` (so the chance of any false alarm in the whole comparison is at most `alpha`),
/// and the ratio of the sides' medians passes the threshold (symmetrically: +10% one way
/// is the same evidence as -9.1% the other). With fewer than `minimumRounds` rounds on a
/// side a time metric is "insufficient data", never a silent pass. Deterministic counters
/// (work per tick, allocations per tick) are compared exactly.
public struct Comparison: Codable, Sendable {
  public enum Verdict: String, Codable, Sendable {
    case regression, improvement, unchanged
    /// Too few rounds on a side to judge a time metric.
    case insufficientData = "insufficient data"
    /// Not comparable (e.g. counters over different numbers of ticks).
    case skipped
    /// A time of two separate time windows with no measured run-to-run spread: shown, not
    /// judged (see ``Settings/runSpread``).
    case notJudged = "not judged"
  }

  public struct Row: Codable, Sendable {
    public var scenario: String
    public var metric: String
    public var old: Double
    public var new: Double
    /// Relative change, new / old - 1 (0 when old is 0 and new is 0).
    public var change: Double
    /// How sure: "p=0.0003 (Holm), 10 vs 10 rounds", "exact".
    public var confidence: String
    public var verdict: Verdict
    /// For a time metric judged relative to the machine-speed reference: the change of the
    /// raw times (``change`` is then the speed-adjusted change) and of the reference itself.
    public var rawChange: Double? = nil
    public var machineChange: Double? = nil
    /// For a time metric of sides measured in separate time windows: the change identical
    /// code can show between runs (``Settings/runAllowance``), which a verdict must exceed.
    public var runAllowance: Double? = nil
    /// The smallest slowdown of this result's metric that the calibration
    /// (``Comparison/Settings/calibration``) saw flagged 9 times in 10; nil when not
    /// calibrated or not detectable up to the ladder's top.
    public var detectable: Double? = nil
  }

  public struct Settings: Sendable {
    /// Relative threshold per time metric (`p50`, `p99`; default 10%) and for
    /// `instructions` per tick (default 1%: the count is deterministic).
    public var thresholds: [String: Double]
    /// The family-wise false-alarm rate of one comparison's time verdicts.
    public var alpha: Double
    /// Rounds a side needs for its time metrics to be judged.
    public var minimumRounds: Int
    /// Judge even when the two reports come from different machines or builds
    /// (``Comparison/comparabilityKeys``); the mismatch is still reported.
    public var allowEnvironmentMismatch: Bool
    /// Only deterministic metrics (instructions per tick, counters, allocations) decide the
    /// exit status; time verdicts and budget crossings are still computed and shown.
    public var deterministicGate: Bool
    /// Judge times relative to the machine-speed reference timed beside them
    /// (``SpeedReference``) when both sides recorded it in every round.
    public var speedAdjusted: Bool
    /// The two sides were measured in alternating rounds of one time window (`ab`), so
    /// whatever the machine did in that window fell on both: no run-to-run allowance.
    public var interleaved: Bool
    /// How far one run's median lands from the next run's on this machine, as a
    /// coefficient of variation, per result and metric (`calibrate` measures it; key
    /// "coalesced/feed300/textx1 p50"); results not listed use ``defaultRunSpread``.
    public var runSpread: [String: Double]
    /// The run spread assumed for results without a measured one (`compare --run-spread`).
    /// None by default: times of separate time windows are then shown, not judged. On the
    /// 2-core shared machines this tool was built on, identical code measured in separate
    /// runs (10 rounds each) differed by up to +60% at p50 and +150% at p99 when a whole
    /// 25-second window ran slow (2 of 15 disjoint pairs), so no fixed allowance is safe
    /// there; `calibrate` measures a machine, `ab` avoids the question.
    public var defaultRunSpread: [String: Double]
    /// A calibration of this machine (`layout-bench calibrate`): its run spreads replace
    /// ``runSpread`` and its detectable changes are shown beside the verdicts.
    public var calibration: Calibration? {
      didSet { runSpread = calibration?.runSpreads ?? [:] }
    }

    public init(
      thresholds: [String: Double] = [:], alpha: Double = 0.05, minimumRounds: Int = 5,
      allowEnvironmentMismatch: Bool = false, deterministicGate: Bool = false,
      speedAdjusted: Bool = true, interleaved: Bool = false, runSpread: [String: Double] = [:],
      defaultRunSpread: [String: Double] = [:]
    ) {
      self.thresholds = thresholds
      self.alpha = alpha
      self.minimumRounds = minimumRounds
      self.allowEnvironmentMismatch = allowEnvironmentMismatch
      self.deterministicGate = deterministicGate
      self.speedAdjusted = speedAdjusted
      self.interleaved = interleaved
      self.runSpread = runSpread
      self.defaultRunSpread = defaultRunSpread
    }

    /// The change that separate runs of identical code can show by themselves: three
    /// standard deviations of the difference of two runs (sqrt(2) x the run spread), as a
    /// log ratio; zero for interleaved sides; nil when the spread is unknown (not judged).
    func runAllowance(_ key: String, _ metric: String) -> Double? {
      guard !interleaved else { return 0 }
      guard let spread = runSpread["\(key) \(metric)"] ?? defaultRunSpread[metric] else {
        return nil
      }
      return 3 * 2.0.squareRoot() * spread
    }

    func threshold(_ metric: String) -> Double {
      thresholds[metric] ?? (metric == "instructions" ? 0.01 : 0.10)
    }
  }

  public var rows: [Row]
  /// Scenarios whose p99 newly exceeds the budget, or whose hitch verdict got worse. They
  /// count as regressions in the exit status.
  public var budgetCrossings: [String]
  /// Run-to-run spread per scenario: the larger side's (max - min) / median of its rounds'
  /// medians.
  public var noise: [String: Double]
  /// Results present on one side only.
  public var unmatched: [String]
  /// Where the two reports' machines or builds differ, one line per key
  /// ("cpuModel: A vs B"); see ``comparabilityKeys``.
  public var environmentMismatches: [String] = []
  /// Whether the comparison was judged despite ``environmentMismatches``.
  public var mismatchAllowed = false
  /// Whether a calibration supplied the run spreads and detectable changes.
  public var calibrated = false
  /// False when times of separate time windows were shown but not judged (no run spread).
  public var timesJudged = true

  /// The environment keys that must agree for times to be comparable: another CPU, core
  /// count, build configuration, compiler, allocator or allocator page setting (jemalloc's
  /// transparent huge pages) changes every time by itself. Keys missing from a report
  /// (written by an older version) are not held against it.
  public static let comparabilityKeys = [
    "cpuModel", "cpus", "build", "swift", "allocator", "hugePages",
  ]

  /// The comparability keys whose values differ between two reports' environments.
  public static func environmentMismatches(
    base: [String: String], new: [String: String]
  ) -> [String] {
    comparabilityKeys.compactMap { key in
      guard let a = base[key], let b = new[key], a != b else { return nil }
      return "\(key): \(a) (base) vs \(b) (new)"
    }
  }

  /// The reports cannot be judged against each other (and the mismatch was not allowed).
  public var notComparable: Bool { !environmentMismatches.isEmpty && !mismatchAllowed }

  /// Whether only deterministic metrics decide (``Settings/deterministicGate``).
  public var deterministicGate = false

  /// The rows that decide the exit status: all of them, or with the deterministic gate
  /// only those that are not times.
  var decisive: [Row] {
    deterministicGate ? rows.filter { !Self.timeMetrics.contains($0.metric) } : rows
  }
  public var regressions: [Row] { decisive.filter { $0.verdict == .regression } }
  public var improvements: [Row] { decisive.filter { $0.verdict == .improvement } }
  public var undecided: [Row] { decisive.filter { $0.verdict == .insufficientData } }
  /// Budget crossings that decide: none with the deterministic gate (they are times).
  /// Budget crossings that decide: none with the deterministic gate or when times were not
  /// judged (they are times).
  var decisiveCrossings: [String] { deterministicGate || !timesJudged ? [] : budgetCrossings }

  /// 2 a regression or a budget crossing; 1 nothing to judge (no result in common, or a
  /// time metric with too few rounds); 4 improvements only; 0 no significant change.
  public var exitStatus: ExitStatus {
    if notComparable { return .failure }
    if !regressions.isEmpty || !decisiveCrossings.isEmpty { return .regression }
    if decisive.isEmpty || !undecided.isEmpty { return .failure }
    if !improvements.isEmpty { return .improvement }
    return .success
  }

  /// The one-line verdict; it never contradicts the exit status.
  public var verdictLine: String {
    if deterministicGate { return verdict + " [deterministic gate: times shown, not judged]" }
    if !timesJudged {
      return verdict
        + " [times shown, not judged: separate time windows; `calibrate` (then "
        + "--calibration) or `ab` judges them]"
    }
    return verdict
  }

  private var verdict: String {
    if notComparable {
      return "NOT COMPARABLE (the reports come from different machines or builds; "
        + "--allow-environment-mismatch judges anyway)"
    }
    switch exitStatus {
    case .regression:
      var parts: [String] = []
      if !regressions.isEmpty {
        parts.append("\(regressions.count) metric\(regressions.count == 1 ? "" : "s")")
      }
      if !decisiveCrossings.isEmpty {
        parts.append(
          "\(decisiveCrossings.count) budget crossing\(decisiveCrossings.count == 1 ? "" : "s")")
      }
      return "REGRESSION (" + parts.joined(separator: ", ") + ")"
    case .failure where decisive.isEmpty:
      return "NOTHING COMPARED (no result in common)"
    case .failure:
      return "INSUFFICIENT DATA (\(undecided.count) time metrics with fewer rounds than needed)"
    case .improvement: return "improvements only (\(improvements.count))"
    case .success: return "no significant change"
    }
  }

  /// The metrics measured in time, judged over rounds: the median and p99 tick, and the
  /// cold layout (build + first layout).
  public static let timeMetrics = ["p50", "p99", "cold"]
  /// The time metrics whose changes decide a verdict (Holm's family).
  public static let judgedTimeMetrics = ["p50", "p99"]

  /// Each round's value of a time metric; nil when a round lacks it.
  static func values(of metric: String, in rounds: [RunResult.RoundSummary]) -> [Double]? {
    var values: [Double] = []
    for round in rounds {
      switch metric {
      case "p50": values.append(round.p50Ns)
      case "p99": values.append(round.p99Ns)
      default:
        guard let cold = round.coldNs else { return nil }
        values.append(cold)
      }
    }
    return values
  }

  /// Results that share a key and seed but not a scene: a scene file changed since the
  /// baseline (another hash), or a file's result against a built-in shape's. Such pairs are
  /// never compared (their keys do not match); a command refuses them with these reasons.
  public static func sceneChanges(base: RunReport, new: RunReport) -> [String] {
    var old: [String: SceneIdentity?] = [:]
    for result in base.results { old["\(result.key)@\(result.seed)"] = result.scene }
    var reasons: [String] = []
    for result in new.results {
      guard let before = old["\(result.key)@\(result.seed)"], before?.hash != result.scene?.hash
      else { continue }
      let reason: String
      switch (before, result.scene) {
      case (let a?, let b?):
        reason =
          "\(result.sceneName): the scene file changed since the baseline (hash \(a.hash), "
          + "now \(b.hash)): a changed scene is a different benchmark; save a new baseline"
      case (nil, _?):
        reason =
          "\(result.sceneName): the baseline measured a built-in shape of that name, this "
          + "run a scene file"
      default:
        reason =
          "\(result.sceneName): the baseline measured a scene file of that name, this run "
          + "a built-in shape"
      }
      if !reasons.contains(reason) { reasons.append(reason) }
    }
    return reasons
  }

  /// Compares `new` with `base`, result by result (matched on strategy, scenario and seed).
  public static func compare(
    base: RunReport, new: RunReport, settings: Settings = Settings()
  ) -> Comparison {
    func key(_ r: RunResult) -> String { r.matchKey }
    let oldByKey = Dictionary(base.results.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
    let newKeys = Set(new.results.map(key))
    var rows: [Row] = []
    var pValues: [(row: Int, p: Double)] = []
    var crossings: [String] = []
    var noise: [String: Double] = [:]
    var timesNotJudged = false
    var unmatched = base.results.map(key).filter { !newKeys.contains($0) }
    for result in new.results {
      guard let old = oldByKey[key(result)] else {
        unmatched.append(key(result))
        continue
      }
      let scenario = result.key
      let a = old.roundSummaries
      let b = result.roundSummaries
      // Times relative to the machine's speed in the same round, when both sides timed it.
      let oldSpeed = settings.speedAdjusted ? referenceTimes(a) : nil
      let newSpeed = oldSpeed == nil ? nil : referenceTimes(b)
      let adjusted = oldSpeed != nil && newSpeed != nil
      func judged(_ values: [Double], _ speed: [Double]?) -> [Double] {
        guard adjusted, let speed else { return values }
        return zip(values, speed).map { $0 / $1 }
      }
      noise[scenario] = max(
        spread(judged(a.map(\.p50Ns), oldSpeed)), spread(judged(b.map(\.p50Ns), newSpeed)))
      for metric in Self.timeMetrics {
        // Cold layout is judged only where every round of both sides measured it.
        guard let oldValues = Self.values(of: metric, in: a),
          let newValues = Self.values(of: metric, in: b)
        else { continue }
        let oldJudged = judged(oldValues, oldSpeed)
        let newJudged = judged(newValues, newSpeed)
        let oldMedian = median(oldValues)
        let newMedian = median(newValues)
        var row = Row(
          scenario: scenario, metric: metric, old: oldMedian, new: newMedian,
          change: relative(median(oldJudged), median(newJudged)), confidence: "",
          verdict: .unchanged)
        if adjusted, let oldSpeed, let newSpeed {
          row.rawChange = relative(oldMedian, newMedian)
          row.machineChange = relative(median(oldSpeed), median(newSpeed))
        }
        if let entry = settings.calibration?.entries.first(where: {
          $0.scenario == scenario && $0.metric == metric
        }) {
          row.detectable = entry.detectable
        }
        let rounds = "\(a.count) vs \(b.count) rounds" + (adjusted ? ", speed-adjusted" : "")
        if !Self.judgedTimeMetrics.contains(metric) {
          // Shown so a change is seen; not judged until its false-alarm rate is measured
          // (and kept out of Holm's family, which would cost the tick metrics power).
          row.verdict = .notJudged
          row.confidence = rounds + "; cold layout is shown, not judged"
        } else if settings.runAllowance(scenario, metric) == nil {
          row.verdict = .notJudged
          row.confidence = rounds + ", separate time windows"
          timesNotJudged = true
        } else if a.count < settings.minimumRounds || b.count < settings.minimumRounds {
          row.verdict = .insufficientData
          row.confidence = rounds + " (needs \(settings.minimumRounds) a side)"
        } else {
          pValues.append((rows.count, SampleStatistics.mannWhitneyExactP(oldJudged, newJudged)))
          row.confidence = rounds
        }
        rows.append(row)
      }
      rows += compareCounters(old, result, scenario)
      if let row = compareInstructions(old, result, scenario, settings) { rows.append(row) }
      if old.tickNs.p99 <= base.budgetNs && result.tickNs.p99 > new.budgetNs {
        crossings.append(
          "\(scenario): p99 \(NumberFormat.ms(old.tickNs.p99)) ms -> "
            + "\(NumberFormat.ms(result.tickNs.p99)) ms crosses the "
            + "\(NumberFormat.ms(new.budgetNs)) ms budget")
      }
      let before = HitchVerdict(hitchMsPerS: old.hitchMsPerS)
      let after = HitchVerdict(hitchMsPerS: result.hitchMsPerS)
      if after > before {
        crossings.append(
          "\(scenario): hitch ratio \(NumberFormat.fixed(old.hitchMsPerS, 1)) -> "
            + "\(NumberFormat.fixed(result.hitchMsPerS, 1)) ms/s "
            + "(\(before.rawValue) -> \(after.rawValue))")
      }
    }
    // Holm over the whole family of judged time metrics.
    let adjusted = SampleStatistics.holmAdjusted(pValues.map(\.p))
    for (i, entry) in pValues.enumerated() {
      let p = adjusted[i]
      var row = rows[entry.row]
      row.confidence = "p=\(pValue(p)) (Holm), " + row.confidence
      let allowance = settings.runAllowance(row.scenario, row.metric) ?? 0
      if allowance > 0 {
        row.runAllowance = expm1(allowance)
        row.confidence += ", run-to-run +-\(NumberFormat.fixed(expm1(allowance) * 100, 0))%"
      }
      let bound = max(log1p(settings.threshold(row.metric)), allowance)
      let logRatio = row.change.isFinite && row.change > -1 ? log1p(row.change) : 0
      if p < settings.alpha && abs(logRatio) > bound {
        row.verdict = logRatio > 0 ? .regression : .improvement
      }
      rows[entry.row] = row
    }
    var comparison = Comparison(
      rows: rows, budgetCrossings: crossings, noise: noise, unmatched: unmatched)
    comparison.environmentMismatches = environmentMismatches(
      base: base.environment, new: new.environment)
    comparison.mismatchAllowed = settings.allowEnvironmentMismatch
    comparison.deterministicGate = settings.deterministicGate
    comparison.calibrated = settings.calibration != nil
    comparison.timesJudged = !timesNotJudged
    return comparison
  }

  /// Instructions per tick, when either side counted them: deterministic, so judged by the
  /// threshold alone (symmetric in log ratio, like the times).
  private static func compareInstructions(
    _ old: RunResult, _ new: RunResult, _ scenario: String, _ settings: Settings
  ) -> Row? {
    guard old.instructionsPerTick != nil || new.instructionsPerTick != nil else { return nil }
    guard let a = old.instructionsPerTick, let b = new.instructionsPerTick else {
      return Row(
        scenario: scenario, metric: "instructions", old: old.instructionsPerTick ?? 0,
        new: new.instructionsPerTick ?? 0, change: 0, confidence: "counted on one side only",
        verdict: .skipped)
    }
    var row = Row(
      scenario: scenario, metric: "instructions", old: a, new: b, change: relative(a, b),
      confidence: "exact (callgrind)", verdict: .unchanged)
    let logRatio = a > 0 && b > 0 ? log(b / a) : 0
    if abs(logRatio) > log1p(settings.threshold("instructions")) {
      row.verdict = logRatio > 0 ? .regression : .improvement
    }
    return row
  }

  /// Every round's machine-speed reference, or nil when a round lacks one.
  private static func referenceTimes(_ rounds: [RunResult.RoundSummary]) -> [Double]? {
    let times = rounds.compactMap(\.referenceNs).filter { $0 > 0 && $0.isFinite }
    return times.count == rounds.count && !times.isEmpty ? times : nil
  }

  /// (max - min) / median: how far apart a side's rounds fell.
  private static func spread(_ values: [Double]) -> Double {
    guard values.count >= 2, let low = values.min(), let high = values.max() else { return 0 }
    let m = median(values)
    return m > 0 ? (high - low) / m : 0
  }

  private static func relative(_ old: Double, _ new: Double) -> Double {
    old == 0 ? (new == 0 ? 0 : .infinity) : new / old - 1
  }

  private static func compareCounters(_ old: RunResult, _ new: RunResult, _ scenario: String)
    -> [Row]
  {
    var pairs: [(String, Double, Double)] = []
    for name in old.counters.keys.sorted() {
      guard let value = new.counters[name] else { continue }
      pairs.append((name, old.counters[name]!, value))
    }
    if let a = old.allocations.countPerTick, let b = new.allocations.countPerTick {
      pairs.append(("allocations/tick", a, b))
    }
    let comparable = old.ticks == new.ticks && old.warmupTicks == new.warmupTicks
    return pairs.map { name, a, b in
      // Counters are averages over the same ticks of the same seeded workload: equal runs
      // give equal values, so any difference is real (round-off aside).
      let verdict: Verdict =
        !comparable
        ? .skipped
        : b > a + 1e-9 * max(1, abs(a))
          ? .regression
          : b < a - 1e-9 * max(1, abs(a)) ? .improvement : .unchanged
      return Row(
        scenario: scenario, metric: name, old: a, new: b, change: relative(a, b),
        confidence: comparable ? "exact" : "ticks differ", verdict: verdict)
    }
  }
}

func pValue(_ p: Double) -> String {
  p < 0.0001 ? "<0.0001" : NumberFormat.fixed(p, 4)
}

func signedMs(_ ns: Double) -> String { (ns >= 0 ? "+" : "-") + NumberFormat.ms(abs(ns)) }
