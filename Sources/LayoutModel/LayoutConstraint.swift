import Cassowary

/// A priority of Auto Layout, 1...1000; 1000 is required. A non-required priority becomes
/// the constraint's weight in the solver's objective (kiwi's raw strength units), so one
/// compression resistance at 750 outweighs the hugging of a container at 50.
public struct LayoutPriority: Hashable, Comparable, Sendable, ExpressibleByFloatLiteral,
  ExpressibleByIntegerLiteral, CustomStringConvertible
{
  public var value: Double

  public init(_ value: Double) { self.value = value }
  public init(floatLiteral value: Double) { self.value = value }
  public init(integerLiteral value: Int) { self.value = Double(value) }

  public static let required = LayoutPriority(1000)
  public static let defaultHigh = LayoutPriority(750)
  public static let defaultLow = LayoutPriority(250)
  /// The level containers use to hug their content as tightly as their children allow.
  public static let fittingSizeLevel = LayoutPriority(50)

  public var isValid: Bool { value.isFinite && value >= 1 && value <= 1000 }
  public var isRequired: Bool { value >= 1000 }

  var strength: Strength { isRequired ? .required : Strength(value) }

  public static func < (lhs: LayoutPriority, rhs: LayoutPriority) -> Bool {
    lhs.value < rhs.value
  }

  public var description: String { format(value) }
}

/// The attribute of a view an anchor stands for.
public enum LayoutAttribute: String, Sendable, CaseIterable {
  case leading, trailing, top, bottom, centerX, centerY, width, height

  enum Axis { case horizontal, vertical, size }

  var axis: Axis {
    switch self {
    case .leading, .trailing, .centerX: .horizontal
    case .top, .bottom, .centerY: .vertical
    case .width, .height: .size
    }
  }
}

public enum LayoutRelation: String, Sendable {
  case equal = "=="
  case lessThanOrEqual = "<="
  case greaterThanOrEqual = ">="

  var solverRelation: Relation {
    switch self {
    case .equal: .equal
    case .lessThanOrEqual: .lessOrEqual
    case .greaterThanOrEqual: .greaterOrEqual
    }
  }
}

/// `first relation multiplier * second + constant` at a priority, between two views'
/// anchors (or one anchor and a constant), as UIKit's `NSLayoutConstraint`.
///
/// Changing the constant of an installed constraint goes through the solver's in-place fast
/// path (`Solver.setConstant`), and changing a non-required priority only reweighs the
/// objective; neither removes and re-adds the constraint.
public final class LayoutConstraint: CustomStringConvertible {
  // Views own their constraints (through `attachedConstraints`), not the other way round,
  // as in UIKit: a tree and its constraints are freed together.
  //
  // The one-byte properties are declared last, side by side: between the eight-byte ones
  // each took eight, and an object 112 bytes (a feed's cold Auto Layout build makes about
  // fifty constraints a cell); 96 this way, and 80 (the allocator's next size down) with
  // the identifier kept in a box made only for a named constraint.
  public unowned let firstView: View
  public unowned let secondView: View?
  public let multiplier: Double
  // The state below is read at every activation and turned into a solver constraint, and
  // written only by this class, never while an access to the same property is open: not
  // checked at run time (the checks were about 5% of the instructions of a cold Auto Layout
  // build of a feed).
  @exclusivity(unchecked) public private(set) var constant: Double
  @exclusivity(unchecked) public internal(set) var priority: LayoutPriority
  /// A name for diagnostics.
  public var identifier: String? {
    get { name?.text }
    set { name = newValue.map(Name.init) }
  }
  /// The identifier's box: 8 bytes in every constraint where the string took 16, and the
  /// constraints a layout makes in code have none.
  private var name: Name?
  private final class Name {
    let text: String
    init(_ text: String) { self.text = text }
  }
  /// The solver constraint while installed in a window's engine.
  @exclusivity(unchecked) var installed: Constraint?
  public let firstAttribute: LayoutAttribute
  public let relation: LayoutRelation
  public let secondAttribute: LayoutAttribute?
  @exclusivity(unchecked) public private(set) var isActive = false

  /// - Throws: ``LayoutError/invalidConstraint(constraint:reason:)`` for a non-finite
  ///   multiplier or constant, anchors of different axes, or a lone position anchor;
  ///   ``LayoutError/invalidPriority(constraint:value:)``.
  public convenience init(
    _ firstView: View, _ firstAttribute: LayoutAttribute, _ relation: LayoutRelation,
    _ secondView: View?, _ secondAttribute: LayoutAttribute?, multiplier: Double = 1,
    constant: Double = 0, priority: LayoutPriority = .required
  ) throws(LayoutError) {
    self.init(
      unchecked: firstView, firstAttribute, relation, secondView,
      secondView == nil ? nil : (secondAttribute ?? firstAttribute), multiplier: multiplier,
      constant: constant)
    self.priority = priority
    try validate()
    if let other = self.secondAttribute, other.axis != firstAttribute.axis {
      throw .invalidConstraint(
        constraint: description,
        reason: "\(firstAttribute.rawValue) and \(other.rawValue) are on different axes")
    }
    if secondView == nil, firstAttribute.axis != .size {
      throw .invalidConstraint(
        constraint: description, reason: "a position needs a second anchor")
    }
  }

