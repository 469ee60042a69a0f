import Testing

@testable import LayoutModel

/// Under Auto Layout, a superview that only the solver flagged copies out the frames of the
/// children the solve moved, not of every child; anything else that flags it, or sets a
/// child's frame outside the solution, makes it copy every child again.
@Suite struct MovedChildrenTests {
  /// The frame the solver's values give `view` (its frame once its superview copied it).
  func solutionFrame(of view: View, in window: Window) -> Rect? {
    guard let engine = window.engine, let vars = view.variables, vars.engine == engine.serial
    else { return nil }
    return engine.solver.withUnsafeValues { vars.frame(in: $0) }
  }

  /// Every view below the window has the frame of the solution.
  func expectFramesAreTheSolution(
    _ feed: Feed, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for view in subtree(feed.list) {
      guard let solved = solutionFrame(of: view, in: feed.window) else {
        Issue.record("\(view) has no variables", sourceLocation: sourceLocation)
        continue
      }
      expectFrame(view, solved, sourceLocation: sourceLocation)
    }
  }

  /// Cell 17 of 40 gets a second line of body text and grows: the solve moves the 22 cells
  /// below it, and resizes cell 17, its text stack and its body (25 frames change). The
  /// list, flagged by the solve alone, copies out the 23 cells it listed; cell 17 and its
  /// text stack, resized, copy both of their children (a resize flags a view for layout
  /// again). Before, the list copied all 40 cells (44 copies).
  @Test func aListCopiesOutTheCellsTheSolveMovedOnly() throws {
    let feed = try Feed(.autoLayout, cells: 40)
    let loop = RunLoop(window: feed.window)
    try loop.tick()
    expectFramesAreTheSolution(feed)

    loop.post { feed.bodies[17].setText(InvalidationScopeTests.twoLines) }
    let before = feed.window.counters
    try loop.tick()
    let work = feed.window.counters - before

    #expect(work.framesChanged == 25, "\(work)")
    #expect(work.framesAssigned == 23 + 2 + 2, "\(work)")
    #expect(feed.cells[17].frame.height > Feed.cellHeight)
    expectFramesAreTheSolution(feed)
  }

  /// A list long enough that the copy of its listed cells requests each cell's table entry,
  /// object and values ahead of its turn (from 4,096 listed entries, `View.copyMovedChildFrames`)
  /// copies the same frames as a short one: cell 5 of 4,300 grows, the 4,294 cells below it
  /// move, and every frame is the solution's, near the chain's ends and in its middle.
  @Test func aLongListCopiesOutTheCellsTheSolveMovedOnly() throws {
    let count = 4_300
    let feed = try Feed(.autoLayout, cells: count)
    let loop = RunLoop(window: feed.window)
    try loop.tick()
    let heightBefore = feed.cells[count - 1].frame.origin.y
    loop.post { feed.bodies[5].setText(InvalidationScopeTests.twoLines) }
    let before = feed.window.counters
    try loop.tick()
    let work = feed.window.counters - before
    // The moved cells below, and cell 5, its text stack and its body.
    #expect(work.framesChanged == count - 6 + 3, "\(work)")
    #expect(work.framesAssigned == count - 6 + 1 + 2 + 2, "\(work)")
    #expect(feed.cells[count - 1].frame.origin.y > heightBefore)
    expectFramesAreTheSolution(feed)
  }

