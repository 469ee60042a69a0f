import BenchSupport
internal import Foundation
import LayoutModel

// MARK: - Entry point

/// Renders a run report as one self-contained HTML page: a header with the budget and the
/// environment, a summary table, sweep charts (log-log) when the report has sweeps, and per
/// result a per-tick cost chart and a histogram, all as inline SVG.
///
/// The page loads nothing (no scripts, fonts or network) so it can be attached to a CI run
/// or mailed around and still open offline. Output depends only on `report` and `title`
/// (environment keys are sorted, numbers formatted with fixed digits), so the same report
/// always gives the same bytes. Every string taken from the report is HTML-escaped.
public func renderHTML(_ report: RunReport, title: String = "layout-bench report") -> String {
  var page = HTMLReportPage(report: report)
  page.write(title: title)
  return page.html
}

/// Builds the page as one string, section by section.
struct HTMLReportPage {
  let report: RunReport
  private(set) var html = ""

  init(report: RunReport) {
    self.report = report
    html.reserveCapacity(16_384 + report.results.count * 24_576)
  }

  mutating func write(title: String) {
    let safeTitle = HTMLText.escape(title)
    html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    html += "<title>\(safeTitle)</title>\n<style>\n\(HTMLReportStyle.css)</style>\n</head>\n"
    html += "<body>\n"
    writeHeader(title: safeTitle)
    writeSummary()
    // Sweeps come before the per-run details: in a sweep report they are the headline.
    if !report.sweeps.isEmpty { writeSweeps() }
    if !report.results.isEmpty {
      html += "<h2>Runs</h2>\n"
      for (index, result) in report.results.enumerated() {
        writeResult(result, index: index)
      }
    }
    html += "</body>\n</html>\n"
  }

  // MARK: - Header

  private mutating func writeHeader(title: String) {
    let budget = NumberFormat.ms(report.budgetNs)
    let overhead = HTMLText.duration(report.measurementOverheadNs)
    let share = HTMLText.percent(ratio(report.measurementOverheadNs, report.budgetNs))
    html += "<header>\n<h1>\(title)</h1>\n<dl class=\"facts\">\n"
    html += "<dt>Frame budget</dt><dd>\(budget) ms per tick (\(report.hz) Hz)</dd>\n"
    html += "<dt>Measurement overhead</dt><dd>\(overhead) per tick (\(share) of the budget)</dd>\n"
    html += "<dt>Contents</dt><dd>\(report.results.count) runs, \(report.sweeps.count) sweeps"
    html += " (schema \(report.schemaVersion))</dd>\n</dl>\n"
    if !report.environment.isEmpty {
      html += "<table class=\"env\">\n<caption>Environment</caption>\n<tbody>\n"
      for key in report.environment.keys.sorted() {
        let value = report.environment[key] ?? ""
        html += "<tr><th>\(HTMLText.escape(key))</th><td>\(HTMLText.escape(value))</td></tr>\n"
      }
      html += "</tbody>\n</table>\n"
    }
    html += "</header>\n"
  }

  // MARK: - Summary table

  private mutating func writeSummary() {
    html += "<h2>Summary</h2>\n"
    guard !report.results.isEmpty else {
      html += "<p class=\"none\">No runs in this report.</p>\n"
      return
    }
    let headers = [
      ("Budget", ""), ("Scenario", ""), ("Mutation", ""), ("Strategy", ""), ("p50 ms", "num"),
      ("p99 ms", "num"), ("max ms", "num"), ("p99 of budget", "num"), ("Ticks over", "num"),
      ("Hitch ms/s", "num"), ("Verdict", ""),
    ]
    html += "<table class=\"summary\">\n<thead><tr>"
    for (name, cls) in headers {
      html += cls.isEmpty ? "<th>\(name)</th>" : "<th class=\"\(cls)\">\(name)</th>"
    }
    html += "</tr></thead>\n<tbody>\n"
    for (index, result) in report.results.enumerated() {
      writeSummaryRow(result, index: index)
    }
    html += "</tbody>\n</table>\n"
    html +=
      "<p class=\"note\">Scenario: \(HTMLText.escape(Scenario.legend(for: report.results)))</p>\n"
    html += "<p class=\"note\">\(HTMLText.escape(BudgetVerdict.legend)) "
    html += "Hitch verdict: Apple&#8217;s hitch-ratio bands (under 5 ms/s good, up to 10 warning, "
    html += "above that critical).</p>\n"
    let findings = Finding.all(in: report)
    if !findings.isEmpty {
      html += "<h3>Findings</h3>\n<ul class=\"findings\">\n"
      for finding in findings {
        html += "<li><code>\(HTMLText.escape(finding.scenario))</code>: "
        html += "\(HTMLText.escape(finding.text))</li>\n"
      }
      html += "</ul>\n"
    }
    for warning in TailWarning.all(in: report) {
      html += "<p class=\"note warning\">warning: "
      html += "<code>\(HTMLText.escape(warning.scenario))</code>: "
      html += "\(HTMLText.escape(warning.text)).</p>\n"
    }
  }