  /// Unvalidated: the anchor API's constraints are validated on activation.
  init(
    unchecked firstView: View, _ firstAttribute: LayoutAttribute, _ relation: LayoutRelation,
    _ secondView: View?, _ secondAttribute: LayoutAttribute?, multiplier: Double,
    constant: Double
  ) {
    self.firstView = firstView
    self.firstAttribute = firstAttribute
    self.relation = relation
    self.secondView = secondView
    self.secondAttribute = secondAttribute
    self.multiplier = multiplier
    self.constant = constant
    self.priority = .required
  }

  public var description: String {
    var text = "\(firstView).\(firstAttribute.rawValue) \(relation.rawValue) "
    if let secondView, let secondAttribute {
      if multiplier != 1 { text += "\(format(multiplier)) * " }
      text += "\(secondView).\(secondAttribute.rawValue)"
      if constant != 0 {
        text += constant < 0 ? " - \(format(-constant))" : " + \(format(constant))"
      }
    } else {
      text += format(constant)
    }
    if !priority.isRequired { text += " @\(priority)" }
    if let identifier { text = "[\(identifier)] " + text }
    return text
  }

  // MARK: - Activation

  /// Activates the constraint: from now on it takes part in the layout of the window its
  /// views are in. Flags the views it places for layout.
  /// - Throws: ``LayoutError/noCommonAncestor(constraint:first:second:)`` for views in
  ///   different trees, ``LayoutError/unsatisfiableConstraint(_:)`` for a required
  ///   constraint that conflicts (it is then left inactive).
  public func activate() throws(LayoutError) {
    guard !isActive else { return }
    try validate()
    // Each read of an unowned property checks that its object is alive (an atomic retain
    // and a release): the views are read once here.
    let firstView = firstView
    let secondView = secondView
    if let secondView, firstView.commonAncestorLink(with: secondView) == nil {
      throw .noCommonAncestor(
        constraint: description, first: firstView.description, second: secondView.description)
    }
    isActive = true
    firstView.attach(self)
    if let secondView, secondView !== firstView { secondView.attach(self) }
    // The window and its engine are reached through their unmanaged links, without a
    // retain: held as strong references, each was a retain and a release per constraint.
    // That is safe as long as installing runs no code that can free the window (no
    // overridable or user code: the engine writes the constraint, adds it to the solver and
    // flags views); a hook added there must hold the engine first. Both ends are checked
    // through the views read above (`bothEnds(in:)` reads them again, a retain and a
    // release each).
    guard let window = firstView.ownerLink,
      secondView.map({ $0.ownerLink?.toOpaque() == window.toOpaque() }) ?? true,
      let engine = window._withUnsafeGuaranteedRef({ $0.engineLink })
    else { return }
    let refusal: LayoutError? = engine._withUnsafeGuaranteedRef { engine in
      do throws(LayoutError) {
        try engine.install(self, first: firstView, second: secondView)
        return nil
      } catch {
        return error
      }
    }
    if let refusal {
      deactivate()
      throw refusal
    }
  }

  /// Removes the constraint from the layout.
  public func deactivate() {
    guard isActive else { return }
    isActive = false
    firstView.owner?.engine?.uninstall(self)
    if let engine = secondView?.owner?.engine, installed != nil { engine.uninstall(self) }
    detach(from: firstView)
    if let secondView { detach(from: secondView) }
  }

  /// Activates all or none.
  public static func activate(_ constraints: [LayoutConstraint]) throws(LayoutError) {
    // When none was active (a view's fresh constraints, the usual batch), the ones this
    // call activated are all those before a failure, and no list of them is kept: it was
    // an allocation per batch, 36 per cell of a feed's cold build.
    let fresh = !constraints.contains { $0.isActive }
    var done: [LayoutConstraint] = []
    for (i, constraint) in constraints.enumerated() where !constraint.isActive {
      do throws(LayoutError) {
        try constraint.activate()
        if !fresh { done.append(constraint) }
      } catch {
        for undo in (fresh ? Array(constraints[..<i]) : done).reversed() { undo.deactivate() }
        throw error
      }
    }
  }

