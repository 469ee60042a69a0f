/// The phases of a run-loop tick, reported to an observer (the harness times them).
public enum TickPhase: String, Sendable, CaseIterable {
  /// Event handlers run: they mutate views and set flags.
  case handlers
  /// The update cycle's constraints pass (and the solves it leads to).
  case constraints
  /// The update cycle's layout pass.
  case layout
  /// The update cycle's display pass.
  case display
}

/// A main run loop: each tick runs the queued event handlers, then the window's update
/// cycle (constraints, layout, display), as UIKit's main loop does once per frame.
public final class RunLoop {
  public let window: Window
  private var events: [() throws -> Void] = []
  /// The buffer of the last batch, emptied, so that a tick takes the queued handlers
  /// without allocating (copying `events` out and clearing it in place allocated a new
  /// buffer per tick).
  private var spareEvents: [() throws -> Void] = []
  /// Called as each phase of a tick starts, and with nil when the tick ends.
  public var phaseObserver: ((TickPhase?) -> Void)?
  public private(set) var tickCount = 0

  public init(window: Window) {
    self.window = window
  }

  /// Queues an event handler for the next tick.
  public func post(_ handler: @escaping () throws -> Void) {
    events.append(handler)
  }

  /// Runs one tick: the queued handlers in order, then the update cycle.
  /// - Throws: the first error of a handler (later handlers are dropped, the update cycle
  ///   still runs), or the update cycle's ``LayoutError``.
  public func tick() throws {
    tickCount += 1
    window.beginTick()
    // The queued handlers move to `batch`; handlers posted while they run go to the spare
    // buffer, which becomes `events`.
    var batch: [() throws -> Void] = []
    swap(&batch, &spareEvents)
    swap(&batch, &events)
    defer {
      batch.removeAll(keepingCapacity: true)
      swap(&batch, &spareEvents)
    }
    phaseObserver?(.handlers)
    var failure: (any Error)?
    for handler in batch where failure == nil {
      do { try handler() } catch { failure = error }
    }
    window.phaseObserver = phaseObserver
    defer {
      window.phaseObserver = nil
      phaseObserver?(nil)
    }
    try window.runUpdateCycle()
    if let failure { throw failure }
  }
}