  /// A frame set with `setFrame` is the client's; the superview's next layout puts the
  /// solution back, even when the solve did not move that child (UIKit copies every
  /// child's frame out of its engine at each layout). Set before the tick, or after the
  /// solve flagged the list (as an ancestor's `layoutSubviews` or a handler after an early
  /// layout can).
  @Test(arguments: [false, true])
  func aFrameSetOutsideTheSolutionIsReplacedAtTheNextLayout(afterTheSolve: Bool) throws {
    let feed = try Feed(.autoLayout, cells: 40)
    let loop = RunLoop(window: feed.window)
    try loop.tick()
    let solved = feed.cells[3].frame
    if !afterTheSolve { try feed.cells[3].setFrame(rect(5, 6, 7, 8)) }

    loop.post { feed.bodies[17].setText(InvalidationScopeTests.twoLines) }
    loop.phaseObserver = { phase in
      if afterTheSolve && phase == .layout {
        #expect(feed.list.layoutFromMoves)
        try? feed.cells[3].setFrame(rect(5, 6, 7, 8))
      }
    }
    try loop.tick()

    expectFrame(feed.cells[3], solved)
    expectFramesAreTheSolution(feed)
  }

  /// The same with `sizeToFit`, which sets the frame too.
  @Test func aSizeToFitIsReplacedAtTheNextLayout() throws {
    let feed = try Feed(.autoLayout, cells: 12)
    let loop = RunLoop(window: feed.window)
    try loop.tick()
    let solved = feed.cells[3].frame
    // Written past the model's paths, then sized: only the sizing marks the list.
    feed.cells[3].frame = rect(1, 2, 3, 4)
    feed.cells[3].sizeToFit()
    #expect(feed.cells[3].frame.minY == 2)

    loop.post { feed.bodies[9].setText(InvalidationScopeTests.twoLines) }
    try loop.tick()

    expectFrame(feed.cells[3], solved)
    expectFramesAreTheSolution(feed)
  }

  /// A superview flagged for another reason, before the solve or after it, copies every
  /// child. (A frame written past the layout model's own paths stands for a child whose
  /// frame differs from the solution: only a copy of every child puts it back.)
  @Test(arguments: [false, true])
  func aSuperviewFlaggedForAnotherReasonCopiesEveryChild(afterTheSolve: Bool) throws {
    let feed = try Feed(.autoLayout, cells: 40)
    let loop = RunLoop(window: feed.window)
    try loop.tick()
    let solved = feed.cells[3].frame
    feed.cells[3].frame = rect(5, 6, 7, 8)

    loop.post {
      feed.bodies[17].setText(InvalidationScopeTests.twoLines)
      if !afterTheSolve { feed.list.setNeedsLayout() }
    }
    loop.phaseObserver = { phase in
      if afterTheSolve && phase == .layout { feed.list.setNeedsLayout() }
    }
    let before = feed.window.counters
    try loop.tick()
    let work = feed.window.counters - before

    expectFrame(feed.cells[3], solved)
    #expect(work.framesAssigned >= 40, "\(work)")
    expectFramesAreTheSolution(feed)
  }

  /// Without another reason, that frame stays: the list copied the moved cells only, which
  /// is what the tests above rely on to fail when the reasons are not honoured.
  @Test func aListFlaggedByTheSolveAloneLeavesUnmovedChildren() throws {
    let feed = try Feed(.autoLayout, cells: 40)
    let loop = RunLoop(window: feed.window)
    try loop.tick()
    feed.cells[3].frame = rect(5, 6, 7, 8)

    loop.post { feed.bodies[17].setText(InvalidationScopeTests.twoLines) }
    try loop.tick()

    expectFrame(feed.cells[3], rect(5, 6, 7, 8))
    #expect(feed.list.childFramesDirty == false)
  }

  /// A cell removed after the solve listed it flags the list, which then copies every
  /// remaining child (the removed one is never read), and cells added or moved among their
  /// siblings do the same.
  @Test func hierarchyChangesAfterTheSolveCopyEveryChild() throws {
    let feed = try Feed(.autoLayout, cells: 30)
    let loop = RunLoop(window: feed.window)
    try loop.tick()

    loop.post { feed.bodies[5].setText(InvalidationScopeTests.twoLines) }
    loop.phaseObserver = { phase in
      if phase == .layout { feed.cells[20].removeFromSuperview() }
    }
    try loop.tick()
    loop.phaseObserver = nil
    // The removal's own solve runs in the next cycle.
    try loop.tick()
    #expect(feed.list.subviews.count == 29)
    expectFramesAreTheSolution(feed)

    loop.post {
      try? feed.list.insertSubview(feed.cells[20], at: 2)
      try? feed.list.insertSubview(feed.cells[7], at: 25)
      feed.bodies[1].setText(InvalidationScopeTests.twoLines)
    }
    try loop.tick()
    #expect(feed.list.subviews.count == 30)
    expectFramesAreTheSolution(feed)
  }

