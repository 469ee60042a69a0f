/// How two runs of the same scenarios differ, metric by metric, and how sure we are.
///
/// Time metrics need three things to count as a change: a significant difference (p50: a
/// Mann-Whitney test on the per-tick samples; p99: a bootstrap confidence interval of the
/// difference that excludes zero), a relative change beyond the metric's threshold, and a
/// change beyond the noise measured on the samples themselves. Deterministic counters
/// (work per tick, allocations per tick) are compared exactly.
public struct Comparison: Codable, Sendable {
  public enum Verdict: String, Codable, Sendable {
    case regression, improvement, unchanged
    /// Significant and beyond the threshold, but within the measured noise.
    case withinNoise = "within noise"
    /// Not comparable (e.g. counters over different numbers of ticks).
    case skipped
  }

  public struct Row: Codable, Sendable {
    public var scenario: String
    public var metric: String
    public var old: Double
    public var new: Double
    /// Relative change, new / old - 1 (0 when old is 0 and new is 0).
    public var change: Double
    /// How sure: "p=0.0003", "95% CI +1.2..+3.4 ms", "exact".
    public var confidence: String
    public var verdict: Verdict
  }

  public struct Settings: Sendable {
    /// Relative threshold per time metric (`p50`, `p99`); default 10%.
    public var thresholds: [String: Double]
    public var alpha: Double

    public init(thresholds: [String: Double] = [:], alpha: Double = 0.01) {
      self.thresholds = thresholds
      self.alpha = alpha
    }

    func threshold(_ metric: String) -> Double { thresholds[metric] ?? 0.10 }
  }

  public var rows: [Row]
  /// Scenarios whose p99 newly exceeds the budget, or whose hitch verdict got worse.
  public var budgetCrossings: [String]
  /// Relative noise measured per scenario (the larger side's median bootstrap half-width,
  /// and the spread between repeated runs when there were several).
  public var noise: [String: Double]
  /// Results present on one side only.
  public var unmatched: [String]

  public var regressions: [Row] { rows.filter { $0.verdict == .regression } }
  public var improvements: [Row] { rows.filter { $0.verdict == .improvement } }

  /// 0 no significant change, 2 a regression, 4 improvements only (package-benchmark's codes).
  public var exitCode: Int32 {
    if !regressions.isEmpty { return 2 }
    if !improvements.isEmpty { return 4 }
    return 0
  }

