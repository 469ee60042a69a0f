import Cassowary

/// The root of a view tree, the owner of its update queues and, under Auto Layout, of the
/// one solver that lays out all its views (as in UIKit, one engine per window).
///
/// Its direct subviews are root views: the window places each at its top-left corner with
/// its own width, and its own height unless the view sizes from its children (a stack,
/// which then takes its fitting height), under both layout modes.
///
/// ``runUpdateCycle()`` is what the run loop calls at the end of a tick: constraints pass,
/// solve, layout pass (repeated while a pass flags more work, within ``visitLimit``), then
/// the display pass. Each pass visits only flagged views.
public final class Window: View {
  /// How frames are computed.
  public enum LayoutMode: String, Sendable, CaseIterable {
    /// Constraints between anchors, solved by one incremental Cassowary solver.
    case autoLayout
    /// `sizeThatFits` and `layoutSubviews` of frame-based containers, children first.
    case frames
  }

  public let layoutMode: LayoutMode
  let engine: LayoutEngine?
  /// `engine`, unmanaged: lent without a retain to the constraints being activated (read
  /// as a strong reference, it was a retain and a release per constraint).
  let engineLink: Unmanaged<LayoutEngine>?

  // The queues are changed for every flagged view, by this module only, and no queue
  // operation calls out while it runs (a pass visits a batch it took out of its queue, so
  // that what it calls may flag views, or even run a nested cycle): not checked at run
  // time (see `View.parent`).
  //
  // They hold the flagged views of the tree, never the window: its own flags are read
  // where each pass starts (it goes first in all three). Queued, it held itself, and a
  // window dropped before its first update cycle (it flags itself when made) was never
  // freed, nor any view in it.
  @exclusivity(unchecked) var layoutQueue = DepthQueue()
  @exclusivity(unchecked) var constraintQueue: [View] = []
  @exclusivity(unchecked) var displayQueue = ViewBatch()
  /// An empty buffer the constraints pass swaps with its queue.
  private var spareQueue: [View] = []
  /// An empty batch (with the capacity of the last one drained) for the display queue.
  @exclusivity(unchecked) private var spareDisplayQueue = ViewBatch()
  /// Kept buffers of ``orderChildrenFirst(_:)``.
  private var orderScratch: [View] = []
  private var depthBuckets: [Int] = []
  private var walkedViews: [Unmanaged<View>] = []

  /// How many times one view may be laid out, or have its constraints updated, within one
  /// update cycle before the cycle is reported as a layout cycle. Legitimate layouts need
  /// two (a multi-line label learns its width, then its height).
  public var visitLimit = 6

  // Counters kept here; the solver's pivots are added when read.
  var stored = LayoutCounters()
  /// Counts run-loop ticks (``RunLoop/tick()`` starts one), for
  /// ``LayoutCounters/framesChangedAgain``.
  var frameTick: UInt32 = 1
  var countedSizeThatFits = 0
  /// The view whose `layoutSubviews` or `updateConstraints` is running (cycle tracking).
  unowned(unsafe) var passView: View?
  var epoch: UInt32 = 0
  /// Update cycles in progress (a `layoutIfNeeded` inside `layoutSubviews` nests one).
  private var nesting = 0
  var repeaters: [View] = []
  /// Told when each pass of ``runUpdateCycle()`` starts (the run loop sets it per tick).
  public var phaseObserver: ((TickPhase?) -> Void)?

  /// A window of `size` points.
  /// - Throws: ``LayoutError/invalidSize(view:what:value:)`` for a negative or non-finite
  ///   size.
  public init(size: Size, layoutMode: LayoutMode, name: String = "window") throws(LayoutError) {
    self.layoutMode = layoutMode
    engine = layoutMode == .autoLayout ? LayoutEngine() : nil
    engineLink = engine.map { Unmanaged.passUnretained($0) }
    super.init(name: name)
    owner = self
    engine?.window = self
    engine?.attach(self)
    try setFrame(Rect(origin: .zero, size: size))
    setNeedsLayout()
  }

  deinit {
    // Subtrees that outlive the window must not point at it (nor at its solver).
    for child in subviews {
      child.walkSubtree { view in
        view.owner = nil
        view.variables = nil
        view.intrinsic = IntrinsicConstraints()
        view.depth -= 1
        for constraint in view.attachedConstraints { constraint.installed = nil }
      }
    }
  }

