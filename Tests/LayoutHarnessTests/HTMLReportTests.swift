import BenchSupport
import Foundation
import Testing

@testable import LayoutHarness

// MARK: - Fixtures

/// Builders and checks for this file; private so they cannot clash with other suites' helpers.
private enum Fixture {

  /// A result whose statistics and budget figures are derived from `samplesNs` the way a run
  /// derives them, so the page sees consistent numbers.
  static func reportResult(
    strategy: StrategyKind = .coalesced, shape: Shape = .feed, size: Int = 100,
    mutation: MutationKind = .text, samplesNs: [Double], hz: Int = 60
  ) -> RunResult {
    let budget = FrameBudget(hz: hz)
    let stats =
      samplesNs.isEmpty
      ? TickStatistics(min: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0)
      : TickStatistics(samples: samplesNs)
    let own = budget.assess(samplesNs)
    let other = FrameBudget(hz: hz == 60 ? 120 : 60).assess(samplesNs)
    return RunResult(
      strategy: strategy, shape: shape, size: size, mutation: mutation, perTick: 2, seed: 7,
      views: size * 3, ticks: samplesNs.count, warmupTicks: 5, tickNs: stats,
      overBudget: own.overBudget, missedFrames: own.missedFrames,
      overrunNs: .init(
        p50: max(0, stats.p50 - budget.nanoseconds), p99: max(0, stats.p99 - budget.nanoseconds)),
      hitchMsPerS: own.hitchMsPerS, budgets: [own, other].sorted { $0.hz < $1.hz },
      phasesNs: ["handlers": 2_000, "constraints": 90_000, "layout": 40_000, "display": 5_000],
      counters: ["layoutSubviews": 12, "pivots": 3.5],
      allocations: .init(countPerTick: 40, bytesPerTick: 4_096), samplesNs: samplesNs)
  }

  /// Deterministic noisy tick costs around `baseMs`, with an occasional spike.
  static func noisySamples(count: Int, baseMs: Double, spikeMs: Double? = nil, seed: UInt64 = 1)
    -> [Double]
  {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { i in
      if let spikeMs, i % 97 == 50 { return spikeMs * 1e6 }
      return baseMs * (0.85 + 0.3 * rng.unit()) * 1e6
    }
  }

  /// A power law over four sizes; `bend` multiplies the largest size's costs, so the fit is
  /// no longer exact.
  static func sweep(
    _ strategy: StrategyKind, shape: Shape = .feed, exponent: Double, scaleNs: Double,
    bend: Double = 1, budgetNs: Double = FrameBudget(hz: 60).nanoseconds
  ) -> SweepResult {
    let sizes = [10, 100, 1_000, 10_000]
    let p50 = sizes.map { scaleNs * pow(Double($0), exponent) * ($0 == 10_000 ? bend : 1) }
    let p99 = p50.map { $0 * 1.6 }
    return SweepResult(
      strategy: strategy, shape: shape, mutation: .text, sizes: sizes, p50Ns: p50,
      p99Ns: p99,
      p50Exponent: loglogSlope(sizes.map(Double.init), p50),
      p99Exponent: loglogSlope(sizes.map(Double.init), p99),
      largestSizeWithinBudget: zip(sizes, p99).filter { $0.1 <= budgetNs }.map(\.0).max(),
      p50FitR2: loglogFitR2(sizes.map(Double.init), p50),
      p99FitR2: loglogFitR2(sizes.map(Double.init), p99))
  }

  /// A report like a real `run` plus `sweep`: one comfortable run, one with spikes, one well
  /// over budget, and sweeps of two shapes.
  static func sampleReport() -> RunReport {
    RunReport(
      hz: 60, measurementOverheadNs: 180,
      environment: [
        "swift": "6.3.1", "os": "Debian 12 (bookworm)", "cpu": "x86_64, 8 cores",
        "command": "layout-bench run --shape feed --size 100 <all>",
      ],
      results: [
        reportResult(strategy: .bottomUp, samplesNs: noisySamples(count: 600, baseMs: 1.2)),
        reportResult(
          strategy: .coalesced,
          samplesNs: noisySamples(count: 600, baseMs: 6, spikeMs: 22, seed: 2)),
        reportResult(
          strategy: .eager, shape: .deep, size: 12,
          samplesNs: noisySamples(count: 300, baseMs: 19, spikeMs: 140, seed: 3)),
      ],
      sweeps: [
        sweep(.bottomUp, exponent: 1.0, scaleNs: 2_000),
        sweep(.coalesced, exponent: 1.1, scaleNs: 9_000, bend: 2.5),
        sweep(.eager, exponent: 1.9, scaleNs: 150),
        sweep(.bottomUp, shape: .deep, exponent: 1.2, scaleNs: 3_000),
      ])
  }