  private mutating func writeSummaryRow(_ result: RunResult, index: Int) {
    let status = BudgetVerdict(result, budgetNs: report.budgetNs)
    let share = ratio(result.tickNs.p99, report.budgetNs)
    // The bar saturates at the budget; the number beside it carries the real share.
    let barWidth = NumberFormat.fixed(min(max(share, 0), 1) * 100, 0)
    html += "<tr class=\"\(status.rowClass)\">"
    html += "<td class=\"status\">\(status.marker)</td>"
    let scene =
      result.scene == nil
      ? "\(HTMLText.escape(result.shape.rawValue)) \(result.size)"
      : HTMLText.escape(result.sceneName)
    html += "<td><a href=\"#run-\(index)\">\(scene)</a></td>"
    html += "<td>\(HTMLText.escape(result.mutation.rawValue)) &#215;\(result.perTick)</td>"
    html += "<td>\(HTMLText.escape(result.strategy.rawValue))</td>"
    html += "<td class=\"num\">\(NumberFormat.ms(result.tickNs.p50))</td>"
    html += "<td class=\"num\">\(NumberFormat.ms(result.tickNs.p99))</td>"
    html += "<td class=\"num\">\(NumberFormat.ms(result.tickNs.max))</td>"
    html += "<td class=\"num\"><span class=\"meter\"><span style=\"width:\(barWidth)%\"></span>"
    html += "</span>\(HTMLText.percent(share))</td>"
    html += "<td class=\"num\">\(result.overBudget) / \(result.ticks)</td>"
    html += "<td class=\"num\">\(NumberFormat.fixed(result.hitchMsPerS, 2))</td>"
    html += "<td>\(verdictCell(result))</td></tr>\n"
  }

  /// The verdict at the run's own rate, with the other rates the run was assessed at in small
  /// print (a 60 Hz pass can still be a 120 Hz failure).
  private func verdictCell(_ result: RunResult) -> String {
    let own =
      result.budgets.first { $0.hz == report.hz }?.verdict
      ?? HitchVerdict(hitchMsPerS: result.hitchMsPerS)
    var cell = HTMLText.badge(own)
    let others = result.budgets.filter { $0.hz != report.hz }.sorted { $0.hz < $1.hz }
    for other in others {
      cell += " <span class=\"other\">\(other.hz) Hz: \(other.verdict.rawValue)</span>"
    }
    return cell
  }

  // MARK: - Sweeps

  private mutating func writeSweeps() {
    html += "<h2>Size sweeps</h2>\n"
    html += "<p class=\"note\">Tick cost against scene size, both axes log10. Solid lines are "
    html += "p99, dashed lines p50. The exponent is the least-squares slope of log cost "
    html += "against log size: 1 means linear growth, 2 quadratic. R&#178; says how well that "
    html += "line fits: near 1, one power law holds across the sizes; lower, the exponent "
    html += "averages over a bend or noise. Fewer than three sizes have no R&#178;.</p>\n"
    // One colour per strategy across every sweep chart, so a strategy reads the same
    // everywhere; sorted names keep the assignment stable.
    let strategies = Array(Set(report.sweeps.map(\.strategy.rawValue))).sorted()
    var colours: [String: String] = [:]
    for (index, name) in strategies.enumerated() {
      colours[name] = SweepChart.palette[index % SweepChart.palette.count]
    }
    for group in sweepGroups() {
      let first = group[0]
      let heading =
        "\(HTMLText.escape(first.sceneName)) / \(HTMLText.escape(first.mutation.rawValue))"
      html += "<section class=\"sweep\">\n<h3>\(heading)</h3>\n"
      html += SweepChart.render(group, budgetNs: report.budgetNs, colours: colours)
      if group.contains(where: { ($0.coldNs?.count ?? 0) > 0 }) {
        html += SweepChart.render(
          group, budgetNs: report.budgetNs, colours: colours, metric: .cold)
      }
      writeSweepTable(group)
      html += "</section>\n"
    }
  }

