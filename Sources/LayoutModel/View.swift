import CPrefetch
import Cassowary

/// A rectangle of a window's tree, modelled on UIKit's `UIView`.
///
/// A view has a frame in its superview's coordinate space, subviews, and three flags: needs
/// update constraints, needs layout, needs display. `setNeedsLayout()` and its siblings only
/// set a flag and queue the view in its window; the window's update cycle (run at the end of
/// every run-loop tick, or at once by `layoutIfNeeded()`) visits flagged views only.
///
/// How a window computes frames is the window's choice (``Window/LayoutMode``): Auto Layout
/// solves the constraints of the whole window in one solver, frame layout lets containers
/// size themselves from their children with ``sizeThatFits(_:)``. Subclasses override
/// ``layoutSubviews()``, ``updateConstraints()``, ``draw()``, ``sizeThatFits(_:)`` and
/// ``intrinsicContentSize`` as in UIKit, and call `super` first.
open class View: CustomStringConvertible {
  // Stored properties are laid out in declaration order. The ones a tick reads for every
  // row of a list come first, next to the object's header: the frame, the solver variables
  // and the tick of the last frame change fill the first 64 bytes (all that an Auto Layout
  // pass reads of a child), the fitting-size cache (what frame layout reads) the next.

  /// The frame in the superview's coordinate space. Set it with ``setFrame(_:)``.
  ///
  /// The frame, the subviews and the tag are read for every view of a tree by the layout
  /// passes and the harness's frame check. The frame and the subviews are written only by
  /// this module and the tag when a view joins or leaves a scene; none is written while a read is
  /// open, so their accesses are not checked at run time (a dynamic exclusivity check per
  /// read was most of a frame check's cost).
  @exclusivity(unchecked) public internal(set) var frame: Rect = .zero

  // MARK: - Auto Layout state
  // The variables and the attached constraints are read for every anchor of every
  // constraint a build activates, and written only by this module (the engine and
  // activation), never while an access to the same property is open: not checked at run
  // time, as the frame. The variables are stored as their first index and their engine's
  // mark (0: none), with the frame-change tick between them, where an optional
  // `ViewVariables` would take 24 bytes and push the pair into the next cache line (a pass
  // over a list of 100,000 Auto Layout rows read two lines of every row, one now).
  @exclusivity(unchecked) var firstVariable: Int32 = 0
  /// The window's run-loop tick in which this view's frame last changed.
  var frameChangeTick: UInt32 = 0
  @exclusivity(unchecked) var variablesEngine: UInt64 = 0

  /// The solver variables of this view (origin in the superview's space, and size).
  var variables: ViewVariables? {
    get {
      variablesEngine == 0
        ? nil : ViewVariables(firstIndex: firstVariable, engine: variablesEngine)
    }
    set {
      firstVariable = newValue?.firstIndex ?? 0
      variablesEngine = newValue?.engine ?? 0
    }
  }

  // MARK: - Frame layout state
  // These, the tree links, the flags and the depth are read and written for every view
  // that joins a tree or that a pass visits, and, like the frame, only by this module,
  // never while an access to the same property is open: they are not checked at run time
  // either (the checks were about a fifth of a cold frame-layout build of a feed).
  /// The last `sizeThatFits` proposal and answer (nil proposal: not measured since the
  /// content last changed).
  @exclusivity(unchecked) var fitProposal: Size?
  @exclusivity(unchecked) var fitResult = Size.zero

  // MARK: - Flags
  // (The flags, the mark, the epoch and the chain's head fill the sixteen bytes before the
  // next pointer.)
  @exclusivity(unchecked) public internal(set) var needsLayout = false
  @exclusivity(unchecked) public internal(set) var needsUpdateConstraints = false
  @exclusivity(unchecked) public internal(set) var needsDisplay = false
  /// Whether the pending layout was asked for by the solver alone, which listed the
  /// children whose values it moved (`listMovedChildren(solve:owner:)`): the default
  /// `layoutSubviews` then copies out the frames of those children only. Any other
  /// `setNeedsLayout` clears it. Beside `needsLayout`, which every flagging reads.
  @exclusivity(unchecked) var layoutFromMoves = false
  /// Whether a child's frame may differ from the solution other than by the solver's moves
  /// (set by `setFrame` or `sizeToFit` on a child, by a frame-layout pass, or by a layout
  /// that did not copy the listed children) since this view last copied out every child's
  /// frame: then its next Auto Layout pass copies every child. A new view starts so.
  @exclusivity(unchecked) var childFramesDirty = true
  /// Scratch mark for subtree membership tests.
  var marked = false
  /// The update cycle that last counted a visit of this view (cycle detection).
  var visitEpoch: UInt32 = 0
  /// The last child the solve `movedSerial` listed for this view: the head of their chain
  /// in `LayoutEngine.movedNumbers` (-1: none).
  @exclusivity(unchecked) var movedHead: Int32 = -1

