import BenchSupport
internal import Foundation

// MARK: - Geometry

/// An SVG canvas and the plot rectangle inside it; the margins hold the axis labels.
struct ChartFrame {
  var width: Double
  var height: Double
  var left: Double
  var right: Double
  var top: Double
  var bottom: Double

  var plotLeft: Double { left }
  var plotRight: Double { width - right }
  var plotTop: Double { top }
  var plotBottom: Double { height - bottom }
  var plotWidth: Double { plotRight - plotLeft }

  /// The opening tag. The viewBox lets CSS scale the chart to the column it sits in.
  func open(label: String) -> String {
    "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 "
      + "\(SVG.n(width)) \(SVG.n(height))\" role=\"img\" aria-label=\"\(label)\">\n"
  }

  /// Horizontal gridlines with labels at the y ticks, tick marks with labels at the x ticks.
  func grid(x: ChartScale, xTicks: AxisTicks, y: ChartScale, yTicks: AxisTicks) -> String {
    var svg = ""
    for value in yTicks.values {
      svg += SVG.line(plotLeft, y(value), plotRight, y(value), cls: "grid")
      svg += SVG.text(plotLeft - 6, y(value) + 4, yTicks.label(value), anchor: "end")
    }
    for value in xTicks.values {
      svg += SVG.line(x(value), plotBottom, x(value), plotBottom + 4, cls: "axis")
      svg += SVG.text(x(value), plotBottom + 16, xTicks.label(value), anchor: "middle")
    }
    return svg
  }

  /// The x and y axis lines along the bottom and the left of the plot.
  var axes: String {
    SVG.line(plotLeft, plotBottom, plotRight, plotBottom, cls: "axis")
      + SVG.line(plotLeft, plotTop, plotLeft, plotBottom, cls: "axis")
  }
}

/// Maps a data interval onto a pixel interval; `log` maps log10 of the value instead.
struct ChartScale {
  var low: Double
  var high: Double
  var from: Double
  var to: Double
  var log = false

  func callAsFunction(_ value: Double) -> Double {
    let v = log ? Foundation.log10(value) : value
    let span = high - low
    // A degenerate domain puts everything mid-range rather than dividing by zero.
    guard span > 0, v.isFinite else { return (from + to) / 2 }
    return from + (v - low) / span * (to - from)
  }
}

/// Round tick positions for a linear axis: steps of 1, 2 or 5 times a power of ten, with the
/// axis widened to whole steps so the outermost gridlines carry labels.
struct AxisTicks {
  var low: Double
  var high: Double
  var step: Double
  var values: [Double]
  /// Digits after the decimal point that the step needs.
  var digits: Int

  init(low rawLow: Double, high rawHigh: Double, count: Int, minimumStep: Double = 0) {
    var low = rawLow.isFinite ? rawLow : 0
    var high = rawHigh.isFinite ? rawHigh : 1
    if high <= low { high = low + max(abs(low) * 0.1, 1) }
    let rough = (high - low) / Double(max(count, 1))
    let magnitude = pow(10, (Foundation.log10(rough)).rounded(.down))
    let scaled = rough / magnitude
    var step = (scaled < 1.5 ? 1 : scaled < 3 ? 2 : scaled < 7 ? 5 : 10) * magnitude
    step = max(step, minimumStep)
    // The slack keeps round-off (20.0000000004) from adding a whole empty step.
    low = (low / step + 1e-6).rounded(.down) * step
    high = (high / step - 1e-6).rounded(.up) * step
    self.low = low
    self.high = high
    self.step = step
    digits = max(0, Int(-(Foundation.log10(step) + 1e-9).rounded(.down)))
    let count = Int(((high - low) / step).rounded())
    values = (0...count).map { low + Double($0) * step }
  }

  func label(_ value: Double) -> String { NumberFormat.fixed(value, digits) }
}

// MARK: - SVG snippets

