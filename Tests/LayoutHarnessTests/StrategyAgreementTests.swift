import LayoutHarness
import LayoutModel
import Testing

/// A small feed: a list of cells, each an avatar beside a title and a wrapping body.
func sampleFeed(cells: Int, width: Double = 320) -> Scene {
  var nextID = 1
  func node(_ name: String, _ content: Scene.Content) -> Scene.Node {
    defer { nextID += 1 }
    return Scene.Node(id: nextID, name: name, content: content)
  }
  var children: [Scene.Node] = []
  for i in 0..<cells {
    let title = node("cell\(i).title", .label(text: "Title number \(i)", style: .title))
    let body = node(
      "cell\(i).body",
      .label(text: String(repeating: "lorem ipsum dolor ", count: 1 + i % 5), style: .body))
    let text = node(
      "cell\(i).text", .stack(.init(axis: .vertical, spacing: 4), children: [title, body]))
    let avatar = node("cell\(i).avatar", .image(Size(width: 40, height: 40)))
    children.append(
      node(
        "cell\(i)",
        .stack(
          .init(axis: .horizontal, spacing: 8, alignment: .leading, insets: EdgeInsets(all: 12)),
          children: [avatar, text])))
  }
  return Scene(
    windowSize: Size(width: width, height: 640), root: node("list", .list(children: children)))
}

@Suite struct StrategyAgreementTests {
  @Test func threeStrategiesAgreeOnAFeed() throws {
    let scene = sampleFeed(cells: 4)
    let strategies = try StrategyKind.allCases.map { try LayoutStrategy($0, scene: scene) }
    for strategy in strategies { try strategy.tick([]) }
    try FrameCheck.compare(strategies)
    let body = try #require(strategies[0].tree.views[17])
    #expect(body.frame.height > 17)
    let mutations: [[SceneMutation]] = [
      [.setText(id: 2, text: "short")],
      [.resizeWindow(Size(width: 500, height: 640))],
      [
        .setSpacing(id: 5, spacing: 10),
        .setText(id: 1, text: "A much longer title that wraps around"),
      ],
    ]
    for tick in mutations {
      for strategy in strategies { try strategy.tick(tick) }
      try FrameCheck.compare(strategies)
    }
  }
}

/// The size guard: estimates that match the generators, and a refusal before the build.
@Suite struct SceneSizeTests {
  @Test(arguments: Shape.builtIn)
  func estimatedViewsMatchTheGeneratedScene(shape: Shape) {
    for size in [1, 7, 100, 1000] {
      let scenario = Scenario(shape: shape, size: size, mutation: .resize)
      #expect(scenario.estimatedViews == scenario.makeScene().0.viewCount, "\(scenario)")
    }
  }

  @Test func aSceneTooLargeForMemoryIsRefusedBeforeItIsBuilt() throws {
    let huge = Scenario(shape: .feed, size: 1_000_000, mutation: .text)
    let gigabyte = 1_073_741_824.0
    let problem = try #require(
      huge.memoryProblem(strategies: StrategyKind.allCases, memory: 24 * gigabyte))
    #expect(
      problem.contains("11000001 views") && problem.contains("--size up to about"), "\(problem)")
    #expect(huge.memoryProblem(strategies: [.bottomUp], memory: 24 * gigabyte) == nil)
    var settings = RunSettings(ticks: 1, warmupTicks: 0)
    settings.memoryBytes = 24 * gigabyte
    let error = #expect(throws: RunError.self) { try ScenarioRunner(settings: settings).run(huge) }
    #expect("\(String(describing: error))".contains("would build about"))
  }
}