  @exclusivity(unchecked) public internal(set) var subviews: [View] = []
  // The tree owns its views downwards only. `deinit` clears the children's back pointers,
  // so these never dangle; they hold no reference count, to keep reference counting off
  // the passes, which follow them for every flagged view. The parent link is stored
  // unmanaged rather than `unowned(unsafe)`: `LayoutEngine.solve` compares and lends it for
  // every moved value without a retain (reading an `unowned(unsafe)` optional makes a
  // strong reference, a retain and a release per value).
  @exclusivity(unchecked) var parentLink: Unmanaged<View>?
  var parent: View? {
    get { parentLink?.takeUnretainedValue() }
    set { parentLink = newValue.map { Unmanaged.passUnretained($0) } }
  }
  /// The window, stored unmanaged as the parent is: the passes compare it and lend it for
  /// every view they flag or visit without a retain (`isOwned(by:)`, `withOwner(_:)`). A
  /// read of the `unowned(unsafe)` optional it was made a strong reference each, a retain
  /// and a release: four per view of a cold build.
  @exclusivity(unchecked) var ownerLink: Unmanaged<Window>?
  var owner: Window? {
    get { ownerLink?.takeUnretainedValue() }
    set { ownerLink = newValue.map { Unmanaged.passUnretained($0) } }
  }
  /// Distance from the root of the tree (the window has depth 0).
  @exclusivity(unchecked) var depth = 0

  /// A name for diagnostics (errors name views by it).
  public var name: String
  /// An integer the client chooses, as UIKit's `tag` (the harness puts the scene node's id
  /// here, so that two trees of one scene can be compared without looking views up).
  @exclusivity(unchecked) public var tag = 0

  /// Active constraints that name this view.
  @exclusivity(unchecked) var attachedConstraints: [LayoutConstraint] = []
  /// Content hugging / compression resistance constraints from `intrinsicContentSize`.
  /// Changed by the view's constraints pass and the engine's detach, which call the engine
  /// and the solver but nothing that reads this view's intrinsic constraints: not checked
  /// at run time.
  @exclusivity(unchecked) var intrinsic = IntrinsicConstraints()
  /// Constraints a container made to place this view (see `StackView`).
  var arrangement: Arrangement?
  /// Priorities of the intrinsic-size constraints, horizontal then vertical.
  var hugging = (horizontal: LayoutPriority.defaultLow, vertical: LayoutPriority.defaultLow)
  var compression = (horizontal: LayoutPriority.defaultHigh, vertical: LayoutPriority.defaultHigh)

  // MARK: - Cycle detection
  var layoutVisits = 0
  var constraintVisits = 0
  var flaggedBy: String?

  /// The solve that listed children of this view (`LayoutEngine.solveSerial`, 0: none;
  /// `movedHead` is its chain).
  @exclusivity(unchecked) var movedSerial: UInt64 = 0

  public init(name: String = "") {
    self.name = name
  }

  deinit {
    for child in subviews {
      child.parent = nil
      child.owner = nil
    }
  }

  public var superview: View? { parent }
  public var window: Window? { owner }

  public var description: String {
    let type = String(describing: Swift.type(of: self))
    return name.isEmpty ? type : "\(type) '\(name)'"
  }

  /// Whether this view is laid out by its window's solver.
  public var usesAutoLayout: Bool {
    // Through the window link, without a retain (every label asks at each layout).
    guard let link = ownerLink else { return false }
    return link._withUnsafeGuaranteedRef { $0.engine != nil }
  }

  /// Whether a container gives this view the full width it has (labels, stacks), or lets it
  /// keep its own width and aligns it (images).
  open var isFlexibleWidth: Bool { true }

  // MARK: - Geometry

  /// Sets the frame. A change of size flags the view for layout and display, as resizing
  /// does in UIKit; a move alone flags nothing.
  /// - Throws: ``LayoutError/invalidSize(view:what:value:)`` for a negative or non-finite
  ///   size or a non-finite origin.
  public func setFrame(_ rect: Rect) throws(LayoutError) {
    if !(rect.size.isValid && rect.minX.isFinite && rect.minY.isFinite) { try check(rect) }
    noteFrameSetOutsideSolution()
    assignFrame(rect, counting: owner)
    frameWasSet()
  }

