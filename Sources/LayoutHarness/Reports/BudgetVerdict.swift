/// How a result sits against the frame budget: one verdict, in the same words in the
/// terminal table, Markdown and HTML.
public enum BudgetVerdict: Equatable, Sendable {
  /// The median tick misses the budget: every frame is late.
  case over
  /// The median fits, the p99 does not: regular hitches.
  case tailOver
  /// The p99 fits, some ticks do not (their count).
  case spikes(Int)
  /// Every measured tick fits.
  case within

  public init(_ result: RunResult, budgetNs: Double) {
    if result.tickNs.p50 > budgetNs {
      self = .over
    } else if result.tickNs.p99 > budgetNs {
      self = .tailOver
    } else if result.overBudget > 0 {
      self = .spikes(result.overBudget)
    } else {
      self = .within
    }
  }

  /// The verdict's words.
  public var label: String {
    switch self {
    case .over: "OVER"
    case .tailOver: "p99 over"
    case .spikes(let count): "\(count) spike\(count == 1 ? "" : "s")"
    case .within: "ok"
    }
  }

  /// What the words mean, for the line under a table.
  public static let legend =
    "OVER = the median tick misses the budget (every frame late); p99 over = the median "
    + "fits, the p99 does not (regular hitches); spikes = the p99 fits, some ticks do not; "
    + "ok = every tick fits."
}
