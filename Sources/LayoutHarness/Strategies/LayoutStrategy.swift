import LayoutModel

/// The three ways of paying for layout that a run compares.
public enum StrategyKind: String, Sendable, ReportName {
  /// Handlers only mutate and set flags; one update cycle per tick lays out once.
  case coalesced
  /// After each mutation the handler calls `layoutIfNeeded()` on the window, as code that
  /// needs the new geometry at once does; the update cycle then finds little to do.
  case eager
  /// No solver: views size themselves from their children (`sizeThatFits`); invalidation
  /// travels up to the first view whose size does not depend on its children, and that
  /// subtree is laid out children-first, once per tick.
  case bottomUp = "bottom-up"

  /// How this strategy's trees compute frames: Auto Layout (one solver per window) or frame
  /// layout. Frame layout is the bottom-up algorithm: `View.sizeThatFits(_:)` and the frame
  /// containers' `layoutSubviews()` in LayoutModel (`StackView.swift`, `Label.swift`), with
  /// `View.invalidateIntrinsicContentSize()` (View+Constraints.swift) carrying a change up to
  /// the first view whose size does not depend on its children.
  public var layoutMode: Window.LayoutMode { self == .bottomUp ? .frames : .autoLayout }

  /// When layout runs: only in the tick's update cycle, or also after every handler.
  public var timing: LayoutTiming { self == .eager ? .afterEachHandler : .coalesced }
}

/// When a strategy's layout runs; the other axis of a strategy, beside
/// ``StrategyKind/layoutMode``.
public enum LayoutTiming: Sendable {
  /// Handlers only mutate and set flags; the update cycle at the end of the tick lays out
  /// once, whatever the number of changes.
  case coalesced
  /// Each handler calls `layoutIfNeeded()` on the window after its mutation, as code that
  /// needs the new geometry at once does.
  case afterEachHandler
}

/// A policy for when and how layout happens, over one live tree. The view tree provides the
/// mechanisms (flags, `layoutIfNeeded`, `sizeThatFits`); a strategy only decides which
/// layout mode its window uses and whether handlers lay out at once, so a view never knows
/// which strategy drives it.
public final class LayoutStrategy {
  public let kind: StrategyKind
  /// The live views this strategy lays out.
  public let tree: SceneTree
  /// The run loop that delivers this strategy's events and runs its update cycles.
  public let runLoop: RunLoop

  /// Makes the strategy of `kind` over a fresh materialisation of `scene`.
  public init(_ kind: StrategyKind, scene: Scene) throws(LayoutError) {
    self.kind = kind
    tree = try SceneTree(scene: scene, mode: kind.layoutMode)
    runLoop = RunLoop(window: tree.window)
  }

  public var window: Window { tree.window }

  /// The event handler of one mutation.
  public func handle(_ mutation: SceneMutation) throws(HandlerError) {
    try tree.apply(mutation)
    guard kind.timing == .afterEachHandler else { return }
    do throws(LayoutError) { try tree.window.layoutIfNeeded() } catch { throw .layout(error) }
  }

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
