import Testing

@testable import LayoutModel

/// How far a content change travels and how much work the next cycle does: frame layout
/// invalidates bottom-up only to the first view whose size does not depend on its children,
/// and every pass visits only flagged views, so one changed cell costs a few calls however
/// long the list is.
@Suite struct InvalidationScopeTests {
  // Eight 35-point words ("abcde": five ordinary glyphs of 7, spaces of 3.5): at the body
  // width of 248, six fit on a line (6 * 35 + 5 * 3.5 = 227.5, seven would need 266), so two
  // lines: the body grows from 17 to 34, the text stack from 43 to 60, the cell from 67 to 84.
  static let twoLines = Array(repeating: "abcde", count: 8).joined(separator: " ")

  @Test func setTextInvalidatesUpToTheListOnly() throws {
    let feed = try Feed(.frames, cells: 3)
    try feed.window.runUpdateCycle()
    let (list, cell, text, body) = (feed.list, feed.cells[1], feed.texts[1], feed.bodies[1])
    // Every view below the list was measured; the list itself is never asked (the window
    // gives it its own size, since the list's size does not depend on its cells).
    #expect(
      subtree(feed.list).allSatisfy {
        !$0.needsLayout && ($0 === feed.list || $0.fitProposal != nil)
      })

    body.setText(Self.twoLines)
    // Stacks size themselves from their children: both are stale and re-lay out. The list's
    // size is given by the window: it only re-places its cells, and the walk stops there.
    #expect(text.needsLayout && cell.needsLayout && list.needsLayout)
    #expect(!feed.window.needsLayout)
    #expect(body.fitProposal == nil && text.fitProposal == nil && cell.fitProposal == nil)
    // The walk stopped at the list: no ancestor was invalidated or flagged above it.
    #expect(!feed.window.needsLayout && feed.window.fitProposal == nil)
    // Siblings keep their caches.
    for other in [feed.cells[0], feed.cells[2], feed.texts[0], feed.bodies[2]] {
      #expect(other.fitProposal != nil, "\(other)")
      #expect(!other.needsLayout, "\(other)")
    }

    let before = feed.window.counters
    try feed.window.runUpdateCycle()
    let work = feed.window.counters - before
    // Re-measured: the body, its text stack, its cell. The avatar, the title and the other
    // cells answer from their caches (same proposals as before).
    #expect(work.sizeThatFits == 3)
    expectFrame(cell, rect(0, Feed.cellHeight, 320, 84))
    expectFrame(feed.cells[2], rect(0, Feed.cellHeight + 84, 320, Feed.cellHeight))
    expectFrame(body, rect(0, 26, 248, 34))
  }

  /// One test per layout mode. Why exactly 4 layouts: under frames, setText flags the text
  /// stack, the cell and the list (previous test); the list re-places all cells, but only
  /// the changed cell is resized (the cells below it just move, which flags nothing); the
  /// cell resizes the text stack, which resizes the body. Under Auto Layout, the body's
  /// intrinsic height changes in place; the solve moves the body's, the text stack's and the
  /// cell's heights and the lower cells' y, which flags their superviews: text, cell, list;
  /// laying those out resizes the body, so it is laid out too (its width, hence its line
  /// count, is unchanged, so it does not invalidate again). Either way: list, cell, text,
  /// body. The views drawn are those resized (cell, text, body; the body also had new text).
  @Test(arguments: Window.LayoutMode.allCases)
  func oneChangedCellCostsAFewCallsNotOnePerView(_ mode: Window.LayoutMode) throws {
    let feed = try Feed(mode, cells: 40)
    let loop = RunLoop(window: feed.window)
    try loop.tick()
    #expect(feed.viewCount == 202)
    let body = feed.bodies[17]
    expectFrame(feed.cells[17], rect(0, 17 * Feed.cellHeight, 320, Feed.cellHeight))

    // Count the views flagged for display when the display pass starts.
    var flaggedForDisplay: Int?
    loop.phaseObserver = { phase in
      if phase == .display { flaggedForDisplay = subtree(feed.window).count(where: \.needsDisplay) }
    }
    loop.post { body.setText(Self.twoLines) }
    let before = feed.window.counters
    try loop.tick()
    let work = feed.window.counters - before

    #expect(work.layoutSubviews == 4, "\(mode): \(work)")
    #expect(work.layoutSubviews * 10 < feed.viewCount)
    #expect(work.layoutRounds == 1)
    #expect(flaggedForDisplay == 3)
    #expect(work.draw == flaggedForDisplay)
    if mode == .autoLayout {
      // Only the body's constraints are revisited, and its intrinsic constraints (one
      // equality per axis, size == content: its width on one line and its wrapped height)
      // change in place: nothing is added or removed.
      #expect(work.updateConstraints == 1)
      #expect(work.constraintsChanged == 2)
      #expect(work.constraintsAdded == 0 && work.constraintsRemoved == 0)
      #expect(work.solves == 1)
    } else {
      #expect(work.sizeThatFits == 3)
    }
    // The result is the same in both modes.
    expectFrame(feed.cells[17], rect(0, 17 * Feed.cellHeight, 320, 84))
    expectFrame(feed.cells[18], rect(0, 17 * Feed.cellHeight + 84, 320, Feed.cellHeight))
    expectFrame(body, rect(0, 26, 248, 34))
  }

  @Test func aSettledTreeDoesNoWorkOnAnEmptyTick() throws {
    for mode in Window.LayoutMode.allCases {
      let feed = try Feed(mode, cells: 10)
      let loop = RunLoop(window: feed.window)
      try loop.tick()
      let before = feed.window.counters
      try loop.tick()
      let work = feed.window.counters - before
      #expect(work.layoutSubviews == 0 && work.draw == 0 && work.updateConstraints == 0, "\(mode)")
      #expect(work.sizeThatFits == 0 && work.solves == 0, "\(mode)")
    }
  }
}
