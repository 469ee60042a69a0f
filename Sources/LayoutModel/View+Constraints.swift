import Cassowary

/// Phantom kinds that keep anchors of different axes apart at compile time.
public enum HorizontalAxis {}
public enum VerticalAxis {}
public enum Dimension {}

/// One attribute of one view, the start of a constraint (UIKit's `NSLayoutAnchor`).
public struct LayoutAnchor<Kind> {
  public let view: View
  public let attribute: LayoutAttribute

  func make(
    _ relation: LayoutRelation, _ other: LayoutAnchor?, _ multiplier: Double,
    _ constant: Double
  ) -> LayoutConstraint {
    LayoutConstraint(
      unchecked: view, attribute, relation, other?.view, other?.attribute,
      multiplier: multiplier, constant: constant)
  }

  /// `self == other + constant` (inactive; activate it, or several with
  /// ``LayoutConstraint/activate(_:)``).
  public func constraint(equalTo other: LayoutAnchor, constant: Double = 0) -> LayoutConstraint {
    make(.equal, other, 1, constant)
  }

  public func constraint(lessThanOrEqualTo other: LayoutAnchor, constant: Double = 0)
    -> LayoutConstraint
  {
    make(.lessThanOrEqual, other, 1, constant)
  }

  public func constraint(greaterThanOrEqualTo other: LayoutAnchor, constant: Double = 0)
    -> LayoutConstraint
  {
    make(.greaterThanOrEqual, other, 1, constant)
  }
}

extension LayoutAnchor where Kind == Dimension {
  /// `self == multiplier * other + constant`.
  public func constraint(equalTo other: LayoutAnchor, multiplier: Double, constant: Double = 0)
    -> LayoutConstraint
  {
    make(.equal, other, multiplier, constant)
  }

  public func constraint(equalToConstant constant: Double) -> LayoutConstraint {
    make(.equal, nil, 1, constant)
  }

  public func constraint(lessThanOrEqualToConstant constant: Double) -> LayoutConstraint {
    make(.lessThanOrEqual, nil, 1, constant)
  }

  public func constraint(greaterThanOrEqualToConstant constant: Double) -> LayoutConstraint {
    make(.greaterThanOrEqual, nil, 1, constant)
  }
}

// MARK: - Anchors

extension View {
  public var leadingAnchor: LayoutAnchor<HorizontalAxis> { .init(view: self, attribute: .leading) }
  public var trailingAnchor: LayoutAnchor<HorizontalAxis> {
    .init(view: self, attribute: .trailing)
  }
  public var centerXAnchor: LayoutAnchor<HorizontalAxis> { .init(view: self, attribute: .centerX) }
  public var topAnchor: LayoutAnchor<VerticalAxis> { .init(view: self, attribute: .top) }
  public var bottomAnchor: LayoutAnchor<VerticalAxis> { .init(view: self, attribute: .bottom) }
  public var centerYAnchor: LayoutAnchor<VerticalAxis> { .init(view: self, attribute: .centerY) }
  public var widthAnchor: LayoutAnchor<Dimension> { .init(view: self, attribute: .width) }
  public var heightAnchor: LayoutAnchor<Dimension> { .init(view: self, attribute: .height) }

  /// The active constraints that name this view.
  public var constraints: [LayoutConstraint] { attachedConstraints }

  /// Lists an activated constraint that names this view. The list starts with room for
  /// four (most views in a layout have two to eight), where growing from empty took two or
  /// three allocations per view.
  func attach(_ constraint: LayoutConstraint) {
    if attachedConstraints.capacity == 0 { attachedConstraints.reserveCapacity(4) }
    attachedConstraints.append(constraint)
  }

  /// Makes room in the list for `count` constraints in all, before a container activates
  /// a known number of them (a stack's one to three per arranged subview): grown by
  /// doubling from four instead, a stack's list was copied two or three times.
  func reserveAttachedCapacity(_ count: Int) {
    if attachedConstraints.capacity < count { attachedConstraints.reserveCapacity(count) }
  }
}

// MARK: - Intrinsic content size

extension View {
  /// A dimension without an intrinsic size (UIKit's `UIView.noIntrinsicMetric`).
  public static let noIntrinsicMetric = -1.0

  /// The content changed size. Under Auto Layout the hugging and compression-resistance
  /// constraints are refreshed in the next constraints pass (in place, through the solver's
  /// constant fast path); under frame layout the fitting sizes up the tree are invalidated.
  public func invalidateIntrinsicContentSize() {
    if usesAutoLayout {
      intrinsic.needsUpdate = true
      setNeedsUpdateConstraints()
    } else {
      invalidateFittingSize()
    }
  }

  public enum Axis: Sendable { case horizontal, vertical }

  public func contentHuggingPriority(for axis: Axis) -> LayoutPriority {
    axis == .horizontal ? hugging.horizontal : hugging.vertical
  }

  public func contentCompressionResistancePriority(for axis: Axis) -> LayoutPriority {
    axis == .horizontal ? compression.horizontal : compression.vertical
  }

