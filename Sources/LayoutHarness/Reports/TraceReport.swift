import BenchSupport
internal import Foundation
import LayoutModel

/// Renders per-tick phase timelines as a Chrome trace-event file (the JSON object form),
/// which Perfetto and chrome://tracing open directly.
///
/// All timelines share one process; each gets its own thread, named by its `key`. Every tick
/// is a complete event ("X") named "tick N" (N counts from 0 within its timeline), and inside
/// it one complete event per phase (handlers, constraints, layout, display), laid end to end
/// from the tick's start. Timestamps are microseconds from the earliest tick start of any
/// timeline, so runs measured one after another appear in the order they ran.
///
/// The tick lasts the sum of its phases rather than until the next tick's start: the gap
/// between ticks is harness bookkeeping, not work the strategy did. Zero-length phases are
/// left out: they carry nothing and clutter the lanes. Keys are sorted, so the output is
/// deterministic.
public func renderChromeTrace(_ timelines: [RunTimeline]) -> String {
  let origin = timelines.lazy.flatMap(\.ticks).map(\.startNs).min() ?? 0
  let phaseNames = TickPhase.allCases.map(\.rawValue)
  var events = [
    ChromeTraceEvent(
      name: "process_name", ph: "M", pid: ChromeTraceEvent.pid, tid: 0,
      args: .init(name: "layout-bench"))
  ]
  for (index, timeline) in timelines.enumerated() {
    let tid = index + 1
    events.append(
      ChromeTraceEvent(
        name: "thread_name", ph: "M", pid: ChromeTraceEvent.pid, tid: tid,
        args: .init(name: timeline.key)))
    // An explicit sort index keeps the lanes in the order the runs were given, whatever
    // order a viewer would pick on its own.
    events.append(
      ChromeTraceEvent(
        name: "thread_sort_index", ph: "M", pid: ChromeTraceEvent.pid, tid: tid,
        args: .init(sortIndex: index)))
    for (number, tick) in timeline.ticks.enumerated() {
      // A negative or non-finite phase is a clock fault; counting it as zero keeps the file
      // valid JSON and the phases inside their tick.
      let phases = tick.phaseNs.map { $0.isFinite && $0 > 0 ? $0 : 0 }
      let startUs = Double(tick.startNs - origin) / 1_000
      events.append(
        ChromeTraceEvent(
          name: "tick \(number)", cat: "tick", ph: "X", pid: ChromeTraceEvent.pid, tid: tid,
          ts: startUs, dur: phases.reduce(0, +) / 1_000,
          args: .init(
            tick: number, solves: tick.work?.solves, layouts: tick.work?.layouts,
            moved: tick.work?.moved, movedAgain: tick.work?.movedAgain)))
      var offsetNs = 0.0
      for (phase, ns) in phases.enumerated() {
        defer { offsetNs += ns }
        guard ns > 0 else { continue }
        let name = phase < phaseNames.count ? phaseNames[phase] : "phase \(phase)"
        events.append(
          ChromeTraceEvent(
            name: name, cat: "phase", ph: "X", pid: ChromeTraceEvent.pid, tid: tid,
            ts: startUs + offsetNs / 1_000, dur: ns / 1_000))
      }
    }
  }
  do {
    return try JSONText.encode(ChromeTraceFile(traceEvents: events))
  } catch {
    // Every number was made finite above, which is the only way encoding can fail here.
    preconditionFailure("trace encoding failed: \(error)")
  }
}

/// The top-level object of a trace file.
struct ChromeTraceFile: Encodable {
  var traceEvents: [ChromeTraceEvent]
  var displayTimeUnit = "ms"
}

/// One trace event; nil fields are left out of the JSON.
struct ChromeTraceEvent: Encodable {
  static let pid = 1

  var name: String
  var cat: String?
  var ph: String
  var pid: Int
  var tid: Int
  /// Start, in microseconds.
  var ts: Double?
  /// Duration of a complete event, in microseconds.
  var dur: Double?
  var args: Args?

  struct Args: Encodable {
    var name: String?
    var sortIndex: Int?
    var tick: Int?
    var solves: Int?
    var layouts: Int?
    var moved: Int?
    var movedAgain: Int?

    enum CodingKeys: String, CodingKey {
      case name
      case sortIndex = "sort_index"
      case tick, solves, layouts, moved
      case movedAgain = "moved_again"
    }
  }

  init(
    name: String, cat: String? = nil, ph: String, pid: Int, tid: Int, ts: Double? = nil,
    dur: Double? = nil, args: Args? = nil
  ) {
    self.name = name
    self.cat = cat
    self.ph = ph
    self.pid = pid
    self.tid = tid
    self.ts = ts
    self.dur = dur
    self.args = args
  }
}
