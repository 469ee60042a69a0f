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
    guard let (_, reference) = trees.first else { return }
    // The trees of one scene normally have the same shape: walked side by side, every
    // pair of views has the same scene id (`tag`), the same number of subviews and equal
    // frames, which is exactly what the comparison by id then finds. That walk reads no
    // table; the comparison by id (two hash lookups and a retained copy of every view per
    // tree) cost 96% of a 10,000-cell run's wall time. Anything else (a different shape, a
    // view outside the scene, a mismatch) takes the comparison by id, which names it.
    if trees.dropFirst().allSatisfy({ sameShapeAndFrames(reference, $0.tree, tolerance) }) {
      return
    }
    try compareByID(trees, tolerance: tolerance)
  }

  /// Whether two trees, walked side by side, pair views of the same scene id with the same
  /// subview counts and frames within `tolerance`, every view of the walk being a scene
  /// view (`tag` is its id + 1; 0, the default, marks a view outside the scene) and every
  /// scene view being in the walk. Then each pair is what the comparison by id pairs (ids
  /// are unique in a tree), and it would find no mismatch.
  static func sameShapeAndFrames(_ a: SceneTree, _ b: SceneTree, _ tolerance: Double) -> Bool {
    guard a.views.count == b.views.count else { return false }
    let rootsA = a.window.subviews
    let rootsB = b.window.subviews
    guard rootsA.count == rootsB.count else { return false }
    var pairs: [(View, View)] = []
    pairs.reserveCapacity(64)
    for i in rootsA.indices { pairs.append((rootsA[i], rootsB[i])) }
    var seen = 0
    while let (x, y) = pairs.popLast() {
      guard x.tag != 0, x.tag == y.tag,
        x.frame.isApproximatelyEqual(to: y.frame, tolerance: tolerance)
      else { return false }
      seen &+= 1
      let sx = x.subviews
      let sy = y.subviews
      guard sx.count == sy.count else { return false }
      for i in sx.indices { pairs.append((sx[i], sy[i])) }
    }
    return seen == a.views.count
  }

  /// The comparison by scene id, in the first tree's order (parents first).
  static func compareByID(
    _ trees: [(label: String, tree: SceneTree)], tolerance: Double
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
