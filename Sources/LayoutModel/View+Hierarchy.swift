import CPrefetch

// MARK: - Visiting subviews

extension View {
  /// Calls `body` with each subview in order, without a retain and a release per subview.
  ///
  /// The local copy of the array holds every subview it lists until the loop ends, even if
  /// `body` changes `subviews`, so each can be lent to `body` without a retain of its own
  /// (a reference `body` stores is retained as usual).
  @inline(__always) func forEachSubviewUnretained(_ body: (View) -> Void) {
    forEachSubviewUnretained { _, view in body(view) }
  }

  /// `forEachSubviewUnretained(_:)` with each subview's index.
  @inline(__always) func forEachSubviewUnretained(_ body: (Int, View) -> Void) {
    let children = subviews
    children.withUnsafeBufferPointer { buffer in
      for i in buffer.indices {
        Unmanaged.passUnretained(buffer[i])._withUnsafeGuaranteedRef { body(i, $0) }
      }
    }
  }

  /// `forEachSubviewUnretained(_:)` for a container that may have very many children (a
  /// list): from `longChildList` children on, the first two lines of the child `childLead`
  /// places on (its class and frame, its flags and fitting size) are requested before each
  /// visit. A list's cells are scattered over the heap, among their own subviews, and a
  /// text change re-places every cell below it: without the requests each cell waited for
  /// its lines in turn.
  @inline(__always) func forEachSubviewRequestingAhead(_ body: (View) -> Void) {
    let children = subviews
    children.withUnsafeBufferPointer { buffer in
      let n = buffer.count
      let requesting = n >= View.longChildList
      for i in 0..<n {
        if requesting, i &+ View.childLead < n {
          let ahead = Unmanaged.passUnretained(buffer[i &+ View.childLead]).toOpaque()
          cprefetch_write(ahead)
          cprefetch_write(ahead + 64)
        }
        Unmanaged.passUnretained(buffer[i])._withUnsafeGuaranteedRef { body($0) }
      }
    }
  }

  /// From how many children on a pass requests their lines ahead, and how far ahead.
  static var longChildList: Int { 4096 }
  static var childLead: Int { 16 }
}

// MARK: - Adding and removing subviews

extension View {
  /// Appends `view` to the subviews (moving it from its old superview, as UIKit does).
  /// - Throws: ``LayoutError/viewIsAncestor(child:parent:)`` when `view` is this view or one
  ///   of its ancestors, ``LayoutError/windowAsSubview(_:)`` for a window.
  public func addSubview(_ view: View) throws(LayoutError) {
    let count = view.parent === self ? subviews.count - 1 : subviews.count
    try insertSubview(view, at: count)
  }

  /// Makes room for `count` more subviews, so that adding them does not grow the array
  /// step by step (a builder that knows how many children a view will have: a container's
  /// first subviews cost three allocations and two copies without it).
  package func reserveSubviewCapacity(_ count: Int) {
    subviews.reserveCapacity(subviews.count + count)
  }

