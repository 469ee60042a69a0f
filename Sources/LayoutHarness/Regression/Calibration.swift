import BenchSupport

internal import Foundation

/// What this machine's run-to-run noise does to `Comparison`: identical code measured in
/// several separate runs (each of several rounds), every pair of runs compared as an A/A
/// test, and, per scenario and time metric, the smallest slowdown the comparison flags.
///
/// The smallest detectable change is measured, not modelled: for every pair of runs (A, B)
/// and every step of a ladder of slowdowns d, B's rounds of one result are made d slower
/// (its reference untouched: the code got slower, not the machine) and compared with A
/// under the same settings as `compare`, the other results unchanged, so the slowed result
/// must pass Holm's first step on its own. The smallest d flagged in at least
/// ``Calibration/detectionRate`` of the pairs is that result's detectable change. It uses the
/// noise of this machine as it was during calibration: a noisier hour sees less.
public struct Calibration: Codable, Sendable {
  public struct Entry: Codable, Sendable {
    /// Result key (`coalesced/feed300/textx1`) and metric (`p50`, `p99`).
    public var scenario: String
    public var metric: String
    /// Median, over runs, of the coefficient of variation of one run's judged round values.
    public var roundSpread: Double
    /// Coefficient of variation of the runs' medians: how far one run lands from the next.
    public var runSpread: Double
    /// The smallest slowdown of the ladder flagged as a regression in at least
    /// ``Calibration/detectionRate`` of the pairs; nil when none up to the ladder's top.
    public var detectable: Double?
  }

  /// The share of pairs that must flag a slowdown for it to count as detectable.
  public static let detectionRate = 0.9
  /// The slowdowns tried (relative: 0.05 is 5% slower).
  public static let ladder = [0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0]

  public var runs: Int
  public var roundsPerRun: Int
  /// Pairs of runs compared (every pair once, in run order: earlier as base).
  public var pairs: Int
  /// Pairs whose time verdicts alone would fail a CI gate (exit 2) / report improvements
  /// only (exit 4). Identical code: every one is a false alarm.
  public var falseRegressions: Int
  public var falseImprovements: Int
  public var speedAdjusted: Bool
  public var thresholds: [String: Double]
  public var environment: [String: String]
  public var entries: [Entry]

  /// Calibrates from separate runs of identical code (at least 3, with rounds recorded).
  public static func measure(
    _ reports: [RunReport], settings: Comparison.Settings
  ) throws(CalibrationError) -> Calibration {
    guard reports.count >= 3 else { throw .tooFewRuns(reports.count) }
    var settings = settings
    // Time verdicts are what is calibrated, whatever gate the caller uses.
    settings.deterministicGate = false
    let keys = reports[0].results.map(\.key)
    for (i, report) in reports.enumerated() where report.results.map(\.key) != keys {
      throw .mismatch("run \(i + 1) has other results than run 1")
    }
    let roundsPerRun = reports.map { $0.results.first?.roundSummaries.count ?? 0 }.min() ?? 0
    guard roundsPerRun >= settings.minimumRounds else {
      throw .tooFewRounds(roundsPerRun, needed: settings.minimumRounds)
    }
    var pairs: [(RunReport, RunReport)] = []
    for i in reports.indices {
      for j in reports.indices where j > i { pairs.append((reports[i], reports[j])) }
    }

    // First how far runs land apart, which the verdicts below then allow for.
    var spreads: [(roundSpread: Double, runSpread: Double)] = []
    for index in keys.indices {
      for metric in ["p50", "p99"] {
        let perRun = reports.map { judgedValues($0.results[index], metric, settings.speedAdjusted) }
        let runSpread = coefficientOfVariation(perRun.map(median))
        spreads.append((median(perRun.map(coefficientOfVariation)), runSpread))
        settings.runSpread["\(keys[index]) \(metric)"] = runSpread
      }
    }

    var falseRegressions = 0
    var falseImprovements = 0
    for (a, b) in pairs {
      let verdict = timeOnly(Comparison.compare(base: a, new: b, settings: settings))
      if verdict == 2 { falseRegressions += 1 } else if verdict == 4 { falseImprovements += 1 }
    }

    var entries: [Entry] = []
    for (index, key) in keys.enumerated() {
      for metric in ["p50", "p99"] {
        let (roundSpread, runSpread) = spreads[entries.count]
        var detectable: Double?
        for slowdown in ladder {
          var flagged = 0
          for (a, b) in pairs {
            var slower = b
            slower.results[index].rounds = b.results[index].roundSummaries.map { round in
              var round = round
              round.p50Ns *= 1 + slowdown
              round.p99Ns *= 1 + slowdown
              return round
            }
            let comparison = Comparison.compare(base: a, new: slower, settings: settings)
            if comparison.rows.contains(where: {
              $0.scenario == key && $0.metric == metric && $0.verdict == .regression
            }) {
              flagged += 1
            }
          }
          if Double(flagged) >= detectionRate * Double(pairs.count) {
            detectable = slowdown
            break
          }
        }
        entries.append(
          Entry(
            scenario: key, metric: metric, roundSpread: roundSpread, runSpread: runSpread,
            detectable: detectable))
      }
    }
    return Calibration(
      runs: reports.count, roundsPerRun: roundsPerRun, pairs: pairs.count,
      falseRegressions: falseRegressions, falseImprovements: falseImprovements,
      speedAdjusted: settings.speedAdjusted, thresholds: settings.thresholds,
      environment: reports[0].environment, entries: entries)
  }