  /// Compares `new` with `base`, result by result (matched on strategy, scenario and seed).
  /// `repeatNoise` adds a measured run-to-run spread per scenario key.
  /// `repeats` are the separate runs pooled into `new` (live comparisons): a time change
  /// counts only if every repeat shows it beyond the threshold, in the same direction, so
  /// one run slowed by a noisy neighbour cannot raise an alarm.
  public static func compare(
    base: RunReport, new: RunReport, settings: Settings = Settings(),
    repeatNoise: [String: Double] = [:], repeats: [RunReport] = []
  ) -> Comparison {
    func key(_ r: RunResult) -> String { "\(r.key)@\(r.seed)" }
    let oldByKey = Dictionary(base.results.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
    let newKeys = Set(new.results.map(key))
    var rows: [Row] = []
    var crossings: [String] = []
    var noise: [String: Double] = [:]
    var unmatched = base.results.map(key).filter { !newKeys.contains($0) }
    for result in new.results {
      guard let old = oldByKey[key(result)] else {
        unmatched.append(key(result))
        continue
      }
      let scenario = result.key
      let measured = max(
        SampleStatistics.medianNoise(old.samplesNs), SampleStatistics.medianNoise(result.samplesNs),
        repeatNoise[scenario] ?? 0)
      noise[scenario] = measured
      var median = compareMedian(old, result, scenario, measured, settings)
      var tail = compareP99(old, result, scenario, measured, settings)
      let perRepeat = repeats.compactMap { report in report.results.first { key($0) == key(result) } }
      if !perRepeat.isEmpty {
        median.verdict = confirm(median, perRepeat.map { relative(old.tickNs.p50, $0.tickNs.p50) }, settings)
        tail.verdict = confirm(tail, perRepeat.map { relative(old.tickNs.p99, $0.tickNs.p99) }, settings)
      }
      rows.append(median)
      rows.append(tail)
      rows += compareCounters(old, result, scenario)
      if old.tickNs.p99 <= base.budgetNs && result.tickNs.p99 > new.budgetNs {
        crossings.append(
          "\(scenario): p99 \(ms(old.tickNs.p99)) ms -> \(ms(result.tickNs.p99)) ms crosses the "
            + "\(ms(new.budgetNs)) ms budget")
      }
      let before = HitchVerdict(hitchMsPerS: old.hitchMsPerS)
      let after = HitchVerdict(hitchMsPerS: result.hitchMsPerS)
      if after > before {
        crossings.append(
          "\(scenario): hitch ratio \(fixed(old.hitchMsPerS, 1)) -> \(fixed(result.hitchMsPerS, 1)) "
            + "ms/s (\(before.rawValue) -> \(after.rawValue))")
      }
    }
    return Comparison(rows: rows, budgetCrossings: crossings, noise: noise, unmatched: unmatched)
  }

  /// A pooled change stands only if each repeat's own change passes the threshold the same
  /// way; otherwise the runs disagree and the change is noise.
  private static func confirm(_ row: Row, _ changes: [Double], _ settings: Settings) -> Verdict {
    guard row.verdict == .regression || row.verdict == .improvement else { return row.verdict }
    let threshold = settings.threshold(row.metric)
    let agree = changes.allSatisfy {
      row.verdict == .regression ? $0 > threshold : $0 < -threshold
    }
    return agree ? row.verdict : .withinNoise
  }

  private static func relative(_ old: Double, _ new: Double) -> Double {
    old == 0 ? (new == 0 ? 0 : .infinity) : new / old - 1
  }

  private static func judge(change: Double, significant: Bool, threshold: Double, noise: Double)
    -> Verdict
  {
    guard significant, abs(change) > threshold else { return .unchanged }
    guard abs(change) > noise else { return .withinNoise }
    return change > 0 ? .regression : .improvement
  }

  private static func compareMedian(
    _ old: RunResult, _ new: RunResult, _ scenario: String, _ noise: Double, _ settings: Settings
  ) -> Row {
    let change = relative(old.tickNs.p50, new.tickNs.p50)
    let hasSamples = !old.samplesNs.isEmpty && !new.samplesNs.isEmpty
    let p = hasSamples ? SampleStatistics.mannWhitneyP(old.samplesNs, new.samplesNs) : 1
    return Row(
      scenario: scenario, metric: "p50", old: old.tickNs.p50, new: new.tickNs.p50, change: change,
      confidence: hasSamples ? "p=\(pValue(p))" : "no samples",
      verdict: judge(change: change, significant: p < settings.alpha, threshold: settings.threshold("p50"), noise: noise))
  }

  private static func compareP99(
    _ old: RunResult, _ new: RunResult, _ scenario: String, _ noise: Double, _ settings: Settings
  ) -> Row {
    let change = relative(old.tickNs.p99, new.tickNs.p99)
    guard !old.samplesNs.isEmpty, !new.samplesNs.isEmpty else {
      return Row(
        scenario: scenario, metric: "p99", old: old.tickNs.p99, new: new.tickNs.p99, change: change,
        confidence: "no samples", verdict: .unchanged)
    }
    let ci = SampleStatistics.bootstrapDifference(
      old.samplesNs, new.samplesNs, quantile: 0.99, confidence: 1 - settings.alpha)
    // A tail quantile of a hundred ticks is nearly the maximum, so one stray spike moves it:
    // only a difference whose whole interval lies beyond the threshold counts, and the
    // bootstrap spread of either side's p99 is the noise floor.
    let band = settings.threshold("p99") * old.tickNs.p99
    let significant = ci.low > band || ci.high < -band
    let tailNoise = max(
      noise, SampleStatistics.quantileNoise(old.samplesNs, 0.99),
      SampleStatistics.quantileNoise(new.samplesNs, 0.99))
    let level = Int(((1 - settings.alpha) * 100).rounded())
    return Row(
      scenario: scenario, metric: "p99", old: old.tickNs.p99, new: new.tickNs.p99, change: change,
      confidence: "\(level)% CI \(signedMs(ci.low))..\(signedMs(ci.high)) ms",
      verdict: judge(change: change, significant: significant, threshold: settings.threshold("p99"), noise: tailNoise))
  }

  private static func compareCounters(_ old: RunResult, _ new: RunResult, _ scenario: String) -> [Row] {
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
        !comparable ? .skipped : b > a + 1e-9 * max(1, abs(a)) ? .regression
        : b < a - 1e-9 * max(1, abs(a)) ? .improvement : .unchanged
      return Row(
        scenario: scenario, metric: name, old: a, new: b, change: relative(a, b),
        confidence: comparable ? "exact" : "ticks differ", verdict: verdict)
    }
  }
}

extension SampleStatistics {
  /// The relative half-width of a bootstrap interval of one sample's `q` quantile.
  public static func quantileNoise(_ samples: [Double], _ q: Double) -> Double {
    guard samples.count >= 2 else { return 0 }
    let value = percentile(samples.sorted(), q)
    guard value > 0 else { return 0 }
    let ci = bootstrapDifference([value], samples, quantile: q, resamples: 500, seed: 0x99)
    return max(abs(ci.low), abs(ci.high)) / value
  }
}

func pValue(_ p: Double) -> String {
  p < 0.0001 ? "<0.0001" : fixed(p, 4)
}

func signedMs(_ ns: Double) -> String { (ns >= 0 ? "+" : "-") + ms(abs(ns)) }