  /// A view that leaves its window forgets what that window's solve listed for it: another
  /// engine's solves may be numbered alike.
  @Test func aViewLeavingItsWindowForgetsItsListedChildren() throws {
    let feed = try Feed(.autoLayout, cells: 10)
    let loop = RunLoop(window: feed.window)
    try loop.tick()
    loop.post { feed.bodies[2].setText(InvalidationScopeTests.twoLines) }
    try loop.tick()
    #expect(feed.list.movedSerial != 0 && feed.list.movedHead >= 0)

    feed.list.removeFromSuperview()
    #expect(feed.list.movedSerial == 0 && feed.list.movedHead == -1)
    #expect(!feed.list.layoutFromMoves && feed.list.childFramesDirty)
  }

  /// A layout stopped as a cycle before the list copied its moved cells: the list's next
  /// layout copies every cell, those included.
  @Test func aListStoppedBeforeItsLayoutCopiesEveryCellNextTime() throws {
    let feed = try Feed(.autoLayout, cells: 30)
    let loop = RunLoop(window: feed.window)
    try loop.tick()

    // After the solve, before the list is laid out.
    loop.phaseObserver = { phase in
      if phase == .layout { feed.window.visitLimit = 0 }
    }
    loop.post { feed.bodies[5].setText(InvalidationScopeTests.twoLines) }
    #expect(throws: LayoutError.self) { try loop.tick() }
    loop.phaseObserver = nil
    feed.window.visitLimit = 6
    loop.post { feed.bodies[20].setText(InvalidationScopeTests.twoLines) }
    try loop.tick()

    expectFramesAreTheSolution(feed)
  }

  /// A container whose override skips the default layout once: the children moved then
  /// are copied at its next layout, with those the next solve moves. (Each stack is
  /// resized by its label's second line, which flags the stack itself; the container is
  /// flagged by the solve alone.)
  @Test func anOverrideThatSkipsTheDefaultLeavesNoChildBehind() throws {
    final class Skipping: View {
      var skips = false
      override func layoutSubviews() {
        if !skips { super.layoutSubviews() }
      }
    }
    let window = try Window(size: Size(width: 300, height: 300), layoutMode: .autoLayout)
    let box = Skipping(name: "box")
    try window.addSubview(box)
    var stacks: [StackView] = []
    var labels: [Label] = []
    for (i, y) in [0.0, 100].enumerated() {
      let stack = try StackView(axis: .vertical, name: "stack\(i)")
      let label = Label(text: "short", name: "label\(i)")
      try stack.addSubview(label)
      try box.addSubview(stack)
      try LayoutConstraint.activate([
        stack.topAnchor.constraint(equalTo: box.topAnchor, constant: y),
        stack.leadingAnchor.constraint(equalTo: box.leadingAnchor),
        stack.widthAnchor.constraint(equalToConstant: 200),
      ])
      stacks.append(stack)
      labels.append(label)
    }
    let loop = RunLoop(window: window)
    try loop.tick()
    let oneLine = stacks[0].frame.height

    box.skips = true
    loop.post { labels[0].setText(InvalidationScopeTests.twoLines) }
    try loop.tick()
    #expect(stacks[0].frame.height == oneLine)
    box.skips = false
    loop.post { labels[1].setText(InvalidationScopeTests.twoLines) }
    try loop.tick()

    #expect(stacks[0].frame.height > oneLine)
    #expect(stacks[0].frame.height == stacks[1].frame.height)
  }

