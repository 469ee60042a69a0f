import LayoutHarness
import LayoutModel
import Testing

/// `ViewTable`, a scene tree's views by node id: lookups, the count through stores,
/// overwrites and removals, ids beyond the table, and the views in id order; and a live tree
/// whose cells are replaced keeps exactly its scene's ids.
@Suite struct ViewTableTests {
  @Test func storesCountsAndRemoves() {
    var table = ViewTable()
    let a = View(name: "a")
    let b = View(name: "b")
    let c = View(name: "c")
    #expect(table[0] == nil && table[-1] == nil && table[1_000] == nil)
    table[5] = a
    table[2] = b
    #expect(table.count == 2)
    #expect(table[5] === a && table[2] === b && table[3] == nil && table[6] == nil)
    // An overwrite keeps the count; a removal and a removal of nothing adjust it once.
    table[5] = c
    #expect(table.count == 2 && table[5] === c)
    table[2] = nil
    table[2] = nil
    table[40] = nil
    #expect(table.count == 1 && table[2] == nil && table[40] == nil)
    table[0] = a
    #expect(table.values.map(\.name) == ["a", "c"])
    #expect(table.count == 2)
  }

  /// Cells removed and inserted tick after tick (new ids, old ids forgotten): every view of
  /// the window's tree is in the table under its own id, and nothing else is.
  @Test func aChurnedTreeHoldsExactlyItsViews() throws {
    let (scene, workload) = try Scenario(shape: .feed, size: 12, mutation: .churn, seed: 3)
      .makeWorkload()
    var mutations = workload
    let strategy = try LayoutStrategy(.bottomUp, scene: scene)
    for _ in 0..<30 { try strategy.tick(mutations.next()) }
    var inTree: [View] = []
    for root in strategy.window.subviews {
      try root.forEachInSubtree { inTree.append($0) }
    }
    for view in inTree {
      let id = try #require(strategy.tree.id(of: view))
      #expect(strategy.tree.views[id] === view)
    }
    #expect(strategy.tree.views.count == inTree.count)
    #expect(strategy.tree.views.values.count == inTree.count)
  }
}