  /// Counts a view's frame change, and whether it is the view's second or later this tick.
  @inline(__always) func noteFrameChange(of view: View) {
    stored.framesChanged += 1
    if view.frameChangeTick == frameTick {
      stored.framesChangedAgain += 1
    } else {
      view.frameChangeTick = frameTick
    }
  }

  /// Starts a new run-loop tick for the frame counters.
  func beginTick() { frameTick &+= 1 }

  /// Work done by this window's passes and solver since it was created.
  public var counters: LayoutCounters {
    var c = stored
    c.sizeThatFits = countedSizeThatFits
    if let engine {
      let solver = engine.solver.counters
      c.solverPivots = solver.pivots
      c.solverRowsTouched = solver.rowsTouched
      c.solverValuesUpdated = solver.valuesUpdated
      c.constraintsAdded = engine.added
      c.constraintsRemoved = engine.removed
      c.constraintsChanged = engine.changed
      c.solves = engine.solves
    }
    return c
  }

  override func frameWasSet() {
    engine?.pinWindow(to: frame.size)
  }

  override public var sizeDependsOnChildren: Bool { false }
  override public var arrangesSubviews: Bool { engine != nil }

  // MARK: - Root views: pinned to the window's top edge and width

  /// Frame layout: each root view spans the window's width; a view whose size does not
  /// depend on its children (a scroll list, a plain view) also gets the window's height,
  /// containers their fitting height.
  override public func layoutSubviews() {
    guard engine == nil else {
      super.layoutSubviews()
      return
    }
    childFramesDirty = true
    for child in subviews {
      let height =
        child.sizeDependsOnChildren ? child.fittingSize(for: frame.size).height : frame.height
      child.assignFrame(Rect(x: 0, y: 0, width: frame.width, height: height), counting: self)
    }
  }

  /// Auto Layout: the same placement as constraints. A root view's own constraints must
  /// leave its leading, top and width (and height, unless it sizes from its children) to
  /// the window, as a root view controller's view does in UIKit; a conflict is reported
  /// with the pin that caused it.
  override public func updateConstraints() throws(LayoutError) {
    try super.updateConstraints()
    for child in subviews where child.arrangement?.container !== self {
      var made: [LayoutConstraint] = [
        child.leadingAnchor.constraint(equalTo: leadingAnchor),
        child.topAnchor.constraint(equalTo: topAnchor),
        child.widthAnchor.constraint(equalTo: widthAnchor),
      ]
      if !child.sizeDependsOnChildren {
        made.append(child.heightAnchor.constraint(equalTo: heightAnchor))
      }
      do throws(LayoutError) { try LayoutConstraint.activate(made) } catch {
        guard case .unsatisfiableConstraint(let constraint) = error else { throw error }
        throw .unsatisfiableConstraint(
          "\(constraint) (the window pins each direct subview's leading, top and width to "
            + "its own, and its height unless the view sizes from its children: constrain "
            + "the subviews of \(child) instead)")
      }
      child.arrangement = Arrangement(container: self, constraints: made)
    }
  }

  override public func willRemoveSubview(_ view: View) {
    view.arrangement = nil
  }

  // MARK: - The update cycle

  /// Runs the end-of-tick update cycle: constraints, layout, display.
  /// - Throws: ``LayoutError/layoutCycle(_:)``, ``LayoutError/unsatisfiableConstraint(_:)``.
  public func runUpdateCycle() throws(LayoutError) {
    try updateCycle(start: nil)
    phaseObserver?(.display)
    displayPass()
  }

  /// Constraints pass, solve and layout pass, repeated while passes flag more work. With a
  /// `start` view, only the subtree under its topmost flagged ancestor is laid out (found
  /// after each solve, which is what flags ancestors under Auto Layout); the rest stays
  /// queued. A cycle entered from inside a pass (a `layoutSubviews` calling
  /// `layoutIfNeeded`) counts its visits with the outer one, so it cannot dodge the limit.
  func updateCycle(start: View?) throws(LayoutError) {
    if nesting == 0 {
      epoch &+= 1
      repeaters.removeAll(keepingCapacity: true)
    }
    nesting += 1
    defer { nesting -= 1 }
    while true {
      phaseObserver?(.constraints)
      try constraintsPass()
      solveIfNeeded()
      var root = start
      if let view = start {
        var top = view
        while let up = top.parent, up.needsLayout { top = up }
        root = top === self ? nil : top
      }
      guard hasLayoutWork(within: root) else { return }
      stored.layoutRounds += 1
      phaseObserver?(.layout)
      try layoutPass(within: root)
    }
  }