/// Small SVG writers; coordinates carry one decimal, which is finer than a pixel.
enum SVG {
  static func n(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let tenths = (value * 10).rounded()
    if tenths.truncatingRemainder(dividingBy: 10) == 0 { return NumberFormat.fixed(tenths / 10, 0) }
    return NumberFormat.fixed(tenths / 10, 1)
  }

  static func line(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, cls: String, extra: String = ""
  ) -> String {
    "<line class=\"\(cls)\" x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\""
      + "\(extra)/>\n"
  }

  /// `text` must already be escaped.
  static func text(
    _ x: Double, _ y: Double, _ text: String, anchor: String = "start", cls: String? = nil
  ) -> String {
    let classAttribute = cls.map { " class=\"\($0)\"" } ?? ""
    return "<text\(classAttribute) x=\"\(n(x))\" y=\"\(n(y))\" text-anchor=\"\(anchor)\">"
      + "\(text)</text>\n"
  }

  static func circle(_ x: Double, _ y: Double, r: Double, cls: String, extra: String = "")
    -> String
  {
    "<circle class=\"\(cls)\" cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(r))\"\(extra)/>\n"
  }

  /// The budget's label on a white plate, so it stays legible where data crosses it. The
  /// plate's width is estimated from the character count (11px bold: about 6.3px each).
  static func budgetLabel(_ x: Double, _ y: Double, _ text: String, anchor: String = "end")
    -> String
  {
    let width = Double(text.count) * 6.3 + 6
    let left = anchor == "end" ? x - width + 3 : x - 3
    return "<rect class=\"label-plate\" x=\"\(n(left))\" y=\"\(n(y - 11))\" "
      + "width=\"\(n(width))\" height=\"15\" rx=\"2\"/>\n"
      + SVG.text(x, y, text, anchor: anchor, cls: "budget-label")
  }

  static func points(_ xy: [(Double, Double)]) -> String {
    xy.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
  }

  /// A figure for a chart that has nothing to draw.
  static func emptyFigure(_ caption: String, reason: String) -> String {
    "<figure class=\"chart empty\"><div class=\"placeholder\">\(reason)</div>"
      + "<figcaption>\(caption)</figcaption></figure>\n"
  }
}

/// Where a chart's value axis stops. The samples set it, not the budget: a run far under its
/// budget must still fill the chart, or every tick sits on the zero line. The cap is 1.5
/// times the p99 (or past the budget when that is near). Samples up to twice the cap are all
/// shown; a sample past that would squash the rest into a thin band, so the axis stops at the
/// largest sample under the cap and those above it are clipped and marked instead.
struct OutlierCap {
  var samplesMs: [Double]
  var maxMs: Double
  /// The largest sample at or under the cap: where the data shown ends when outliers clip.
  var largestUnderCapMs: Double
  var p50Ms: Double
  var p99Ms: Double
  var capMs: Double
  /// Whether the budget is close enough to the data to share an axis with it: within three
  /// times the top of the data, which then still fills a third of the chart. Farther up,
  /// showing it would flatten the data against the floor.
  var budgetIsNear: Bool

  init(samplesNs: [Double], budgetMs: Double) {
    // A non-finite sample is a measurement fault; plotting it as zero keeps the chart drawable.
    samplesMs = samplesNs.map { $0.isFinite ? max($0, 0) / 1e6 : 0 }
    let sorted = samplesMs.sorted()
    maxMs = sorted.last ?? 0
    p50Ms = sorted.isEmpty ? 0 : percentile(sorted, 0.50)
    p99Ms = sorted.isEmpty ? 0 : percentile(sorted, 0.99)
    let dataCap = p99Ms * 1.5
    let dataTop = maxMs > 2 * dataCap ? sorted.last { $0 <= dataCap } ?? 0 : maxMs
    budgetIsNear = budgetMs > 0 && budgetMs <= 3 * dataTop
    // Near the budget, spikes a little over it are the story: the cap leaves room for them.
    let capMs = budgetIsNear ? max(dataCap, budgetMs * 1.2) : dataCap
    self.capMs = capMs
    largestUnderCapMs = sorted.last { $0 <= capMs } ?? 0
  }

