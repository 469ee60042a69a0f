import LayoutModel

/// Two strategies (or a strategy and a fresh layout) disagree on a view's frame.
public struct FrameMismatch: Error, Equatable, CustomStringConvertible {
  public var view: String
  public var id: Int
  public var first: (label: String, frame: Rect)
  public var second: (label: String, frame: Rect)

  public static func == (lhs: FrameMismatch, rhs: FrameMismatch) -> Bool {
    lhs.view == rhs.view && lhs.id == rhs.id && lhs.first.label == rhs.first.label
      && lhs.first.frame == rhs.first.frame && lhs.second.label == rhs.second.label
      && lhs.second.frame == rhs.second.frame
  }

  public var description: String {
    "frames differ for \(view) (#\(id)): \(first.label) \(first.frame), "
      + "\(second.label) \(second.frame) (off by \(first.frame.distance(to: second.frame)))"
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
        throw FrameMismatch(
          view: "the tree", id: -1, first: (referenceLabel, .zero), second: (label, .zero))
      }
      for (view, frame) in frames {
        guard let id = reference.id(of: view) else { continue }
        let other = tree.views[id]?.frame ?? Rect(x: .nan, y: .nan, width: .nan, height: .nan)
        guard frame.isApproximatelyEqual(to: other, tolerance: tolerance) else {
          throw FrameMismatch(
            view: view.description, id: id, first: (referenceLabel, frame),
            second: (label, other))
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
