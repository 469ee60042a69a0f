/// A container that places its subviews one after another (vertical, horizontal) or over
/// each other (overlay), with spacing, insets and cross-axis alignment, like `UIStackView`.
///
/// It lays out both ways. Under frame layout its fitting size comes from its children's and
/// `layoutSubviews` places them. Under Auto Layout it makes the equivalent constraints in
/// `updateConstraints` (as `UIStackView` does) and reconciles them when children come and
/// go: only the links next to a change are replaced, and spacing or inset changes go
/// through the solver's in-place constant path. Both give the same frames.
///
/// Flexible children (labels, stacks) get the full cross width in vertical and overlay
/// stacks and share the width left by fixed children (images) equally in horizontal ones.
/// Fixed children keep their size and are aligned.
public class StackView: View {
  public enum Axis: String, Sendable, CaseIterable { case vertical, horizontal, overlay }

  /// Cross-axis position: leading/top, center, trailing/bottom.
  public enum Alignment: String, Sendable, CaseIterable { case leading, center, trailing }

  public let axis: Axis
  // Read on every measure and layout pass and written only by the setters: no access is open
  // when one runs, so their accesses are not checked at run time (as View's hot properties).
  @exclusivity(unchecked) public private(set) var spacing: Double
  @exclusivity(unchecked) public private(set) var alignment: Alignment
  @exclusivity(unchecked) public private(set) var insets: EdgeInsets

  // Auto Layout: container-level constraints and what changed since the last pass.
  @exclusivity(unchecked) private var tail: LayoutConstraint?
  @exclusivity(unchecked) unowned(unsafe) private var tailView: View?
  @exclusivity(unchecked) private var hug: LayoutConstraint?
  @exclusivity(unchecked) private var floor: LayoutConstraint?
  @exclusivity(unchecked) private var geometryChanged = false
  @exclusivity(unchecked) private var alignmentChanged = false

  /// - Throws: ``LayoutError/invalidSize(view:what:value:)`` for negative or non-finite
  ///   spacing or insets.
  public init(
    axis: Axis, spacing: Double = 0, alignment: Alignment = .leading,
    insets: EdgeInsets = .zero, name: String = ""
  ) throws(LayoutError) {
    self.axis = axis
    self.spacing = spacing
    self.alignment = alignment
    self.insets = insets
    super.init(name: name)
    try checkGeometry(spacing: spacing, insets: insets)
  }

  /// For subclasses whose geometry is valid by construction.
  init(validAxis axis: Axis, name: String) {
    self.axis = axis
    spacing = 0
    alignment = .leading
    insets = .zero
    super.init(name: name)
  }

  override public var sizeDependsOnChildren: Bool { true }
  override public var arrangesSubviews: Bool { true }

  // MARK: - Configuration

  public func setSpacing(_ value: Double) throws(LayoutError) {
    try checkGeometry(spacing: value, insets: insets)
    guard value != spacing else { return }
    spacing = value
    geometryDidChange()
  }

  public func setInsets(_ value: EdgeInsets) throws(LayoutError) {
    try checkGeometry(spacing: spacing, insets: value)
    guard value != insets else { return }
    insets = value
    geometryDidChange()
  }

  public func setAlignment(_ value: Alignment) {
    guard value != alignment else { return }
    alignment = value
    alignmentChanged = true
    geometryDidChange()
  }

  private func checkGeometry(spacing: Double, insets: EdgeInsets) throws(LayoutError) {
    guard spacing.isFinite, spacing >= 0 else {
      throw .invalidSize(view: description, what: "spacing", value: spacing)
    }
    // The list below, which names the bad inset, is built only for an error: built on every
    // call it cost 400 instructions per stack view of a cold build.
    if insets.isValid { return }
    for (what, value) in [
      ("top inset", insets.top), ("left inset", insets.left), ("bottom inset", insets.bottom),
      ("right inset", insets.right),
    ] where !(value.isFinite && value >= 0) {
      throw .invalidSize(view: description, what: what, value: value)
    }
  }

  private func geometryDidChange() {
    if usesAutoLayout {
      geometryChanged = true
      setNeedsUpdateConstraints()
    } else {
      invalidateFittingSize()
      setNeedsLayout()
    }
  }

  override public func willRemoveSubview(_ view: View) {
    if view.arrangement?.container === self {
      view.arrangement?.deactivateAll()
      view.arrangement = nil
    }
  }

  // MARK: - Frame layout

  private var innerProposal: Size {
    Size(width: max(0, bounds.width - insets.horizontal), height: .infinity)
  }

