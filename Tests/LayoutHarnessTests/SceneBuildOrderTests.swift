import Testing

@testable import LayoutHarness
@testable import LayoutModel

/// A scene's views join the window in tree order (depth first, a view's subtree before its
/// next sibling). The order they are made in, the same since they join as they are made, is
/// not observable here (only in their addresses); the order they join in is, through the
/// Auto Layout engine, which relies on it: a list's cells' variables are a cell's views
/// apart, so that a moved cell's values are near the next one's.
@Suite struct SceneBuildOrderTests {
  /// An Auto Layout engine numbers a view's variables when it joins the window: along a
  /// walk in tree order the numbers only grow. (It failed when a view's children were made
  /// and joined before its grandchildren.)
  @Test(arguments: [1, 7, 40])
  func viewsJoinTheWindowInTreeOrder(cells: Int) throws {
    var generator = SceneGenerator(seed: 11)
    let scene = generator.feed(cells: cells)
    let tree = try SceneTree(scene: scene, mode: .autoLayout)
    var previous: (view: View, first: Int32)?
    var visited = 0
    for root in tree.window.subviews {
      root.walkSubtree { view in
        visited += 1
        guard let vars = view.variables else {
          Issue.record("\(view) has no variables")
          return
        }
        if let previous {
          #expect(
            vars.firstIndex > previous.first,
            "\(view) joined the window before \(previous.view), which comes first in tree order")
        }
        previous = (view, vars.firstIndex)
      }
    }
    #expect(visited == scene.viewCount)
  }
}
