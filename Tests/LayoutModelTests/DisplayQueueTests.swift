import Testing

@testable import LayoutModel

/// The display queue holds each flagged view by a retain of its own (`ViewBatch`): a view
/// stays alive while queued, is released by the pass that visits it or by its window's end,
/// and a draw that flags a view queues it for the next pass.
@Suite struct DisplayQueueTests {
  /// A view whose draw flags another view for display, once.
  private final class FlaggingView: View {
    weak var other: View?
    var draws = 0

    override func draw() {
      draws += 1
      if draws == 1 { other?.setNeedsDisplay() }
    }
  }

  /// A view whose first draw flags another view and runs a whole update cycle, nested in
  /// the display pass that drew it.
  private final class NestingView: View {
    weak var other: View?
    var draws = 0

    override func draw() {
      draws += 1
      guard draws == 1, let window else { return }
      other?.setNeedsDisplay()
      try? window.runUpdateCycle()
    }
  }

  private func settledWindow() throws -> Window {
    let window = try Window(size: Size(width: 200, height: 100), layoutMode: .frames)
    try window.runUpdateCycle()
    return window
  }

  @Test func aQueuedViewLivesUntilTheDisplayPassReleasesIt() throws {
    let window = try settledWindow()
    var view: CountingView? = CountingView(name: "leaving")
    weak let watched = view
    try window.addSubview(view!)
    try window.runUpdateCycle()
    view!.setNeedsDisplay()
    // It leaves the window, and the test lets go of it: only the queue holds it now.
    view!.removeFromSuperview()
    view = nil
    #expect(watched != nil, "the display queue must keep a queued view alive")
    let before = window.counters
    try window.runUpdateCycle()
    // Visited (not drawn: it is no longer the window's) and released.
    #expect((window.counters - before).draw == 0)
    #expect(watched == nil, "the display pass must release the views it visits")
  }

  @Test func aWindowFreedWithQueuedViewsReleasesThem() throws {
    var window: Window? = try settledWindow()
    // In a container: a view leaving the window itself would flag the window for layout,
    // and a window queued in its own layout queue lives until its next update cycle.
    let container = View(name: "container")
    var view: View? = View(name: "queued")
    weak let watched = view
    try window!.addSubview(container)
    try container.addSubview(view!)
    try window!.runUpdateCycle()
    view!.setNeedsDisplay()
    view!.removeFromSuperview()
    view = nil
    #expect(watched != nil)
    weak let watchedWindow = window
    window = nil
    #expect(watchedWindow == nil, "the window must be freed")
    #expect(watched == nil, "a window's end must release the views still queued for display")
  }

  @Test func aDrawThatFlagsAViewQueuesItForTheNextPass() throws {
    let window = try settledWindow()
    let drawer = FlaggingView(name: "drawer")
    let other = CountingView(name: "other")
    drawer.other = other
    try window.addSubview(drawer)
    try window.addSubview(other)
    try window.runUpdateCycle()
    let drawsBefore = (drawer.draws, other.draws)
    // Only the drawer is flagged; its draw flags the other view during the pass.
    drawer.draws = 0
    drawer.setNeedsDisplay()
    try window.runUpdateCycle()
    #expect(drawer.draws == 1)
    #expect(other.draws == drawsBefore.1, "flagged during the pass: drawn by the next one")
    #expect(other.needsDisplay)
    try window.runUpdateCycle()
    #expect(other.draws == drawsBefore.1 + 1)
    #expect(!other.needsDisplay)
    #expect(drawer.draws == 1)
  }

  @Test func aLongQueueDrawsEveryViewOnce() throws {
    // Beyond the length from which the pass requests lines ahead (4,096), and not a
    // multiple of anything it steps by.
    let window = try settledWindow()
    let container = View(name: "container")
    try window.addSubview(container)
    var views: [CountingView] = []
    for i in 0..<5_003 {
      let view = CountingView(name: "v\(i)")
      try container.addSubview(view)
      views.append(view)
    }
    try window.runUpdateCycle()
    let drawn = views.map(\.draws)
    #expect(views.allSatisfy { !$0.needsDisplay })
    for view in views { view.setNeedsDisplay() }
    let before = window.counters
    try window.runUpdateCycle()
    #expect((window.counters - before).draw == views.count)
    #expect(zip(views, drawn).allSatisfy { $0.draws == $1 + 1 })
  }

