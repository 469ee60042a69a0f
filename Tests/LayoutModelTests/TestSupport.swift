import Testing

@testable import LayoutModel

// Shared helpers. Frames in these tests come from integer or half-integer inputs, so they are
// exact up to solver round-off: `exact` tolerates that round-off and nothing more.

let exact = 1.0e-9

func isClose(_ a: Double, _ b: Double, tolerance: Double = exact) -> Bool {
  abs(a - b) <= tolerance
}

func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
  Rect(x: x, y: y, width: width, height: height)
}

/// Checks a view's frame against a hand-computed one.
func expectFrame(
  _ view: View, _ expected: Rect, tolerance: Double = exact,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    view.frame.isApproximatelyEqual(to: expected, tolerance: tolerance),
    "\(view) has frame \(view.frame), expected \(expected)", sourceLocation: sourceLocation)
}

/// Runs `body` and hands back the error it threw (nil when it did not throw), so a test can
/// check the error case and then look at the tree the failed call left behind. (Closures do
/// not infer typed throws, so `body` throws untyped; every API it calls throws LayoutError.)
func layoutError(_ body: () throws -> Void) -> LayoutError? {
  do {
    try body()
    return nil
  } catch let error as LayoutError {
    return error
  } catch {
    Issue.record("not a LayoutError: \(error)")
    return nil
  }
}

/// Every view of the tree under `root` (root included).
func subtree(_ root: View) -> [View] {
  var all: [View] = []
  root.walkSubtree { all.append($0) }
  return all
}

/// A plain view that counts its own passes, so a test can tell which views a pass visited
/// (the window's counters only say how many). Under frame layout it places its first
/// subview at `childFrame`, a layout input that only a layout pass applies.
class CountingView: View {
  var layouts = 0
  var draws = 0
  var constraintUpdates = 0
  var childFrame = rect(0, 0, 10, 10)
  /// Called at the end of each layoutSubviews (for ordering checks).
  var onLayout: (() -> Void)?

  override func layoutSubviews() {
    super.layoutSubviews()
    layouts += 1
    if !usesAutoLayout, let first = subviews.first {
      first.assignFrame(childFrame, counting: window)
    }
    onLayout?()
  }

  override func draw() {
    super.draw()
    draws += 1
  }

  override func updateConstraints() throws(LayoutError) {
    try super.updateConstraints()
    constraintUpdates += 1
  }
}

/// A feed like a social app's: a list of cells, each an avatar beside a vertical stack of a
/// title and a body label. The geometry (window 320 wide) is chosen so that hand
/// computation is easy:
///   cell: horizontal, spacing 8, insets 12 -> inner width 296; the avatar takes 40, the gap
///   8, so the text stack (the only flexible child) is 296 - 40 - 8 = 248 wide at x 60.
///   title: "Title N" in .title (advance 9, line 22): under 248, one line, 22 high.
///   body: "short" = s h o r t = 7 * 4 + 3.5 = 31.5 wide, one line, 17 high.
///   text stack: 22 + 4 + 17 = 43; cell: max(40, 43) + 12 + 12 = 67.
struct Feed {
  let window: Window
  let list: ListView
  let cells: [StackView]
  let texts: [StackView]
  let bodies: [Label]

  static let cellHeight = 67.0

  init(_ mode: Window.LayoutMode, cells count: Int) throws(LayoutError) {
    window = try Window(size: Size(width: 320, height: 640), layoutMode: mode)
    list = ListView(name: "list")
    var cells: [StackView] = []
    var texts: [StackView] = []
    var bodies: [Label] = []
    for i in 0..<count {
      let cell = try StackView(
        axis: .horizontal, spacing: 8, alignment: .leading, insets: EdgeInsets(all: 12),
        name: "cell\(i)")
      let avatar = try ImageView(size: Size(width: 40, height: 40), name: "avatar\(i)")
      let text = try StackView(axis: .vertical, spacing: 4, name: "text\(i)")
      let title = Label(text: "Title \(i)", style: .title, name: "title\(i)")
      let body = Label(text: "short", name: "body\(i)")
      try text.addSubview(title)
      try text.addSubview(body)
      try cell.addSubview(avatar)
      try cell.addSubview(text)
      try list.addSubview(cell)
      cells.append(cell)
      texts.append(text)
      bodies.append(body)
    }
    try window.addSubview(list)
    self.cells = cells
    self.texts = texts
    self.bodies = bodies
  }

  /// Window, list, and five views per cell.
  var viewCount: Int { 2 + 5 * cells.count }
}