  var clips: Bool { maxMs > 2 * capMs }

  /// The top of the data to show: the largest sample, or when outliers clip the largest
  /// one under the cap, so that the rest fills the chart. The p99 stays in range even when
  /// it is interpolated towards an outlier, past every sample under the cap.
  var dataTopMs: Double { clips ? max(largestUnderCapMs, p99Ms) : maxMs }

  /// "40× above the p99", for a budget too far above the data to draw.
  func budgetDistance(_ budgetMs: Double) -> String {
    guard p99Ms > 0 else { return "above every tick" }
    let times = budgetMs / p99Ms
    return "\(NumberFormat.fixed(times, times >= 10 ? 0 : 1))&#215; above the p99"
  }
}

// MARK: - Per-tick cost over time

/// A line of each tick's cost in order against a linear ms axis fitted to the data. The
/// budget is a dashed line when it is near the data (the line turns red above it, and
/// isolated ticks over it get red points), and a note at the top edge when it is far above.
///
/// The axis stays linear rather than log: the chart is read for jitter and spikes, and on a
/// linear axis a tick twice as slow stands twice as tall and zero sits at the floor. A log
/// axis would make a budget 40 times the data fit, but it shrinks spikes to a few pixels and
/// needs a made-up floor for zero; the note says how far the budget is instead.
enum TickChart {
  static let caption = "Cost of each measured tick, in order"

