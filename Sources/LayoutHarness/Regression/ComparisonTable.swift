import BenchSupport
extension Comparison {
  /// The comparison for a terminal or a PR comment: budget crossings first, then every
  /// changed metric (regressions first), then a count of unchanged ones and the noise.
  public func render(markdown: Bool) -> String {
    var lines: [String] = []
    let verdict = verdictLine
    lines.append(markdown ? "**Verdict: \(verdict)**" : "verdict: \(verdict)")
    if !environmentMismatches.isEmpty {
      lines.append("")
      let title =
        mismatchAllowed ? "Different machines or builds (judged anyway)" : "Not comparable"
      lines.append(markdown ? "**\(title)**" : title.lowercased() + ":")
      for line in environmentMismatches { lines.append((markdown ? "- " : "  ") + line) }
      // Times from different machines say nothing about the code: no table to misread.
      if notComparable { return lines.joined(separator: "\n") + "\n" }
    }
    if !budgetCrossings.isEmpty {
      lines.append("")
      lines.append(markdown ? "**Budget crossings**" : "budget crossings:")
      for crossing in budgetCrossings { lines.append((markdown ? "- " : "  ") + crossing) }
    }
    let order: [Verdict: Int] = [
      .regression: 0, .improvement: 1, .insufficientData: 2, .skipped: 3, .notJudged: 4,
      .unchanged: 5,
    ]
    let shown = rows.filter { $0.verdict != .unchanged }.sorted {
      (order[$0.verdict]!, $0.scenario, $0.metric) < (order[$1.verdict]!, $1.scenario, $1.metric)
    }
    lines.append("")
    let header = ["scenario", "metric", "old", "new", "change", "how sure", "verdict"]
    let cells = shown.map { row -> [String] in
      let isTime = Comparison.timeMetrics.contains(row.metric)
      let value = { (v: Double) in
        isTime
          ? NumberFormat.ms(v) + " ms" : NumberFormat.fixed(v, row.metric == "instructions" ? 0 : 2)
      }
      // A metric the base did not have has no finite change.
      let percent = { (c: Double) in c.isFinite ? NumberFormat.change(c) : "new" }
      var change = percent(row.change)
      if let raw = row.rawChange, let machine = row.machineChange {
        change += " (raw \(percent(raw)), machine \(percent(machine)))"
      }
      return [
        row.scenario, row.metric, value(row.old), value(row.new), change, row.confidence,
        row.verdict.rawValue,
      ]
    }
    if cells.isEmpty {
      lines.append("No metric changed beyond its threshold.")
    } else if markdown {
      lines.append("| " + header.joined(separator: " | ") + " |")
      lines.append("|---|---|--:|--:|--:|---|---|")
      for row in cells { lines.append("| " + row.joined(separator: " | ") + " |") }
    } else {
      var widths = header.map(\.count)
      for row in cells {
        for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
      }
      let line = { (row: [String]) in
        row.enumerated().map { i, cell in
          let pad = String(repeating: " ", count: widths[i] - cell.count)
          return (2...4).contains(i) ? pad + cell : cell + pad
        }.joined(separator: "  ")
      }
      lines.append(line(header))
      for row in cells { lines.append(line(row)) }
    }
    let unchanged = rows.count - shown.count
    lines.append("")
    lines.append("\(unchanged) of \(rows.count) metrics unchanged.")
    if timesJudged {
      let family = rows.filter { Comparison.judgedTimeMetrics.contains($0.metric) }.count
      lines.append(
        "Time verdicts: exact Mann-Whitney over rounds (separate processes), Holm-adjusted over "
          + "the \(family) time metrics "
          + "(family-wise false-alarm rate 5%), and a change beyond the threshold.")
    } else {
      lines.append(
        "Times of separate time windows are shown, not judged: a whole window can run slow "
          + "(identical code measured minutes apart differed by up to +60% at p50 on a shared "
          + "machine). `layout-bench ab OLD NEW` measures both builds in one window and judges "
          + "them; `layout-bench calibrate --json c.json` measures this machine's run-to-run "
          + "spread, and `compare --calibration c.json` judges beyond it.")
    }
    if rows.contains(where: { $0.rawChange != nil }) {
      lines.append(
        "Speed-adjusted: each round's times are divided by the machine-speed reference timed "
          + "beside its ticks, so a machine that is slower in one window is not read as slower "
          + "code; "
          + "\"raw\" is the change of the times themselves, \"machine\" that of the reference.")
    }
    if rows.contains(where: { $0.runAllowance != nil }) {
      lines.append(
        "The sides ran in separate time windows: a time change must also exceed the run-to-run "
          + "allowance, three standard deviations of what identical code shows between runs here "
          + (calibrated
            ? "(from the calibration)."
            : "(defaults; `layout-bench calibrate` measures this machine).")
          + " `layout-bench ab` runs both builds in one window and needs no allowance.")
    }
    if calibrated {
      var scenarios: [String] = []
      var byScenario: [String: [String]] = [:]
      for row in rows where Comparison.judgedTimeMetrics.contains(row.metric) {
        if byScenario[row.scenario] == nil { scenarios.append(row.scenario) }
        let value =
          row.detectable.map { "+" + NumberFormat.fixed($0 * 100, 1) + "%" } ?? "more than +100%"
        byScenario[row.scenario, default: []].append("\(row.metric) \(value)")
      }
      lines.append("Smallest slowdown the calibration saw flagged 9 times in 10:")
      for scenario in scenarios {
        lines.append(
          (markdown ? "- " : "  ") + scenario + ": " + byScenario[scenario]!.joined(separator: ", ")
        )
      }
    }
    if !noise.isEmpty {
      let values = noise.values.sorted()
      lines.append(
        "Run-to-run spread of round medians ((max - min) / median): "
          + "median \(NumberFormat.fixed(percentile(values, 0.5) * 100, 1))%, "
          + "max \(NumberFormat.fixed(values.last! * 100, 1))%."
      )
    }
    if !unmatched.isEmpty {
      lines.append("On one side only: " + unmatched.sorted().joined(separator: ", "))
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
