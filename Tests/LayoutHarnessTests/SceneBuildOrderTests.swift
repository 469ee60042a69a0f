import Testing

@testable import LayoutHarness
@testable import LayoutModel

/// A scene's views are made in tree order: depth first, a view's subtree before its next
/// sibling, so that each cell's views are made (and allocated) together.
@Suite struct SceneBuildOrderTests {
  /// Every view joins the window as it is made, and an Auto Layout engine numbers a view's
  /// variables when it joins: along a walk in tree order the numbers only grow.
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