  override public func sizeThatFits(_ size: Size) -> Size {
    let inner = Size(width: max(0, size.width - insets.horizontal), height: .infinity)
    var content = 0.0
    switch axis {
    case .vertical:
      forEachSubviewUnretained { child in content += child.fittingSize(for: inner).height }
      content += spacing * Double(max(0, subviews.count - 1))
    case .overlay:
      forEachSubviewUnretained { child in
        content = max(content, child.fittingSize(for: inner).height)
      }
    case .horizontal:
      content = tallestChild(inner: inner)
    }
    return Size(width: size.width, height: content + insets.vertical)
  }

  /// The height of the tallest child of a horizontal stack for the inner width. (Out of
  /// line, as `placeRow(inner:window:)` is: inlined, the temporary buffer made every call of
  /// `sizeThatFits` dearer, vertical stacks' too.)
  @inline(never)
  private func tallestChild(inner: Size) -> Double {
    var tallest = 0.0
    let children = subviews
    children.withUnsafeBufferPointer { children in
      guard !children.isEmpty else { return }
      guard children.count <= StackView.rowOnStack else {
        let share = measureChildren(children, inner: inner, into: nil)
        for i in children.indices {
          let size = Unmanaged.passUnretained(children[i])._withUnsafeGuaranteedRef { child in
            measuredSize(of: child, inner: inner, share: share)
          }
          tallest = max(tallest, size.height)
        }
        return
      }
      withUnsafeTemporaryAllocation(of: Size.self, capacity: children.count) { buffer in
        let sizes = buffer.baseAddress.unsafelyUnwrapped
        _ = measureChildren(children, inner: inner, into: sizes)
        for i in children.indices { tallest = max(tallest, sizes[i].height) }
      }
    }
    return tallest
  }

  /// The most children whose sizes a row keeps on the stack: beyond 1 KB,
  /// `withUnsafeTemporaryAllocation` takes heap memory, an allocation per measure.
  private static var rowOnStack: Int { 64 }

  /// Measures `children`, the children of a horizontal stack, for the inner width: fixed
  /// children first, then the flexible ones at their share of what the fixed ones leave.
  /// Writes each child's size to `sizes`, when given (room for one per child), and returns
  /// the proposal the flexible children were measured at.
  ///
  /// The callers lay out with the sizes as each measure returned them, whatever a child's
  /// `sizeThatFits` does to a sibling's cached size meanwhile: kept in a temporary buffer on
  /// the stack (`withUnsafeTemporaryAllocation`), or for a row too long for it read back
  /// through `fittingSize(for:)` at each child's proposal (`measuredSize(of:inner:share:)`,
  /// which measures again a child that a sibling measured at another width). They were kept
  /// in an array of the stack's own, which its first measure allocated: two allocations per
  /// feed cell, 4.7% of the instructions of a cold bottom-up build of a feed of 3,000
  /// cells. (Read back from the children's caches as they stood, the size of a child that a
  /// sibling measured at another width became the row's.)
  private func measureChildren(
    _ children: UnsafeBufferPointer<View>, inner: Size, into sizes: UnsafeMutablePointer<Size>?
  ) -> Size {
    var fixedWidth = 0.0
    var flexible = 0
    for i in children.indices {
      let size = Unmanaged.passUnretained(children[i])._withUnsafeGuaranteedRef { child in
        if child.isFlexibleWidth {
          flexible &+= 1
          return Size.zero
        }
        return child.fittingSize(for: inner)
      }
      sizes?.advanced(by: i).initialize(to: size)
      fixedWidth += size.width
    }
    guard flexible > 0 else { return inner }
    let gaps = spacing * Double(children.count - 1)
    let share = Size(
      width: (inner.width - fixedWidth - gaps) / Double(flexible), height: .infinity)
    for i in children.indices {
      Unmanaged.passUnretained(children[i])._withUnsafeGuaranteedRef { child in
        guard child.isFlexibleWidth else { return }
        let size = child.fittingSize(for: share)
        sizes?[i] = size
      }
    }
    return share
  }

  /// A child's size at the proposal `measureChildren(_:inner:into:)` gave it.
  @inline(__always)
  private func measuredSize(of child: View, inner: Size, share: Size) -> Size {
    child.fittingSize(for: child.isFlexibleWidth ? share : inner)
  }

  override public func layoutSubviews() {
    guard !usesAutoLayout else {
      super.layoutSubviews()
      return
    }
    // The window is lent for the placement (counted frame changes), not retained.
    withOwner { window in placeChildren(window: window) }
  }

