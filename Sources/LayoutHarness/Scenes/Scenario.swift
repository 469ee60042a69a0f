import BenchSupport
import LayoutModel

/// The tree shapes the generators build (the README lists them with their sizes).
public enum Shape: String, Sendable, ReportName {
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
  /// A table view of `size` rows with cell reuse: only the cells that cover the screen
  /// exist (9 on an 844-point window, 11 views each), reused as rows scroll in.
  case table
  /// A collection view of `size` items in rows of three (a product grid): each item an
  /// image over a title and a price; 4 views per item and one per row.
  case grid
  /// A scene file (``SceneFile``); size = its `size` (the count of its sized repeats).
  case scene
}

extension Shape {
  /// The shapes the generators build (every shape but a scene file's).
  public static var builtIn: [Shape] { allCases.filter { $0 != .scene } }

  /// What `size` counts for this shape, as a sweep chart's size axis names it: a feed of
  /// 1000 is 11,000 views, so "views" would misread it by a factor of eleven.
  var sizeUnit: String {
    switch self {
    case .feed: "cells"
    case .table: "rows"
    case .grid: "items"
    case .deep: "depth"
    case .wide: "children"
    case .balanced, .random: "views"
    case .scene: "size"
    }
  }

  /// One unit of `size`, for costs per unit ("per cell").
  public var unitName: String {
    switch self {
    case .deep: "level"
    case .wide: "child"
    case .feed, .table: "cell"
    case .grid: "item"
    case .balanced, .random: "view"
    case .scene: "repeat"
    }
  }

  /// How many units a cold layout of `size` builds: every cell of a feed, but only the
  /// cells on screen of a table (its rows beyond them are never built).
  public func coldUnits(size: Int) -> Int {
    switch self {
    case .table:
      TableGeometry(rows: size, windowHeight: SceneGenerator.defaultWindowSize.height).cells
    case .deep, .wide, .feed, .balanced, .random, .grid, .scene: size
    }
  }
}

/// What changes every tick.
public enum MutationKind: String, Sendable, ReportName {
  /// K labels change text.
  case text
  /// The window changes size (rotation and live resize); K is ignored.
  case resize
  /// One constraint constant (a container's top inset) moves every tick; K is ignored.
  case animate
  /// K subviews are replaced: one removed, a new one inserted in its place.
  case churn
  /// The list scrolls (feed and table; a table reuses the cells that leave the screen for
  /// the rows that enter); K is ignored.
  case scroll
  /// Nothing changes: the cost of an empty tick.
  case idle
  /// K labels move to another vertical container each tick (a moving tree: the views and
  /// their constraints move with them, nothing is rebuilt).
  case reparent
  /// Hierarchy removal: even ticks remove the largest subtree of at most half the scene
  /// (a cell of a feed, a quarter of a balanced tree, the lower half of a deep one), odd
  /// ticks insert it back (new views); K is ignored.
  case removal
  /// K cells (or groups of rows) are configured as a table view configures a cell for new
  /// content: in a feed, a cell's title, subtitle and body texts, its avatar and action
  /// icon sizes and its header spacing (six changes); elsewhere six neighbouring labels.
  case configure
  /// A scene file's own tick steps (text, constant, insert, remove, resize, scroll).
  case scripted
}

extension MutationKind {
  /// The generated workloads (every kind but a scene file's own steps).
  public static var builtIn: [MutationKind] { allCases.filter { $0 != .scripted } }
}

/// One scene and one mutation workload, seeded.
public struct Scenario: Hashable, Sendable, CustomStringConvertible {
  public var shape: Shape
  public var size: Int
  public var mutation: MutationKind
  public var perTick: Int
  public var seed: UInt64
  /// The scene file of a `.scene` scenario (nil for the built-in shapes).
  public var file: SceneFile?

  public init(shape: Shape, size: Int, mutation: MutationKind, perTick: Int = 1, seed: UInt64 = 1) {
    self.shape = shape
    self.size = size
    self.mutation = mutation
    self.perTick = perTick
    self.seed = seed
  }

