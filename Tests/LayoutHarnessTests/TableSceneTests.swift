import LayoutHarness
import LayoutModel
import Testing

/// The table view scene: only the cells on screen exist, reused as rows scroll in, and the
/// three strategies agree on every tick.
@Suite struct TableSceneTests {
  /// The rows each on-screen cell of a live tree shows, read from its title (the data
  /// source's title of a row is unique enough for 40 rows: checked below).
  func rowsShown(_ strategy: LayoutStrategy, rows: Int, seed: UInt64) throws -> [Int] {
    let titles = (0..<rows).map { RowContent(row: $0, seed: seed).title }
    let list = try #require(strategy.window.subviews.first as? ListView)
    let content = try #require(list.subviews.first)
    return try content.subviews.map { cell in
      let label = try #require(cell.subviews.first?.subviews.last?.subviews.first as? Label)
      return try #require(titles.firstIndex(of: label.text))
    }
  }

  @Test func onlyTheCellsOnScreenAreBuiltWhateverTheRowCount() {
    for rows in [1, 5, 9, 1000, 1_000_000] {
      let scenario = Scenario(shape: .table, size: rows, mutation: .scroll)
      let cells = min(rows, 9)
      #expect(scenario.makeScene().0.viewCount == 11 * cells + 2, "\(rows) rows")
      #expect(Shape.table.coldUnits(size: rows) == cells)
    }
  }

  @Test func scrollingReusesCellsForTheRowsThatEnter() throws {
    let rows = 40
    let scenario = Scenario(shape: .table, size: rows, mutation: .scroll, seed: 3)
    let titles = Set((0..<rows).map { RowContent(row: $0, seed: 3).title })
    #expect(titles.count == rows, "titles must tell rows apart for this test")
    var (scene, generator) = scenario.makeScene()
    var workload = MutationWorkload(scenario: scenario, scene: scene, generator: generator)
    let strategies = try StrategyKind.allCases.map { try LayoutStrategy($0, scene: scene) }
    for strategy in strategies { try strategy.tick([]) }
    let cellViews = try #require(
      (strategies[0].window.subviews.first?.subviews.first?.subviews).map {
        Set($0.map(ObjectIdentifier.init))
      })
    let geometry = TableGeometry(rows: rows, windowHeight: scene.windowSize.height)
    var moves = 0
    var firstRows: [Int] = []
    // 40 rows at 140 points scroll 4,756 points each way, 40 points a tick: to the end and
    // most of the way back.
    for _ in 0..<200 {
      let tick = workload.next()
      moves += tick.filter { if case .move = $0 { true } else { false } }.count
      for m in tick { try scene.apply(m) }
      for strategy in strategies { try strategy.tick(tick) }
      try FrameCheck.compare(strategies)
      let shown = try rowsShown(strategies[0], rows: rows, seed: 3)
      // The cells show consecutive rows in order, configured from the data source, and the
      // spacers stand for the rows above and below them.
      #expect(shown == Array(shown[0]..<(shown[0] + geometry.cells)))
      let content = try #require(strategies[0].window.subviews.first?.subviews.first as? StackView)
      #expect(content.insets == geometry.spacers(first: shown[0]))
      firstRows.append(shown[0])
    }
    #expect(firstRows.max() == rows - geometry.cells, "the scroll reaches the last row")
    #expect(firstRows.last! < firstRows.max()!, "and comes back")
    // Each row that entered took a reused cell: one move per row step.
    let steps = zip(firstRows, [0] + firstRows).map { abs($0 - $1) }.reduce(0, +)
    #expect(moves == steps && moves > 40)
    // No cell was ever created or destroyed: the same views, the same count.
    let after = try #require(strategies[0].window.subviews.first?.subviews.first?.subviews)
    #expect(Set(after.map(ObjectIdentifier.init)) == cellViews)
    #expect(scene.viewCount == 11 * geometry.cells + 2)
    // The live trees are the scene the mutations describe: a fresh tree of it agrees.
    let fresh = try LayoutStrategy(.coalesced, scene: scene)
    try fresh.tick([])
    try FrameCheck.compare([("scrolled", strategies[0].tree), ("fresh", fresh.tree)])
    _ = generator.rng.next()
  }

  @Test func aReusedCellKeepsItsConstraints() throws {
    // Under Auto Layout a reorder re-links the cell in its stack; its own constraints stay.
    let settings = RunSettings(
      strategies: [.coalesced], ticks: 120, warmupTicks: 0, verifyFrames: false, coldBuilds: 1)
    let scroll = try ScenarioRunner(settings: settings).run(
      Scenario(shape: .table, size: 1000, mutation: .scroll)
    ).results[0]
    var churnSettings = settings
    churnSettings.ticks = 20
    let churn = try ScenarioRunner(settings: churnSettings).run(
      Scenario(shape: .table, size: 1000, mutation: .churn)
    ).results[0]
    let reusePerTick = try #require(scroll.counters["constraintsAdded"])
    let churnPerTick = try #require(churn.counters["constraintsAdded"])
    // 120 ticks scroll 4,800 points: about 34 cells reused.
    #expect(try #require(scroll.counters["framesChanged"]) > 0)
    #expect(reusePerTick * 10 < churnPerTick, "\(reusePerTick) vs \(churnPerTick)")
  }

  @Test(arguments: [MutationKind.scroll, .text, .configure, .resize, .churn, .animate])
  func threeStrategiesAgreeOnEveryTick(mutation: MutationKind) throws {
    let settings = RunSettings(ticks: 60, warmupTicks: 0, coldBuilds: 1)
    // Fewer rows than cells, a few more (the table scrolls to its end), many.
    for rows in [3, 12, 1000] {
      let scenario = Scenario(shape: .table, size: rows, mutation: mutation, perTick: 2, seed: 5)
      let results = try ScenarioRunner(settings: settings).run(scenario).results
      #expect(results.count == 3)
    }
  }

  @Test func moveReordersSiblingsAndRefusesWhatItCannotDo() throws {
    var scene = sampleFeed(cells: 3)
    let cells = scene.root.content.children.map(\.id)
    try scene.apply(.move(id: cells[0], to: 2))
    #expect(scene.root.content.children.map(\.id) == [cells[1], cells[2], cells[0]])
    #expect(throws: SceneMutationError.self) { try scene.apply(.move(id: cells[0], to: 3)) }
    #expect(throws: SceneMutationError.self) { try scene.apply(.move(id: 999, to: 0)) }
    #expect(throws: SceneMutationError.self) { try scene.apply(.move(id: scene.root.id, to: 0)) }
    #expect(scene.root.content.children.map(\.id) == [cells[1], cells[2], cells[0]])
    let tree = try SceneTree(scene: sampleFeed(cells: 3), mode: .autoLayout)
    let view = try #require(tree.views[cells[0]])
    try tree.apply(.move(id: cells[0], to: 2))
    #expect(tree.views[cells[0]] === view && view.superview?.subviews.last === view)
    #expect(throws: HandlerError.self) { try tree.apply(.move(id: cells[0], to: 3)) }
  }
}