  /// Names what is wrong with a frame `setFrame(_:)` refused.
  private func check(_ rect: Rect) throws(LayoutError) {
    for (what, value) in [("width", rect.width), ("height", rect.height)]
    where !(value.isFinite && value >= 0) {
      throw .invalidSize(view: description, what: what, value: value)
    }
    for (what, value) in [("x", rect.minX), ("y", rect.minY)] where !value.isFinite {
      throw .invalidSize(view: description, what: what, value: value)
    }
  }

  /// Hook for views whose frame is an input (the window pins its solver to it).
  func frameWasSet() {}

  /// A frame set other than from the solution (``setFrame(_:)``, ``sizeToFit()``): the
  /// superview's next Auto Layout pass copies out every child, this one included.
  func noteFrameSetOutsideSolution() {
    parentLink?._withUnsafeGuaranteedRef { $0.childFramesDirty = true }
  }

  /// Sets the frame from a layout computation (no validation), counting it in `window`'s
  /// frame counters. `window` is the view's own (its `owner`): callers pass the window they
  /// already hold. Loading `owner` here, once per child, cost a retain and a release per
  /// frame (+27% instructions on a wide1000 text tick), and so did the flags of a resized
  /// view (two pairs per child of a deep text tick).
  @inline(__always) func assignFrame(_ rect: Rect, counting window: Window?) {
    window?.stored.framesAssigned += 1
    guard rect != frame else { return }
    window?.noteFrameChange(of: self)
    let resized = rect.size != frame.size
    frame = rect
    if resized {
      setNeedsLayout(owner: window)
      setNeedsDisplay(owner: window)
    }
  }

  /// Whether `window` is this view's window.
  @inline(__always) func isOwned(by window: Window) -> Bool {
    ownerLink?.toOpaque() == Unmanaged.passUnretained(window).toOpaque()
  }

  /// Calls `body` with this view's window (nil: none), lent without a retain: `body` must
  /// not free the window (the view's link to it holds no reference).
  @inline(__always) func withOwner<R>(_ body: (Window?) -> R) -> R {
    guard let link = ownerLink else { return body(nil) }
    return link._withUnsafeGuaranteedRef { body($0) }
  }

  /// The bounds: the frame's size at the origin (scroll views move the origin).
  open var bounds: Rect { Rect(origin: .zero, size: frame.size) }

  // MARK: - Overridable passes

  /// Places the subviews. In an Auto Layout window the default copies each subview's frame
  /// out of the solver; frame-layout containers override it to place their children.
  open func layoutSubviews() {
    // The list of moved children is taken here, whichever way the children are copied.
    let fromMoves = layoutFromMoves
    layoutFromMoves = false
    // A leaf has nothing to place: it leaves before taking the window and the engine (a
    // retain and a release each, on every label of a resize).
    guard !subviews.isEmpty, let window = owner, let engine = window.engine else { return }
    // Flagged by the solver alone: the children it moved are the only ones whose frames
    // can differ from the solution. (A text change in a list of 100,000 cells moves the
    // cells below it; every cell was copied out, the moved ones or not.) A child's frame
    // set since the solve (by a handler after an early layout, or by an override of an
    // ancestor's layout) is not the solution: every child is copied then.
    if fromMoves && !childFramesDirty && copyMovedChildFrames(engine: engine, window: window) {
      return
    }
    childFramesDirty = false
    // The values are read through one buffer (a call and a bounds check per value cost
    // more than the rest of the copy). The solver's array and `subviews` stay open while
    // frames are assigned: `assignFrame` only flags views and queues them, and must never
    // call into the solver or change a view's subviews.
    engine.solver.withUnsafeValues { values in
      subviews.withUnsafeBufferPointer { children in
        let n = children.count
        // A long list's children are scattered over the heap and every one is read: each
        // child's object is requested 32 children ahead and its values 16 ahead (read from
        // the object, in cache by then), so that the misses overlap. (The requests alone, a
        // list of 100,000 cells: the layout phase of a text tick 20-30% shorter in paired
        // runs.)
        let prefetching = n >= Self.prefetchMinimum
        for i in 0..<n {
          if prefetching {
            if i &+ Self.objectLead < n {
              cprefetch_write(Unmanaged.passUnretained(children[i &+ Self.objectLead]).toOpaque())
            }
            if i &+ Self.valueLead < n { children[i &+ Self.valueLead].requestValues(in: values) }
          }
          let child = children[i]
          guard child.variablesEngine != 0 else { continue }
          // A view in an Auto Layout window has this engine's variables (`moved` attaches it).
          assert(child.variablesEngine == engine.serial, "a child has another engine's variables")
          child.copyFrame(from: values, counting: window)
        }
      }
    }
  }