  @Test func aDrawThatRunsANestedCycleLeavesEveryViewDrawnOnceAndReleased() throws {
    var window: Window? = try settledWindow()
    var container: View? = View(name: "container")
    try window!.addSubview(container!)
    var before: CountingView? = CountingView(name: "before")
    var nesting: NestingView? = NestingView(name: "nesting")
    var after: CountingView? = CountingView(name: "after")
    var flagged: CountingView? = CountingView(name: "flagged")
    for view in [before!, nesting!, after!, flagged!] as [View] { try container!.addSubview(view) }
    try window!.runUpdateCycle()
    let drawn = (before!.draws, after!.draws, flagged!.draws)
    // Their reference counts, settled: a queue entry released twice would lower one.
    let counts = [before!, nesting!, after!, flagged!].map { _getRetainCount($0) }
    nesting!.other = flagged
    nesting!.draws = 0
    // Queued in this order; the nesting view's draw flags `flagged` and runs a cycle.
    before!.setNeedsDisplay()
    nesting!.setNeedsDisplay()
    after!.setNeedsDisplay()
    try window!.runUpdateCycle()
    #expect(before!.draws == drawn.0 + 1)
    #expect(nesting!.draws == 1)
    #expect(after!.draws == drawn.1 + 1)
    #expect(flagged!.draws == drawn.2 + 1, "the nested cycle draws the view flagged before it")
    try window!.runUpdateCycle()
    #expect(before!.draws == drawn.0 + 1 && after!.draws == drawn.1 + 1)
    #expect(flagged!.draws == drawn.2 + 1 && nesting!.draws == 1)
    #expect([before!, nesting!, after!, flagged!].map { _getRetainCount($0) } == counts)
    // Every reference the queues took was given back: all of it is freed with the window.
    weak let watchedWindow = window
    weak let watchedBefore = before
    weak let watchedNesting = nesting
    weak let watchedAfter = after
    weak let watchedFlagged = flagged
    (before, nesting, after, flagged, container) = (nil, nil, nil, nil, nil)
    window = nil
    #expect(watchedWindow == nil)
    #expect(watchedBefore == nil && watchedNesting == nil)
    #expect(watchedAfter == nil && watchedFlagged == nil)
  }
}

/// A window is never in its own queues, so one dropped before its first update cycle (it
/// flags itself when made), with views flagged for every pass, is freed with its views.
@Suite struct DroppedWindowTests {
  @Test(arguments: Window.LayoutMode.allCases)
  func aWindowDroppedBeforeItsFirstCycleIsFreed(_ mode: Window.LayoutMode) throws {
    var window: Window? = try Window(size: Size(width: 100, height: 100), layoutMode: mode)
    var container: View? = View(name: "container")
    var view: View? = try ImageView(size: Size(width: 10, height: 10), name: "image")
    try window!.addSubview(container!)
    try container!.addSubview(view!)
    for flagged in [window!, container!, view!] {
      flagged.setNeedsLayout()
      flagged.setNeedsUpdateConstraints()
      flagged.setNeedsDisplay()
    }
    #expect(window!.needsLayout && window!.needsUpdateConstraints && window!.needsDisplay)
    weak let watchedWindow = window
    weak let watchedContainer = container
    weak let watchedView = view
    (view, container, window) = (nil, nil, nil)
    #expect(watchedWindow == nil)
    #expect(watchedContainer == nil && watchedView == nil)
  }

  /// The window's own flags are served by the passes as the queued ones are.
  @Test(arguments: Window.LayoutMode.allCases)
  func aWindowsOwnFlagsAreServedByTheNextCycle(_ mode: Window.LayoutMode) throws {
    let window = try Window(size: Size(width: 100, height: 100), layoutMode: mode)
    try window.runUpdateCycle()
    let before = window.counters
    window.setNeedsLayout()
    window.setNeedsUpdateConstraints()
    window.setNeedsDisplay()
    try window.runUpdateCycle()
    let after = window.counters
    #expect(!window.needsLayout && !window.needsUpdateConstraints && !window.needsDisplay)
    #expect(after.layoutSubviews - before.layoutSubviews == 1)
    #expect(after.updateConstraints - before.updateConstraints == 1)
    #expect(after.draw - before.draw == 1)
  }
}