  /// Sweeps grouped by shape and mutation, in order of first appearance.
  private func sweepGroups() -> [[SweepResult]] {
    var order: [String] = []
    var groups: [String: [SweepResult]] = [:]
    for sweep in report.sweeps {
      let key = "\(sweep.sceneName)\u{0}\(sweep.mutation)"
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(sweep)
    }
    return order.map { groups[$0] ?? [] }
  }

  private mutating func writeSweepTable(_ group: [SweepResult]) {
    let unit = group.first?.shape.sizeUnit ?? "views"
    html += "<table class=\"sweep\">\n<thead><tr><th>Strategy</th>"
    html += "<th class=\"num\">Sizes (\(unit))</th>"
    html += "<th class=\"num\">p50 exponent</th><th class=\"num\">p99 exponent</th>"
    html += "<th class=\"num\">Largest size within budget</th>"
    html += "<th class=\"num\">Cold exponent</th><th class=\"num\">Cold at largest</th>"
    html += "<th class=\"num\">Memory at largest</th>"
    html += "</tr></thead>\n<tbody>\n"
    for sweep in group {
      let range =
        if let low = sweep.sizes.min(), let high = sweep.sizes.max() {
          "\(low)&#8211;\(high) (\(sweep.sizes.count))"
        } else {
          "none"
        }
      let largest: String
      if let size = sweep.largestSizeWithinBudget {
        largest = size == sweep.sizes.max() ? "\(size) (all sizes fit)" : "\(size)"
      } else {
        largest = "<span class=\"bad\">none fits</span>"
      }
      html +=
        "<tr><td>\(HTMLText.escape(sweep.strategy.rawValue))</td><td class=\"num\">\(range)</td>"
      html += "<td class=\"num\">\(exponent(sweep.p50Exponent, r2: sweep.p50FitR2))</td>"
      html += "<td class=\"num\">\(exponent(sweep.p99Exponent, r2: sweep.p99FitR2))</td>"
      html += "<td class=\"num\">\(largest)</td>"
      html += "<td class=\"num\">\(exponent(sweep.coldExponent, r2: sweep.coldFitR2))</td>"
      let cold = ReportTable.coldPerUnit(sweep)
      html += "<td class=\"num\">\(cold == "-" ? "&#8211;" : HTMLText.escape(cold))</td>"
      let memory = ReportTable.memoryPerView(sweep)
      html += "<td class=\"num\">\(memory == "-" ? "&#8211;" : HTMLText.escape(memory))</td></tr>\n"
    }
    html += "</tbody>\n</table>\n"
  }

  /// The exponent with its fit's R² in smaller print, as the terminal table has it.
  private func exponent(_ value: Double?, r2: Double?) -> String {
    guard let value, value.isFinite else { return "&#8211;" }
    let fit = r2.map { NumberFormat.fixed($0, 3) } ?? "&#8211;"
    return "\(NumberFormat.fixed(value, 2)) <span class=\"fit\">(R&#178; \(fit))</span>"
  }

  // MARK: - Per-run sections