  /// The exit status the time verdicts alone give (counters of identical code agree).
  private static func timeOnly(_ comparison: Comparison) -> Int32 {
    let times = comparison.rows.filter { $0.metric == "p50" || $0.metric == "p99" }
    if times.contains(where: { $0.verdict == .regression }) { return 2 }
    if times.contains(where: { $0.verdict == .improvement }) { return 4 }
    return 0
  }

  /// One run's round values of a metric, divided by the round's reference when judged so.
  static func judgedValues(_ result: RunResult, _ metric: String, _ speedAdjusted: Bool) -> [Double]
  {
    result.roundSummaries.map { round in
      let value = metric == "p50" ? round.p50Ns : round.p99Ns
      guard speedAdjusted, let reference = round.referenceNs, reference > 0 else { return value }
      return value / reference
    }
  }

  /// The run spreads, keyed as ``Comparison/Settings/runSpread`` wants them.
  public var runSpreads: [String: Double] {
    Dictionary(
      entries.map { ("\($0.scenario) \($0.metric)", $0.runSpread) }, uniquingKeysWith: { a, _ in a }
    )
  }
}

public enum CalibrationError: Error, CustomStringConvertible, Sendable {
  case tooFewRuns(Int)
  case tooFewRounds(Int, needed: Int)
  case mismatch(String)

  public var description: String {
    switch self {
    case .tooFewRuns(let n): "calibration needs at least 3 runs (got \(n))"
    case .tooFewRounds(let n, let needed): "calibration needs \(needed) rounds a run (got \(n))"
    case .mismatch(let what): "the runs do not match: \(what)"
    }
  }
}

extension Calibration {
  /// The calibration for a terminal: the A/A outcome, then one row per result and metric.
  public func render() -> String {
    var lines: [String] = []
    let threshold = thresholds["p50"].map { NumberFormat.fixed($0 * 100, 1) + "%" } ?? "default"
    lines.append(
      "calibration: \(runs) runs of identical code, \(roundsPerRun) rounds each, \(pairs) pairs "
        + "compared (\(speedAdjusted ? "speed-adjusted" : "raw") times, threshold \(threshold))")
    lines.append(
      "A/A false alarms: \(falseRegressions) regression\(falseRegressions == 1 ? "" : "s") and "
        + "\(falseImprovements) improvement\(falseImprovements == 1 ? "" : "s") in \(pairs) pairs "
        + "(pairs share runs, so they are not independent trials)")
    lines.append("")
    let header = ["result", "metric", "round spread", "run spread", "detectable"]
    let cells = entries.map { entry -> [String] in
      [
        entry.scenario, entry.metric, NumberFormat.fixed(entry.roundSpread * 100, 1) + "%",
        NumberFormat.fixed(entry.runSpread * 100, 1) + "%",
        entry.detectable.map { "+" + NumberFormat.fixed($0 * 100, 1) + "%" }
          ?? "> +\(NumberFormat.fixed(Self.ladder.last! * 100, 0))%",
      ]
    }
    var widths = header.map(\.count)
    for row in cells {
      for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
    }
    for row in [header] + cells {
      lines.append(
        row.enumerated().map { i, cell in
          let pad = String(repeating: " ", count: widths[i] - cell.count)
          return i >= 2 ? pad + cell : cell + pad
        }.joined(separator: "  "))
    }
    lines.append("")
    lines.append(
      "round spread: coefficient of variation of one run's rounds; run spread: that of the runs' "
        + "medians; detectable: the smallest slowdown of one result flagged as a regression in "
        + "\(Int(Self.detectionRate * 100))% of the pairs.")
    return lines.joined(separator: "\n") + "\n"
  }
}

/// Reading a calibration written by `calibrate --json`.
public enum CalibrationFile {
  public static func load(_ path: String) throws(ReportFileError) -> Calibration {
    let data = try ReportFile.readRegularFile(path)
    let calibration = try ReportFile.decodeJSON(
      Calibration.self, from: data, path: path, what: "a calibration")
    for (i, entry) in calibration.entries.enumerated() {
      for (name, value) in [("roundSpread", entry.roundSpread), ("runSpread", entry.runSpread)]
      where !(value.isFinite && value >= 0 && value < 10) {
        throw ReportFileError(
          path: path, reason: "entries[\(i)].\(name) is \(value), not a spread from 0 to 10")
      }
      if let d = entry.detectable, !(d.isFinite && d > 0) {
        throw ReportFileError(
          path: path, reason: "entries[\(i)].detectable is \(d), not a positive change")
      }
    }
    return calibration
  }
}
