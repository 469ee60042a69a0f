import Testing

@testable import LayoutModel

/// The automatic refresh triggers of UIKit's update cycle: mutations that flag the views
/// whose layout, constraints or drawing they make stale, and no others.
@Suite struct ImplicitTriggerTests {
  /// window > container > sibling, settled.
  private func settled(_ mode: Window.LayoutMode) throws -> (Window, View, View) {
    let window = try Window(size: Size(width: 300, height: 200), layoutMode: mode)
    let container = View(name: "container")
    let sibling = View(name: "sibling")
    try window.addSubview(container)
    try container.addSubview(sibling)
    try window.runUpdateCycle()
    #expect(subtree(window).allSatisfy { !$0.needsLayout && !$0.needsUpdateConstraints })
    return (window, container, sibling)
  }

  @Test(arguments: Window.LayoutMode.allCases)
  func addSubviewFlagsTheSuperviewAndTheNewView(_ mode: Window.LayoutMode) throws {
    let (window, container, sibling) = try settled(mode)
    let added = View(name: "added")
    try container.addSubview(added)
    #expect(container.needsLayout)
    #expect(added.needsLayout)
    // A plain container's size does not depend on its children: nothing above it, and no
    // sibling, is stale.
    #expect(!sibling.needsLayout)
    #expect(!window.needsLayout)
    #expect(added.superview === container && added.window === window)
  }

  @Test(arguments: Window.LayoutMode.allCases)
  func removeFromSuperviewFlagsTheOldSuperview(_ mode: Window.LayoutMode) throws {
    let (window, container, sibling) = try settled(mode)
    let leaving = View(name: "leaving")
    try container.addSubview(leaving)
    try window.runUpdateCycle()
    leaving.removeFromSuperview()
    #expect(container.needsLayout)
    #expect(!sibling.needsLayout)
    #expect(!window.needsLayout)
    #expect(leaving.superview == nil && leaving.window == nil)
    #expect(container.subviews.map(\.name) == ["sibling"])
  }

  @Test func resizingFlagsTheViewButMovingDoesNot() throws {
    let (window, container, sibling) = try settled(.frames)
    try sibling.setFrame(rect(0, 0, 50, 20))
    try window.runUpdateCycle()
    #expect(!sibling.needsLayout && !sibling.needsDisplay)

    // A pure move: same size, new origin.
    try sibling.setFrame(rect(15, 25, 50, 20))
    #expect(!sibling.needsLayout)
    #expect(!sibling.needsDisplay)
    expectFrame(sibling, rect(15, 25, 50, 20))

    // A resize flags the resized view (layout and display), not its superview.
    try sibling.setFrame(rect(15, 25, 60, 20))
    #expect(sibling.needsLayout)
    #expect(sibling.needsDisplay)
    #expect(!container.needsLayout)
  }