  private mutating func writeResult(_ result: RunResult, index: Int) {
    let status = BudgetVerdict(result, budgetNs: report.budgetNs)
    html += "<section class=\"run \(status.rowClass)\" id=\"run-\(index)\">\n"
    html += "<h3>\(HTMLText.escape(result.key)) <span class=\"status\">\(status.marker)</span>"
    html += "</h3>\n<p class=\"meta\">"
    html += "\(result.views) views &#183; \(result.ticks) measured ticks after "
    html += "\(result.warmupTicks) warm-up &#183; seed \(result.seed) &#183; "
    let t = result.tickNs
    html += "min \(NumberFormat.ms(t.min)) / p50 \(NumberFormat.ms(t.p50))"
    html += " / p90 \(NumberFormat.ms(t.p90))"
    html += " / p99 \(NumberFormat.ms(t.p99)) / max \(NumberFormat.ms(t.max)) / mean "
    html += "\(NumberFormat.ms(t.mean)) ms &#183; \(result.missedFrames) missed frames"
    if let cold = result.cold {
      html += " &#183; cold layout \(NumberFormat.ms(cold.p50Ns)) ms (median of "
      html += "\(cold.samplesNs.count) builds, \(HTMLText.duration(cold.perUnitNs)) per "
      html += "\(result.shape.unitName))"
    }
    html += "</p>\n"
    if !result.phasesNs.isEmpty {
      html += "<p class=\"meta\">Median per tick: \(phaseList(result.phasesNs))</p>\n"
    }
    if let work = workList(result) {
      html += "<p class=\"meta\">Work per tick: \(work)</p>\n"
    }
    html += "<div class=\"charts\">\n"
    html += TickChart.render(
      samplesNs: result.samplesNs, budgetNs: report.budgetNs, id: "run-\(index)")
    html += TickHistogram.render(samplesNs: result.samplesNs, budgetNs: report.budgetNs)
    html += "</div>\n</section>\n"
  }

  /// Phases in tick order, then any others the report carries, by name.
  private func phaseList(_ phases: [String: Double]) -> String {
    let known = TickPhase.allCases.map(\.rawValue)
    let others = phases.keys.filter { !known.contains($0) }.sorted()
    let names = known.filter { phases[$0] != nil } + others
    return names.map { "\(HTMLText.escape($0)) \(NumberFormat.ms(phases[$0] ?? 0)) ms" }
      .joined(separator: " &#183; ")
  }

  private func workList(_ result: RunResult) -> String? {
    var items = result.counters.keys.sorted().map {
      "\(HTMLText.escape($0)) \(NumberFormat.count(result.counters[$0] ?? 0))"
    }
    if let count = result.allocations.countPerTick {
      items.append("allocations \(NumberFormat.count(count))")
    }
    if let bytes = result.allocations.bytesPerTick {
      items.append("allocated bytes \(NumberFormat.count(bytes))")
    }
    return items.isEmpty ? nil : items.joined(separator: " &#183; ")
  }

  private func ratio(_ value: Double, _ whole: Double) -> Double {
    whole > 0 && value.isFinite ? value / whole : 0
  }
}

// MARK: - Budget status

extension BudgetVerdict {
  /// The row's colour class.
  var rowClass: String {
    switch self {
    case .over: "over"
    case .tailOver: "tail"
    case .spikes: "spikes"
    case .within: "ok"
    }
  }

  /// The verdict's words with a symbol (the words keep the table readable without colour,
  /// in print or for colour-blind readers).
  var marker: String {
    switch self {
    case .over, .tailOver: "&#10006; \(HTMLText.escape(label))"
    case .spikes: "&#9650; \(HTMLText.escape(label))"
    case .within: "&#10003; \(HTMLText.escape(label))"
    }
  }
}

// MARK: - Text and numbers

/// Escaping for the page and its charts; numbers come from ``NumberFormat``.
enum HTMLText {
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// ``NumberFormat/percent(_:)``, escaped (it may start with `<`).
  static func percent(_ ratio: Double) -> String { escape(NumberFormat.percent(ratio)) }

  /// ``NumberFormat/duration(_:)`` for the page.
  static func duration(_ ns: Double) -> String { escape(NumberFormat.duration(ns)) }

  static func badge(_ verdict: HitchVerdict) -> String {
    "<span class=\"badge verdict-\(verdict.rawValue)\">\(verdict.rawValue)</span>"
  }
}

// MARK: - Style sheet