  /// `id` must be unique in the page: it names the chart's clip path.
  static func render(samplesNs: [Double], budgetNs: Double, id: String) -> String {
    guard !samplesNs.isEmpty else { return SVG.emptyFigure(caption, reason: "no samples") }
    let budget = budgetNs / 1e6
    let cap = OutlierCap(samplesNs: samplesNs, budgetMs: budget)
    let ms = cap.samplesMs
    let frame = ChartFrame(width: 600, height: 270, left: 58, right: 16, top: 36, bottom: 40)
    // Headroom over the largest sample, and over the budget when it shares the axis; a
    // microsecond floor keeps an all-zero run drawable.
    let dataTop = cap.dataTopMs * 1.05
    let top = cap.budgetIsNear ? max(dataTop, budget * 1.15) : dataTop
    let yTicks = AxisTicks(low: 0, high: max(top, 0.001), count: 5)
    let budgetShown = budget > 0 && budget <= yTicks.high
    let xTicks = AxisTicks(low: 0, high: Double(max(ms.count - 1, 1)), count: 6, minimumStep: 1)
    let x = ChartScale(low: 0, high: xTicks.high, from: frame.plotLeft, to: frame.plotRight)
    let y = ChartScale(low: 0, high: yTicks.high, from: frame.plotBottom, to: frame.plotTop)
    func clampedY(_ value: Double) -> Double { y(min(value, yTicks.high)) }

    var svg = frame.open(label: "Per-tick cost in milliseconds")
    svg += frame.grid(x: x, xTicks: xTicks, y: y, yTicks: yTicks)
    svg += frame.axes
    svg += SVG.text(frame.plotLeft - 6, frame.plotTop - 12, "ms", anchor: "end", cls: "title")
    svg += SVG.text(frame.plotRight, frame.height - 6, "tick", anchor: "end", cls: "title")

    let shown = visibleIndices(count: ms.count, values: ms, columns: Int(frame.plotWidth))
    let points = SVG.points(shown.map { (x(Double($0)), clampedY(ms[$0])) })
    svg += "<polyline class=\"series\" points=\"\(points)\"/>\n"
    if budgetShown {
      // The same line again, red and clipped to the band above the budget: every stretch
      // over budget shows red even when thousands of ticks are.
      let clipID = "over-\(id)"
      svg += "<clipPath id=\"\(clipID)\"><rect x=\"\(SVG.n(frame.plotLeft))\" y=\"0\" "
      svg += "width=\"\(SVG.n(frame.plotWidth))\" height=\"\(SVG.n(max(y(budget), 0)))\"/>"
      svg += "</clipPath>\n<polyline class=\"series over-line\" clip-path=\"url(#\(clipID))\" "
      svg += "points=\"\(points)\"/>\n"
    }
    // Short runs get a marker per tick so a lone sample is still visible.
    if ms.count <= 60 {
      for (i, value) in ms.enumerated() where value <= min(budget, yTicks.high) {
        svg += SVG.circle(x(Double(i)), y(value), r: 2.5, cls: "point")
      }
    }
    // Isolated spikes get a red point with the exact cost as a tooltip; when most ticks are
    // over, points would only bury the line.
    let over = worstPerColumn(ms, above: budget, x: x).filter { ms[$0] <= yTicks.high }
    if over.count <= 60 {
      for i in over {
        svg += "<circle class=\"over\" cx=\"\(SVG.n(x(Double(i))))\" "
        svg += "cy=\"\(SVG.n(y(ms[i])))\" r=\"3\">\(tickTitle(i, ms[i]))</circle>\n"
      }
    }
    // Clipped ticks get a triangle on the top edge, red when they are also over budget.
    for i in worstPerColumn(ms, above: yTicks.high, x: x) {
      let cx = x(Double(i))
      let top = frame.plotTop
      let cls = ms[i] > budget ? "clipped over" : "clipped"
      svg += "<path class=\"\(cls)\" d=\"M\(SVG.n(cx - 4)),\(SVG.n(top + 7))L\(SVG.n(cx)),"
      svg +=
        "\(SVG.n(top + 1))L\(SVG.n(cx + 4)),\(SVG.n(top + 7))Z\">\(tickTitle(i, ms[i]))</path>\n"
    }

    var note = caption + " (\(ms.count) tick\(ms.count == 1 ? "" : "s"))."
    if budgetShown {
      let budgetY = y(budget)
      svg += SVG.line(frame.plotLeft, budgetY, frame.plotRight, budgetY, cls: "budget")
      svg += SVG.budgetLabel(
        frame.plotRight - 4, budgetY - 5, "\(NumberFormat.ms(budgetNs)) ms budget")
    } else if budget > 0 {
      // Far above: a note at the top edge says where the budget is, pointing up.
      let distance = cap.budgetDistance(budget)
      svg += SVG.text(
        frame.plotRight, frame.plotTop - 9,
        "&#8593; budget \(NumberFormat.ms(budgetNs)) ms: \(distance)", anchor: "end",
        cls: "budget-label")
      note += " The \(NumberFormat.ms(budgetNs)) ms budget, \(distance), lies above the range"
      note += " shown."
    }
    svg += "</svg>\n"

    let clipped = ms.filter { $0 > yTicks.high }.count
    if clipped > 0 {
      note += " <span class=\"clip\">\(clipped) tick\(clipped == 1 ? "" : "s") above "
      note += "\(yTicks.label(yTicks.high)) ms clipped at the top edge, marked &#9650; (max "
      note += "\(NumberFormat.fixed(cap.maxMs, 2)) ms).</span>"
    }
    return "<figure class=\"chart\">\n\(svg)<figcaption>\(note)</figcaption></figure>\n"
  }

  /// A tooltip with a tick's exact cost.
  static func tickTitle(_ index: Int, _ ms: Double) -> String {
    "<title>tick \(index): \(NumberFormat.fixed(ms, 3)) ms</title>"
  }

  /// The sample indices to draw. Past two per pixel column, each column keeps only its lowest
  /// and highest tick, which preserves every spike while bounding the page size.
  static func visibleIndices(count: Int, values: [Double], columns: Int) -> [Int] {
    guard count > 2 * columns, columns > 0 else { return Array(0..<count) }
    var indices: [Int] = []
    indices.reserveCapacity(2 * columns)
    for column in 0..<columns {
      let start = column * count / columns
      let end = (column + 1) * count / columns
      guard start < end else { continue }
      var low = start
      var high = start
      for i in start..<end {
        if values[i] < values[low] { low = i }
        if values[i] > values[high] { high = i }
      }
      indices.append(min(low, high))
      if low != high { indices.append(max(low, high)) }
    }
    return indices
  }

