import Testing

@testable import LayoutModel

/// The order of a constraints pass: the window first, then every view after its flagged
/// descendants. A queue that lists each flagged view after its flagged ancestors runs
/// backwards (`Window.orderChildrenFirst`); any other goes deepest first, views of one
/// depth in the order they were queued. The window is never queued (its pass reads its
/// flag); `Window.orderDeepestFirst` sorts the queued views, in place below 25 views and by
/// counting above, and both must give that order.
@Suite struct ConstraintPassOrderTests {
  /// A window holding a random tree of `count` views (each under a random earlier one).
  private func tree(_ count: Int, seed: UInt64) throws -> (Window, [View]) {
    let window = try Window(size: Size(width: 100, height: 100), layoutMode: .frames)
    var views: [View] = []
    var state = seed
    for i in 0..<count {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let view = View(name: "v\(i)")
      if views.isEmpty || state >> 61 == 0 {
        try window.addSubview(view)
      } else {
        try views[Int((state >> 33) % UInt64(views.count))].addSubview(view)
      }
      views.append(view)
    }
    return (window, views)
  }

  /// The expected order, worked out independently: depths compared, ties by queue position.
  private func expected(_ batch: [View]) -> [View] {
    batch.indices.sorted { a, b in
      batch[a].depth != batch[b].depth ? batch[a].depth > batch[b].depth : a < b
    }.map { batch[$0] }
  }

  @Test(arguments: [0, 1, 2, 5, 24, 25, 26, 60, 400])
  func batchesComeOutDeepestFirstInQueueOrder(size: Int) throws {
    for seed in UInt64(1)...6 {
      let (window, views) = try tree(120, seed: seed)
      #expect(views.map(\.depth).max()! >= 4, "the tree should have several levels")
      // A queue with repeats, in a scrambled order.
      var state = seed &* 977
      var batch: [View] = []
      for _ in 0..<size {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        batch.append(views[Int((state >> 33) % UInt64(views.count))])
      }
      let want = expected(batch)
      window.orderDeepestFirst(&batch)
      #expect(batch.count == want.count)
      #expect(zip(batch, want).allSatisfy { $0 === $1 }, "size \(size), seed \(seed)")
    }
  }

  /// Whether every view of `batch` comes after its flagged descendants in it.
  private func childrenFirst(_ batch: [View]) -> Bool {
    for (i, view) in batch.enumerated() {
      var ancestor = view.parent
      while let a = ancestor {
        if a.needsUpdateConstraints, let j = batch.firstIndex(where: { $0 === a }), j < i {
          return false
        }
        ancestor = a.parent
      }
    }
    return true
  }

  /// Flags exactly the views of `batch`.
  private func flag(_ batch: [View], among views: [View]) {
    for view in views { view.needsUpdateConstraints = false }
    for view in batch { view.needsUpdateConstraints = true }
  }

  /// Flags exactly the views of `batch`, orders it for the pass and checks the order is
  /// `want` (the original queue, for the message), puts every view after its flagged
  /// descendants and leaves no walk's mark.
  private func expectOrder(
    _ batch: [View], in window: Window, among views: [View], is want: ([View]) -> [View],
    _ note: String = "", sourceLocation: SourceLocation = #_sourceLocation
  ) {
    flag(batch, among: views)
    var ordered = batch
    window.orderChildrenFirst(&ordered)
    #expect(
      zip(ordered, want(batch)).allSatisfy { $0 === $1 }, "\(note)",
      sourceLocation: sourceLocation)
    #expect(childrenFirst(ordered), sourceLocation: sourceLocation)
    #expect(
      views.allSatisfy { !$0.marked }, "the walk's marks are cleared",
      sourceLocation: sourceLocation)
  }

  /// A queue in tree order (parents first, as a tree built top-down is queued), of every
  /// view or of a random part of them, each once: it runs backwards.
  @Test(arguments: [2, 5, 24, 25, 60, 120])
  func aQueueOfParentsFirstRunsBackwards(size: Int) throws {
    for seed in UInt64(1)...6 {
      let (window, views) = try tree(120, seed: seed)
      var state = seed &* 31
      var treeOrder: [View] = []
      for root in window.subviews { try root.forEachInSubtree { treeOrder.append($0) } }
      var batch = treeOrder.filter { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (state >> 33) % 120 < UInt64(size)
      }
      if batch.count < 2 { batch = Array(treeOrder.prefix(size)) }
      expectOrder(
        batch, in: window, among: views, is: { $0.reversed() }, "size \(size), seed \(seed)")
    }
  }

  /// A queue in tree order but for a view queued again after its subtree: backwards, the
  /// repeat would run first. It goes deepest first.
  @Test func aQueueWithARepeatGoesDeepestFirst() throws {
    let (window, views) = try tree(120, seed: 2)
    var batch: [View] = []
    for root in window.subviews { try root.forEachInSubtree { batch.append($0) } }
    let parent = batch.first { !$0.subviews.isEmpty }!
    batch.append(parent)
    expectOrder(batch, in: window, among: views, is: expected)
  }

  /// A queue where some flagged view comes before a flagged ancestor goes deepest first;
  /// either way every view comes after its flagged descendants, and no mark is left.
  @Test(arguments: [3, 24, 25, 60, 400])
  func anyOtherQueueGoesDeepestFirst(size: Int) throws {
    for seed in UInt64(1)...6 {
      let (window, views) = try tree(120, seed: seed)
      var state = seed &* 977
      var batch: [View] = []
      for _ in 0..<size {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        batch.append(views[Int((state >> 33) % UInt64(views.count))])
      }
      // A child queued before its parent, both flagged: not parents first.
      let child = views.first { $0.depth >= 2 }!
      batch.insert(contentsOf: [child, child.parent!], at: 0)
      expectOrder(batch, in: window, among: views, is: expected, "size \(size), seed \(seed)")
    }
  }

  @Test func aBatchOfOneDepthStaysInQueueOrder() throws {
    let (window, views) = try tree(120, seed: 3)
    let rootViews = views.filter { $0.depth == 1 }
    #expect(rootViews.count >= 2)
    var batch = Array(repeating: rootViews, count: 15).flatMap { $0 }
    let want = batch
    window.orderDeepestFirst(&batch)
    #expect(batch.count == want.count)
    #expect(zip(batch, want).allSatisfy { $0 === $1 })
  }

  /// The window's own constraints (the pins of its root views) come before any view's in
  /// a pass, though the window is never queued: a root view added to it finds them made.
  @Test(arguments: [1, 30])
  func theWindowUpdatesItsConstraintsFirst(rootViews: Int) throws {
    let window = try Window(size: Size(width: 100, height: 100), layoutMode: .autoLayout)
    try window.runUpdateCycle()
    var recorders: [WindowFlagRecorder] = []
    for i in 0..<rootViews {
      let recorder = WindowFlagRecorder(name: "recorder\(i)")
      recorders.append(recorder)
      try window.addSubview(recorder)
      recorder.setNeedsUpdateConstraints()
    }
    #expect(window.needsUpdateConstraints, "adding a root view flags the window")
    try window.runUpdateCycle()
    for recorder in recorders {
      #expect(recorder.windowFlaggedWhenUpdated == [false])
      #expect(recorder.frame == Rect(x: 0, y: 0, width: 100, height: 100))
    }
  }
}