  /// Frame layout: measures and places the children. (Out of line: inlined into
  /// `layoutSubviews`, it made the Auto Layout path's every call 4 instructions dearer.)
  @inline(never)
  private func placeChildren(window: Window?) {
    childFramesDirty = true
    let inner = innerProposal
    guard axis == .horizontal else {
      placeStacked(inner: inner, window: window)
      return
    }
    placeRow(inner: inner, window: window)
  }

  /// Horizontal stacks: measures the children, then places them side by side.
  ///
  /// A child that a sibling's `sizeThatFits` removed from the stack during the measure is
  /// not placed (it got a frame, and a flag, from a window it had left); the removal, as
  /// an addition would, flagged the stack, which lays out again with the children it has
  /// then.
  @inline(never)
  private func placeRow(inner: Size, window: Window?) {
    let innerHeight = bounds.height - insets.vertical
    var cursor = insets.left
    let this = Unmanaged.passUnretained(self).toOpaque()
    @inline(__always) func place(_ child: View, _ size: Size) {
      guard child.parentLink?.toOpaque() == this else { return }
      let y = insets.top + offset(free: innerHeight - size.height)
      child.assignFrame(
        Rect(x: cursor, y: y, width: size.width, height: size.height), counting: window)
      cursor += size.width + spacing
    }
    // The children as they are now, each visited without a retain.
    let children = subviews
    children.withUnsafeBufferPointer { children in
      guard !children.isEmpty else { return }
      guard children.count <= StackView.rowOnStack else {
        let share = measureChildren(children, inner: inner, into: nil)
        for i in children.indices {
          Unmanaged.passUnretained(children[i])._withUnsafeGuaranteedRef { child in
            place(child, measuredSize(of: child, inner: inner, share: share))
          }
        }
        return
      }
      withUnsafeTemporaryAllocation(of: Size.self, capacity: children.count) { buffer in
        let sizes = buffer.baseAddress.unsafelyUnwrapped
        _ = measureChildren(children, inner: inner, into: sizes)
        for i in children.indices {
          Unmanaged.passUnretained(children[i])._withUnsafeGuaranteedRef { child in
            place(child, sizes[i])
          }
        }
      }
    }
  }

  /// Vertical and overlay stacks: each child is measured and placed in one visit (its size
  /// depends on the inner width alone, and placing a child changes no other child's size).
  /// A list re-places every row below a row that changed height, so this loop runs once
  /// per row per tick at 100,000 rows: the children are visited without a retain each
  /// (two retain-release pairs per row were 40% of a bottom-up feed tick).
  private func placeStacked(inner: Size, window: Window?) {
    let stacks = axis == .vertical
    let left = insets.left
    let gap = spacing
    var cursor = insets.top
    forEachSubviewRequestingAhead { child in
      let size = child.fittingSize(for: inner)
      let width = child.isFlexibleWidth ? inner.width : size.width
      let x = left + offset(free: inner.width - width)
      child.assignFrame(Rect(x: x, y: cursor, width: width, height: size.height), counting: window)
      if stacks { cursor += size.height + gap }
    }
  }

  private func offset(free: Double) -> Double {
    switch alignment {
    case .leading: 0
    case .center: free / 2
    case .trailing: free
    }
  }

  // MARK: - Auto Layout

  /// Reconciles the constraints with the children: O(1) solver work per child whose
  /// neighbours changed, in-place constant changes after a spacing or inset change.
  override public func updateConstraints() throws(LayoutError) {
    try super.updateConstraints()
    // Under frame layout `layoutSubviews` places the children; constraints would go unread.
    guard usesAutoLayout else { return }
    let geometry = geometryChanged
    let regenerate = alignmentChanged
    geometryChanged = false
    alignmentChanged = false
    // A tail that will change goes first: while the children are re-linked, the old tail
    // (on a child that is no longer last, or `==` where `<=` is due) could over-determine a
    // fixed-size child and make the new links unsatisfiable for a moment. If re-linking
    // fails, it comes back.
    var dropped: LayoutConstraint?
    if let tail, tail.isActive,
      tailView !== subviews.last || tail.relation != tailRelation(last: subviews.last)
    {
      tail.deactivate()
      dropped = tail
    }
    do throws(LayoutError) {
      try arrange(geometry: geometry, regenerate: regenerate)
    } catch {
      if let dropped, tail === dropped, !dropped.isActive { try? dropped.activate() }
      throw error
    }
  }

