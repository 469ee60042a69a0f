@testable import LayoutHarness
import LayoutModel
import Testing

/// `FrameCheck.compare` walks two trees side by side and takes the comparison by scene id
/// only when the walk finds anything else than the same views with the same frames: the
/// walk must be taken when the strategies agree (or the check costs 96% of a large run
/// again), and must refuse anything the comparison by id would judge differently.
@Suite struct FrameCheckWalkTests {
  func agreeingStrategies() throws -> (LayoutStrategy, LayoutStrategy) {
    var generator = SceneGenerator(seed: 11)
    let scene = generator.feed(cells: 6)
    let a = try LayoutStrategy(.coalesced, scene: scene)
    let b = try LayoutStrategy(.bottomUp, scene: scene)
    try a.tick([])
    try b.tick([])
    return (a, b)
  }

  @Test func agreeingTreesAreJudgedByTheWalk() throws {
    let (a, b) = try agreeingStrategies()
    #expect(FrameCheck.sameShapeAndFrames(a.tree, b.tree, FrameCheck.defaultTolerance))
    try FrameCheck.compare([a, b])
  }

  /// A view outside the scene (tag 0) is skipped by the comparison by id: the walk leaves
  /// it to that comparison, which passes as it always did.
  @Test func aViewOutsideTheSceneGoesToTheComparisonByID() throws {
    let (a, b) = try agreeingStrategies()
    let cell = try #require(a.tree.window.subviews.first?.subviews.first)
    try cell.addSubview(View(name: "overlay"))
    #expect(!FrameCheck.sameShapeAndFrames(a.tree, b.tree, FrameCheck.defaultTolerance))
    try FrameCheck.compare([a, b])
  }

  /// Views of different ids side by side (here: one tree's tags shifted) are not a pair.
  @Test func differentIDsSideBySideAreNotAPair() throws {
    let (a, b) = try agreeingStrategies()
    let view = try #require(b.tree.window.subviews.first?.subviews.last)
    view.tag += 1_000
    #expect(!FrameCheck.sameShapeAndFrames(a.tree, b.tree, FrameCheck.defaultTolerance))
    view.tag -= 1_000
    #expect(FrameCheck.sameShapeAndFrames(a.tree, b.tree, FrameCheck.defaultTolerance))
  }

  /// A frame off by more than the tolerance fails the walk; the comparison by id names it.
  @Test func aFrameMismatchFailsTheWalk() throws {
    let (a, b) = try agreeingStrategies()
    var generator = SceneGenerator(seed: 11)
    let scene = generator.feed(cells: 6)
    let body = scene.root.content.children[2].content.children[1]
    try b.tick([.setText(id: body.id, text: String(repeating: "longer text ", count: 30))])
    #expect(!FrameCheck.sameShapeAndFrames(a.tree, b.tree, FrameCheck.defaultTolerance))
    #expect(throws: FrameMismatch.self) { try FrameCheck.compare([a, b]) }
  }
}
