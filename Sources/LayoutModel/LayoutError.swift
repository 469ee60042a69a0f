/// Misuse of the view tree, and layouts that cannot be computed. Every throwing call leaves
/// the tree as it was, except ``layoutCycle(_:)``, which stops a pass half-way by design.
public enum LayoutError: Error, Equatable, CustomStringConvertible {
  /// `view` would become its own ancestor (`child` is `parent` or one of its ancestors).
  case viewIsAncestor(child: String, parent: String)
  /// A window is always the root of its tree.
  case windowAsSubview(String)
  /// An insertion index outside `0...count`.
  case indexOutOfRange(view: String, index: Int, count: Int)
  /// A negative or non-finite size, inset, spacing or content dimension.
  case invalidSize(view: String, what: String, value: Double)
  /// A constraint between views that share no ancestor (different windows or trees).
  case noCommonAncestor(constraint: String, first: String, second: String)
  /// A priority outside 1...1000, or not finite.
  case invalidPriority(constraint: String, value: Double)
  /// A non-finite constant or multiplier, or a zero multiplier on both sides.
  case invalidConstraint(constraint: String, reason: String)
  /// A required constraint that conflicts with the other required constraints.
  case unsatisfiableConstraint(String)
  /// Layout did not settle: views laid out (or constraint-updated) more often than the
  /// window's limit in one update cycle.
  case layoutCycle(LayoutCycle)

  public var description: String {
    switch self {
    case .viewIsAncestor(let child, let parent):
      "cannot add \(child) to \(parent): \(child) would become its own ancestor"
    case .windowAsSubview(let window):
      "cannot add \(window) as a subview: a window is the root of its tree"
    case .indexOutOfRange(let view, let index, let count):
      "cannot insert into \(view) at index \(index): it has \(count) subviews"
    case .invalidSize(let view, let what, let value):
      "invalid \(what) \(format(value)) for \(view): must be finite and not negative"
    case .noCommonAncestor(let constraint, let first, let second):
      "cannot activate \(constraint): \(first) and \(second) have no common ancestor"
    case .invalidPriority(let constraint, let value):
      "invalid priority \(format(value)) for \(constraint): must be in 1...1000"
    case .invalidConstraint(let constraint, let reason):
      "invalid constraint \(constraint): \(reason)"
    case .unsatisfiableConstraint(let constraint):
      "unsatisfiable required constraint \(constraint)"
    case .layoutCycle(let cycle):
      cycle.description
    }
  }
}

/// What the cycle detector saw when it stopped an update cycle.
public struct LayoutCycle: Equatable, Sendable, CustomStringConvertible {
  public enum Pass: String, Sendable {
    case layout = "layoutSubviews"
    case constraints = "updateConstraints"
  }

  /// The pass that exceeded its limit.
  public var pass: Pass
  /// The limit per view and update cycle.
  public var limit: Int
  /// The views revisited most, most first.
  public var views: [Entry]

  public struct Entry: Equatable, Sendable {
    public var view: String
    public var visits: Int
    /// The view whose call last flagged this one again (nil: flagged from outside a pass).
    public var flaggedBy: String?
  }

  public var viewNames: [String] { views.map(\.view) }

  public var description: String {
    let list = views.map { entry in
      let by = entry.flaggedBy.map { ", flagged again by \($0)" } ?? ""
      return "\(entry.view) (\(entry.visits) calls\(by))"
    }
    return "layout cycle: \(pass.rawValue) ran more than \(limit) times on one view in one "
      + "update cycle: " + list.joined(separator: "; ")
  }
}
