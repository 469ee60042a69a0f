import BenchSupport
/// The at-a-glance table of a run: one row per strategy and scenario, cost per tick, share
/// of the frame budget, and a verdict.
public enum ReportTable {
  public enum Style: Sendable { case terminal, markdown }

  public static func render(_ report: RunReport, style: Style) -> String {
    let budget = report.budgetNs
    let header = [
      "scenario", "strategy", "p50 ms", "p99 ms", "max ms", "p99/budget", "over", "hitch ms/s",
      "solves", "layouts", "moved", "again", "allocs", "cold ms", "verdict",
    ]
    var rows: [[String]] = []
    for result in report.results {
      let verdict = BudgetVerdict(result, budgetNs: budget)
      rows.append([
        result.scenarioKey, result.strategy.rawValue, NumberFormat.ms(result.tickNs.p50),
        NumberFormat.ms(result.tickNs.p99),
        NumberFormat.ms(result.tickNs.max), NumberFormat.percent(result.tickNs.p99 / budget),
        "\(result.overBudget)/\(result.ticks)", NumberFormat.fixed(result.hitchMsPerS, 1),
        NumberFormat.fixed(result.counters["solves"] ?? 0, 1),
        NumberFormat.fixed(result.counters["layoutSubviews"] ?? 0, 0),
        NumberFormat.fixed(result.counters["framesChanged"] ?? 0, 0),
        NumberFormat.fixed(result.counters["framesChangedAgain"] ?? 0, 0),
        result.allocations.countPerTick.map { NumberFormat.fixed($0, 0) } ?? "-",
        result.cold.map { NumberFormat.ms($0.p50Ns) } ?? "-",
        verdict.label,
      ])
    }
    let title =
      "Cost per tick against a \(NumberFormat.fixed(budget / 1e6, 2)) ms budget (\(report.hz) Hz); "
      + "instrumentation inside each tick: "
      + "\(NumberFormat.fixed(report.measurementOverheadNs, 0)) ns"
    switch style {
    case .markdown:
      var lines = ["**\(title)**", ""]
      lines.append("| " + header.joined(separator: " | ") + " |")
      lines.append(
        "|"
          + header.indices.map { $0 < 2 || $0 == header.count - 1 ? "---" : "--:" }
          .joined(separator: "|") + "|")
      for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
      lines += ["", "Scenario: " + Scenario.legend(for: report.results)]
      let findings = Finding.all(in: report)
      if !findings.isEmpty {
        lines.append("")
        for finding in findings { lines.append("- `\(finding.scenario)`: \(finding.text)") }
      }
      let warnings = TailWarning.all(in: report)
      if !warnings.isEmpty {
        lines.append("")
        for warning in warnings {
          lines.append("> warning: `\(warning.scenario)`: \(warning.text).")
        }
      }
      return lines.joined(separator: "\n") + "\n"
    case .terminal:
      var widths = header.map(\.count)
      for row in rows {
        for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
      }
      func line(_ cells: [String]) -> String {
        cells.enumerated().map { i, cell in
          let pad = String(repeating: " ", count: widths[i] - cell.count)
          return i < 2 || i == cells.count - 1 ? cell + pad : pad + cell
        }.joined(separator: "  ").trimmingTrailingSpaces
      }
      var lines = [title, "", line(header)]
      lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
      var lastScenario = ""
      let findings = Dictionary(
        Finding.all(in: report).map { ($0.scenario, $0.text) }, uniquingKeysWith: { a, _ in a })
      for (row, result) in zip(rows, report.results) {
        if !lastScenario.isEmpty && result.scenarioKey != lastScenario {
          if let finding = findings[lastScenario] { lines.append("  -> " + finding) }
          lines.append("")
        }
        lastScenario = result.scenarioKey
        lines.append(line(row))
      }
      if let finding = findings[lastScenario] { lines.append("  -> " + finding) }
      lines.append("")
      for warning in TailWarning.all(in: report) {
        lines.append("warning: \(warning.scenario): \(warning.text).")
      }
      lines.append("scenario: " + Scenario.legend(for: report.results))
      lines.append("verdict: " + BudgetVerdict.legend)
      lines.append(
        "solves, layouts, moved, again, allocs: per tick (solver read-outs, layoutSubviews "
          + "calls, views moved or resized, of those already moved earlier in the tick, "
          + "allocation requests); cold ms: building the scene and laying it out once "
          + "(median of its builds).")
      return lines.joined(separator: "\n") + "\n"
    }
  }

  /// A sweep's fitted exponents, each with its fit's R², and largest size within the budget.
  /// The cold layout of the ladder's largest size, per unit of size ("452 µs per cell").
  static func coldPerUnit(_ sweep: SweepResult) -> String {
    guard let cold = sweep.coldNs?.last, let size = sweep.sizes.last, size > 0 else {
      return "-"
    }
    let units = sweep.shape.coldUnits(size: size)
    return "\(NumberFormat.duration(cold / Double(units))) per \(sweep.shape.unitName)"
  }

  /// The memory the cold build of the ladder's largest size left allocated, per view
  /// ("6.9 KiB per view").
  static func memoryPerView(_ sweep: SweepResult) -> String {
    guard let bytes = sweep.coldRetainedBytesPerView?.last, bytes.isFinite else { return "-" }
    let text =
      abs(bytes.rounded()) < 1024
      ? "\(NumberFormat.fixed(bytes, 0)) B" : "\(NumberFormat.fixed(bytes / 1024, 1)) KiB"
    return text + " per view"
  }

  public static func renderSweeps(_ report: RunReport, style: Style) -> String {
    guard !report.sweeps.isEmpty else { return "" }
    let header = [
      "shape/mutation", "strategy", "sizes", "p50 exponent", "p99 exponent",
      "largest within budget", "cold exponent", "cold per unit at largest",
      "memory at largest",
    ]
    let rows = report.sweeps.map { sweep in
      [
        "\(sweep.sceneName)/\(sweep.mutation)", sweep.strategy.rawValue,
        "\(sweep.sizes.first ?? 0)...\(sweep.sizes.last ?? 0) \(sweep.shape.sizeUnit)",
        exponent(sweep.p50Exponent, r2: sweep.p50FitR2),
        exponent(sweep.p99Exponent, r2: sweep.p99FitR2),
        sweep.largestSizeWithinBudget.map(String.init) ?? "none",
        exponent(sweep.coldExponent, r2: sweep.coldFitR2),
        coldPerUnit(sweep),
        memoryPerView(sweep),
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
      cells.enumerated().map { i, cell in
        cell + String(repeating: " ", count: widths[i] - cell.count)
      }
      .joined(separator: "  ").trimmingTrailingSpaces
    }
    return ([render(header)] + rows.map(render)).joined(separator: "\n") + "\n"
  }

  /// "1.02 (R² 0.998)": an exponent means little without how well its line fits. A ladder of
  /// two sizes has an exponent but no R² ("-"), since two points always fit.
  static func exponent(_ value: Double?, r2: Double?) -> String {
    guard let value else { return "-" }
    let fit = r2.map { NumberFormat.fixed($0, 3) } ?? "-"
    return "\(NumberFormat.fixed(value, 2)) (R\u{B2} \(fit))"
  }
}

extension String {
  /// Without the padding a left-aligned last column leaves at the end of a line.
  var trimmingTrailingSpaces: String {
    var end = endIndex
    while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
    return String(self[..<end])
  }
}
