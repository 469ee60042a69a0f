/// The at-a-glance table of a run: one row per strategy and scenario, cost per tick, share
/// of the frame budget, and a verdict.
public enum ReportTable {
  public enum Style: Sendable { case terminal, markdown }

  /// How a row fares: its p99 tick within the budget, only its tail over, or its median over.
  public enum Verdict: String, Sendable {
    case fits = "fits"
    case tailOver = "p99 over"
    case over = "over budget"

    public init(_ result: RunResult, budgetNs: Double) {
      if result.tickNs.p99 <= budgetNs {
        self = .fits
      } else if result.tickNs.p50 <= budgetNs {
        self = .tailOver
      } else {
        self = .over
      }
    }

    var mark: String {
      switch self {
      case .fits: "ok"
      case .tailOver: "!!"
      case .over: "XX"
      }
    }
  }

  public static func render(_ report: RunReport, style: Style) -> String {
    let budget = report.budgetNs
    let header = [
      "scenario", "strategy", "p50 ms", "p99 ms", "max ms", "p99/budget", "over", "hitch ms/s",
      "solves", "layouts", "allocs", "verdict",
    ]
    var rows: [[String]] = []
    for result in report.results {
      let verdict = Verdict(result, budgetNs: budget)
      rows.append([
        result.scenarioKey, result.strategy.rawValue, ms(result.tickNs.p50), ms(result.tickNs.p99),
        ms(result.tickNs.max), percent(result.tickNs.p99 / budget),
        "\(result.overBudget)/\(result.ticks)", fixed(result.hitchMsPerS, 1),
        fixed(result.counters["solves"] ?? 0, 1), fixed(result.counters["layoutSubviews"] ?? 0, 0),
        result.allocations.countPerTick.map { fixed($0, 0) } ?? "-",
        "\(verdict.mark) \(verdict.rawValue)",
      ])
    }
    let title =
      "Cost per tick against a \(fixed(budget / 1e6, 2)) ms budget (\(report.hz) Hz); "
      + "instrumentation inside each tick: \(fixed(report.measurementOverheadNs, 0)) ns"
    switch style {
    case .markdown:
      var lines = ["**\(title)**", ""]
      lines.append("| " + header.joined(separator: " | ") + " |")
      lines.append("|" + header.indices.map { $0 < 2 || $0 == header.count - 1 ? "---" : "--:" }
        .joined(separator: "|") + "|")
      for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
      return lines.joined(separator: "\n") + "\n"
    case .terminal:
      var widths = header.map(\.count)
      for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
      func line(_ cells: [String]) -> String {
        cells.enumerated().map { i, cell in
          let pad = String(repeating: " ", count: widths[i] - cell.count)
          return i < 2 || i == cells.count - 1 ? cell + pad : pad + cell
        }.joined(separator: "  ")
      }
      var lines = [title, "", line(header)]
      lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
      var lastScenario = ""
      for (row, result) in zip(rows, report.results) {
        if !lastScenario.isEmpty && result.scenarioKey != lastScenario { lines.append("") }
        lastScenario = result.scenarioKey
        lines.append(line(row))
      }
      lines.append("")
      lines.append(
        "verdict: ok = p99 within the budget; !! = median within, p99 over (hitches); "
          + "XX = median over (every frame late).")
      lines.append(
        "solves, layouts, allocs: per tick (solver read-outs, layoutSubviews calls, "
          + "allocation requests).")
      return lines.joined(separator: "\n") + "\n"
    }
  }

  /// A sweep's fitted exponents and largest size within the budget.
  public static func renderSweeps(_ report: RunReport, style: Style) -> String {
    guard !report.sweeps.isEmpty else { return "" }
    let header = ["shape/mutation", "strategy", "sizes", "p50 exponent", "p99 exponent", "largest within budget"]
    let rows = report.sweeps.map { sweep in
      [
        "\(sweep.shape)/\(sweep.mutation)", sweep.strategy.rawValue,
        "\(sweep.sizes.first ?? 0)...\(sweep.sizes.last ?? 0)",
        sweep.p50Exponent.map { fixed($0, 2) } ?? "-", sweep.p99Exponent.map { fixed($0, 2) } ?? "-",
        sweep.largestSizeWithinBudget.map(String.init) ?? "none",
      ]
    }
    if style == .markdown {
      var lines = ["| " + header.joined(separator: " | ") + " |"]
      lines.append("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
      for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
      return lines.joined(separator: "\n") + "\n"
    }
    var widths = header.map(\.count)
    for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    let render = { (cells: [String]) in
      cells.enumerated().map { i, cell in cell + String(repeating: " ", count: widths[i] - cell.count) }
        .joined(separator: "  ")
    }
    return ([render(header)] + rows.map(render)).joined(separator: "\n") + "\n"
  }
}

/// Milliseconds with three significant decimals for small values.
func ms(_ ns: Double) -> String {
  let value = ns / 1e6
  return value < 0.1 ? fixed(value, 4) : value < 10 ? fixed(value, 3) : fixed(value, 1)
}

func percent(_ ratio: Double) -> String { fixed(ratio * 100, ratio < 0.1 ? 1 : 0) + "%" }

/// Fixed-point text without Foundation's formatters (rounded half away from zero).
func fixed(_ value: Double, _ digits: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let scaled = (abs(value) * scale).rounded()
  let whole = Int(scaled / scale)
  var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
  if digits > 0 {
    let fraction = Int(scaled - Double(whole) * scale)
    let digitsText = String(fraction)
    text += "." + String(repeating: "0", count: digits - digitsText.count) + digitsText
  }
  return text
}