  /// A scene file's scenario at `size` (its default size when nil): its own ticks, or the
  /// built-in workload it records.
  /// - Throws: ``SceneFileError`` for a size given to a file that has none.
  public init(file: SceneFile, size: Int? = nil) throws(SceneFileError) {
    if let size, file.defaultSize == nil {
      throw SceneFileError(
        file: file.file, path: "size",
        reason: "the scene has no size (no repeat counts \"size\"), so --size \(size) "
          + "cannot apply")
    }
    if let size, let problem = file.sizeProblem(size) {
      throw SceneFileError(file: file.file, path: "size", reason: problem)
    }
    switch file.workload {
    case .scripted(let seed, _):
      self.init(
        shape: .scene, size: size ?? file.defaultSize ?? 1, mutation: .scripted, seed: seed)
    case .builtin(let mutation, let perTick, let seed, let builtinSize, _):
      self.init(
        shape: .scene, size: size ?? file.defaultSize ?? builtinSize, mutation: mutation,
        perTick: perTick, seed: seed)
    }
    self.file = file
  }

  /// The scene's name: the shape and size, or a scene file's name (and size, when sized).
  public var sceneName: String {
    guard let file else { return "\(shape.rawValue)\(size)" }
    return file.defaultSize == nil ? file.name : "\(file.name)\(size)"
  }

  public var description: String { "\(sceneName)/\(mutation.rawValue)x\(perTick)" }

  /// How to read a scenario's name, for the legends under the tables.
  public static let legend =
    "shape and size / mutation x changes per tick: feed300/configurex4 is a feed of 300 "
    + "cells with 4 cells configured per tick; deep1000/textx1 a tree 1,000 levels deep with "
    + "one text change per tick; table100000/scrollx1 a 100,000-row table scrolling."

  /// The legend for `results`: a scene file's results are named after the file.
  public static func legend(for results: [RunResult]) -> String {
    var names: [String] = []
    for result in results {
      guard let scene = result.scene else { continue }
      let entry = "\(scene.name) is the scene file \(scene.file) (hash \(scene.hash))"
      if !names.contains(entry) { names.append(entry) }
    }
    guard !names.isEmpty else { return legend }
    let files = names.joined(separator: "; ") + " (\"scripted\": its own ticks)."
    return results.allSatisfy({ $0.scene != nil })
      ? "scene / mutation x changes per tick: " + files : legend + " " + files
  }

  /// The views the scene starts with (as the generators build them: a deep tree of depth n
  /// has 2n + 1, a feed cell 11 views; a random tree of n views at least a root and a child).
  public var estimatedViews: Int {
    switch shape {
    case .deep: 2 * size + 1
    case .wide: size + 1
    case .balanced: Self.balancedTree(size).nodes
    case .random: max(size, 2)
    case .feed: 11 * size + 1
    case .table: 11 * shape.coldUnits(size: size) + 2
    case .grid: 1 + (size + 2) / 3 + 4 * size
    case .scene: file?.viewCount(size: size) ?? 0
    }
  }

  /// Memory the scene takes under `strategies`, from measurements at this commit: about
  /// 7 KB per view for each solver strategy (its tableau) and 1 KB for bottom-up (feed 3000,
  /// 33,001 views, all three: 484 MB peak).
  public func estimatedBytes(strategies: [StrategyKind]) -> Double {
    let perView = strategies.reduce(0.0) { $0 + ($1 == .bottomUp ? 1_024 : 7_168) }
    return Double(estimatedViews) * max(perView, 1_024)
  }

  /// Why the scene would not fit in `memory` bytes (80% of it), or nil: `--size 1000000` of
  /// feed passed 12 GB within a minute and printed nothing.
  public func memoryProblem(strategies: [StrategyKind], memory: Double) -> String? {
    let bytes = estimatedBytes(strategies: strategies)
    guard bytes > 0.8 * memory else { return nil }
    let perUnit = bytes / Double(size)
    let largest = Int(0.8 * memory / perUnit)
    return "it would build about \(estimatedViews) views and need about "
      + "\(gigabytes(bytes)) GB with \(strategies.map(\.rawValue).joined(separator: ", ")); "
      + "this machine "
      + "has \(gigabytes(memory)) GB: use a --size up to about \(largest) (or fewer strategies)"
  }