  @Test func constraintConstantChangeFlagsTheSuperviewsOfItsViews() throws {
    // root holds two columns; `a` in the first is placed relative to `b` in the second.
    let window = try Window(size: Size(width: 300, height: 300), layoutMode: .autoLayout)
    let root = View(name: "root")
    let column1 = View(name: "column1")
    let column2 = View(name: "column2")
    let a = View(name: "a")
    let b = View(name: "b")
    try window.addSubview(root)
    try root.addSubview(column1)
    try root.addSubview(column2)
    try column1.addSubview(a)
    try column2.addSubview(b)
    let link = a.topAnchor.constraint(equalTo: b.topAnchor, constant: 10)
    try LayoutConstraint.activate([
      column1.leadingAnchor.constraint(equalTo: root.leadingAnchor),
      column1.topAnchor.constraint(equalTo: root.topAnchor),
      column1.widthAnchor.constraint(equalToConstant: 100),
      column1.heightAnchor.constraint(equalToConstant: 300),
      column2.leadingAnchor.constraint(equalTo: column1.trailingAnchor),
      column2.topAnchor.constraint(equalTo: root.topAnchor, constant: 100),
      column2.widthAnchor.constraint(equalToConstant: 100),
      column2.heightAnchor.constraint(equalToConstant: 200),
      b.leadingAnchor.constraint(equalTo: column2.leadingAnchor),
      b.topAnchor.constraint(equalTo: column2.topAnchor, constant: 5),
      b.widthAnchor.constraint(equalToConstant: 20), b.heightAnchor.constraint(equalToConstant: 20),
      a.leadingAnchor.constraint(equalTo: column1.leadingAnchor),
      a.widthAnchor.constraint(equalToConstant: 20), a.heightAnchor.constraint(equalToConstant: 20),
      link,
    ])
    try window.runUpdateCycle()
    // b's top in root space is 100 + 5, so a's is 115: y 115 inside column1 (at y 0).
    expectFrame(a, rect(0, 115, 20, 20))

    try link.setConstant(20)
    // The views a constraint names are placed by their superviews: those are flagged.
    #expect(column1.needsLayout)
    #expect(column2.needsLayout)
    for view in [window, root, a, b] { #expect(!view.needsLayout, "\(view)") }
    expectFrame(a, rect(0, 115, 20, 20))  // deferred like any other flag
    try window.runUpdateCycle()
    expectFrame(a, rect(0, 125, 20, 20))
  }

  @Test func invalidateIntrinsicContentSizeUnderAutoLayoutFlagsConstraints() throws {
    let (window, container, _) = try settled(.autoLayout)
    let image = try ImageView(size: Size(width: 30, height: 30), name: "image")
    try container.addSubview(image)
    try window.runUpdateCycle()

    image.invalidateIntrinsicContentSize()
    // The view's own content-size constraints are stale; nothing is laid out yet.
    #expect(image.needsUpdateConstraints)
    #expect(!container.needsUpdateConstraints)
    #expect(!image.needsLayout && !container.needsLayout)

    let before = window.counters
    try window.runUpdateCycle()
    #expect((window.counters - before).updateConstraints == 1)
    #expect(!image.needsUpdateConstraints)
  }

  @Test func invalidateIntrinsicContentSizeUnderFramesFlagsTheSuperviewForLayout() throws {
    let (window, container, _) = try settled(.frames)
    let image = try ImageView(size: Size(width: 30, height: 30), name: "image")
    try container.addSubview(image)
    try window.runUpdateCycle()
    #expect(!container.needsLayout && image.window === window)

    image.invalidateIntrinsicContentSize()
    // No constraints under frame layout: the superview that measures the view re-lays out.
    #expect(!image.needsUpdateConstraints)
    #expect(container.needsLayout)
  }

  @Test(arguments: Window.LayoutMode.allCases)
  func setTextFlagsDisplay(_ mode: Window.LayoutMode) throws {
    let window = try Window(size: Size(width: 300, height: 200), layoutMode: mode)
    let stack = try StackView(axis: .vertical, name: "stack")
    let label = Label(text: "one", name: "label")
    try window.addSubview(stack)
    try stack.addSubview(label)
    try window.runUpdateCycle()
    #expect(!label.needsDisplay)

    // The same text changes nothing.
    label.setText("one")
    #expect(!label.needsDisplay && !label.needsUpdateConstraints && !stack.needsLayout)

    label.setText("two")
    #expect(label.needsDisplay)
    if mode == .autoLayout {
      #expect(label.needsUpdateConstraints)  // its intrinsic size changed
    } else {
      #expect(stack.needsLayout)  // its fitting size changed
    }
    let before = window.counters
    try window.runUpdateCycle()
    // "one" and "two" are both one 17-point line at 300: only the label is redrawn.
    #expect((window.counters - before).draw == 1)
    #expect(!label.needsDisplay)
  }

  /// UIKit: scrolling lays out the scroll view and its superview; the cells keep their
  /// frames (the list's bounds move instead).
  @Test(arguments: Window.LayoutMode.allCases)
  func scrollingFlagsTheListAndItsSuperview(_ mode: Window.LayoutMode) throws {
    let feed = try Feed(mode, cells: 3)
    try feed.window.runUpdateCycle()
    try feed.list.setContentOffset(50)
    #expect(feed.list.needsLayout && feed.window.needsLayout)
    #expect(feed.cells.allSatisfy { !$0.needsLayout })
    try feed.window.runUpdateCycle()
    #expect(isClose(feed.list.bounds.minY, 50))
    expectFrame(feed.cells[1], rect(0, Feed.cellHeight, 320, Feed.cellHeight))
  }

  /// Rotating the device: the window is resized, which flags it like any resized view.
  @Test(arguments: Window.LayoutMode.allCases)
  func resizingTheWindowFlagsIt(_ mode: Window.LayoutMode) throws {
    let feed = try Feed(mode, cells: 2)
    try feed.window.runUpdateCycle()
    try feed.window.setFrame(rect(0, 0, 640, 320))
    #expect(feed.window.needsLayout)
    #expect(!feed.list.needsLayout)
    try feed.window.runUpdateCycle()
    // The list spans the new window; a cell's text is 640 - 24 - 48 = 568 wide.
    expectFrame(feed.list, rect(0, 0, 640, 320))
    expectFrame(feed.texts[0], rect(60, 12, 568, 43))
  }
}
