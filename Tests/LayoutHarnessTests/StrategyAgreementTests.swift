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
    let strategies = try StrategyKind.allCases.map { try makeStrategy($0, scene: scene) }
    for strategy in strategies { try strategy.tick([]) }
    try FrameCheck.compare(strategies)
    let body = try #require(strategies[0].tree.views[17])
    #expect(body.frame.height > 17)
    let mutations: [[SceneMutation]] = [
      [.setText(id: 2, text: "short")],
      [.resizeWindow(Size(width: 500, height: 640))],
      [.setSpacing(id: 5, spacing: 10), .setText(id: 1, text: "A much longer title that wraps around")],
    ]
    for tick in mutations {
      for strategy in strategies { try strategy.tick(tick) }
      try FrameCheck.compare(strategies)
    }
  }
}
