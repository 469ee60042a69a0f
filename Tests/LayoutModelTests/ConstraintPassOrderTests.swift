import Testing

@testable import LayoutModel

/// The order of a constraints pass: the window first, then views deepest first, views of
/// one depth in the order they were queued. `Window.orderDeepestFirst` sorts in place
/// below 25 views and by counting above; both must give that order.
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

  /// The expected order, worked out independently: ranks compared, ties by queue position.
  private func expected(_ batch: [View], window: Window) -> [View] {
    func rank(_ view: View) -> Int { view === window ? Int.max : view.depth }
    return batch.indices.sorted { a, b in
      rank(batch[a]) != rank(batch[b]) ? rank(batch[a]) > rank(batch[b]) : a < b
    }.map { batch[$0] }
  }

  @Test(arguments: [0, 1, 2, 5, 24, 25, 26, 60, 400])
  func batchesComeOutWindowFirstThenDeepestFirstInQueueOrder(size: Int) throws {
    for seed in UInt64(1)...6 {
      let (window, views) = try tree(120, seed: seed)
      #expect(views.map(\.depth).max()! >= 4, "the tree should have several levels")
      // A queue with repeats and the window itself, in a scrambled order.
      var state = seed &* 977
      var batch: [View] = []
      for _ in 0..<size {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let pick = Int((state >> 33) % UInt64(views.count + 3))
        batch.append(pick < views.count ? views[pick] : window)
      }
      let want = expected(batch, window: window)
      window.orderDeepestFirst(&batch)
      #expect(batch.count == want.count)
      #expect(zip(batch, want).allSatisfy { $0 === $1 }, "size \(size), seed \(seed)")
    }
  }

  @Test func aBatchOfOnlyTheWindowStaysAsItIs() throws {
    let window = try Window(size: Size(width: 100, height: 100), layoutMode: .frames)
    var batch: [View] = Array(repeating: window, count: 30)
    window.orderDeepestFirst(&batch)
    #expect(batch.count == 30 && batch.allSatisfy { $0 === window })
  }
}