  /// Copies out of the solver the frames of the children that the last solve listed for
  /// this view (`LayoutEngine.solve`), as `layoutSubviews` copies every child's; returns
  /// false, having copied nothing, when another solve came since (`withMovedChildren`). A
  /// long list requests the objects and values of the children ahead as that loop does,
  /// through two cursors that run ahead along the chain. A child detached since the solve
  /// (its view nil) is skipped; this view was flagged again then, so it does not get here.
  private func copyMovedChildFrames(engine: LayoutEngine, window: Window) -> Bool {
    engine.solver.withUnsafeValues { values -> Bool in
      let copied: Void? = engine.withMovedChildren(ofSolve: movedSerial) { numbers, next, views in
        var i = Int(movedHead)
        precondition(i < numbers.count, "a chain starts past the solve's entries")
        var objectAhead = -1
        var valueAhead = -1
        if numbers.count >= Self.prefetchMinimum {
          objectAhead = i
          for step in 0..<Self.objectLead where objectAhead >= 0 {
            objectAhead = Int(next[objectAhead])
            if step == Self.valueLead &- 1 { valueAhead = objectAhead }
          }
        }
        while i >= 0 {
          if objectAhead >= 0 {
            if let ahead = views[Int(numbers[objectAhead])] { cprefetch_write(ahead.toOpaque()) }
            objectAhead = Int(next[objectAhead])
          }
          if valueAhead >= 0 {
            views[Int(numbers[valueAhead])]?._withUnsafeGuaranteedRef {
              $0.requestValues(in: values)
            }
            valueAhead = Int(next[valueAhead])
          }
          views[Int(numbers[i])]?._withUnsafeGuaranteedRef { child in
            // The window is its own target (it has no superview): its frame is an input.
            guard child !== self else { return }
            assert(
              child.parentLink?.toOpaque() == Unmanaged.passUnretained(self).toOpaque(),
              "a listed child is not this view's")
            guard child.variablesEngine == engine.serial else { return }
            child.copyFrame(from: values, counting: window)
          }
          i = Int(next[i])
        }
      }
      return copied != nil
    }
  }

  /// Requests the line of this view's values in `values` (its engine's), whose frame a
  /// copy reads a few children later.
  @inline(__always) private func requestValues(in values: UnsafeBufferPointer<Double>) {
    let first = Int(firstVariable)
    if variablesEngine != 0 && UInt(bitPattern: first) < UInt(values.count) {
      cprefetch_read(values.baseAddress.unsafelyUnwrapped + first)
    }
  }

  /// Sets this view's frame to the one its variables hold in `values` (its engine's).
  @inline(__always) private func copyFrame(
    from values: UnsafeBufferPointer<Double>, counting window: Window
  ) {
    let vars = ViewVariables(firstIndex: firstVariable, engine: variablesEngine)
    assignFrame(vars.frame(in: values), counting: window)
  }

  /// How many children ahead a frame copy requests a child's object and its values, and
  /// from how many children on. (At 16 and 8, the copy of a long list still waited on the
  /// objects: feed 100,000 text ticks, layout phase 664 -> 616 us in 7 alternated runs,
  /// with the check's value requests moved from 16 to 32 ahead in the same binary.)
  private static var objectLead: Int { 32 }
  private static var valueLead: Int { 16 }
  private static var prefetchMinimum: Int { 4096 }

  /// Brings this view's constraints up to date. The default maintains the content-hugging
  /// and compression-resistance constraints of ``intrinsicContentSize``.
  open func updateConstraints() throws(LayoutError) {
    try updateIntrinsicConstraints()
  }

  /// The size this view would take when offered `size` (UIKit's `sizeThatFits`). Frame
  /// layout measures through ``fittingSize(for:)``, which caches the answer. The default
  /// keeps the current size.
  open func sizeThatFits(_ size: Size) -> Size { frame.size }

  /// Whether this view's fitting size depends on its subviews (stacks: yes; a scroll list
  /// or a window, whose size is given: no). Frame-layout invalidation stops at the first
  /// ancestor for which this is false.
  open var sizeDependsOnChildren: Bool { false }

  /// Whether this view makes constraints for its subviews in `updateConstraints` (and so
  /// needs a constraints pass when they change).
  open var arrangesSubviews: Bool { false }

  /// The natural size of the content, ``View/noIntrinsicMetric`` for a dimension without
  /// one. Auto Layout turns it into hugging and compression-resistance constraints.
  open var intrinsicContentSize: Size {
    Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric)
  }

  /// Draws the content. Counted by the display pass; the model draws nothing.
  open func draw() {}

  /// Called after `view` joined the subviews.
  open func didAddSubview(_ view: View) {}

  /// Called before `view` leaves the subviews.
  open func willRemoveSubview(_ view: View) {}
}