  // MARK: Checks

  static func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  /// Checks that every tag opened is closed, in order. Returns the first problem, or nil.
  /// The page never puts `<` in text or attributes (it is escaped), so a scan for `<` finds
  /// every tag.
  static func tagBalanceProblem(_ html: String) -> String? {
    let void: Set<String> = ["meta", "br", "hr", "img", "link", "input"]
    var stack: [String] = []
    var rest = Substring(html)
    while let open = rest.firstIndex(of: "<") {
      guard let close = rest[open...].firstIndex(of: ">") else { return "unterminated tag" }
      let tag = rest[rest.index(after: open)..<close]
      rest = rest[rest.index(after: close)...]
      if tag.hasPrefix("!") { continue }
      let closing = tag.hasPrefix("/")
      let name = (closing ? tag.dropFirst() : tag).prefix { $0.isLetter || $0.isNumber }
        .lowercased()
      if closing {
        guard stack.last == name else { return "</\(name)> closes <\(stack.last ?? "nothing")>" }
        stack.removeLast()
      } else if !tag.hasSuffix("/") && !void.contains(name) {
        stack.append(name)
      }
    }
    return stack.isEmpty ? nil : "unclosed: \(stack)"
  }

  /// The tick chart's y-axis labels, bottom to top (the labels right-aligned at the plot's
  /// left edge, x = 58 - 6).
  static func yAxisLabels(_ chart: String) throws -> [Double] {
    let label = try Regex(#"<text x="52" y="[0-9.]+" text-anchor="end">([0-9.]+)</text>"#)
    return chart.matches(of: label).compactMap { match in
      (match.output[1].substring).flatMap { Double($0) }
    }
  }

  /// The y coordinate of the chart's budget line, nil when it draws none.
  static func budgetLineY(_ chart: String) throws -> Double? {
    let line = try Regex(#"<line class="budget" x1="[0-9.]+" y1="([0-9.]+)""#)
    return chart.firstMatch(of: line).flatMap { ($0.output[1].substring).flatMap { Double($0) } }
  }

  /// No number in the page may be NaN or infinite, in any spelling Swift or printf uses.
  static func hasNonFiniteNumber(_ html: String) -> Bool {
    let lower = html.lowercased()
    return lower.contains("nan") || lower.contains("inf")
  }
}

// MARK: - Tests

@Suite struct HTMLReportTests {
  @Test func pageIsWellFormed() {
    let html = renderHTML(Fixture.sampleReport())
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.hasSuffix("</html>\n"))
    #expect(
      Fixture.occurrences(of: "<svg", in: html) == Fixture.occurrences(of: "</svg>", in: html))
    #expect(
      Fixture.occurrences(of: "<table", in: html) == Fixture.occurrences(of: "</table>", in: html))
    #expect(Fixture.tagBalanceProblem(html) == nil, "\(Fixture.tagBalanceProblem(html) ?? "")")
    // Self-contained: nothing is fetched and nothing runs.
    #expect(!html.contains("<script"))
    // `url(#id)` points inside the page (clip paths); anything else would be fetched.
    let outside = html.replacingOccurrences(of: "url(#", with: "")
    for reference in ["src=", "href=\"http", "url(", "@import", "https://"] {
      #expect(!outside.contains(reference), "\(reference)")
    }
    #expect(!Fixture.hasNonFiniteNumber(html))
  }

  @Test func sameReportGivesSameBytes() {
    #expect(renderHTML(Fixture.sampleReport()) == renderHTML(Fixture.sampleReport()))
  }

  @Test func headerShowsBudgetOverheadAndEnvironment() {
    let html = renderHTML(Fixture.sampleReport(), title: "nightly")
    #expect(html.contains("<title>nightly</title>"))
    #expect(html.contains("16.67 ms per tick (60 Hz)"))
    #expect(html.contains("180 ns per tick"))
    #expect(html.contains("<th>swift</th><td>6.3.1</td>"))
    // Keys are sorted, whatever order the dictionary has.
    let keys = ["command", "cpu", "os", "swift"].map { html.range(of: "<th>\($0)</th>")! }
    #expect(keys.map(\.lowerBound) == keys.map(\.lowerBound).sorted())
  }

  @Test func oneChartPairPerResult() {
    let report = Fixture.sampleReport()
    let html = renderHTML(report)
    let tickCharts = Fixture.occurrences(of: "aria-label=\"Per-tick cost", in: html)
    let histograms = Fixture.occurrences(of: "aria-label=\"Histogram of tick costs", in: html)
    #expect(tickCharts == report.results.count)
    #expect(histograms == report.results.count)
    #expect(Fixture.occurrences(of: "<section class=\"run ", in: html) == report.results.count)
  }

  @Test func budgetLineIsLabelled() {
    let html = renderHTML(Fixture.sampleReport())
    #expect(html.contains("16.67 ms budget"))
    #expect(html.contains("class=\"budget\""))
    var fast = Fixture.sampleReport()
    fast = RunReport(
      hz: 120, measurementOverheadNs: 0, environment: [:], results: fast.results)
    #expect(renderHTML(fast).contains("8.33 ms budget"))
  }

  @Test func userTextIsEscaped() {
    var report = Fixture.sampleReport()
    report.environment["host"] = "<script>alert('x')</script>"
    report.environment["a&b"] = "\"quoted\""
    report.environment["command"] = "<b>bold</b>"
    let html = renderHTML(report, title: "<i>t</i>")
    #expect(!html.contains("<script"))
    #expect(!html.contains("<b>"))
    #expect(!html.contains("<i>"))
    #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
    #expect(html.contains("<th>a&amp;b</th><td>&quot;quoted&quot;</td>"))
    #expect(html.contains("&lt;b&gt;bold&lt;/b&gt;"))
    #expect(Fixture.tagBalanceProblem(html) == nil)
  }

  @Test func terminalMarkdownAndHTMLUseTheSameVerdictWords() throws {
    let report = Fixture.sampleReport()
    let terminal = ReportTable.render(report, style: .terminal)
    let markdown = ReportTable.render(report, style: .markdown)
    let html = renderHTML(report)
    let rows = html.components(separatedBy: "\n").filter { $0.hasPrefix("<tr class=") }
    var seen: Set<String> = []
    for result in report.results {
      let label = BudgetVerdict(result, budgetNs: report.budgetNs).label
      seen.insert(label)
      let strategy = result.strategy.rawValue
      let line = try #require(terminal.split(separator: "\n").first { $0.contains(strategy) })
      #expect(line.hasSuffix(label), "\(line)")
      let cells = try #require(markdown.split(separator: "\n").first { $0.contains(strategy) })
      #expect(cells.hasSuffix("| \(label) |"), "\(cells)")
      let row = try #require(rows.first { $0.contains("<td>\(strategy)</td>") })
      #expect(row.contains(label), "\(row)")
    }
    // The sample covers more than one verdict, or the check above would prove little.
    #expect(seen.count >= 2, "\(seen)")
    #expect(!terminal.contains("!!") && !terminal.contains("XX"))
  }

  @Test func overBudgetRowIsMarkedByColourAndText() throws {
    let html = renderHTML(Fixture.sampleReport())
    let rows = html.components(separatedBy: "\n").filter { $0.hasPrefix("<tr class=") }
    let over = try #require(rows.first { $0.contains("<td>eager</td>") })
    #expect(over.hasPrefix("<tr class=\"over\">"))
    #expect(over.contains("OVER"))
    let spiky = try #require(rows.first { $0.contains("<td>coalesced</td>") })
    #expect(spiky.hasPrefix("<tr class=\"spikes\">"))
    #expect(spiky.contains("spikes"))
    let fine = try #require(rows.first { $0.contains("<td>bottom-up</td>") })
    #expect(fine.hasPrefix("<tr class=\"ok\">"))
    #expect(!fine.contains("OVER"))
    // The verdict comes from the hitch bands, as words, not just colour.
    #expect(over.contains(">critical</span>"))
    #expect(fine.contains(">good</span>"))
    // p99 is far over: the share of the budget reads well above 100%.
    #expect(rows.contains { $0.contains("<td>eager</td>") && $0.contains("%</td>") })
  }

  @Test(arguments: [
    ("one sample", [3e6]),
    ("all equal", [Double](repeating: 4e6, count: 50)),
    ("all zero", [Double](repeating: 0, count: 10)),
    ("huge outlier", [Double](repeating: 2e6, count: 999) + [5e9]),
    ("non-finite", [1e6, .nan, .infinity, 2e6]),
  ])
  func edgeCasesDrawWithoutNonFiniteNumbers(_ name: String, _ samples: [Double]) {
    let result = Fixture.reportResult(samplesNs: samples.map { $0.isFinite ? $0 : 1e6 })
    var broken = result
    broken.samplesNs = samples
    let report = RunReport(
      hz: 60, measurementOverheadNs: 50, environment: [:], results: [broken])
    let html = renderHTML(report)
    #expect(!Fixture.hasNonFiniteNumber(html), "\(name)")
    #expect(Fixture.tagBalanceProblem(html) == nil, "\(name)")
    #expect(Fixture.occurrences(of: "aria-label=\"Per-tick cost", in: html) == 1, "\(name)")
    #expect(html.contains("16.67 ms budget"), "\(name)")
  }

  @Test func emptySamplesSayNoSamples() {
    let report = RunReport(
      hz: 60, measurementOverheadNs: 0, environment: [:],
      results: [Fixture.reportResult(samplesNs: [])])
    let html = renderHTML(report)
    #expect(Fixture.occurrences(of: "no samples", in: html) == 2)
    #expect(!html.contains("<svg"))
    #expect(!Fixture.hasNonFiniteNumber(html))
    #expect(Fixture.tagBalanceProblem(html) == nil)
  }

  @Test func outliersAreClippedAndCounted() throws {
    let samples = [Double](repeating: 2e6, count: 999) + [5e9]
    let chart = TickChart.render(samplesNs: samples, budgetNs: 16_666_667, id: "t")
    // The axis stops just over the p99 (2 ms), not at the 5 s outlier nor at the budget.
    #expect(chart.contains("1 tick above 2.5 ms clipped"))
    #expect(chart.contains("max 5000.00 ms"))
    #expect(!chart.contains(">5000<"))
    // The outlier is marked on the top edge, red since it is over budget too.
    #expect(Fixture.occurrences(of: "<path class=\"clipped over\"", in: chart) == 1)
    #expect(chart.contains("<title>tick 999: 5000.000 ms</title>"))
    let histogram = TickHistogram.render(samplesNs: samples, budgetNs: 16_666_667)
    #expect(histogram.contains("1 tick above"))
  }

  /// A run far under the budget fills the chart: the axis ends near the data, and a note at
  /// the top edge says where the budget is instead of a line that would flatten the data.
  @Test func tickAxisFitsASubMillisecondRun() throws {
    let samples = Fixture.noisySamples(count: 600, baseMs: 0.05)
    let stats = TickStatistics(samples: samples)
    let chart = TickChart.render(samplesNs: samples, budgetNs: 16_666_667, id: "t")
    let labels = try Fixture.yAxisLabels(chart)
    let top = try #require(labels.max())
    // Ticks reach 0.0575 ms; the axis stops at the next round step, far under 16.67.
    #expect(top >= stats.max / 1e6 && top <= 2 * stats.max / 1e6, "\(labels)")
    #expect(labels.count >= 4, "\(labels)")
    #expect(try Fixture.budgetLineY(chart) == nil)
    let times = NumberFormat.fixed(16_666_667 / stats.p99, 0)
    #expect(chart.contains(">&#8593; budget 16.67 ms: \(times)&#215; above the p99</text>"))
    #expect(chart.contains("The 16.67 ms budget, \(times)&#215; above the p99, lies above"))
    #expect(!chart.contains("clipped"))
  }

  /// Near the data, over it or inside it, the budget is a labelled line inside the plot, and
  /// the axis reaches past it.
  @Test(arguments: [6.5, 10, 25]) func budgetLineIsDrawnWhenInRange(_ baseMs: Double) throws {
    let samples = Fixture.noisySamples(count: 300, baseMs: baseMs)
    let chart = TickChart.render(samplesNs: samples, budgetNs: 16_666_667, id: "t")
    let y = try #require(try Fixture.budgetLineY(chart), "\(baseMs) ms")
    // The plot runs from y = 36 (top) to 230 (bottom).
    #expect(y > 36 && y < 230, "\(y)")
    #expect(chart.contains(">16.67 ms budget</text>"))
    #expect(!chart.contains("&#8593; budget"))
    let top = try #require(try Fixture.yAxisLabels(chart).max())
    #expect(top > 16.67 && top >= TickStatistics(samples: samples).max / 1e6)
  }

  @Test func histogramMarksP50AndP99WithTheirValues() throws {
    let samples = Fixture.noisySamples(count: 400, baseMs: 2, spikeMs: 3)
    let stats = TickStatistics(samples: samples)
    let histogram = TickHistogram.render(samplesNs: samples, budgetNs: 16_666_667)
    #expect(histogram.contains(">p50 \(NumberFormat.ms(stats.p50)) ms</text>"), "\(stats)")
    #expect(histogram.contains(">p99 \(NumberFormat.ms(stats.p99)) ms</text>"), "\(stats)")
    // One line each, p50 left of p99.
    let line = try Regex(#"<line class="quantile (p50|p99)" x1="([0-9.]+)""#)
    let xs = Dictionary(
      histogram.matches(of: line).compactMap { match -> (String, Double)? in
        guard let name = match.output[1].substring, let x = match.output[2].substring,
          let value = Double(x)
        else { return nil }
        return (String(name), value)
      }, uniquingKeysWith: { first, _ in first })
    let p50 = try #require(xs["p50"])
    let p99 = try #require(xs["p99"])
    #expect(p50 < p99)
    #expect(Fixture.occurrences(of: "<line class=\"quantile ", in: histogram) == 2)
  }

  @Test func histogramMarksBudgetOnlyWhenInRange() {
    let wide = TickHistogram.render(
      samplesNs: Fixture.noisySamples(count: 200, baseMs: 15, spikeMs: 19), budgetNs: 16_666_667)
    #expect(wide.contains("16.67 ms budget"))
    let narrow = TickHistogram.render(
      samplesNs: Fixture.noisySamples(count: 200, baseMs: 1), budgetNs: 16_666_667)
    #expect(!narrow.contains("ms budget</text>"))
    #expect(narrow.contains("budget lies above the range shown"))
    #expect(Fixture.occurrences(of: "<rect class=\"hbar", in: narrow) <= TickHistogram.binCount)
  }

  @Test func longRunsAreThinnedButKeepTheirSpikes() {
    let values = (0..<100_000).map { $0 == 54_321 ? 500.0 : Double($0 % 7) }
    let kept = TickChart.visibleIndices(count: values.count, values: values, columns: 500)
    #expect(kept.count <= 1_000)
    #expect(kept.contains(54_321))
    #expect(kept == kept.sorted())
  }

  @Test func axisTicksAreRoundAndCoverTheRange() {
    let ticks = AxisTicks(low: 0, high: 19.17, count: 5)
    #expect(ticks.values == [0, 5, 10, 15, 20])
    #expect(ticks.label(5) == "5")
    let fine = AxisTicks(low: 0.0123, high: 0.0456, count: 5)
    #expect(fine.low <= 0.0123 && fine.high >= 0.0456)
    #expect(fine.digits >= 3)
    let flat = AxisTicks(low: 3, high: 3, count: 5)
    #expect(flat.high > flat.low)
  }

  @Test func sweepsGetLogLogChartsLegendAndTable() {
    let html = renderHTML(Fixture.sampleReport())
    // Two shape/mutation pairs: feed (three strategies) and deep (one).
    #expect(Fixture.occurrences(of: "aria-label=\"Tick cost against scene size", in: html) == 2)
    for label in [">10</text>", ">100</text>", ">1k</text>", ">10k</text>", ">1 ms</text>"] {
      #expect(html.contains(label), "\(label)")
    }
    #expect(html.contains("class=\"legend\"><title>eager</title>"))
    #expect(html.contains("<td class=\"num\">1.00 <span class=\"fit\">(R&#178; 1.000)</span></td>"))
    #expect(html.contains("<td class=\"num\">1.90 <span class=\"fit\">(R&#178; 1.000)</span></td>"))
    // feed/frames: p99 is 3.2 ms at 1k views and 32 ms at 10k.
    #expect(html.contains("<td class=\"num\">1000</td>"))
    #expect(Fixture.tagBalanceProblem(html) == nil)
    var report = Fixture.sampleReport()
    report.sweeps[0].largestSizeWithinBudget = 10_000
    report.sweeps[3].largestSizeWithinBudget = nil
    let edited = renderHTML(report)
    #expect(edited.contains("10000 (all sizes fit)"))
    #expect(edited.contains("none fits"))
  }

  /// The size axis counts what the shape's size counts: a feed of 1000 is 1000 cells (11,000
  /// views), a deep tree of 12 is 12 levels.
  @Test(arguments: [
    (Shape.feed, "cells"), (.deep, "depth"), (.wide, "children"), (.balanced, "views"),
    (.random, "views"), (.table, "rows"), (.grid, "items"),
  ])
  func sweepAxesNameTheShapesUnit(_ shape: Shape, _ unit: String) {
    let chart = SweepChart.render(
      [Fixture.sweep(.coalesced, shape: shape, exponent: 1, scaleNs: 2_000)],
      budgetNs: 16_666_667, colours: [:])
    #expect(chart.contains(">size (\(unit))</text>"), "\(shape)")
    #expect(Fixture.occurrences(of: "size (", in: chart) == 2, "axis and caption")
    var report = Fixture.sampleReport()
    report.sweeps = [Fixture.sweep(.eager, shape: shape, exponent: 1, scaleNs: 2_000)]
    #expect(renderHTML(report).contains("<th class=\"num\">Sizes (\(unit))</th>"))
    #expect(ReportTable.renderSweeps(report, style: .terminal).contains("10...10000 \(unit)"))
  }

  /// A sweep that timed cold layouts gets a second chart of them, one line per strategy
  /// and no budget line (the frame budget bounds a tick, not a build).
  @Test func coldLayoutsGetTheirOwnChart() {
    var sweeps = [
      Fixture.sweep(.coalesced, shape: .feed, exponent: 1, scaleNs: 2_000),
      Fixture.sweep(.bottomUp, shape: .feed, exponent: 1, scaleNs: 500),
    ]
    var report = Fixture.sampleReport()
    report.sweeps = sweeps
    #expect(!renderHTML(report).contains("Cold layout against scene size"))
    sweeps[0].coldNs = sweeps[0].sizes.map { Double($0) * 200_000 }
    sweeps[1].coldNs = sweeps[1].sizes.map { Double($0) * 30_000 }
    report.sweeps = sweeps
    let html = renderHTML(report)
    #expect(html.contains("aria-label=\"Cold layout against scene size, log-log\""))
    let cold = SweepChart.render(sweeps, budgetNs: 16_666_667, colours: [:], metric: .cold)
    #expect(Fixture.occurrences(of: "<polyline", in: cold) == 2)
    #expect(!cold.contains("class=\"budget\""))
    #expect(cold.contains(">cold layout</text>") && cold.contains(">size (cells)</text>"))
    let tick = SweepChart.render(sweeps, budgetNs: 16_666_667, colours: [:])
    #expect(Fixture.occurrences(of: "<polyline", in: tick) == 4)
    #expect(tick.contains("class=\"budget\""))
  }

  @Test func decadesAndLabels() {
    #expect(SweepChart.decades(10, 10_000) == 1...4)
    #expect(SweepChart.decades(0.02, 0.05) == -2...(-1))
    #expect(SweepChart.decades(100, 100) == 2...3)
    #expect(SweepChart.sizeLabel(5) == "100k")
    #expect(SweepChart.costLabel(-2) == "0.01 ms")
    #expect(SweepChart.costLabel(2) == "100 ms")
  }

  /// Writes the sample page where `HTML_REPORT_SAMPLE` points, and a page of edge cases
  /// where `HTML_REPORT_EDGE_SAMPLE` points, for looking at them in a browser; without the
  /// variables it only renders.
  @Test func samplesForBrowser() throws {
    let html = renderHTML(Fixture.sampleReport())
    let edges = RunReport(
      hz: 120, measurementOverheadNs: 2_500, environment: ["note": "edge cases"],
      results: [
        // Far under the budget: the case the autoscaled tick axis is for.
        Fixture.reportResult(
          strategy: .bottomUp, size: 300,
          samplesNs: Fixture.noisySamples(count: 600, baseMs: 0.05, spikeMs: 0.4, seed: 4),
          hz: 120),
        Fixture.reportResult(
          size: 300, samplesNs: Fixture.noisySamples(count: 40, baseMs: 0.2, seed: 5), hz: 120),
        Fixture.reportResult(size: 1, samplesNs: [3e6], hz: 120),
        Fixture.reportResult(
          size: 2, samplesNs: [Double](repeating: 4e6, count: 40), hz: 120),
        Fixture.reportResult(size: 3, samplesNs: [], hz: 120),
        Fixture.reportResult(
          size: 4, samplesNs: [Double](repeating: 2e6, count: 999) + [5e9], hz: 120),
      ])
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["HTML_REPORT_SAMPLE"] {
      try html.write(toFile: path, atomically: true, encoding: .utf8)
    }
    if let path = environment["HTML_REPORT_EDGE_SAMPLE"] {
      try renderHTML(edges).write(toFile: path, atomically: true, encoding: .utf8)
    }
    #expect(!html.isEmpty)
  }
}
