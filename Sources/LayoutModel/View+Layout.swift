// MARK: - Flags and immediate updates (UIKit's setNeeds... / ...IfNeeded pairs)

extension View {
  /// Whether `window` is this view: a window flags itself but is never in its own queues
  /// (its passes read its flags). Callers then queue through `window?.`: binding the
  /// window first (`if let window, window !== self`) retained and released it at every
  /// flag.
  @inline(__always) func isWindow(_ window: Window?) -> Bool {
    window.map(ObjectIdentifier.init) == ObjectIdentifier(self)
  }

  /// Flags the view for layout at the next update cycle and returns at once.
  public func setNeedsLayout() {
    withOwner { setNeedsLayout(owner: $0) }
  }

  /// `setNeedsLayout()` for a caller that holds the view's window (its `owner`) already.
  /// `window` must be that window: flagged in another, the view would never be laid out
  /// (asserted in debug builds).
  @inline(__always) func setNeedsLayout(owner window: Window?) {
    assert(window === owner, "flagged in another view's window")
    if let window { window.noteFlag(self) }
    layoutFromMoves = false
    guard !needsLayout else { return }
    needsLayout = true
    if !isWindow(window) { window?.layoutQueue.insert(self) }
  }

  /// Flags the view for layout because the solve `serial` moved children of it, and returns
  /// the head of the chain of the children listed so far in that solve (-1: none): the
  /// first call of a solve starts the chain. The layout copies out those children alone
  /// when nothing else flagged the view, before (a pending layout) or after (any
  /// `setNeedsLayout` clears `layoutFromMoves`), and no child's frame was set outside the
  /// solution (`childFramesDirty`). `window` is the view's own.
  @inline(__always) func listMovedChildren(solve serial: UInt64, owner window: Window?) -> Int32 {
    if movedSerial == serial { return movedHead }
    let alone = !needsLayout && !childFramesDirty
    setNeedsLayout(owner: window)
    layoutFromMoves = alone
    movedSerial = serial
    return -1
  }

  /// Gives up the children a solve listed for this view, which its layout did not copy
  /// out: its next layout copies every child.
  func forgoListedChildren() {
    layoutFromMoves = false
    childFramesDirty = true
  }

  /// Drops what a solve listed for this view, on leaving its window: the list is that
  /// window's engine's, whose solves another engine's may number alike.
  func forgetMovedChildren() {
    layoutFromMoves = false
    childFramesDirty = true
    movedSerial = 0
    movedHead = -1
  }

  /// Flags the view for a constraints pass at the next update cycle.
  public func setNeedsUpdateConstraints() {
    withOwner { window in
      if let window { window.noteFlag(self) }
      guard !needsUpdateConstraints else { return }
      needsUpdateConstraints = true
      if !isWindow(window) { window?.constraintQueue.append(self) }
    }
  }

  /// Flags the view for drawing at the next update cycle. There is no immediate variant.
  public func setNeedsDisplay() {
    guard !needsDisplay else { return }
    needsDisplay = true
    withOwner { window in
      if !isWindow(window) { window?.displayQueue.append(self) }
    }
  }

  /// `setNeedsDisplay()` for a caller that holds the view's window (its `owner`) already,
  /// which `window` must be (asserted in debug builds).
  func setNeedsDisplay(owner window: Window?) {
    assert(window === owner, "flagged in another view's window")
    guard !needsDisplay else { return }
    needsDisplay = true
    if !isWindow(window) { window?.displayQueue.append(self) }
  }

  /// Lays out now if layout is pending: constraints pass and solve (window-wide, as the
  /// window shares one solver), then `layoutSubviews` on the flagged views of the subtree
  /// under the topmost flagged ancestor of this view. Free when nothing is flagged; a
  /// second call without changes in between does nothing.
  /// - Throws: ``LayoutError/layoutCycle(_:)`` when layout does not settle;
  ///   ``LayoutError/unsatisfiableConstraint(_:)`` from a constraints pass.
  public func layoutIfNeeded() throws(LayoutError) {
    guard let owner else {
      layoutDetachedSubtree()
      return
    }
    try owner.updateCycle(start: self === owner ? nil : self)
  }

  /// Runs the constraints pass now if any view of the window is flagged for it.
  public func updateConstraintsIfNeeded() throws(LayoutError) {
    try owner?.constraintsPass()
  }

  /// A tree with no window has no queues: lay out its flagged views parents first.
  private func layoutDetachedSubtree() {
    var stack: [View] = [self]
    while let view = stack.popLast() {
      if view.needsLayout {
        view.needsLayout = false
        view.layoutSubviews()
      }
      stack.append(contentsOf: view.subviews.reversed())
    }
  }
}

// MARK: - Frame layout: fitting sizes, measured children first

extension View {
  /// The cached ``sizeThatFits(_:)``: measured once per proposal until the content or a
  /// child changes. Frame-layout containers measure their children through it, so a tick
  /// re-measures only what a mutation invalidated.
  public func fittingSize(for proposal: Size) -> Size {
    if let cached = fitProposal, cached == proposal { return fitResult }
    withOwner { $0?.countedSizeThatFits += 1 }
    let size = sizeThatFits(proposal)
    fitProposal = proposal
    fitResult = size
    return size
  }

  /// Resizes the view to its fitting size for its current size (UIKit's `sizeToFit`).
  public func sizeToFit() {
    let size = fittingSize(for: frame.size)
    noteFrameSetOutsideSolution()
    assignFrame(Rect(origin: frame.origin, size: size), counting: owner)
  }

  /// Frame layout's invalidation: the fitting size of this view is stale, so is that of
  /// every ancestor whose size depends on its children. The walk flags those ancestors for
  /// layout and stops at the first one whose size does not depend on its children (it
  /// only needs to re-place them), or at one already invalid (amortised O(1) per tick).
  public func invalidateFittingSize() {
    fitProposal = nil
    // Up the unmanaged parent links, each ancestor lent without a retain (a parent outlives
    // the links to it: its deinit clears them).
    var child = Unmanaged.passUnretained(self)
    while let link = child._withUnsafeGuaranteedRef({ $0.parentLink }) {
      let goesOn = link._withUnsafeGuaranteedRef { up in
        up.setNeedsLayout()
        guard up.sizeDependsOnChildren, up.fitProposal != nil else { return false }
        up.fitProposal = nil
        return true
      }
      guard goesOn else { return }
      child = link
    }
  }
}