  /// A solve that moves more views than its lists have room for (a quarter of the views,
  /// 64 at least): a label's second line grows the first of 100 views stacked by
  /// constraints, which moves the other 99 (103 views in all). The container copies all of
  /// its children, and every frame is the solution.
  @Test func aSolveThatOutgrowsItsListsCopiesEveryChild() throws {
    let window = try Window(size: Size(width: 300, height: 3000), layoutMode: .autoLayout)
    let container = View(name: "container")
    try window.addSubview(container)
    let first = try StackView(axis: .vertical, name: "first")
    let label = Label(text: "short", name: "label")
    try first.addSubview(label)
    var children: [View] = [first]
    for i in 1..<100 { children.append(View(name: "child\(i)")) }
    for (i, child) in children.enumerated() {
      try container.addSubview(child)
      let top =
        i == 0
        ? child.topAnchor.constraint(equalTo: container.topAnchor)
        : child.topAnchor.constraint(equalTo: children[i - 1].bottomAnchor)
      var made = [
        top, child.leadingAnchor.constraint(equalTo: container.leadingAnchor),
        child.widthAnchor.constraint(equalToConstant: 100),
      ]
      if i > 0 { made.append(child.heightAnchor.constraint(equalToConstant: 10)) }
      try LayoutConstraint.activate(made)
    }
    let loop = RunLoop(window: window)
    try loop.tick()
    let lastY = children[99].frame.minY

    loop.post { label.setText(InvalidationScopeTests.twoLines) }
    let before = window.counters
    try loop.tick()
    let work = window.counters - before

    #expect(work.framesChanged >= 100, "\(work)")
    #expect(children[99].frame.minY > lastY)
    for child in children {
      guard let engine = window.engine, let vars = child.variables else {
        Issue.record("\(child) has no variables")
        continue
      }
      expectFrame(child, engine.solver.withUnsafeValues { vars.frame(in: $0) })
    }
  }
}

extension MovedChildrenTests {
  /// The listing's checked path, taken when more variables moved than there is room for
  /// entries: a view whose variables come in one run takes one entry, so seven moved
  /// variables of three views fit a room of three, chained from the last entry to the
  /// first; a fourth view then runs out, and the solve is marked overflowed. (A solve
  /// whose variables come apart reaches the same path in `MovedChildrenTests` only to
  /// overflow.)
  @Test func runsOfOneViewTakeOneEntryWhereTheRoomIsChecked() throws {
    let parent = View(name: "parent")
    var children: [View] = []
    for i in 1...4 {
      let child = View(name: "child\(i)")
      try parent.addSubview(child)
      children.append(child)
    }
    // By view number: 0 is the parent, 1-4 its children, whose target is the parent.
    let targets: [Unmanaged<View>?] = [nil] + children.map { _ in .passUnretained(parent) }
    var numbers = [Int32](repeating: 0, count: 3)
    var next = [Int32](repeating: 0, count: 3)
    func list(_ moved: [Int]) -> (count: Int, overflowed: Bool) {
      targets.withUnsafeBufferPointer { targets in
        numbers.withUnsafeMutableBufferPointer { numbers in
          next.withUnsafeMutableBufferPointer { next in
            var lister = MovedChildLister(
              targets: targets.baseAddress!, numbers: numbers.baseAddress!,
              next: next.baseAddress!, room: 3, serial: UInt64(moved.count), window: nil)
            for index in moved { lister.report(index, checkingRoom: true) }
            return (lister.finish(), lister.overflowed)
          }
        }
      }
    }
    // Variables 4-6 are child 1's x, y and width; 8-9 child 2's; 12-13 child 3's.
    let fitting = list([4, 5, 6, 8, 9, 12, 13])
    #expect(fitting.count == 3 && !fitting.overflowed)
    #expect(numbers == [1, 2, 3])
    #expect(parent.movedHead == 2 && next == [-1, 0, 1])
    let over = list([4, 5, 8, 12, 13, 16])
    #expect(over.count == 3 && over.overflowed)
  }
}