  /// Links, aligns and sizes the children, then the tail and the hug.
  private func arrange(geometry: Bool, regenerate: Bool) throws(LayoutError) {
    // A fresh stack is named by one to three constraints per arranged subview (their
    // cross-axis placement), the first link, and its tail and hugging ones: room for the
    // most, so that the list is not copied as it grows.
    if attachedConstraints.isEmpty { reserveAttachedCapacity(3 &* subviews.count &+ 4) }
    var previous: View?
    var previousFlexible: View?
    for child in subviews {
      let record: Arrangement
      if let existing = child.arrangement, existing.container === self, existing.isIntact,
        !regenerate
      {
        record = existing
        if geometry {
          try retune(existing.cross, to: crossConstraints(for: child))
        }
      } else {
        child.arrangement?.deactivateAll()
        let cross = crossConstraints(for: child)
        try LayoutConstraint.activate(cross)
        record = Arrangement(container: self, constraints: cross)
        child.arrangement = record
      }
      let linkTarget = axis == .overlay ? nil : previous
      if record.link == nil || record.previous !== linkTarget {
        record.link?.deactivate()
        let link = linkConstraint(for: child, after: linkTarget)
        try link.activate()
        record.link = link
        record.previous = linkTarget
      } else if geometry, let link = record.link {
        try link.setConstant(linkConstraint(for: child, after: linkTarget).constant)
      }
      if axis == .horizontal, child.isFlexibleWidth {
        if record.equalWidth == nil || record.previousFlexible !== previousFlexible {
          record.equalWidth?.deactivate()
          record.equalWidth = nil
          if let previousFlexible {
            let equal = child.widthAnchor.constraint(equalTo: previousFlexible.widthAnchor)
            try equal.activate()
            record.equalWidth = equal
          }
          record.previousFlexible = previousFlexible
        }
        previousFlexible = child
      }
      previous = child
    }
    try updateTail(last: previous, geometry: geometry)
    try updateHug(geometry: geometry)
  }

  /// Applies the constants of freshly made constraints to the active ones (same shapes).
  private func retune(_ active: [LayoutConstraint], to fresh: [LayoutConstraint])
    throws(LayoutError)
  {
    for (old, new) in zip(active, fresh) { try old.setConstant(new.constant) }
  }

  /// The main-axis link of `child`: against the previous sibling, or the container's edge.
  private func linkConstraint(for child: View, after previous: View?) -> LayoutConstraint {
    switch axis {
    case .vertical:
      if let previous {
        return child.topAnchor.constraint(equalTo: previous.bottomAnchor, constant: spacing)
      }
      return child.topAnchor.constraint(equalTo: topAnchor, constant: insets.top)
    case .horizontal:
      if let previous {
        return child.leadingAnchor.constraint(equalTo: previous.trailingAnchor, constant: spacing)
      }
      return child.leadingAnchor.constraint(equalTo: leadingAnchor, constant: insets.left)
    case .overlay:
      return child.topAnchor.constraint(equalTo: topAnchor, constant: insets.top)
    }
  }