  private func hasLayoutWork(within root: View?) -> Bool {
    guard let root else { return needsLayout || !layoutQueue.isEmpty }
    let pending = layoutQueue.drain()
    var found = false
    for view in pending {
      layoutQueue.insert(view)
      if !found, view.needsLayout, view.isOwned(by: self), view.isDescendant(of: root) {
        found = true
      }
    }
    return found
  }

  /// Calls `updateConstraints` on flagged views, each after its flagged descendants (a
  /// container's constraints may depend on its children's; see `orderChildrenFirst`),
  /// until none is flagged.
  ///
  /// The window itself goes first in each round: it only pins its root views to its own
  /// edges, which in UIKit exist from the moment a root view is added (its autoresizing
  /// constraints). Made last, they would leave a list's width undetermined while the list
  /// arranges its cells, and each cell's `trailing == list.trailing` would redefine the
  /// list's width through that cell, so that every earlier cell depended on the newest
  /// one: building a 10,000-cell feed took 7.7 minutes and 7 GB that way, 13 s and 0.8 GB
  /// this way.
  func constraintsPass() throws(LayoutError) {
    while needsUpdateConstraints || !constraintQueue.isEmpty {
      if needsUpdateConstraints { try updateConstraints(of: self) }
      // The queue is exchanged for the kept spare buffer, so that neither buffer is shared
      // (views flagged during the pass append to the queue: a shared buffer would be
      // copied, an allocation per pass).
      var batch = takeSpareQueue()
      swap(&batch, &constraintQueue)
      defer { returnSpareQueue(&batch) }
      if batch.count > 1 { orderChildrenFirst(&batch) }
      for view in batch where view.needsUpdateConstraints && view.isOwned(by: self) {
        try updateConstraints(of: view)
      }
    }
  }

  /// One visit of the constraints pass.
  private func updateConstraints(of view: View) throws(LayoutError) {
    view.needsUpdateConstraints = false
    try countVisit(view, pass: .constraints)
    stored.updateConstraints += 1
    passView = view
    defer { passView = nil }
    try view.updateConstraints()
  }

  /// The spare queue buffer, moved out (the property is left without a buffer).
  private func takeSpareQueue() -> [View] {
    var batch: [View] = []
    swap(&batch, &spareQueue)
    return batch
  }

  /// Empties a pass's batch, keeping its capacity, as the next spare buffer.
  private func returnSpareQueue(_ batch: inout [View]) {
    batch.removeAll(keepingCapacity: true)
    swap(&batch, &spareQueue)
  }

  /// Orders a constraints batch (views of the tree, never the window) for the pass so that
  /// children update their constraints before their containers.
  ///
  /// When the queue lists flagged views of this window only, each once, after its flagged
  /// ancestors, as a tree built top-down or a subtree added whole queues them, the batch
  /// runs backwards: each container's subtree then comes together, just before it. A
  /// feed's cells are constrained one after another, each one's rows made next to each
  /// other in the tableau, in memory and in time. Deepest first instead made every cell's labels, then
  /// every cell's stacks, and so on: the rows a cell's stack named were a whole level of
  /// the tree old, and walking them (`Tableau.referenceClosure`) missed the caches at every
  /// row (7% of the time of a 10,000-cell feed's build, `perf record`). Backwards, the cold
  /// builds of the seven shapes at 300 take 0.4-5.3% fewer instructions.
  ///
  /// Otherwise the batch goes deepest first, equals in queue order: in place for a small
  /// batch, else a counting sort by depth through kept buffers (the standard library's
  /// stable sort allocates a merge buffer for every batch of more than a few views, and a
  /// resize queues every label).
  func orderChildrenFirst(_ batch: inout [View]) {
    guard batch.count > 1 else { return }
    if queuesAncestorsFirst(batch) {
      batch.reverse()
      return
    }
    orderDeepestFirst(&batch)
  }