  /// Whether trees of `shape` can take `mutation` (only lists scroll: feed, table, grid).
  public static func supports(_ shape: Shape, _ mutation: MutationKind) -> Bool {
    if shape == .scene || mutation == .scripted { return shape == .scene }
    return mutation != .scroll || [.feed, .table, .grid].contains(shape)
  }

  /// Why this scenario cannot run, if it cannot.
  public var problem: String? {
    if size < 1 { return "size must be at least 1 (got \(size))" }
    if size > 1_000_000 { return "size must be at most 1000000 (got \(size))" }
    if perTick < 1 { return "per-tick must be at least 1 (got \(perTick))" }
    if mutation == .reparent || mutation == .removal, shape == .deep, size > 5_000 {
      return "the \(mutation.rawValue) mutation keeps a copy of the scene and walks it "
        + "recursively: use --size up to 5000 with --shape deep"
    }
    if shape == .scene, file == nil { return "a scene scenario needs its scene file" }
    if !Self.supports(shape, mutation) {
      if shape == .scene || mutation == .scripted {
        return "scripted ticks belong to scene files (run --scene FILE)"
      }
      return "the scroll mutation needs a scrolling list: use it with --shape feed, table or grid"
    }
    return nil
  }

  /// The scene and the generator that made it (mutations continue its random stream).
  /// Depth d of branching 4 has (4^(d+1) - 1) / 3 nodes: the depth closest to `size`.
  static func balancedTree(_ size: Int) -> (depth: Int, nodes: Int) {
    var depth = 0
    var nodes = 1
    while nodes * 4 + 1 <= size * 2 {
      nodes = nodes * 4 + 1
      depth += 1
    }
    return (depth, nodes)
  }

  /// The scene and the mutations of its ticks, for any scenario (a scene file's too).
  /// - Throws: ``RunError/invalidScenario(_:_:)`` when the scene file does not expand at
  ///   this size.
  public func makeWorkload() throws(RunError) -> (Scene, MutationWorkload) {
    guard let file else {
      let (scene, generator) = makeScene()
      return (scene, MutationWorkload(scenario: self, scene: scene, generator: generator))
    }
    let scene: Scene
    do throws(SceneFileError) {
      scene = try file.scene(size: size)
      // Checked when read at the default size; another size is checked here, once.
      if size != file.defaultSize ?? size { _ = try file.checkedTicks(in: scene, size: size) }
    } catch {
      throw .invalidScenario(self, error.description)
    }
    switch file.workload {
    case .scripted(let seed, let steps):
      let scripted = ScriptedWorkload(
        file: file, seed: seed, steps: steps, scene: scene, size: size)
      return (scene, MutationWorkload(scenario: self, scripted: scripted))
    case .builtin:
      return (scene, SceneFile.builtinWorkload(file, scene: scene, size: size).1)
    }
  }

  /// The scene of a built-in shape and the generator that made it (its mutations continue
  /// the generator's random stream). Scene files: ``makeWorkload()``.
  public func makeScene() -> (Scene, SceneGenerator) {
    var generator = SceneGenerator(seed: seed)
    let scene: Scene
    switch shape {
    case .scene:
      preconditionFailure("a scene file's scene comes from makeWorkload(), which can fail")
    case .deep: scene = generator.deep(depth: size)
    case .wide: scene = generator.wide(count: size)
    case .balanced: scene = generator.balanced(branching: 4, depth: Self.balancedTree(size).depth)
    case .feed: scene = generator.feed(cells: size)
    case .random: scene = generator.random(views: size)
    case .table: scene = generator.table(rows: size, seed: seed)
    case .grid: scene = generator.grid(items: size)
    }
    generator.continueIDs(after: scene)
    return (scene, generator)
  }
}

func gigabytes(_ bytes: Double) -> String { NumberFormat.fixed(bytes / 1_073_741_824, 1) }