/// A view whose `updateConstraints` logs its name and runs the next of its hooks.
private final class HookView: View {
  var hooks: [() -> Void] = []
  var log: (String) -> Void = { _ in }
  override func updateConstraints() throws(LayoutError) {
    try super.updateConstraints()
    log(name)
    if !hooks.isEmpty { hooks.removeFirst()() }
  }
}

/// A queue entry left unflagged by an earlier round (a view queued twice, run once) and
/// flagged again during the pass: the pass must not run it before its flagged child.
/// (Found by a review of the backwards order: checked over the flagged entries only, the
/// queue [D, V unflagged, X] ran backwards, X flagged V, and V ran before D.)
@Suite struct UnflaggedQueueEntryTests {
  @Test(arguments: [Window.LayoutMode.frames, .autoLayout])
  func anEntryFlaggedDuringThePassRunsAfterItsChildren(mode: Window.LayoutMode) throws {
    let window = try Window(size: Size(width: 100, height: 100), layoutMode: mode)
    var order: [String] = []
    func make(_ name: String) -> HookView {
      let view = HookView(name: name)
      view.log = { order.append($0) }
      return view
    }
    let (r1, r2) = (make("r1"), make("r2"))
    let (v, z, d, x) = (make("V"), make("Z"), make("D"), make("X"))
    try window.addSubview(r1)
    try window.addSubview(r2)
    try r1.addSubview(v)
    try r2.addSubview(z)
    try v.addSubview(d)
    try v.addSubview(x)
    try window.runUpdateCycle()
    order = []
    // Round one: V queued twice (flagged, then moved within the window), Z between; a
    // repeat, so deepest first: V, Z, V. V's first run flags D, Z flags V, V's second run
    // flags X; round two's queue is then [D, V (unflagged: run since), X], and X flags V.
    // (Under Auto Layout the move flags D and X too: X runs once in round one first.)
    v.hooks = [{ d.setNeedsUpdateConstraints() }, { x.setNeedsUpdateConstraints() }]
    z.hooks = [{ v.setNeedsUpdateConstraints() }]
    x.hooks = (mode == .autoLayout ? [{}] : []) + [{ x.superview!.setNeedsUpdateConstraints() }]
    v.setNeedsUpdateConstraints()
    z.setNeedsUpdateConstraints()
    try r2.addSubview(v)
    try window.updateConstraintsIfNeeded()
    let lastV = try #require(order.lastIndex(of: "V"))
    let lastD = try #require(order.lastIndex(of: "D"))
    #expect(lastD < lastV, "V ran at \(lastV), its flagged child D at \(lastD): \(order)")
    #expect(subtree(window).allSatisfy { !$0.marked })
  }
}

/// A view that records, each time its constraints are updated, whether its window was
/// still flagged for its own.
private final class WindowFlagRecorder: View {
  var windowFlaggedWhenUpdated: [Bool] = []

  override func updateConstraints() throws(LayoutError) {
    windowFlaggedWhenUpdated.append(owner?.needsUpdateConstraints ?? true)
    try super.updateConstraints()
  }
}
