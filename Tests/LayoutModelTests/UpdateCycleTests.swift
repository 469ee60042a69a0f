import Testing

@testable import LayoutModel

/// The deferred update cycle (UIKit's run loop): `setNeedsLayout` only flags, the work
/// happens at the end of the tick, after the event handlers; `layoutIfNeeded` does it at
/// once and only when something is flagged.
@Suite struct UpdateCycleTests {
  /// A frame-layout window holding a counting host with one child, laid out once.
  private func settledHost(_ name: String = "host") throws -> (Window, CountingView, View) {
    let window = try Window(size: Size(width: 200, height: 100), layoutMode: .frames)
    let host = CountingView(name: name)
    let child = View(name: "\(name).child")
    try window.addSubview(host)
    try host.addSubview(child)
    try window.runUpdateCycle()
    return (window, host, child)
  }

  @Test func setNeedsLayoutDefersUntilTheUpdateCycle() throws {
    let (window, host, child) = try settledHost()
    expectFrame(child, rect(0, 0, 10, 10))
    let before = window.counters
    let layoutsBefore = host.layouts

    // Change a layout input and flag: nothing may happen yet.
    host.childFrame = rect(30, 5, 10, 10)
    host.setNeedsLayout()
    #expect(host.needsLayout)
    #expect(host.layouts == layoutsBefore)
    #expect(window.counters == before)
    expectFrame(child, rect(0, 0, 10, 10))

    try window.runUpdateCycle()
    // Exactly the flagged host is laid out: the child only moved (same size), so resizing
    // did not flag it, and nothing else was flagged.
    #expect(host.layouts == layoutsBefore + 1)
    #expect((window.counters - before).layoutSubviews == 1)
    #expect(!host.needsLayout)
    expectFrame(child, rect(30, 5, 10, 10))
  }

  @Test func runLoopRunsHandlersBeforeTheUpdateCycle() throws {
    let (window, host, child) = try settledHost()
    let loop = RunLoop(window: window)
    var log: [String] = []
    loop.phaseObserver = { phase in log.append(phase.map { "phase \($0.rawValue)" } ?? "end") }
    host.onLayout = { log.append("host laid out") }
    var seenByHandler: (layouts: Int, frame: Rect)?
    let layoutsBefore = host.layouts

    loop.post {
      log.append("handler 1")
      host.childFrame = rect(0, 50, 20, 20)
      host.setNeedsLayout()
    }
    loop.post {
      // Still inside the handler phase: the flag is set but nothing is laid out yet.
      log.append("handler 2")
      seenByHandler = (host.layouts, child.frame)
      // Posted during a tick: belongs to the next tick.
      loop.post { log.append("next tick handler") }
    }
    #expect(log.isEmpty, "posting must not run anything")
    try loop.tick()

    #expect(seenByHandler?.layouts == layoutsBefore)
    #expect(
      seenByHandler?.frame.isApproximatelyEqual(to: rect(0, 0, 10, 10), tolerance: exact) == true)
    #expect(host.layouts == layoutsBefore + 1)
    expectFrame(child, rect(0, 50, 20, 20))
    let order = [
      "phase handlers", "handler 1", "handler 2", "phase layout", "host laid out",
      "phase display", "end",
    ]
    let positions = order.map { log.firstIndex(of: $0) }
    #expect(positions.allSatisfy { $0 != nil }, "\(log)")
    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(log)")
    #expect(!log.contains("next tick handler"))

