import Foundation
import LayoutHarness
import LayoutModel
import Testing

/// Seeded random scenes and mutation sequences: after every tick the three strategies give
/// every view the same frame, and at the end they agree with a fresh layout of the final
/// scene (so incremental layout is not merely consistent, but right).
@Suite struct StrategyPropertyTests {
  /// Runs `ticks` ticks of random mutations (1-3 per tick) on `scene` under the three
  /// strategies, checking frames after each, then against fresh trees of the final scene.
  func check(scene start: Scene, generator: inout SceneGenerator, ticks: Int) throws {
    var scene = start
    generator.continueIDs(after: scene)
    let strategies = try StrategyKind.allCases.map { try LayoutStrategy($0, scene: scene) }
    for strategy in strategies { try strategy.tick([]) }
    try FrameCheck.compare(strategies)
    for _ in 0..<ticks {
      var batch: [SceneMutation] = []
      for _ in 0..<generator.rng.int(in: 1...3) {
        let mutation = generator.randomMutation(of: scene)
        try scene.apply(mutation)
        batch.append(mutation)
      }
      for strategy in strategies { try strategy.tick(batch) }
      do {
        try FrameCheck.compare(strategies)
      } catch {
        Issue.record("after \(batch): \(error)")
        return
      }
    }
    let fresh = try [StrategyKind.coalesced, .bottomUp].map { try LayoutStrategy($0, scene: scene) }
    for strategy in fresh { try strategy.tick([]) }
    try FrameCheck.compare([
      ("incremental coalesced", strategies[0].tree), ("incremental eager", strategies[1].tree),
      ("incremental bottom-up", strategies[2].tree), ("fresh coalesced", fresh[0].tree),
      ("fresh bottom-up", fresh[1].tree),
    ])
  }

  /// 40 by default; set `LAYOUT_SCENE_SEEDS` for a longer soak run (each seed is a
  /// different random scene and 15 ticks of random mutations).
  static let sceneSeeds = UInt64(
    ProcessInfo.processInfo.environment["LAYOUT_SCENE_SEEDS"].flatMap { Int($0) } ?? 40)

  @Test(arguments: 0..<sceneSeeds)
  func randomScenesAgreeAfterEveryTick(seed: UInt64) throws {
    // Widths are budgeted for the narrowest window the mutations resize to.
    var generator = SceneGenerator(seed: seed, windowSize: Size(width: 300, height: 700))
    var scene = generator.random(views: 20 + Int(seed % 7) * 15)
    scene.windowSize = Size(width: 390, height: 700)
    try check(scene: scene, generator: &generator, ticks: 15)
  }

  @Test(arguments: [UInt64(1), 2, 3])
  func feedsAgreeAfterEveryTick(seed: UInt64) throws {
    var generator = SceneGenerator(seed: seed, windowSize: Size(width: 300, height: 700))
    let scene = generator.feed(cells: 12)
    try check(scene: scene, generator: &generator, ticks: 15)
  }

  @Test func deepAndBalancedScenesAgree() throws {
    var generator = SceneGenerator(seed: 7, windowSize: Size(width: 300, height: 700))
    try check(scene: generator.deep(depth: 30), generator: &generator, ticks: 8)
    try check(scene: generator.balanced(branching: 3, depth: 4), generator: &generator, ticks: 8)
    try check(scene: generator.wide(count: 60), generator: &generator, ticks: 8)
  }

  @Test func treesOfDifferentSizesAreAMismatchOfViewCounts() throws {
    var generator = SceneGenerator(seed: 3)
    let small = try LayoutStrategy(.coalesced, scene: generator.wide(count: 3))
    let large = try LayoutStrategy(.bottomUp, scene: generator.wide(count: 5))
    try small.tick([])
    try large.tick([])
    let expected = FrameMismatch.viewCount(
      first: .init(label: "coalesced", value: small.tree.views.count),
      second: .init(label: "bottom-up", value: large.tree.views.count))
    #expect(small.tree.views.count != large.tree.views.count)
    #expect(throws: expected) { try FrameCheck.compare([small, large]) }
  }

  @Test func aMismatchNamesTheViewAndBothFrames() throws {
    var generator = SceneGenerator(seed: 5)
    let scene = generator.feed(cells: 3)
    let a = try LayoutStrategy(.coalesced, scene: scene)
    let b = try LayoutStrategy(.bottomUp, scene: scene)
    try a.tick([])
    try b.tick([])
    // Change one tree only: the check must catch it and say where.
    let body = scene.root.content.children[1].content.children[1]
    try b.tick([.setText(id: body.id, text: String(repeating: "longer text ", count: 30))])
    #expect {
      try FrameCheck.compare([a, b])
    } throws: { error in
      guard case .frame(let view, _, let first, let second) = error as? FrameMismatch else {
        return false
      }
      return view.contains("cell1") && first.label == "coalesced" && second.label == "bottom-up"
        && !first.value.isApproximatelyEqual(to: second.value)
        && "\(error)".contains("cell1")
    }
  }
}

