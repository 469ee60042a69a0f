import Foundation
import Testing

@testable import LayoutHarness

/// A parsed trace event, with the fields the tests look at.
private struct ParsedEvent {
  var name: String
  var ph: String
  var tid: Int
  var ts: Double
  var dur: Double
  var cat: String?
  var argName: String?

  init(_ object: [String: Any]) throws {
    name = try #require(object["name"] as? String)
    ph = try #require(object["ph"] as? String)
    tid = try #require((object["tid"] as? NSNumber)?.intValue)
    ts = (object["ts"] as? NSNumber)?.doubleValue ?? 0
    dur = (object["dur"] as? NSNumber)?.doubleValue ?? 0
    cat = object["cat"] as? String
    argName = (object["args"] as? [String: Any])?["name"] as? String
  }
}

/// Parses the trace as any viewer would, through JSONSerialization.
private func parseTrace(_ json: String) throws -> (unit: String?, events: [ParsedEvent]) {
  let root = try JSONSerialization.jsonObject(with: Data(json.utf8))
  let object = try #require(root as? [String: Any])
  let events = try #require(object["traceEvents"] as? [[String: Any]])
  return (object["displayTimeUnit"] as? String, try events.map(ParsedEvent.init))
}

/// Two runs that started 5 ms apart on the monotonic clock, one with a zero-length phase and
/// one with a key that needs JSON escaping.
private func sampleTimelines() -> [RunTimeline] {
  let base: UInt64 = 9_000_000_000
  return [
    RunTimeline(
      key: "autolayout/feed100/setTextx2",
      ticks: [
        TickTimeline(startNs: base, phaseNs: [1_500, 20_000, 7_250, 800]),
        TickTimeline(startNs: base + 16_666_667, phaseNs: [1_200, 0, 6_000, 750]),
      ]),
    RunTimeline(
      key: "frames/\"deep\"\n12/resize\\x1",
      ticks: [
        TickTimeline(startNs: base + 5_000_000, phaseNs: [333, 4_444, 55_555, 0]),
        TickTimeline(startNs: base + 21_000_000, phaseNs: [100, 200, 300, 400]),
        TickTimeline(startNs: base + 38_000_000, phaseNs: [0, 0, 0, 1_001]),
      ]),
  ]
}

@Suite struct TraceReportTests {
  @Test func parsesAsTraceEventObject() throws {
    let trace = try parseTrace(renderChromeTrace(sampleTimelines()))
    #expect(trace.unit == "ms")
    #expect(trace.events.allSatisfy { ["M", "X"].contains($0.ph) })
    // One process for everything.
    let process = trace.events.filter { $0.name == "process_name" }
    #expect(process.count == 1)
  }

  @Test func oneNamedThreadPerTimeline() throws {
    let timelines = sampleTimelines()
    let events = try parseTrace(renderChromeTrace(timelines)).events
    let names = events.filter { $0.ph == "M" && $0.name == "thread_name" }
    #expect(names.count == timelines.count)
    #expect(names.map { $0.argName ?? "" } == timelines.map(\.key))
    #expect(Set(names.map(\.tid)).count == timelines.count)
  }

  @Test func tickLastsTheSumOfItsPhases() throws {
    let timelines = sampleTimelines()
    let events = try parseTrace(renderChromeTrace(timelines)).events
    let threads = events.filter { $0.name == "thread_name" }
    for (timeline, thread) in zip(timelines, threads) {
      let ticks = events.filter { $0.tid == thread.tid && $0.cat == "tick" }
      #expect(ticks.map(\.name) == timeline.ticks.indices.map { "tick \($0)" })
      for (tick, event) in zip(timeline.ticks, ticks) {
        #expect(abs(event.dur - tick.totalNs / 1_000) < 1e-9)
      }
    }
  }