  /// Whether every view of the batch is flagged and in this window, comes after each of its
  /// flagged ancestors, and is queued once.
  ///
  /// One pass in queue order: each view walks up its ancestors until it meets one already
  /// walked (whose own ancestors were checked then), failing at a flagged ancestor not met
  /// yet. Each view is walked once, so the check is linear in the views it passes. The
  /// walked views are marked (`View.marked`, clear outside such walks) and cleared after.
  func queuesAncestorsFirst(_ batch: [View]) -> Bool {
    var walked: [Unmanaged<View>] = []
    swap(&walked, &walkedViews)
    defer {
      for view in walked { view._withUnsafeGuaranteedRef { $0.marked = false } }
      walked.removeAll(keepingCapacity: true)
      swap(&walked, &walkedViews)
    }
    // Walked without retains: the batch holds its views, and they hold their ancestors.
    unowned(unsafe) let window: View = self
    return batch.withUnsafeBufferPointer { batch in
      for i in batch.indices {
        unowned(unsafe) let view = batch[i]
        // An entry the pass would skip now (unflagged, or not in this window) can be
        // flagged again by a view that runs before it (a review found one left by a
        // repeat of an earlier round): backwards, it could then run before its flagged
        // children. A tree built top-down queues none.
        if !view.needsUpdateConstraints || !view.isOwned(by: self) { return false }
        // Marked already, a flagged view is queued again (a descendant would have failed
        // on it): backwards, its repeat would come before the views queued in between,
        // its descendants among them.
        if view.marked { return false }
        unowned(unsafe) var current = view
        while !current.marked && current !== window {
          if current !== view && current.needsUpdateConstraints { return false }
          current.marked = true
          walked.append(Unmanaged.passUnretained(current))
          guard let parent = current.parentLink else { break }
          current = parent.takeUnretainedValue()
        }
      }
      return true
    }
  }

  /// Deepest first, equals in queue order (see `orderChildrenFirst`).
  func orderDeepestFirst(_ batch: inout [View]) {
    @inline(__always) func rank(_ view: View) -> Int { view.depth }
    guard batch.count > 1 else { return }
    if batch.count <= 24 {
      // Insertion sort: stable, no buffer.
      for i in 1..<batch.count {
        let view = batch[i]
        let key = rank(view)
        var j = i
        while j > 0 && rank(batch[j - 1]) < key {
          batch[j] = batch[j - 1]
          j -= 1
        }
        batch[j] = view
      }
      return
    }
    var shallowest = Int.max
    var deepest = Int.min
    for view in batch {
      shallowest = min(shallowest, view.depth)
      deepest = max(deepest, view.depth)
    }
    // Bucket `deepest - depth` holds the views of that depth; each bucket's count becomes
    // its start in the output, then its next free position.
    let buckets = deepest - shallowest + 1
    if depthBuckets.count < buckets {
      depthBuckets.append(contentsOf: repeatElement(0, count: buckets - depthBuckets.count))
    }
    for b in 0..<buckets { depthBuckets[b] = 0 }
    for view in batch { depthBuckets[deepest - view.depth] += 1 }
    var start = 0
    for b in 0..<buckets {
      let count = depthBuckets[b]
      depthBuckets[b] = start
      start += count
    }
    var sorted: [View] = []
    swap(&sorted, &orderScratch)
    sorted.removeAll(keepingCapacity: true)
    // Filled with placeholders, then every position is written once.
    sorted.append(contentsOf: repeatElement(self as View, count: batch.count))
    for view in batch {
      let b = deepest - view.depth
      sorted[depthBuckets[b]] = view
      depthBuckets[b] += 1
    }
    swap(&sorted, &batch)
    // The caller's old buffer, emptied (it must not keep views alive), serves the next
    // large batch.
    sorted.removeAll(keepingCapacity: true)
    swap(&sorted, &orderScratch)
  }

  /// Reads the solver's new solution; every view whose variables moved flags its superview
  /// (which places it) for layout.
  func solveIfNeeded() {
    guard let engine, engine.needsSolve else { return }
    engine.solve()
  }

  /// Calls `layoutSubviews` on flagged views, parents before children.
  ///
  /// The window, shallower than any view, goes first whenever it is flagged. It is never a
  /// descendant of `root` (never the window itself): with a root, it stays flagged.
  private func layoutPass(within root: View?) throws(LayoutError) {
    var deferred: [View] = []
    defer { for view in deferred { layoutQueue.insert(view) } }
    // The window is visited in a branch of its own: one variable holding either it
    // (borrowed) or a popped view (owned) cost a retain and a release of every view.
    while true {
      if root == nil && needsLayout {
        try layOut(self)
        continue
      }
      guard let view = layoutQueue.popShallowest() else { break }
      guard view.needsLayout, view.isOwned(by: self) else { continue }
      if let root, !view.isDescendant(of: root) {
        deferred.append(view)
        continue
      }
      try layOut(view)
    }
  }

