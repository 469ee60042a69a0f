import LayoutHarness
import LayoutModel
import Testing

/// The peers' scenarios and the mutations they brought: a grid, a moving tree, a removed
/// hierarchy. The three strategies agree on every tick of each.
@Suite struct PeerScenarioTests {
  @Test func everyPresetIsARunnableScenarioWithItsSource() {
    for preset in PeerScenario.allCases {
      #expect(preset.scenario.problem == nil, "\(preset)")
      #expect(!preset.source.isEmpty)
    }
    #expect(Set(PeerScenario.allCases.map(\.scenario)).count == PeerScenario.allCases.count)
  }

  @Test(arguments: [Shape.feed, .balanced, .deep, .grid, .random, .wide, .table])
  func aMovingTreeAndARemovedHierarchyAgreeUnderAllStrategies(shape: Shape) throws {
    let settings = RunSettings(ticks: 12, warmupTicks: 0, coldBuilds: 1)
    for mutation in [MutationKind.reparent, .removal] {
      let size = shape == .balanced || shape == .random ? 120 : 30
      let scenario = Scenario(shape: shape, size: size, mutation: mutation, perTick: 2, seed: 4)
      let results = try ScenarioRunner(settings: settings).run(scenario).results
      #expect(results.count == 3)
      // Both change the tree's structure every tick (constraints come and go).
      let added = try #require(results[0].counters["constraintsAdded"])
      #expect(added > 0, "\(scenario)")
    }
  }

  @Test func removalTakesOutAtMostHalfAndPutsItBack() throws {
    let scenario = Scenario(shape: .balanced, size: 300, mutation: .removal)
    var (scene, generator) = scenario.makeScene()
    var workload = MutationWorkload(scenario: scenario, scene: scene, generator: generator)
    let views = scene.viewCount
    for tick in 0..<6 {
      let batch = workload.next()
      #expect(batch.count == 1)
      for m in batch { try scene.apply(m) }
      if tick % 2 == 0 {
        // A quarter of a branching-4 tree: the largest subtree within half.
        #expect(scene.viewCount < views && scene.viewCount >= views / 2, "\(scene.viewCount)")
        #expect(views - scene.viewCount > views / 5)
      } else {
        #expect(scene.viewCount == views)
      }
    }
    _ = generator.rng.next()
  }

  @Test func reparentMovesLabelsKeepingTheirViews() throws {
    let scenario = Scenario(shape: .feed, size: 6, mutation: .reparent, perTick: 3, seed: 2)
    var (scene, generator) = scenario.makeScene()
    var workload = MutationWorkload(scenario: scenario, scene: scene, generator: generator)
    let tree = try SceneTree(scene: scene, mode: .autoLayout)
    let views = scene.viewCount
    for _ in 0..<10 {
      let batch = workload.next()
      #expect(batch.count == 3)
      for m in batch {
        guard case .reparent(let id, let parent, _) = m else {
          Issue.record("not a reparent: \(m)")
          continue
        }
        let view = try #require(tree.views[id])
        try scene.apply(m)
        try tree.apply(m)
        #expect(tree.views[id] === view && view.superview === tree.views[parent])
      }
    }
    #expect(scene.viewCount == views)
    // The moved tree is the scene's: it lays out as a fresh tree of the final scene does.
    let fresh = try SceneTree(scene: scene, mode: .autoLayout)
    try tree.window.runUpdateCycle()
    try fresh.window.runUpdateCycle()
    try FrameCheck.compare([("moved", tree), ("fresh", fresh)])
    // A move into the moved view's own subtree is refused, and changes nothing: a cell into
    // its own names stack (found by name: labels may have moved in front of it).
    let cell = try #require(scene.root.content.children.first { $0.name == "cell0" })
    var inner = -1
    scene.forEachNode { if $0.name == "cell0.names" { inner = $0.id } }
    let valueError = #expect(throws: SceneMutationError.self) {
      try scene.apply(.reparent(id: cell.id, parent: inner, index: 0))
    }
    #expect(valueError?.reason.contains("lies inside") == true, "\(String(describing: valueError))")
    let treeError = #expect(throws: HandlerError.self) {
      try tree.apply(.reparent(id: cell.id, parent: inner, index: 0))
    }
    #expect("\(String(describing: treeError))".contains("lies inside"))
    _ = generator.rng.next()
  }
}