  /// Inserts `view` at `index` of the subviews. Adding a subview flags this view and the
  /// new one for layout; in a frame-layout window it also invalidates the fitting size of
  /// every ancestor whose size depends on its children.
  /// - Throws: as ``addSubview(_:)``, and ``LayoutError/indexOutOfRange(view:index:count:)``.
  public func insertSubview(_ view: View, at index: Int) throws(LayoutError) {
    if view is Window { throw .windowAsSubview(view.description) }
    // Only a view with subviews can be an ancestor (a new view, built top-down, has none).
    if view === self || (!view.subviews.isEmpty && isDescendant(of: view)) {
      throw .viewIsAncestor(child: view.description, parent: description)
    }
    let count = view.parent === self ? subviews.count - 1 : subviews.count
    guard index >= 0, index <= count else {
      throw .indexOutOfRange(view: description, index: index, count: subviews.count)
    }
    if view.parent === self {
      // A move among siblings keeps the view's constraints and solver state (UIKit only
      // reorders); the container re-links its children.
      if let old = subviews.firstIndex(where: { $0 === view }) { subviews.remove(at: old) }
      subviews.insert(view, at: index)
      setNeedsLayout()
      childrenDidChange()
      return
    }
    if view.parent != nil { view.removeFromSuperview() }
    if index == subviews.count { subviews.append(view) } else { subviews.insert(view, at: index) }
    view.parent = self
    withOwner { view.moved(toDepth: depth + 1, window: $0) }
    didAddSubview(view)
    // Flagged through `setNeedsLayout(owner:)`, inlined: the two calls of `setNeedsLayout()`
    // cost 37 instructions more per added view. (Inlining `setNeedsLayout()` itself did as
    // well here, but made the walk of `invalidateFittingSize()` a call per ancestor.)
    withOwner { setNeedsLayout(owner: $0) }
    view.withOwner { view.setNeedsLayout(owner: $0) }
    childrenDidChange()
  }

  /// Removes this view from its superview. Constraints between a view of this subtree and a
  /// view outside it are deactivated (as UIKit does); constraints inside the subtree stay
  /// active and are solved again when the subtree joins a window.
  public func removeFromSuperview() {
    guard let parent else { return }
    parent.willRemoveSubview(self)
    deactivateCrossingConstraints()
    if let index = parent.subviews.firstIndex(where: { $0 === self }) {
      parent.subviews.remove(at: index)
    }
    self.parent = nil
    moved(toDepth: 0, window: nil)
    parent.setNeedsLayout()
    parent.childrenDidChange()
  }

  /// Whether this view is `ancestor` or lies below it.
  public func isDescendant(of ancestor: View) -> Bool {
    var view: View? = self
    while let current = view {
      if current === ancestor { return true }
      if current.depth < ancestor.depth { return false }
      view = current.parent
    }
    return false
  }

  /// The nearest view that is an ancestor of (or equal to) both views, nil if they are in
  /// different trees, as an unmanaged link. The walk follows the unmanaged parent links and
  /// keeps no reference (it runs twice for every constraint a layout installs: each step
  /// through `parent`, a strong reference, was a retain and a release).
  @inline(__always)
  func commonAncestorLink(with other: View) -> Unmanaged<View>? {
    var a = Unmanaged.passUnretained(self)
    var b = Unmanaged.passUnretained(other)
    let bDepth = other.depth
    while a._withUnsafeGuaranteedRef({ $0.depth }) > bDepth {
      guard let up = a._withUnsafeGuaranteedRef({ $0.parentLink }) else { return nil }
      a = up
    }
    let aDepth = a._withUnsafeGuaranteedRef { $0.depth }
    while b._withUnsafeGuaranteedRef({ $0.depth }) > aDepth {
      guard let up = b._withUnsafeGuaranteedRef({ $0.parentLink }) else { return nil }
      b = up
    }
    while a.toOpaque() != b.toOpaque() {
      guard let up = a._withUnsafeGuaranteedRef({ $0.parentLink }),
        let otherUp = b._withUnsafeGuaranteedRef({ $0.parentLink })
      else { return nil }
      a = up
      b = otherUp
    }
    return a
  }

  /// Calls `body` on this view and every view below it, parents before children. Iterative,
  /// so a tree tens of thousands of levels deep does not exhaust the stack. `body` may
  /// change the tree: the views still to visit are retained.
  public func forEachInSubtree(_ body: (View) throws(LayoutError) -> Void) throws(LayoutError) {
    // A leaf needs no stack.
    if subviews.isEmpty { return try body(self) }
    var stack: [View] = [self]
    while let view = stack.popLast() {
      try body(view)
      // Last child first, so that the first is visited next. (Appending a reversed copy of
      // the array cost 150 instructions per view of a cold build.)
      let children = view.subviews
      var i = children.count
      while i > 0 {
        i -= 1
        stack.append(children[i])
      }
    }
  }

