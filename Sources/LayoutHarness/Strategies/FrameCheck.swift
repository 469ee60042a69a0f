import LayoutModel

/// Two strategies (or a strategy and a fresh layout) disagree on the tree they laid out.
public enum FrameMismatch: Error, Equatable, CustomStringConvertible {
  /// One side of a comparison: which strategy, and what it gave.
  public struct Side<Value: Equatable & Sendable>: Equatable, Sendable {
    public var label: String
    public var value: Value

    public init(label: String, value: Value) {
      self.label = label
      self.value = value
    }
  }

  /// A view's frames differ (a view missing from one tree has NaN for its frame there).
  case frame(view: String, id: Int, first: Side<Rect>, second: Side<Rect>)
  /// The trees do not have the same number of views.
  case viewCount(first: Side<Int>, second: Side<Int>)

  public var description: String {
    switch self {
    case .frame(let view, let id, let first, let second):
      "frames differ for \(view) (#\(id)): \(first.label) \(first.value), "
        + "\(second.label) \(second.value) (off by \(first.value.distance(to: second.value)))"
    case .viewCount(let first, let second):
      "the trees differ in size: \(first.label) has \(first.value) views, "
        + "\(second.label) \(second.value)"
    }
  }
}

/// The check that makes the comparison fair: every strategy must give every view the same
/// frame, within `tolerance` points.
public enum FrameCheck {
  public static let defaultTolerance = 1e-6

  /// Compares every view of `trees` with the first tree's view of the same scene id, in
  /// the first tree's order (parents first); a view missing from a tree is a mismatch too.
  /// - Throws: the first ``FrameMismatch``.
  public static func compare(
    _ trees: [(label: String, tree: SceneTree)], tolerance: Double = defaultTolerance
  ) throws(FrameMismatch) {
    guard let (referenceLabel, reference) = trees.first else { return }
    let frames = reference.frames()
    for (label, tree) in trees.dropFirst() {
      guard tree.views.count == reference.views.count else {
        throw .viewCount(
          first: .init(label: referenceLabel, value: reference.views.count),
          second: .init(label: label, value: tree.views.count))
      }
      for (view, frame) in frames {
        guard let id = reference.id(of: view) else { continue }
        let other = tree.views[id]?.frame ?? Rect(x: .nan, y: .nan, width: .nan, height: .nan)
        guard frame.isApproximatelyEqual(to: other, tolerance: tolerance) else {
          throw .frame(
            view: view.description, id: id, first: .init(label: referenceLabel, value: frame),
            second: .init(label: label, value: other))
        }
      }
    }
  }

  /// Compares strategies with each other.
  public static func compare(_ strategies: [LayoutStrategy], tolerance: Double = defaultTolerance)
    throws(FrameMismatch)
  {
    try compare(strategies.map { ($0.kind.rawValue, $0.tree) }, tolerance: tolerance)
  }
}