  /// Activates both or neither: `activate(_:)` without an array to build.
  static func activate(_ first: LayoutConstraint, _ second: LayoutConstraint) throws(LayoutError) {
    let firstWasActive = first.isActive
    try first.activate()
    do throws(LayoutError) {
      try second.activate()
    } catch {
      if !firstWasActive { first.deactivate() }
      throw error
    }
  }

  public static func deactivate(_ constraints: [LayoutConstraint]) {
    for constraint in constraints { constraint.deactivate() }
  }

  // MARK: - In-place changes

  /// Changes the constant. Installed, it goes through the solver's in-place path and flags
  /// the superviews of both views for layout.
  /// - Throws: ``LayoutError/invalidConstraint(constraint:reason:)`` for a non-finite value,
  ///   ``LayoutError/unsatisfiableConstraint(_:)`` (the old constant is kept).
  public func setConstant(_ newValue: Double) throws(LayoutError) {
    guard newValue.isFinite else {
      throw .invalidConstraint(constraint: description, reason: "constant \(newValue)")
    }
    guard newValue != constant else { return }
    if let installed, let engine = firstView.owner?.engine {
      // Named with the constant refused: the description still shows the old one.
      try engine.setConstant(
        0 - newValue, of: installed, required: priority.isRequired,
        describing: "\(description), its constant changed to \(format(newValue))")
      constant = newValue
      flagAffectedViews()
    } else {
      constant = newValue
    }
  }

  /// Changes the priority in place.
  /// - Throws: ``LayoutError/invalidPriority(constraint:value:)``,
  ///   ``LayoutError/unsatisfiableConstraint(_:)`` (the old priority is kept).
  public func setPriority(_ newValue: LayoutPriority) throws(LayoutError) {
    guard newValue.isValid else {
      throw .invalidPriority(constraint: description, value: newValue.value)
    }
    guard newValue != priority else { return }
    if let installed, let engine = firstView.owner?.engine {
      try engine.setStrength(
        newValue.strength, of: installed,
        describing: "\(description), its priority changed to \(newValue)")
      flagAffectedViews()
    }
    priority = newValue
  }

  // MARK: - Engine support

  var isInstalled: Bool { installed != nil }

  func bothEnds(in window: Window?) -> Bool {
    guard let window, firstView.isOwned(by: window) else { return false }
    return secondView.map { $0.isOwned(by: window) } ?? true
  }

  private func validate() throws(LayoutError) {
    guard multiplier.isFinite else {
      throw .invalidConstraint(constraint: description, reason: "multiplier \(multiplier)")
    }
    guard constant.isFinite else {
      throw .invalidConstraint(constraint: description, reason: "constant \(constant)")
    }
    guard priority.isValid else {
      throw .invalidPriority(constraint: description, value: priority.value)
    }
  }

  private func detach(from view: View) {
    if let index = view.attachedConstraints.lastIndex(where: { $0 === self }) {
      view.attachedConstraints.remove(at: index)
    }
  }

  /// The views a change of this constraint may move are placed by their superviews.
  func flagAffectedViews() {
    LayoutConstraint.flagAffectedViews(first: firstView, second: secondView)
  }

  /// `flagAffectedViews()` with the constraint's views as its caller read them.
  @inline(__always) static func flagAffectedViews(first: View, second: View?) {
    flagPlacer(of: first)
    if let second { flagPlacer(of: second) }
  }

  /// Flags the superview of `view` (or `view`, a root) for layout, lending the superview
  /// through its unmanaged link instead of retaining it.
  @inline(__always) private static func flagPlacer(of view: View) {
    if let link = view.parentLink {
      link._withUnsafeGuaranteedRef { $0.setNeedsLayout() }
    } else {
      view.setNeedsLayout()
    }
  }

