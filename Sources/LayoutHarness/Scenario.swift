import LayoutModel

/// The tree shapes of DESIGN.md section 5.
public enum Shape: String, Sendable, CaseIterable, Codable {
  /// A chain of nested containers; size = depth (2 * depth + 1 views).
  case deep
  /// One container with `size` children placed one after another (a chain for a solver).
  case wide
  /// Stacks of branching 4, alternating axes; size = about that many views.
  case balanced
  /// A scrolling list of `size` realistic cells (11 views each).
  case feed
  /// A seeded random tree of about `size` views.
  case random
}

/// What changes every tick.
public enum MutationKind: String, Sendable, CaseIterable, Codable {
  /// K labels change text.
  case text
  /// The window changes size (rotation and live resize); K is ignored.
  case resize
  /// One constraint constant (a container's top inset) moves every tick; K is ignored.
  case animate
  /// K subviews are replaced: one removed, a new one inserted in its place.
  case churn
  /// The list scrolls (feed only); K is ignored.
  case scroll
  /// Nothing changes: the cost of an empty tick.
  case idle
}

/// One scene and one mutation workload, seeded.
public struct Scenario: Hashable, Sendable, Codable, CustomStringConvertible {
  public var shape: Shape
  public var size: Int
  public var mutation: MutationKind
  public var perTick: Int
  public var seed: UInt64

  public init(shape: Shape, size: Int, mutation: MutationKind, perTick: Int = 1, seed: UInt64 = 1)
  {
    self.shape = shape
    self.size = size
    self.mutation = mutation
    self.perTick = perTick
    self.seed = seed
  }

  public var description: String { "\(shape.rawValue)\(size)/\(mutation.rawValue)x\(perTick)" }

  /// Why this scenario cannot run, if it cannot.
  public var problem: String? {
    if size < 1 { return "size must be at least 1 (got \(size))" }
    if size > 1_000_000 { return "size must be at most 1000000 (got \(size))" }
    if perTick < 1 { return "per-tick must be at least 1 (got \(perTick))" }
    if mutation == .scroll && shape != .feed {
      return "the scroll mutation needs a scrolling list: use it with --shape feed"
    }
    return nil
  }

  /// The scene and the generator that made it (mutations continue its random stream).
  public func makeScene() -> (Scene, SceneGenerator) {
    var generator = SceneGenerator(seed: seed)
    let scene: Scene
    switch shape {
    case .deep: scene = generator.deep(depth: size)
    case .wide: scene = generator.wide(count: size)
    case .balanced:
      // Depth d of branching 4 has (4^(d+1) - 1) / 3 nodes: the depth closest to `size`.
      var depth = 0
      var nodes = 1
      while nodes * 4 + 1 <= size * 2 {
        nodes = nodes * 4 + 1
        depth += 1
      }
      scene = generator.balanced(branching: 4, depth: depth)
    case .feed: scene = generator.feed(cells: size)
    case .random: scene = generator.random(views: size)
    }
    generator.continueIDs(after: scene)
    return (scene, generator)
  }
}