  /// `forEachInSubtree` for internal walks, whose `body` must leave every subview list of
  /// the subtree as it is: the views still to visit are kept unretained. (A retain and a
  /// release per view, atomic operations that each waited for its view's cache miss instead
  /// of overlapping the misses, were a tenth of the cold build of a 100,000-cell feed, when
  /// its window attached the whole tree in one walk.)
  func walkSubtree(_ body: (View) -> Void) {
    // A leaf (every view a scene adds, as trees are built top-down) needs no stack.
    if subviews.isEmpty { return body(self) }
    var stack: [Unmanaged<View>] = [Unmanaged.passUnretained(self)]
    while let link = stack.popLast() {
      link._withUnsafeGuaranteedRef { view in
        body(view)
        view.subviews.withUnsafeBufferPointer { children in
          // Last child first, so that the first is visited next.
          var i = children.count
          while i > 0 {
            i -= 1
            stack.append(Unmanaged.passUnretained(children[i]))
          }
        }
      }
    }
  }

  // MARK: - Tree bookkeeping

  /// A child joined or left: frame layout re-measures upwards; under Auto Layout,
  /// containers regenerate their constraints. (Under frame layout no solver would read
  /// them: building them cost a fifth of a cold frame-layout build of a feed. A subtree
  /// that moves into an Auto Layout window has every view flagged for a constraints pass
  /// there, see `moved(toDepth:window:)`.)
  func childrenDidChange() {
    guard withOwner({ $0?.engine != nil }) else {
      if sizeDependsOnChildren { invalidateFittingSize() }
      return
    }
    if arrangesSubviews { setNeedsUpdateConstraints() }
  }

  /// Updates depth and window for the subtree rooted here, moving flags, solver variables
  /// and constraints from the old window to the new one.
  func moved(toDepth newDepth: Int, window newWindow: Window?) {
    // The old window is compared and lent through its link: no reference is held to it.
    let oldLink = ownerLink
    let newLink = newWindow.map { Unmanaged.passUnretained($0) }
    let sameWindow = oldLink?.toOpaque() == newLink?.toOpaque()
    let delta = newDepth - depth
    // Into an Auto Layout window a second walk installs the constraints, once both ends of
    // each are in the window. Otherwise one walk does everything: a large tree attached to
    // a window was walked twice, a cache miss per view each time (a tenth of the cold build
    // of a bottom-up feed of 100,000 cells).
    let installs = !sameWindow && newWindow?.engine != nil
    // The new window is lent through its link too: bound in the walk's body, it was
    // retained and released once per view.
    let requeueLink = installs ? nil : newLink
    walkSubtree { view in
      view.depth += delta
      if !sameWindow {
        oldLink?._withUnsafeGuaranteedRef { $0.engine?.detach(view) }
        view.ownerLink = newLink
        view.forgetMovedChildren()
      }
      guard let requeueLink else { return }
      requeueLink._withUnsafeGuaranteedRef { $0.requeue(view) }
      if !sameWindow { view.fitProposal = nil }
    }
    guard installs, let newWindow, let engine = newWindow.engine else { return }
    walkSubtree { view in
      newWindow.requeue(view)
      engine.attach(view)
      view.intrinsic.needsUpdate = true
      view.setNeedsUpdateConstraints()
    }
  }

  /// Deactivates every active constraint that names a view of this subtree and a view
  /// outside it.
  func deactivateCrossingConstraints() {
    walkSubtree { $0.marked = true }
    var crossing: [LayoutConstraint] = []
    walkSubtree { view in
      for constraint in view.attachedConstraints
      where !(constraint.firstView.marked && (constraint.secondView?.marked ?? true)) {
        crossing.append(constraint)
      }
    }
    walkSubtree { $0.marked = false }
    for constraint in crossing { constraint.deactivate() }
  }
}