  /// `first - multiplier * second - constant relation 0`, each anchor written in the
  /// coordinate space of the views' nearest common ancestor.
  ///
  /// `first` and `second` are the constraint's views, as the caller read them: each read
  /// of an unowned property checks that its object is alive, an atomic retain and a release,
  /// and installing a constraint read each view three times (activating, writing, flagging).
  func makeSolverConstraint(
    in engine: LayoutEngine, first firstView: View, second secondView: View?
  ) -> Constraint {
    // The space as an unmanaged link, and the walks up to it over unmanaged parent links:
    // the tree keeps every view on the way alive, and a strong reference per step was a
    // retain and a release (up to five walks per constraint a layout installs: the common
    // ancestor's, then a count and an append per position anchor).
    let space: Unmanaged<View>
    if let secondView {
      space = firstView.commonAncestorLink(with: secondView) ?? .passUnretained(firstView)
    } else {
      space = firstView.parentLink ?? .passUnretained(firstView)
    }
    // Both anchors' terms go into one array, sized once (a constraint between siblings has
    // four): building each anchor's expression and combining them took four allocations.
    // (Written into `Array(unsafeUninitializedCapacity:)` instead, each array was made
    // through the unspecialised initialiser, a metadata look-up per constraint: 3% dearer.)
    var count = anchorTermCount(firstView, firstAttribute, in: space)
    if let secondView, let secondAttribute {
      count += anchorTermCount(secondView, secondAttribute, in: space)
    }
    // The filler is a term over the first view's variables, not a constant: an array
    // literal of constants is a static object, and the first write copied it. (Every
    // placeholder is overwritten below.)
    var terms = LayoutConstraint.blankTerms(
      count, filler: Term(engine.variables(of: firstView).width, 1))
    var written = 0
    writeAnchorTerms(
      firstView, firstAttribute, in: space, engine, times: 1, to: &terms, at: &written)
    if let secondView, let secondAttribute {
      writeAnchorTerms(
        secondView, secondAttribute, in: space, engine, times: -multiplier, to: &terms,
        at: &written)
    }
    assert(written == count, "anchorTermCount and writeAnchorTerms disagree")
    // Anchors are sums of variables, with no constant part: the solver constant is the
    // constraint's, negated (`0 - c`, so that a constant of 0 gives 0, not -0). The terms
    // moved in (copied, they were retained here and released on return).
    let expression = Expression(consume terms, constant: 0 - constant)
    return Constraint(expression, relation.solverRelation, strength: priority.strength)
  }

  /// How many terms `writeAnchorTerms` writes for the anchor: its origins on the way up,
  /// and its size for the far edges and centres.
  private func anchorTermCount(
    _ view: View, _ attribute: LayoutAttribute, in space: Unmanaged<View>
  ) -> Int {
    var count: Int
    switch attribute {
    case .width, .height: return 1
    case .leading, .top: count = 0
    case .trailing, .bottom, .centerX, .centerY: count = 1
    }
    var walker = Unmanaged.passUnretained(view)
    while walker.toOpaque() != space.toOpaque(),
      let up = walker._withUnsafeGuaranteedRef({ $0.parentLink })
    {
      count += 1
      walker = up
    }
    return count
  }

  /// Writes `k` times the anchor's expression over the solver's variables into `terms`
  /// from position `next`, which it advances past them: a size is its variable; a position
  /// is the sum of the origins on the way up to `space`, plus the size (trailing, bottom)
  /// or half of it (centres).
  private func writeAnchorTerms(
    _ view: View, _ attribute: LayoutAttribute, in space: Unmanaged<View>,
    _ engine: LayoutEngine, times k: Double, to terms: inout [Term], at next: inout Int
  ) {
    let vars = engine.variables(of: view)
    switch attribute {
    case .width, .height:
      terms[next] = Term(attribute == .width ? vars.width : vars.height, k)
      next &+= 1
      return
    default: break
    }
    var walker = Unmanaged.passUnretained(view)
    while walker.toOpaque() != space.toOpaque(),
      let up = walker._withUnsafeGuaranteedRef({ $0.parentLink })
    {
      let w = walker._withUnsafeGuaranteedRef { engine.variables(of: $0) }
      terms[next] = Term(attribute.axis == .horizontal ? w.x : w.y, k)
      next &+= 1
      walker = up
    }
    let size = attribute.axis == .horizontal ? vars.width : vars.height
    switch attribute {
    case .trailing, .bottom:
      terms[next] = Term(size, k)
      next &+= 1
    case .centerX, .centerY:
      terms[next] = Term(size, 0.5 * k)
      next &+= 1
    default: break
    }
  }

  /// `count` placeholder terms, overwritten by `writeAnchorTerms`. Up to eight come from an
  /// array literal, which the compiler allocates at its size through a specialised call:
  /// an empty array given its room by `reserveCapacity` took the general growth path, about
  /// 230 instructions a constraint.
  private static func blankTerms(_ count: Int, filler b: Term) -> [Term] {
    switch count {
    case 1: return [b]
    case 2: return [b, b]
    case 3: return [b, b, b]
    case 4: return [b, b, b, b]
    case 5: return [b, b, b, b, b]
    case 6: return [b, b, b, b, b, b]
    case 7: return [b, b, b, b, b, b, b]
    case 8: return [b, b, b, b, b, b, b, b]
    default: return Array(repeating: b, count: count)
    }
  }
}

extension LayoutConstraint {
  /// Sets the priority of a constraint that is not active yet and returns it, for chaining:
  /// `a.widthAnchor.constraint(equalToConstant: 40).withPriority(.defaultHigh)`. An active
  /// constraint keeps its priority (change it with ``setPriority(_:)``).
  @discardableResult
  public func withPriority(_ priority: LayoutPriority) -> LayoutConstraint {
    if !isActive { self.priority = priority }
    return self
  }
}
