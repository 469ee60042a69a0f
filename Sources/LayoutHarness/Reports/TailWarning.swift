import BenchSupport

/// A result whose worst ticks say more about the scheduler than about layout: on a
/// sub-millisecond scenario, a maximum many times the median is a preemption (a 25 us
/// scenario showed a 4 ms maximum), and its p99 and hitch figures inherit it.
public struct TailWarning: Sendable, Equatable {
  public var key: String
  public var text: String

  /// A maximum this many times the median is read as preemption...
  public static let maxOverMedian = 20.0
  /// ...on scenarios whose median tick is under this.
  public static let subMillisecondNs = 1_000_000.0

  public init?(_ result: RunResult) {
    let t = result.tickNs
    guard t.p50 > 0, t.p50 < Self.subMillisecondNs, t.max > Self.maxOverMedian * t.p50 else {
      return nil
    }
    key = result.key
    var text =
      "max \(NumberFormat.ms(t.max)) ms is \(NumberFormat.fixed(t.max / t.p50, 0))x "
      + "the median"
    if let switches = result.preemptions, switches > 0 {
      text +=
        ", with \(switches) involuntary context switch\(switches == 1 ? "" : "es") "
        + "during the ticks"
    }
    text +=
      ": the tail is the scheduler's (preemption), not layout's; p99 and hitch "
      + "figures of this row carry it"
    self.text = text
  }

  /// The warnings of every result of `report`.
  public static func all(in report: RunReport) -> [TailWarning] {
    report.results.compactMap(TailWarning.init)
  }
}
