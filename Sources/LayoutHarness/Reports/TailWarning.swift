import BenchSupport

/// A result whose worst ticks say more about the scheduler than about layout: on a
/// sub-millisecond scenario, a maximum many times the median is a preemption (a 25 us
/// scenario showed a 4 ms maximum), and its p99 and hitch figures inherit it.
public struct TailWarning: Sendable, Equatable {
  /// The scenario (every strategy of it shares the scheduler's interruptions).
  public var scenario: String
  public var text: String

  /// A maximum this many times the median is read as preemption...
  public static let maxOverMedian = 20.0
  /// ...on scenarios whose median tick is under this, and on slower ones when the run
  /// recorded involuntary context switches.
  public static let subMillisecondNs = 1_000_000.0

  /// Whether `result`'s tail looks like preemption: a maximum over ``maxOverMedian`` times
  /// the median, few such ticks (at most 2, or 1% of the ticks), and either a
  /// sub-millisecond median (a time slice lost is then many medians) or at least as many
  /// involuntary context switches recorded during the ticks as there are such ticks (a
  /// 4 ms tick of a 100,000-cell feed took 124 ms in a run that recorded 3 switches, with
  /// ticks of 82 and 36 ms beside it). Preemption strikes a tick here and there; slow
  /// ticks that recur (a table reusing a cell every third tick of a scroll) are the
  /// scenario's own work, however far above the median they are, and so is a slow
  /// scenario's long tail when nothing interrupted it.
  public static func flags(_ result: RunResult) -> Bool {
    let t = result.tickNs
    guard t.p50 > 0 && t.max > maxOverMedian * t.p50 else { return false }
    let threshold = maxOverMedian * t.p50
    let slow = result.samplesNs.reduce(0) { $1 > threshold ? $0 + 1 : $0 }
    guard slow <= max(2, result.samplesNs.count / 100) else { return false }
    return t.p50 < subMillisecondNs || (result.preemptions ?? 0) >= max(slow, 1)
  }

  /// One warning per scenario with a flagged result, naming each flagged strategy's
  /// maximum.
  public static func all(in report: RunReport) -> [TailWarning] {
    RunResult.byScenario(report.results.filter(flags)).map { scenario, results in
      let maxima = results.map { r in
        "\(r.strategy.rawValue) max \(NumberFormat.ms(r.tickNs.max)) ms "
          + "(\(NumberFormat.fixed(r.tickNs.max / r.tickNs.p50, 0))x its median)"
      }
      var text = maxima.joined(separator: ", ")
      if let switches = results.compactMap(\.preemptions).max(), switches > 0 {
        text +=
          "; \(switches) involuntary context switch\(switches == 1 ? "" : "es") during "
          + "the ticks"
      }
      text +=
        ": a tail of the scheduler (preemption), not of layout; the p99 and hitch "
        + "figures of these rows carry it"
      return TailWarning(scenario: scenario, text: text)
    }
  }
}