  /// - Throws: ``LayoutError/invalidPriority(constraint:value:)`` outside 1...999 (an
  ///   intrinsic size is never required).
  public func setContentHuggingPriority(_ priority: LayoutPriority, for axis: Axis)
    throws(LayoutError)
  {
    try checkIntrinsicPriority(priority, "content hugging")
    if axis == .horizontal { hugging.horizontal = priority } else { hugging.vertical = priority }
    invalidateIntrinsicContentSize()
  }

  public func setContentCompressionResistancePriority(_ priority: LayoutPriority, for axis: Axis)
    throws(LayoutError)
  {
    try checkIntrinsicPriority(priority, "compression resistance")
    if axis == .horizontal {
      compression.horizontal = priority
    } else {
      compression.vertical = priority
    }
    invalidateIntrinsicContentSize()
  }

  private func checkIntrinsicPriority(_ priority: LayoutPriority, _ what: String)
    throws(LayoutError)
  {
    guard priority.isValid, !priority.isRequired else {
      throw .invalidPriority(constraint: "\(self) \(what)", value: priority.value)
    }
  }

  /// Brings the intrinsic-size constraints (per axis, size == content, a shortfall weighed
  /// at compression resistance and an excess at hugging) in line with
  /// `intrinsicContentSize`.
  func updateIntrinsicConstraints() throws(LayoutError) {
    guard intrinsic.needsUpdate, let engine = owner?.engine else { return }
    let content = intrinsicContentSize
    for value in [content.width, content.height]
    where !(value.isFinite && (value >= 0 || value == View.noIntrinsicMetric)) {
      throw .invalidSize(view: description, what: "intrinsic content size", value: value)
    }
    let vars = engine.variables(of: self)
    try intrinsic.update(
      axis: 0, variable: vars.width, value: content.width,
      priorities: (compression.horizontal, hugging.horizontal), engine: engine, view: self)
    try intrinsic.update(
      axis: 1, variable: vars.height, value: content.height,
      priorities: (compression.vertical, hugging.vertical), engine: engine, view: self)
    intrinsic.needsUpdate = false
  }
}

/// A view's content-size constraints, one per axis: `size == value`, a shortfall (`size <
/// value`) weighed at its compression resistance and an excess at its hugging priority.
///
/// UIKit states these as two inequalities, `size >= value` at compression resistance and
/// `size <= value` at hugging. Their objective is the same as this equality's; each costs a
/// row with a slack and an error where the equality has one row with two errors, and a new
/// value that moves past the view's size swaps the pair's slacks and errors in two dual
/// pivots where the equality's two errors swap in one. Both priorities are below required
/// (checked where they are set), as the solver requires of a split equality.
struct IntrinsicConstraints {
  var needsUpdate = true
  private var axes: [Axis?] = [nil, nil]

  private struct Axis {
    var value: Double
    /// Compression resistance, hugging.
    var priorities: (LayoutPriority, LayoutPriority)
    var constraint: Constraint
  }

  mutating func update(
    axis index: Int, variable: Variable, value: Double,
    priorities: (LayoutPriority, LayoutPriority), engine: LayoutEngine, view: View
  ) throws(LayoutError) {
    func name() -> String { "\(view) intrinsic \(index == 0 ? "width" : "height")" }
    if value == View.noIntrinsicMetric {
      if let old = axes[index] {
        engine.remove(old.constraint)
        axes[index] = nil
      }
      return
    }
    guard var current = axes[index] else {
      let constraint = Constraint(
        Expression([Term(variable)], constant: -value),
        equalWithExcess: priorities.1.strength, shortfall: priorities.0.strength)
      try engine.add(constraint, describing: name())
      axes[index] = Axis(value: value, priorities: priorities, constraint: constraint)
      return
    }
    if current.value != value {
      // Intrinsic priorities are never required (checked where they are set).
      try engine.setConstant(-value, of: current.constraint, required: false, describing: name())
      current.value = value
    }
    if current.priorities != priorities {
      try engine.setStrengths(
        excess: priorities.1.strength, shortfall: priorities.0.strength, of: current.constraint,
        describing: name())
    }
    current.priorities = priorities
    axes[index] = current
  }

  /// Removes the constraints (the view is leaving the engine's window).
  mutating func removeAll(from engine: LayoutEngine) {
    for case let axis? in axes { engine.remove(axis.constraint) }
    axes = [nil, nil]
    needsUpdate = true
  }
}

/// The constraints a container made to place one of its subviews, kept on the subview so
/// the container can reconcile them in O(1) per child when its children change.
final class Arrangement {
  unowned(unsafe) let container: View
  /// The sibling the main-axis link was made against (nil: the container's edge).
  unowned(unsafe) var previous: View?
  var link: LayoutConstraint?
  /// The flexible sibling whose width this one equals (horizontal stacks).
  unowned(unsafe) var previousFlexible: View?
  var equalWidth: LayoutConstraint?
  /// Cross-axis placement.
  var cross: [LayoutConstraint]

  init(container: View, constraints: [LayoutConstraint]) {
    self.container = container
    self.cross = constraints
  }

  var isIntact: Bool {
    cross.allSatisfy(\.isActive) && (link?.isActive ?? true) && (equalWidth?.isActive ?? true)
  }

  func deactivateAll() {
    link?.deactivate()
    equalWidth?.deactivate()
    LayoutConstraint.deactivate(cross)
  }
}
