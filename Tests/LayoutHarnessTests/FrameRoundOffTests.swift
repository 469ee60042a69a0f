import LayoutHarness
import LayoutModel
import Testing

/// Frames laid out by the solver do not move by round-off: a dual pivot that rewrites the
/// rows of a grid's cells sums the same frame an ulp away, and a view that took it for a
/// move laid its subviews out again (`Solver.value(of:)` keeps such readings). Bottom-up
/// sizing, which sets frames without the solver, is held to the same rule.
@Suite struct FrameRoundOffTests {
  /// Runs `ticks` ticks of `scenario` under `kind`, and expects them to move frames (the
  /// test watches something) and none by less than 1e-9 points.
  static func expectNoRoundOffMoves(
    _ scenario: Scenario, _ kind: StrategyKind, ticks: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let (scene, generator) = scenario.makeScene()
    var workload = MutationWorkload(scenario: scenario, scene: scene, generator: generator)
    let strategy = try LayoutStrategy(kind, scene: scene)
    try strategy.tick([])
    func frames() -> [ObjectIdentifier: Rect] {
      var result: [ObjectIdentifier: Rect] = [:]
      for view in strategy.tree.views.values { result[ObjectIdentifier(view)] = view.frame }
      return result
    }
    var last = frames()
    var moved = 0
    var roundOff: [String] = []
    for tick in 0..<ticks {
      try strategy.tick(workload.next())
      let now = frames()
      for (id, frame) in now {
        guard let before = last[id] else { continue }
        let deltas = [
          frame.origin.x - before.origin.x, frame.origin.y - before.origin.y,
          frame.size.width - before.size.width, frame.size.height - before.size.height,
        ].map(abs)
        if deltas.contains(where: { $0 > 0 }) { moved += 1 }
        if let tiny = deltas.first(where: { $0 > 0 && $0 < 1.0e-9 }) {
          roundOff.append("tick \(tick): \(frame) moved by \(tiny)")
        }
      }
      last = now
    }
    #expect(moved > 100, sourceLocation: sourceLocation)
    let count = roundOff.count
    #expect(
      count == 0, "round-off moves, the first: \(roundOff.prefix(3))",
      sourceLocation: sourceLocation)
  }

  @Test(arguments: StrategyKind.allCases)
  func textTicksOnAGridMoveNoFrameByRoundOff(strategy kind: StrategyKind) throws {
    // A grid of 100 views: its text ticks moved frames by 1.4e-14 points within 50 ticks
    // before read-outs kept readings within round-off.
    let scenario = Scenario(shape: .grid, size: 100, mutation: .text, perTick: 2, seed: 1)
    try Self.expectNoRoundOffMoves(scenario, kind, ticks: 80)
  }

  @Test(arguments: StrategyKind.allCases)
  func textTicksOnAFeedMoveNoFrameByRoundOff(strategy kind: StrategyKind) throws {
    // A feed of 100 cells (1,101 views): a cell's frame is summed from the heights above
    // it, where a threshold on the value alone could miss the round-off of large terms.
    let scenario = Scenario(shape: .feed, size: 100, mutation: .text, perTick: 2, seed: 3)
    try Self.expectNoRoundOffMoves(scenario, kind, ticks: 40)
  }
}