/// Counters tell the strategies apart: the point of the comparison.
@Suite struct StrategyCounterTests {
  /// Texts alternate between one line and many, so every change moves the layout.
  func textChanges(_ scene: Scene, count: Int, round: Int) -> [SceneMutation] {
    let bodies = SceneIndex(scene).labels.filter { id in
      var isBody = false
      scene.forEachNode { if $0.id == id { isBody = $0.name.hasSuffix(".body") } }
      return isBody
    }
    return (0..<count).map { k in
      let long = (round + k) % 2 == 0
      return .setText(
        id: bodies[k], text: long ? String(repeating: "wrap me please ", count: 20) : "short")
    }
  }

  @Test(arguments: [1, 4, 9])
  func eagerSolvesOncePerMutationCoalescedOncePerTick(k: Int) throws {
    var generator = SceneGenerator(seed: 11)
    let scene = generator.feed(cells: 20)
    let coalesced = try LayoutStrategy(.coalesced, scene: scene)
    let eager = try LayoutStrategy(.eager, scene: scene)
    let bottomUp = try LayoutStrategy(.bottomUp, scene: scene)
    for s in [coalesced, eager, bottomUp] { try s.tick([]) }
    for round in 0..<3 {
      let batch = textChanges(scene, count: k, round: round)
      let before = (coalesced.window.counters, eager.window.counters, bottomUp.window.counters)
      for s in [coalesced, eager, bottomUp] { try s.tick(batch) }
      let c = coalesced.window.counters - before.0
      let e = eager.window.counters - before.1
      let b = bottomUp.window.counters - before.2
      #expect(c.solves == 1)
      #expect(e.solves == k)
      // Each solve is followed by a layout pass; eager's end-of-tick cycle finds nothing.
      #expect(e.layoutRounds == k)
      #expect(c.layoutRounds == 1)
      // Bottom-up never touches a solver.
      #expect(b.solves == 0 && b.solverPivots == 0 && b.constraintsChanged == 0)
      #expect(b.sizeThatFits > 0)
      // Each text change is one in-place change per axis of the intrinsic size (one
      // equality each: the text's width on one line and its wrapped height), never
      // add/remove.
      #expect(c.constraintsChanged == 2 * k && c.constraintsAdded == 0 && c.constraintsRemoved == 0)
      try FrameCheck.compare([coalesced, eager, bottomUp])
    }
  }

  /// Frames moved per tick: coalesced and bottom-up move the same views once each; eager
  /// moves the cells below each changed body once per change, so it moves more views (some
  /// only to intermediate places they leave again) and sets frames again within the tick.
  /// (The solver's values are updated lazily, row by row, so its counters need not differ.)
  @Test(arguments: [1, 4])
  func eagerMovesFramesAgainWithinATick(k: Int) throws {
    var generator = SceneGenerator(seed: 11)
    let scene = generator.feed(cells: 20)
    let strategies = try StrategyKind.allCases.map { try LayoutStrategy($0, scene: scene) }
    for s in strategies { try s.tick([]) }
    for round in 0..<3 {
      let batch = textChanges(scene, count: k, round: round)
      let before = strategies.map(\.window.counters)
      for s in strategies { try s.tick(batch) }
      let d = zip(strategies, before).map { $0.window.counters - $1 }
      let (c, e, b) = (d[0], d[1], d[2])
      #expect(c.framesChanged > 0 && c.framesChangedAgain == 0)
      #expect(b.framesChanged > 0 && b.framesChangedAgain == 0)
      #expect(b.framesChanged == c.framesChanged)
      if k == 1 {
        #expect(e.framesChanged == c.framesChanged && e.framesChangedAgain == 0)
      } else {
        #expect(e.framesChanged - e.framesChangedAgain >= c.framesChanged)
        #expect(e.framesChangedAgain > 0)
        #expect(e.layoutSubviews > c.layoutSubviews)
      }
      #expect(c.framesAssigned >= c.framesChanged && c.solverValuesUpdated > 0)
      #expect(b.solverRowsTouched == 0 && b.solverValuesUpdated == 0)
    }
  }
}