  @Test func phasesNestInsideTheirTickEndToEnd() throws {
    let timelines = sampleTimelines()
    let events = try parseTrace(renderChromeTrace(timelines)).events
    let threads = events.filter { $0.name == "thread_name" }
    let phaseNames = ["handlers", "constraints", "layout", "display"]
    for (timeline, thread) in zip(timelines, threads) {
      let lane = events.filter { $0.tid == thread.tid && $0.ph == "X" }
      let ticks = lane.filter { $0.cat == "tick" }
      let phases = lane.filter { $0.cat == "phase" }
      for (tickTimeline, tick) in zip(timeline.ticks, ticks) {
        let inside = phases.filter { $0.ts >= tick.ts - 1e-9 && $0.ts < tick.ts + tick.dur }
          .sorted { $0.ts < $1.ts }
        // Zero-length phases are skipped; the rest appear in phase order.
        let expected = zip(phaseNames, tickTimeline.phaseNs).filter { $0.1 > 0 }
        #expect(inside.map(\.name) == expected.map(\.0))
        for (event, (_, ns)) in zip(inside, expected) {
          #expect(abs(event.dur - ns / 1_000) < 1e-9)
        }
        var cursor = tick.ts
        for (phase, ns) in zip(phaseNames, tickTimeline.phaseNs) {
          if let event = inside.first(where: { $0.name == phase }) {
            #expect(abs(event.ts - cursor) < 1e-6, "\(phase) starts where the last one ended")
          }
          cursor += ns / 1_000
        }
        #expect(abs(cursor - (tick.ts + tick.dur)) < 1e-6)
      }
    }
  }

  @Test func timestampsStartAtZeroInMicroseconds() throws {
    let events = try parseTrace(renderChromeTrace(sampleTimelines())).events
    let spans = events.filter { $0.ph == "X" }
    #expect(spans.map(\.ts).min() == 0)
    // The second run started 5 ms (5000 µs) after the first.
    let second = try #require(spans.first { $0.tid == 2 && $0.name == "tick 0" })
    #expect(abs(second.ts - 5_000) < 1e-9)
    let later = try #require(spans.first { $0.tid == 1 && $0.name == "tick 1" })
    #expect(abs(later.ts - 16_666.667) < 1e-6)
  }

  @Test func emptyAndFaultyInputStayValid() throws {
    let empty = try parseTrace(renderChromeTrace([]))
    #expect(empty.events.count == 1)
    let faulty = RunTimeline(
      key: "x", ticks: [TickTimeline(startNs: 10, phaseNs: [.nan, -5, .infinity, 2_000])])
    let events = try parseTrace(renderChromeTrace([faulty])).events
    let phases = events.filter { $0.cat == "phase" }
    #expect(phases.map(\.name) == ["display"])
    #expect(events.first { $0.cat == "tick" }?.dur == 2)
  }

  /// Each tick carries the counters that explain its cost, from a real run: eager with four
  /// cells configured per tick solves once per change that moves the layout; coalesced once.
  @Test func ticksCarryTheirWorkAsArguments() throws {
    let settings = RunSettings(
      strategies: [.coalesced, .eager], ticks: 3, warmupTicks: 1, timeLimitNs: nil,
      minimumTicks: 3, verifyFrames: true)
    let timelines = try ScenarioRunner(settings: settings).run(
      Scenario(shape: .feed, size: 10, mutation: .configure, perTick: 4)
    ).timelines
    let root = try JSONSerialization.jsonObject(with: Data(renderChromeTrace(timelines).utf8))
    let events = try #require((root as? [String: Any])?["traceEvents"] as? [[String: Any]])
    let ticks = events.filter { ($0["cat"] as? String) == "tick" }
    #expect(ticks.count == 6)
    var solvesByLane: [Int: [Int]] = [:]
    for tick in ticks {
      let args = try #require(tick["args"] as? [String: Any])
      let tid = try #require(tick["tid"] as? Int)
      for key in ["solves", "layouts", "moved", "moved_again"] {
        #expect(args[key] is Int, "\(key) missing in \(args)")
      }
      solvesByLane[tid, default: []].append(args["solves"] as? Int ?? -1)
    }
    // Lane 1 is coalesced (one solve a tick at most), lane 2 eager (one per change).
    #expect(solvesByLane[1]!.allSatisfy { $0 <= 1 })
    #expect(solvesByLane[2]!.reduce(0, +) > solvesByLane[1]!.reduce(0, +), "\(solvesByLane)")
  }

  @Test func sameInputGivesSameBytes() {
    #expect(renderChromeTrace(sampleTimelines()) == renderChromeTrace(sampleTimelines()))
  }
}