  /// Cross-axis placement (and containment for stacks that hug their children).
  private func crossConstraints(for child: View) -> [LayoutConstraint] {
    switch axis {
    case .vertical, .overlay:
      var made: [LayoutConstraint]
      if child.isFlexibleWidth {
        made = [
          child.leadingAnchor.constraint(equalTo: leadingAnchor, constant: insets.left),
          child.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -insets.right),
        ]
      } else {
        made = [horizontalAlignment(child)]
      }
      if axis == .overlay {
        made.append(
          child.bottomAnchor.constraint(lessThanOrEqualTo: bottomAnchor, constant: -insets.bottom))
      }
      return made
    case .horizontal:
      let top = child.topAnchor.constraint(greaterThanOrEqualTo: topAnchor, constant: insets.top)
      let bottom = child.bottomAnchor.constraint(
        lessThanOrEqualTo: bottomAnchor, constant: -insets.bottom)
      switch alignment {
      case .leading:
        return [child.topAnchor.constraint(equalTo: topAnchor, constant: insets.top), bottom]
      case .center:
        return [
          child.centerYAnchor.constraint(
            equalTo: centerYAnchor, constant: (insets.top - insets.bottom) / 2),
          top, bottom,
        ]
      case .trailing:
        return [
          child.bottomAnchor.constraint(equalTo: bottomAnchor, constant: -insets.bottom), top,
        ]
      }
    }
  }

  private func horizontalAlignment(_ child: View) -> LayoutConstraint {
    switch alignment {
    case .leading:
      child.leadingAnchor.constraint(equalTo: leadingAnchor, constant: insets.left)
    case .center:
      child.centerXAnchor.constraint(
        equalTo: centerXAnchor, constant: (insets.left - insets.right) / 2)
    case .trailing:
      child.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -insets.right)
    }
  }

  /// The container's far edge: after the last child (vertical: its height follows;
  /// horizontal: the flexible children fill the width, or fixed ones stay within it).
  /// A list (whose size is given) has none.
  private func updateTail(last: View?, geometry: Bool) throws(LayoutError) {
    guard sizeDependsOnChildren, axis != .overlay else { return }
    let relation = tailRelation(last: last)
    if let tail, tail.isActive, tailView === last, tail.relation == relation {
      if geometry { try tail.setConstant(makeTail(last: last, relation: relation).constant) }
      return
    }
    tail?.deactivate()
    let made = makeTail(last: last, relation: relation)
    try made.activate()
    tail = made
    tailView = last
  }

  /// The relation of the tail ``makeTail(last:relation:)`` makes: horizontal stacks whose
  /// children are all fixed keep them within the width (`last.trailing <=`), and an empty
  /// one is at least its insets wide (`width >=`); otherwise the flexible children fill the
  /// width, and a vertical stack's height follows (`==`).
  private func tailRelation(last: View?) -> LayoutRelation {
    guard axis == .horizontal, !subviews.contains(where: \.isFlexibleWidth) else { return .equal }
    return last == nil ? .greaterThanOrEqual : .lessThanOrEqual
  }

  private func makeTail(last: View?, relation: LayoutRelation) -> LayoutConstraint {
    guard let last else {
      let extent = axis == .vertical ? insets.vertical : insets.horizontal
      let anchor = axis == .vertical ? heightAnchor : widthAnchor
      return relation == .equal
        ? anchor.constraint(equalToConstant: extent)
        : anchor.constraint(greaterThanOrEqualToConstant: extent)
    }
    if axis == .vertical {
      return last.bottomAnchor.constraint(equalTo: bottomAnchor, constant: -insets.bottom)
    }
    return relation == .equal
      ? last.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -insets.right)
      : last.trailingAnchor.constraint(lessThanOrEqualTo: trailingAnchor, constant: -insets.right)
  }

  /// Horizontal and overlay stacks take the height of their tallest child: a pull towards
  /// zero height at the fitting-size level, which any child's compression resistance beats.
  /// The floor (height at least the insets, required) keeps an empty stack from being
  /// squeezed by the hugs of the stacks around it, which pull with the same weight.
  ///
  /// Limitation, as in UIKit: each enclosing hugging stack adds its pull on the innermost
  /// content, so beyond 750 / 50 = 15 nested horizontal or overlay stacks the hugs would
  /// outweigh a label's compression resistance. The generators stay far below that.
  private func updateHug(geometry: Bool) throws(LayoutError) {
    guard sizeDependsOnChildren, axis != .vertical else { return }
    if let hug, let floor {
      if geometry {
        try hug.setConstant(insets.vertical)
        try floor.setConstant(insets.vertical)
      }
      return
    }
    let made = heightAnchor.constraint(equalToConstant: insets.vertical)
      .withPriority(.fittingSizeLevel)
    let madeFloor = heightAnchor.constraint(greaterThanOrEqualToConstant: insets.vertical)
    try LayoutConstraint.activate(madeFloor, made)
    hug = made
    floor = madeFloor
  }
}

/// A scrolling list (like a table view of self-sizing cells): a vertical stack whose own
/// size is given by its superview, so frame-layout invalidation stops here, and whose
/// content scrolls by moving its bounds.
public final class ListView: StackView {
  public private(set) var contentOffset = 0.0

  public init(name: String = "") {
    super.init(validAxis: .vertical, name: name)
  }

  override public var sizeDependsOnChildren: Bool { false }

  /// A list takes the size it is offered.
  override public func sizeThatFits(_ size: Size) -> Size { size }

  override public var bounds: Rect {
    Rect(origin: Point(x: 0, y: contentOffset), size: frame.size)
  }

  /// Scrolls: UIKit lays out the scroll view and its superview; frames do not change.
  public func setContentOffset(_ y: Double) throws(LayoutError) {
    guard y.isFinite else {
      throw .invalidSize(view: description, what: "content offset", value: y)
    }
    guard y != contentOffset else { return }
    contentOffset = y
    setNeedsLayout()
    superview?.setNeedsLayout()
  }
}
