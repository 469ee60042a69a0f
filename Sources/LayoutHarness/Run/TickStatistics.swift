import BenchSupport

/// Summary statistics of per-tick costs, in nanoseconds.
public struct TickStatistics: Codable, Hashable, Sendable {
  public var min: Double
  public var p50: Double
  public var p90: Double
  public var p99: Double
  public var max: Double
  public var mean: Double

  public init(min: Double, p50: Double, p90: Double, p99: Double, max: Double, mean: Double) {
    self.min = min
    self.p50 = p50
    self.p90 = p90
    self.p99 = p99
    self.max = max
    self.mean = mean
  }

  /// Percentiles by linear interpolation between closest ranks (the definition of NumPy's
  /// default and of R's type 7), so small samples give stable, comparable values.
  public init(samples: [Double]) {
    precondition(!samples.isEmpty, "statistics of an empty sample")
    let sorted = samples.sorted()
    self.init(
      min: sorted[0], p50: percentile(sorted, 0.50), p90: percentile(sorted, 0.90),
      p99: percentile(sorted, 0.99), max: sorted[sorted.count - 1],
      mean: sorted.reduce(0, +) / Double(sorted.count))
  }
}

/// A display refresh rate and the frame budget it gives each tick.
public struct FrameBudget: Codable, Hashable, Sendable {
  public var hz: Int

  public init(hz: Int) { self.hz = hz }

  public var nanoseconds: Double { 1e9 / Double(hz) }

  /// The refresh rates a run may be judged at: from 30 Hz (a throttled or low-power display)
  /// to 240 Hz (the fastest gaming panels).
  public static let supportedHz = 30...240
  /// Rates every result is also assessed at, beside its run's own: the common panels.
  public static let namedHz = [60, 90, 120, 144]

  /// Assessments of `samples` at the named rates and at `hz`, in ascending rate.
  public static func assessments(_ samples: [Double], hz: Int) -> [BudgetAssessment] {
    Set(namedHz + [hz]).sorted().map { FrameBudget(hz: $0).assess(samples) }
  }

  /// How a run of ticks fares against this budget.
  public func assess(_ samples: [Double]) -> BudgetAssessment {
    let budget = nanoseconds
    var over = 0
    var missed = 0
    var overrun = 0.0
    for cost in samples where cost > budget {
      over += 1
      // A tick that takes 2.3 budgets skips two refreshes before its frame shows.
      missed += Int((cost / budget).rounded(.up)) - 1
      overrun += cost - budget
    }
    // Hitch time ratio (as Apple's tools report it): time the display waited beyond the
    // frame deadline, in ms, per second of running at one tick per refresh.
    let seconds = (Double(samples.count) * budget + overrun) / 1e9
    return BudgetAssessment(
      hz: hz, budgetNs: budget, overBudget: over, missedFrames: missed,
      hitchMsPerS: seconds > 0 ? (overrun / 1e6) / seconds : 0)
  }
}

/// Ticks over budget, frames missed and the hitch time ratio of a run at one refresh rate.
public struct BudgetAssessment: Codable, Hashable, Sendable {
  public var hz: Int
  public var budgetNs: Double
  public var overBudget: Int
  public var missedFrames: Int
  public var hitchMsPerS: Double

  /// Apple's bands for the hitch time ratio: under 5 ms/s is good, up to 10 warning, more
  /// critical.
  public var verdict: HitchVerdict { HitchVerdict(hitchMsPerS: hitchMsPerS) }
}

public enum HitchVerdict: String, Codable, Sendable, Comparable {
  case good, warning, critical

  public init(hitchMsPerS: Double) {
    self = hitchMsPerS < 5 ? .good : hitchMsPerS <= 10 ? .warning : .critical
  }

  private var rank: Int {
    switch self {
    case .good: 0
    case .warning: 1
    case .critical: 2
    }
  }

  public static func < (lhs: HitchVerdict, rhs: HitchVerdict) -> Bool { lhs.rank < rhs.rank }
}
