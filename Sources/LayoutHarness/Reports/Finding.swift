import BenchSupport

/// One line per scenario that says where each strategy wins and why, derived from the
/// measurements: eager against coalesced (solves, layout rounds, frames set again, time),
/// bottom-up against coalesced (no solver; time). Shown under the table in the terminal,
/// Markdown and HTML.
public struct Finding: Sendable, Equatable {
  public var scenario: String
  public var text: String

  /// Time ratios within this much of 1 read as "about the same": a single run's medians of
  /// identical work differ by this much on a shared machine.
  public static let sameTime = 0.15

  /// The findings of `report`, one per scenario that has coalesced and another strategy.
  public static func all(in report: RunReport) -> [Finding] {
    RunResult.byScenario(report.results).compactMap { key, results in
      func find(_ kind: StrategyKind) -> RunResult? { results.first { $0.strategy == kind } }
      guard let coalesced = find(.coalesced) else { return nil }
      var parts: [String] = []
      if let eager = find(.eager) { parts.append(eagerPart(eager, coalesced)) }
      if let bottomUp = find(.bottomUp) { parts.append(bottomUpPart(bottomUp, coalesced)) }
      guard !parts.isEmpty else { return nil }
      return Finding(scenario: key, text: parts.joined(separator: "; "))
    }
  }

  /// Whether slow ticks recur in `result`: over 5% of its ticks above 4x the median, as when
  /// a scrolling table reuses a cell every third tick. The median of such a scenario is its
  /// cheap ticks alone.
  static func slowTicksRecur(_ result: RunResult) -> Bool {
    let samples = result.samplesNs
    let p50 = result.tickNs.p50
    let slow = samples.reduce(0) { $1 > 4 * p50 ? $0 + 1 : $0 }
    return samples.count >= 20 && Double(slow) > 0.05 * Double(samples.count)
  }

  /// The mean tick without the top 1% (preemption); slowTicksRecur asks for 20 ticks.
  static func trimmedMeanNs(_ result: RunResult) -> Double {
    let kept = result.samplesNs.sorted().dropLast(max(1, result.samplesNs.count / 100))
    return kept.reduce(0, +) / Double(max(kept.count, 1))
  }

  /// The time ratio of `result` to `coalesced`: of medians, or of trimmed means when slow
  /// ticks recur in either (with the note that says so).
  static func timeRatio(_ result: RunResult, _ coalesced: RunResult) -> (Double, String) {
    // Both sides take the mean only when both have the ticks for it.
    let means =
      (slowTicksRecur(result) || slowTicksRecur(coalesced)) && result.samplesNs.count >= 20
      && coalesced.samplesNs.count >= 20
    let (a, b) =
      means
      ? (trimmedMeanNs(result), trimmedMeanNs(coalesced))
      : (result.tickNs.p50, coalesced.tickNs.p50)
    // A zero time (an empty tick under the clock's resolution) compares as the same.
    guard a > 0, b > 0 else { return (1, "") }
    return (a / b, means ? " (mean ticks: slow ticks recur)" : "")
  }

  static func counter(_ result: RunResult, _ name: String) -> Double {
    result.counters[name] ?? 0
  }

  static func ratioText(_ ratio: Double) -> String {
    NumberFormat.fixed(ratio, ratio >= 10 ? 0 : 1) + "x"
  }

  static func eagerPart(_ eager: RunResult, _ coalesced: RunResult) -> String {
    let (ratio, note) = timeRatio(eager, coalesced)
    let solves = (counter(eager, "solves"), counter(coalesced, "solves"))
    let rounds = (counter(eager, "layoutRounds"), counter(coalesced, "layoutRounds"))
    let again = counter(eager, "framesChangedAgain")
    var why =
      "\(NumberFormat.fixed(solves.0, 1)) solves and "
      + "\(NumberFormat.fixed(rounds.0, 1)) layout passes per tick against coalesced's "
      + "\(NumberFormat.fixed(solves.1, 1)) and \(NumberFormat.fixed(rounds.1, 1))"
    if again >= 0.05 {
      why += ", \(NumberFormat.fixed(again, again >= 10 ? 0 : 1)) frames set again"
    }
    if rounds.0 <= rounds.1 + 0.05 && solves.0 <= solves.1 + 0.05 {
      // One change per tick (or none): both lay out as often, so eager can only differ by
      // noise.
      let passes =
        rounds.1 == 1 ? "one layout pass" : "\(NumberFormat.fixed(rounds.1, 1)) layout passes"
      return "eager: the same work as coalesced (\(passes) per tick)"
        + (abs(ratio - 1) <= sameTime ? "" : ", \(ratioText(ratio)) its time (noise)\(note)")
    }
    if abs(ratio - 1) <= sameTime { return "eager: \(why), about the same time\(note)" }
    return "eager: \(why): \(ratioText(ratio)) the time of coalesced\(note)"
  }

  static func bottomUpPart(_ bottomUp: RunResult, _ coalesced: RunResult) -> String {
    let (ratio, note) = timeRatio(bottomUp, coalesced)
    let fits = NumberFormat.fixed(counter(bottomUp, "sizeThatFits"), 0)
    if abs(ratio - 1) <= sameTime {
      return "bottom-up: no solver (\(fits) sizeThatFits per tick), about the same time\(note)"
    }
    if ratio < 1 {
      return "bottom-up: no solver (\(fits) sizeThatFits per tick), "
        + "\(ratioText(1 / ratio)) faster than coalesced\(note)"
    }
    return "bottom-up: \(fits) sizeThatFits per tick, \(ratioText(ratio)) slower than coalesced"
      + note
  }
}

extension RunResult {
  /// `results` grouped by scenario (every strategy of it), scenarios in first-seen order.
  static func byScenario(_ results: [RunResult]) -> [(scenario: String, results: [RunResult])] {
    var groups: [(scenario: String, results: [RunResult])] = []
    var index: [String: Int] = [:]
    for result in results {
      if let i = index[result.scenarioKey] {
        groups[i].results.append(result)
      } else {
        index[result.scenarioKey] = groups.count
        groups.append((result.scenarioKey, [result]))
      }
    }
    return groups
  }
}