  /// Ticks above `threshold` (the budget, or the top of the axis), at most one per pixel
  /// column (the worst), in tick order.
  static func worstPerColumn(_ ms: [Double], above threshold: Double, x: ChartScale) -> [Int] {
    var markers: [Int] = []
    var lastColumn = Int.min
    for (i, value) in ms.enumerated() where value > threshold {
      let column = Int(x(Double(i)).rounded(.down))
      if column == lastColumn, let last = markers.last {
        if value > ms[last] { markers[markers.count - 1] = i }
      } else {
        markers.append(i)
        lastColumn = column
      }
    }
    return markers
  }
}

// MARK: - Histogram

/// How tick costs are distributed: about 30 equal bins on a linear ms axis, p50 and p99 as
/// labelled lines, and the budget as a vertical line when it falls in the range shown.
enum TickHistogram {
  static let caption = "Distribution of tick costs"
  static let binCount = 30

  static func render(samplesNs: [Double], budgetNs: Double) -> String {
    guard !samplesNs.isEmpty else { return SVG.emptyFigure(caption, reason: "no samples") }
    let budget = budgetNs / 1e6
    let cap = OutlierCap(samplesNs: samplesNs, budgetMs: budget)
    let ms = cap.samplesMs
    var low = ms.min() ?? 0
    var high = cap.dataTopMs
    // Equal samples would give zero-width bins; widen to a small window around the value.
    if high - low < max(1e-9, abs(high) * 1e-6) {
      let pad = max(abs(high) * 0.05, 0.001)
      low = max(0, low - pad)
      high += pad
    }
    let xTicks = AxisTicks(low: low, high: high, count: 6)
    let width = (xTicks.high - xTicks.low) / Double(binCount)
    var counts = [Int](repeating: 0, count: binCount)
    var overflow = 0
    for value in ms {
      if value > xTicks.high {
        overflow += 1
      } else {
        // The nudge keeps a value on a bin edge (3.00 with 0.01 bins) out of the bin below,
        // where round-off in the division would put it.
        let bin = Int((value - xTicks.low) / width + 1e-9)
        counts[min(binCount - 1, max(0, bin))] += 1
      }
    }

    // The same frame as the tick chart's, so the two line up side by side.
    let frame = ChartFrame(width: 600, height: 270, left: 58, right: 16, top: 36, bottom: 40)
    let yTicks = AxisTicks(
      low: 0, high: Double(max(counts.max() ?? 1, 1)), count: 4, minimumStep: 1)
    let x = ChartScale(
      low: xTicks.low, high: xTicks.high, from: frame.plotLeft, to: frame.plotRight)
    let y = ChartScale(low: 0, high: yTicks.high, from: frame.plotBottom, to: frame.plotTop)

    var svg = frame.open(label: "Histogram of tick costs in milliseconds")
    svg += frame.grid(x: x, xTicks: xTicks, y: y, yTicks: yTicks)
    for (bin, count) in counts.enumerated() where count > 0 {
      let start = xTicks.low + Double(bin) * width
      let left = x(start) + 0.5
      let barWidth = max(x(start + width) - x(start) - 1, 0.5)
      // A bin is red when most of it lies past the budget.
      let cls = start + width / 2 > budget ? "hbar over" : "hbar"
      let range = "\(NumberFormat.fixed(start, 3))&#8211;\(NumberFormat.fixed(start + width, 3)) ms"
      svg += "<rect class=\"\(cls)\" x=\"\(SVG.n(left))\" y=\"\(SVG.n(y(Double(count))))\" "
      svg +=
        "width=\"\(SVG.n(barWidth))\" height=\"\(SVG.n(frame.plotBottom - y(Double(count))))\">"
      svg += "<title>\(range): \(count) tick\(count == 1 ? "" : "s")</title></rect>\n"
    }
    svg += frame.axes
    svg += SVG.text(frame.plotLeft - 6, frame.plotTop - 12, "ticks", anchor: "end", cls: "title")
    svg += SVG.text(frame.plotRight, frame.height - 6, "ms", anchor: "end", cls: "title")

    // p50 and p99 over the bars, their values above the plot: one row each, so the labels
    // never collide however close the two are (all ticks equal puts them on one line).
    for (name, valueMs, row) in [("p50", cap.p50Ms, 18.0), ("p99", cap.p99Ms, 5.0)] {
      let qx = x(valueMs)
      svg += SVG.line(qx, frame.plotTop, qx, frame.plotBottom, cls: "quantile \(name)")
      let label = "\(name) \(NumberFormat.ms(valueMs * 1e6)) ms"
      // Centred on the line unless that runs off an edge; then it is aligned to the edge,
      // which needs no exact text width (about 7px a character in bold 11px is generous).
      let half = Double(label.count) * 3.5
      let (lx, anchor) =
        qx + half > frame.width - 2
        ? (frame.width - 2, "end")
        : qx - half < frame.plotLeft ? (frame.plotLeft, "start") : (qx, "middle")
      svg += SVG.text(lx, frame.plotTop - row, label, anchor: anchor, cls: "quantile-label")
    }

    var note =
      caption + " (\(binCount) bins of \(NumberFormat.fixed(width, xTicks.digits + 1)) ms);"
    note += " lines at p50 (solid) and p99 (dotted)."
    if budget >= xTicks.low && budget <= xTicks.high {
      let bx = x(budget)
      svg += SVG.line(bx, frame.plotTop, bx, frame.plotBottom, cls: "budget")
      // The label goes on whichever side of the line has room.
      let rightHalf = bx > (frame.plotLeft + frame.plotRight) / 2
      svg += SVG.budgetLabel(
        rightHalf ? bx - 5 : bx + 5, frame.plotTop + 10, "\(NumberFormat.ms(budgetNs)) ms budget",
        anchor: rightHalf ? "end" : "start")
    } else {
      let side = budget > xTicks.high ? "above" : "below"
      note += " The \(NumberFormat.ms(budgetNs)) ms budget lies \(side) the range shown."
    }
    svg += "</svg>\n"
    if overflow > 0 {
      note += " <span class=\"clip\">\(overflow) tick\(overflow == 1 ? "" : "s") above "
      note +=
        "\(xTicks.label(xTicks.high)) ms not shown (max \(NumberFormat.fixed(cap.maxMs, 2)) ms)."
      note += "</span>"
    }
    return "<figure class=\"chart\">\n\(svg)<figcaption>\(note)</figcaption></figure>\n"
  }
}