  /// One visit of the layout pass.
  @inline(__always) private func layOut(_ view: View) throws(LayoutError) {
    view.needsLayout = false
    do throws(LayoutError) {
      try countVisit(view, pass: .layout)
    } catch {
      // Not laid out: the children the solve listed would be missed by a later layout of
      // the moves alone.
      view.forgoListedChildren()
      throw error
    }
    stored.layoutSubviews += 1
    passView = view
    view.layoutSubviews()
    // Still set: an override did not call the default, which takes the list (a later
    // layout of the moves alone would miss these children).
    if view.layoutFromMoves { view.forgoListedChildren() }
    passView = nil
    // A layoutSubviews that changed constraints is served by the next round's solve.
  }

  /// Calls `draw` on every view flagged for display.
  func displayPass() {
    // The queue's views are drained from a local batch, the spare taking the queue's place:
    // a draw that flags a view queues it for the next pass, and a draw that runs a nested
    // update cycle drains that cycle's own batch, never this one.
    @inline(__always) func display(_ view: View) {
      guard view.needsDisplay, view.isOwned(by: self) else { return }
      view.needsDisplay = false
      stored.draw += 1
      view.draw()
    }
    display(self)
    var batch = ViewBatch()
    swap(&batch, &spareDisplayQueue)
    swap(&batch, &displayQueue)
    batch.drain(display)
    swap(&batch, &spareDisplayQueue)
  }

  /// Re-queues the flags of a view that joined this window (or moved within it).
  @inline(__always) func requeue(_ view: View) {
    guard !view.isWindow(self) else { return }
    if view.needsLayout { layoutQueue.insert(view) }
    if view.needsUpdateConstraints { constraintQueue.append(view) }
    if view.needsDisplay { displayQueue.append(view) }
  }

  // MARK: - Cycle detection

  /// Counts a visit of `view` in this update cycle and stops the cycle when the view comes
  /// back more than `visitLimit` times.
  @inline(__always)
  private func countVisit(_ view: View, pass: LayoutCycle.Pass) throws(LayoutError) {
    if view.visitEpoch != epoch {
      view.visitEpoch = epoch
      view.layoutVisits = 0
      view.constraintVisits = 0
    }
    let visits: Int
    switch pass {
    case .layout:
      view.layoutVisits += 1
      visits = view.layoutVisits
    case .constraints:
      view.constraintVisits += 1
      visits = view.constraintVisits
    }
    if visits == 2 { repeaters.append(view) }
    guard visits > visitLimit else { return }
    throw .layoutCycle(cycleReport(pass: pass))
  }

  private func cycleReport(pass: LayoutCycle.Pass) -> LayoutCycle {
    let threshold = max(2, visitLimit / 2)
    var entries: [(View, Int)] = []
    for view in repeaters where view.visitEpoch == epoch {
      let visits = pass == .layout ? view.layoutVisits : view.constraintVisits
      if visits >= threshold { entries.append((view, visits)) }
    }
    entries.sort { $0.1 > $1.1 }
    return LayoutCycle(
      pass: pass, limit: visitLimit,
      views: entries.prefix(12).map {
        LayoutCycle.Entry(view: $0.0.description, visits: $0.1, flaggedBy: $0.0.flaggedBy)
      })
  }

  /// Records who flagged `view` when a pass flags the running view or one of its ancestors:
  /// the pattern of a layout cycle. Flags on descendants (the normal case) cost nothing.
  /// Called for every flag: the view's own marks are tested first, and the running view
  /// (a strong reference, a retain and a release) is read only when they say it may matter.
  @inline(__always)
  func noteFlag(_ view: View) {
    // Only views already revisited this cycle are recorded: a label flagging itself once
    // after learning its width is normal, and naming views costs string formatting.
    guard view.visitEpoch == epoch, view.layoutVisits >= 2 || view.constraintVisits >= 2,
      let running = passView, view.depth <= running.depth, running.isDescendant(of: view)
    else { return }
    view.flaggedBy = running.description
  }
}
