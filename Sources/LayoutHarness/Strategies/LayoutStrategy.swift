import LayoutModel

/// The three ways of paying for layout that a run compares.
public enum StrategyKind: String, Sendable, CaseIterable, Codable {
  /// Handlers only mutate and set flags; one update cycle per tick lays out once.
  case coalesced
  /// After each mutation the handler calls `layoutIfNeeded()` on the window, as code that
  /// needs the new geometry at once does; the update cycle then finds little to do.
  case eager
  /// No solver: views size themselves from their children (`sizeThatFits`); invalidation
  /// travels up to the first view whose size does not depend on its children, and that
  /// subtree is laid out children-first, once per tick.
  case bottomUp = "bottom-up"

  /// How this strategy's trees compute frames.
  public var layoutMode: Window.LayoutMode { self == .bottomUp ? .frames : .autoLayout }
}

/// A policy for when layout happens. The view tree provides the mechanisms (flags,
/// `layoutIfNeeded`, `sizeThatFits`); a strategy only decides how handlers use them, so a
/// view never knows which strategy drives it.
public protocol LayoutStrategy: AnyObject {
  var kind: StrategyKind { get }
  /// The live views this strategy lays out.
  var tree: SceneTree { get }
  /// The run loop that delivers this strategy's events and runs its update cycles.
  var runLoop: RunLoop { get }
  /// The event handler of one mutation.
  func handle(_ mutation: SceneMutation) throws(HandlerError)
}

extension LayoutStrategy {
  public var window: Window { tree.window }

  /// Queues one event handler per mutation for the next tick (outside any measurement:
  /// delivering events is the harness's work, handling them is the app's).
  public func post(_ mutations: [SceneMutation]) {
    for mutation in mutations {
      runLoop.post { [unowned self] in try self.handle(mutation) }
    }
  }

  /// One run-loop tick: every mutation as its own event handler, then the update cycle.
  /// - Throws: the first ``HandlerError`` of a handler, or of the update cycle.
  public func tick(_ mutations: [SceneMutation]) throws(HandlerError) {
    post(mutations)
    do {
      try runLoop.tick()
    } catch let error as HandlerError {
      throw error
    } catch let error as LayoutError {
      throw .layout(error)
    } catch {
      preconditionFailure("handlers throw HandlerError only: \(error)")
    }
  }
}

/// Makes the strategy of `kind` over a fresh materialisation of `scene`.
public func makeStrategy(_ kind: StrategyKind, scene: Scene) throws(LayoutError)
  -> any LayoutStrategy
{
  let tree = try SceneTree(scene: scene, mode: kind.layoutMode)
  switch kind {
  case .coalesced: return CoalescedStrategy(tree: tree)
  case .eager: return EagerStrategy(tree: tree)
  case .bottomUp: return BottomUpStrategy(tree: tree)
  }
}

public final class CoalescedStrategy: LayoutStrategy {
  public let tree: SceneTree
  public let runLoop: RunLoop
  public var kind: StrategyKind { .coalesced }

  public init(tree: SceneTree) {
    self.tree = tree
    runLoop = RunLoop(window: tree.window)
  }

  public func handle(_ mutation: SceneMutation) throws(HandlerError) {
    try tree.apply(mutation)
  }
}

public final class EagerStrategy: LayoutStrategy {
  public let tree: SceneTree
  public let runLoop: RunLoop
  public var kind: StrategyKind { .eager }

  public init(tree: SceneTree) {
    self.tree = tree
    runLoop = RunLoop(window: tree.window)
  }

  public func handle(_ mutation: SceneMutation) throws(HandlerError) {
    try tree.apply(mutation)
    do throws(LayoutError) { try tree.window.layoutIfNeeded() } catch { throw .layout(error) }
  }
}

public final class BottomUpStrategy: LayoutStrategy {
  public let tree: SceneTree
  public let runLoop: RunLoop
  public var kind: StrategyKind { .bottomUp }

  public init(tree: SceneTree) {
    self.tree = tree
    runLoop = RunLoop(window: tree.window)
  }

  public func handle(_ mutation: SceneMutation) throws(HandlerError) {
    try tree.apply(mutation)
  }
}