enum HTMLReportStyle {
  static let css = """
    body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
      sans-serif; color: #1f2328; background: #fff; max-width: 1240px; margin: 0 auto;
      padding: 16px 20px 48px; }
    h1 { font-size: 22px; margin: 4px 0 10px; }
    h2 { font-size: 18px; margin: 28px 0 10px; padding-bottom: 4px;
      border-bottom: 1px solid #d0d7de; }
    h3 { font-size: 15px; margin: 24px 0 4px; }
    section.run h3 { font-family: ui-monospace, Menlo, Consolas, monospace; }
    dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px;
      margin: 0 0 12px; }
    dl.facts dt { color: #57606a; }
    dl.facts dd { margin: 0; font-weight: 600; }
    table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
    caption { text-align: left; font-weight: 600; padding: 4px 0; }
    th, td { padding: 4px 10px; border-bottom: 1px solid #e1e4e8; text-align: left;
      vertical-align: top; }
    thead th { background: #f6f8fa; white-space: nowrap; }
    .num { text-align: right; white-space: nowrap; }
    table.env { font-size: 12px; }
    table.env th { color: #57606a; font-weight: 400; background: none; }
    table.env td { font-family: ui-monospace, Menlo, Consolas, monospace;
      word-break: break-all; }
    table.summary a { color: inherit; }
    tr.over { background: #ffebe9; }
    tr.tail { background: #fff1e5; }
    td.status, span.status { white-space: nowrap; font-weight: 600; }
    .over .status, .tail .status { color: #a40e26; }
    .spikes .status { color: #9a6700; }
    .ok .status { color: #1a7f37; font-weight: 400; }
    .meter { display: inline-block; width: 56px; height: 8px; margin-right: 6px;
      background: #eaeef2; vertical-align: middle; }
    .meter > span { display: block; height: 100%; background: #0072B2; }
    tr.over .meter > span { background: #d62728; }
    .badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px;
      font-weight: 600; border: 1px solid; }
    .verdict-good { color: #1a7f37; background: #dafbe1; }
    .verdict-warning { color: #9a6700; background: #fff8c5; }
    .verdict-critical { color: #a40e26; background: #ffebe9; }
    .other { color: #57606a; font-size: 12px; white-space: nowrap; }
    .fit { color: #57606a; font-size: 12px; }
    .bad { color: #a40e26; font-weight: 600; }
    p.note, p.meta { color: #57606a; font-size: 13px; margin: 4px 0; }
    p.none { color: #57606a; font-style: italic; }
    section.run.over { border-left: 4px solid #d62728; padding-left: 10px; }
    section.run.tail { border-left: 4px solid #e36209; padding-left: 10px; }
    .charts { display: flex; flex-wrap: wrap; gap: 16px; margin-top: 8px; }
    figure.chart { margin: 0; width: 600px; max-width: 100%; }
    .charts > figure.chart { width: auto; flex: 1 1 440px; max-width: 600px; }
    figure.chart.wide { width: 820px; }
    figure.chart svg { display: block; width: 100%; height: auto; background: #fff;
      border: 1px solid #e1e4e8; border-radius: 4px; }
    figure.empty .placeholder { height: 120px; display: flex; align-items: center;
      justify-content: center; color: #57606a; font-style: italic;
      border: 1px dashed #d0d7de; border-radius: 4px; }
    figcaption { font-size: 12px; color: #57606a; margin-top: 4px; }
    figcaption .clip { color: #a40e26; }
    svg text { font: 11px -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
      fill: #57606a; }
    svg text.title { font-weight: 600; }
    svg text.legend { font-size: 12px; fill: #1f2328; }
    svg .grid { stroke: #eaeef2; stroke-width: 1; }
    svg .grid.minor { stroke: #f3f4f6; }
    svg .axis { stroke: #8c959f; stroke-width: 1; }
    svg .series { fill: none; stroke: #0072B2; stroke-width: 1.25; stroke-linejoin: round; }
    svg .point { fill: #0072B2; }
    svg .over { fill: #d62728; }
    svg .hbar { fill: #0072B2; }
    svg .hbar.over { fill: #d62728; }
    svg .budget { stroke: #d62728; stroke-width: 1.5; stroke-dasharray: 6 4; }
    svg text.budget-label { fill: #d62728; font-weight: 600; }
    svg .label-plate { fill: #fff; fill-opacity: 0.9; }
    svg .over-line { stroke: #d62728; }
    svg .quantile { stroke: #1f2328; stroke-width: 1.25; }
    svg .quantile.p99 { stroke-dasharray: 2 2; }
    svg text.quantile-label { fill: #1f2328; font-weight: 600; }
    svg .clipped { fill: #0072B2; }
    svg .clipped.over { fill: #d62728; }
    svg .sweep-line { fill: none; stroke-width: 2; }
    svg .legend-swatch { stroke-width: 2; }

    """
}