// MARK: - Sweeps (log-log)

/// Cost against size on log10 axes, one colour per strategy: tick cost (p99 solid, p50
/// dashed, the budget line) or cold layout (the build and first layout of each size).
enum SweepChart {
  enum Metric {
    case tick
    case cold
  }

  /// Okabe-Ito colours without their vermilion, which the budget line uses.
  static let palette = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#6A3D9A", "#000000", "#8C564B",
  ]

  /// The lines a sweep draws for `metric`: values in ns per size, dashed or not.
  static func lines(_ sweep: SweepResult, _ metric: Metric) -> [(values: [Double], dashed: Bool)] {
    switch metric {
    case .tick: [(sweep.p50Ns, true), (sweep.p99Ns, false)]
    case .cold: sweep.coldNs.map { [($0, false)] } ?? []
    }
  }

  static func render(
    _ sweeps: [SweepResult], budgetNs: Double, colours: [String: String], metric: Metric = .tick
  ) -> String {
    // A chart shows one shape (the page groups sweeps by shape), so the axis takes its unit.
    let shapes = Set(sweeps.map(\.shape))
    let size = shapes.count == 1 ? "size (\(shapes.first?.sizeUnit ?? "views"))" : "size"
    let caption =
      metric == .tick
      ? "p99 (solid) and p50 (dashed) tick cost against \(size), log10 axes"
      : "Cold layout (building the scene and laying it out once) against \(size), log10 axes"
    // The frame budget bounds a tick, not a build.
    let budget = metric == .tick ? budgetNs / 1e6 : 0
    var sizes: [Double] = []
    var costs: [Double] = budget > 0 ? [budget] : []
    for sweep in sweeps {
      for line in lines(sweep, metric) {
        for (size, value) in zip(sweep.sizes, line.values) where size > 0 {
          sizes.append(Double(size))
          if value > 0 && value.isFinite { costs.append(value / 1e6) }
        }
      }
    }
    guard let minSize = sizes.min(), let maxSize = sizes.max(), costs.count > (budget > 0 ? 1 : 0)
    else {
      return SVG.emptyFigure(caption, reason: "no positive sizes and costs to plot")
    }
    let xRange = decades(minSize, maxSize)
    let yRange = decades(costs.min() ?? 1, costs.max() ?? 1)
    let frame = ChartFrame(width: 820, height: 340, left: 70, right: 200, top: 20, bottom: 44)
    let x = ChartScale(
      low: Double(xRange.lowerBound), high: Double(xRange.upperBound), from: frame.plotLeft,
      to: frame.plotRight, log: true)
    let y = ChartScale(
      low: Double(yRange.lowerBound), high: Double(yRange.upperBound), from: frame.plotBottom,
      to: frame.plotTop, log: true)

    let what = metric == .tick ? "tick cost" : "cold layout"
    let title = metric == .tick ? "Tick cost" : "Cold layout"
    var svg = frame.open(label: "\(title) against scene size, log-log")
    svg += logGrid(xRange) { value, cls in
      SVG.line(x(value), frame.plotTop, x(value), frame.plotBottom, cls: cls)
    } label: { decade in
      SVG.text(
        x(pow(10, Double(decade))), frame.plotBottom + 16, sizeLabel(decade), anchor: "middle")
    }
    // Over many decades every other label keeps the cost axis legible.
    let yLabelEvery = yRange.count > 8 ? 2 : 1
    svg += logGrid(yRange) { value, cls in
      SVG.line(frame.plotLeft, y(value), frame.plotRight, y(value), cls: cls)
    } label: { decade in
      guard (decade - yRange.lowerBound) % yLabelEvery == 0 else { return "" }
      return SVG.text(
        frame.plotLeft - 6, y(pow(10, Double(decade))) + 4, costLabel(decade), anchor: "end")
    }
    svg += frame.axes
    svg += SVG.text(frame.plotRight, frame.height - 6, size, anchor: "end", cls: "title")
    svg += SVG.text(4, frame.plotTop - 8, what, anchor: "start", cls: "title")

    if budget > 0 {
      svg += SVG.line(frame.plotLeft, y(budget), frame.plotRight, y(budget), cls: "budget")
    }
    for sweep in sweeps {
      let colour = colours[sweep.strategy.rawValue] ?? palette[0]
      for (values, dashed) in lines(sweep, metric) {
        let points = zip(sweep.sizes, values).filter { $0.0 > 0 && $0.1 > 0 && $0.1.isFinite }
          .map { (x(Double($0.0)), y($0.1 / 1e6)) }
        guard !points.isEmpty else { continue }
        let dash = dashed ? " stroke-dasharray=\"5 4\"" : ""
        svg += "<polyline class=\"sweep-line\" stroke=\"\(colour)\"\(dash) points=\""
        svg += SVG.points(points) + "\"/>\n"
        for point in points {
          let fill = dashed ? "#fff" : colour
          svg += SVG.circle(
            point.0, point.1, r: 3, cls: "sweep-point",
            extra: " fill=\"\(fill)\" stroke=\"\(colour)\"")
        }
      }
    }
    // The label goes on last so no strategy's line runs over it.
    if budget > 0 {
      let label = "\(NumberFormat.ms(budgetNs)) ms budget"
      svg += SVG.budgetLabel(frame.plotRight - 4, y(budget) - 5, label)
    }
    svg += legend(sweeps, colours: colours, frame: frame, styles: metric == .tick)
    svg += "</svg>\n"
    return "<figure class=\"chart wide\">\n\(svg)<figcaption>\(caption).</figcaption></figure>\n"
  }

  /// Whole decades (powers of ten) covering `low...high`, at least one.
  static func decades(_ low: Double, _ high: Double) -> ClosedRange<Int> {
    let first = Int(Foundation.log10(low).rounded(.down))
    var last = Int(Foundation.log10(high).rounded(.up))
    if last <= first { last = first + 1 }
    return first...last
  }

  /// Decade gridlines with labels, and fainter lines at 2...9 times each decade.
  static func logGrid(
    _ range: ClosedRange<Int>, line: (Double, String) -> String, label: (Int) -> String
  ) -> String {
    var svg = ""
    for decade in range {
      let base = pow(10, Double(decade))
      if decade < range.upperBound {
        for step in 2...9 { svg += line(base * Double(step), "grid minor") }
      }
      svg += line(base, "grid") + label(decade)
    }
    return svg
  }

  static func sizeLabel(_ decade: Int) -> String {
    switch decade {
    case ..<0: NumberFormat.fixed(pow(10, Double(decade)), -decade)
    case 0..<3: String(Int(pow(10, Double(decade))))
    case 3..<6: "\(Int(pow(10, Double(decade - 3))))k"
    default: "\(Int(pow(10, Double(min(decade - 6, 12)))))M"
    }
  }

  static func costLabel(_ decade: Int) -> String {
    switch decade {
    case ..<0: "\(NumberFormat.fixed(pow(10, Double(decade)), -decade)) ms"
    case 0..<3: "\(Int(pow(10, Double(decade)))) ms"
    default: "\(Int(pow(10, Double(min(decade - 3, 12))))) s"
    }
  }

  /// One row per strategy, then what the line styles mean, in the right margin.
  /// One swatch per strategy, then (for tick charts) what solid, dashed and red mean.
  static func legend(
    _ sweeps: [SweepResult], colours: [String: String], frame: ChartFrame, styles: Bool
  ) -> String {
    let left = frame.plotRight + 18
    var top = frame.plotTop + 10
    var svg = ""
    var seen: Set<String> = []
    for sweep in sweeps where seen.insert(sweep.strategy.rawValue).inserted {
      let colour = colours[sweep.strategy.rawValue] ?? palette[0]
      svg += SVG.line(
        left, top, left + 22, top, cls: "legend-swatch", extra: " stroke=\"\(colour)\"")
      // Long names are shortened to fit the margin; the full name stays in a tooltip.
      let name = sweep.strategy.rawValue
      let short = name.count > 22 ? String(name.prefix(21)) + "\u{2026}" : name
      svg += "<text x=\"\(SVG.n(left + 30))\" y=\"\(SVG.n(top + 4))\" class=\"legend\">"
      svg += "<title>\(HTMLText.escape(name))</title>\(HTMLText.escape(short))</text>\n"
      top += 20
    }
    guard styles else { return svg }
    top += 8
    svg += SVG.line(left, top, left + 22, top, cls: "legend-swatch", extra: " stroke=\"#57606a\"")
    svg += SVG.text(left + 30, top + 4, "p99", cls: "legend")
    top += 20
    svg += SVG.line(
      left, top, left + 22, top, cls: "legend-swatch",
      extra: " stroke=\"#57606a\" stroke-dasharray=\"5 4\"")
    svg += SVG.text(left + 30, top + 4, "p50", cls: "legend")
    top += 20
    svg += SVG.line(left, top, left + 22, top, cls: "budget")
    svg += SVG.text(left + 30, top + 4, "budget", cls: "legend")
    return svg
  }
}