    // The handler posted during the first tick runs in the second.
    try loop.tick()
    #expect(log.last == "end")
    #expect(log.contains("next tick handler"))
    #expect(loop.tickCount == 2)
  }

  @Test func layoutIfNeededLaysOutAtOnceAndIsFreeOtherwise() throws {
    let (window, host, child) = try settledHost()
    // Nothing flagged: free.
    var before = window.counters
    try host.layoutIfNeeded()
    try window.layoutIfNeeded()
    #expect((window.counters - before).layoutSubviews == 0)

    host.childFrame = rect(40, 0, 30, 10)
    host.setNeedsLayout()
    before = window.counters
    try host.layoutIfNeeded()
    // Immediate: the frame is there when the call returns.
    expectFrame(child, rect(40, 0, 30, 10))
    #expect(!host.needsLayout)
    // host, then the child it resized (a resize flags the resized view).
    #expect((window.counters - before).layoutSubviews == 2)

    // A second call with no change in between does nothing.
    before = window.counters
    try host.layoutIfNeeded()
    #expect((window.counters - before).layoutSubviews == 0)

    // There is no immediate display: the resized child waits for the update cycle's
    // display pass, which then has no layout left to do.
    #expect(child.needsDisplay)
    #expect((window.counters - before).draw == 0)
    try window.runUpdateCycle()
    #expect((window.counters - before).layoutSubviews == 0)
    #expect((window.counters - before).draw == 1)
  }

  @Test func layoutIfNeededLeavesFlaggedViewsOutsideItsSubtreeForTheCycle() throws {
    let window = try Window(size: Size(width: 200, height: 100), layoutMode: .frames)
    let a = CountingView(name: "a")
    let b = CountingView(name: "b")
    try window.addSubview(a)
    try window.addSubview(b)
    try window.runUpdateCycle()
    let (aBefore, bBefore) = (a.layouts, b.layouts)

    a.setNeedsLayout()
    b.setNeedsLayout()
    try a.layoutIfNeeded()
    #expect(a.layouts == aBefore + 1)
    #expect(b.layouts == bBefore)
    #expect(b.needsLayout)

    try window.runUpdateCycle()
    #expect(a.layouts == aBefore + 1)
    #expect(b.layouts == bBefore + 1)
  }

  /// UIKit's layoutIfNeeded starts at the topmost ancestor that needs layout, so a view's
  /// own frame is up to date when the call returns even if only its superviews were
  /// flagged. Under frame layout setText flags the label's ancestors; under Auto Layout
  /// the constraints pass and solve inside layoutIfNeeded flag them. Either way the label
  /// must have its new height afterwards.
  @Test(arguments: Window.LayoutMode.allCases)
  func layoutIfNeededOnAViewWhoseContentChangedGivesItsNewFrame(_ mode: Window.LayoutMode)
    throws
  {
    let feed = try Feed(mode, cells: 3)
    try feed.window.runUpdateCycle()
    let body = feed.bodies[1]
    #expect(isClose(body.frame.height, 17))
    // Eight 35-point words ("abcde": five ordinary glyphs of 7) at 248: 6 fit on a line
    // (6 * 35 + 5 * 3.5 = 227.5; 7 would be 266), so two lines, 34 high.
    body.setText(Array(repeating: "abcde", count: 8).joined(separator: " "))
    try body.layoutIfNeeded()
    // Regression test (fixed): under Auto Layout the label keeps its old frame (see the report).
    #expect(isClose(body.frame.height, 34), "\(mode): \(body.frame)")
  }

  @Test func updateConstraintsIfNeededRunsTheConstraintsPassAtOnce() throws {
    let window = try Window(size: Size(width: 200, height: 100), layoutMode: .autoLayout)
    let view = CountingView(name: "view")
    try window.addSubview(view)
    try window.runUpdateCycle()
    let updatesBefore = view.constraintUpdates
    let layoutsBefore = window.counters.layoutSubviews

    view.setNeedsUpdateConstraints()
    #expect(view.constraintUpdates == updatesBefore)
    try view.updateConstraintsIfNeeded()
    #expect(view.constraintUpdates == updatesBefore + 1)
    #expect(!view.needsUpdateConstraints)
    // Free the second time; and it never lays anything out.
    try view.updateConstraintsIfNeeded()
    #expect(view.constraintUpdates == updatesBefore + 1)
    #expect(window.counters.layoutSubviews == layoutsBefore)
  }
}

/// The order of the constraints pass: children first, except the window, whose placement of
/// its root views exists before any view arranges its own subviews (as a root view's
/// autoresizing constraints do in UIKit).
@Suite struct ConstraintsPassOrderTests {
  /// Records, when its constraints are updated, whether its window already placed it.
  final class PlacementProbe: CountingView {
    var placedWhenUpdated: [Bool] = []
    var onUpdate: (String) -> Void = { _ in }
    override func updateConstraints() throws(LayoutError) {
      try super.updateConstraints()
      placedWhenUpdated.append(arrangement != nil)
      onUpdate(name)
    }
  }

  @Test func theWindowPlacesItsRootViewsBeforeTheyArrangeTheirSubviews() throws {
    let window = try Window(size: Size(width: 320, height: 480), layoutMode: .autoLayout)
    let root = PlacementProbe(name: "root")
    let inner = PlacementProbe(name: "inner")
    var order: [String] = []
    root.onUpdate = { order.append($0) }
    inner.onUpdate = { order.append($0) }
    try root.addSubview(inner)
    try window.addSubview(root)
    try window.runUpdateCycle()
    #expect(root.placedWhenUpdated == [true])
    // Below the window, children first as always.
    #expect(order == ["inner", "root"])
    #expect(root.frame.width == 320)
  }
}
