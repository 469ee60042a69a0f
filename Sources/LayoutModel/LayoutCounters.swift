/// Work done by a window's update cycles and by its layout engine. Every field is
/// deterministic for a given tree and mutation sequence, which makes the counters the most
/// reliable regression signal a run has (wall time is noisy; these are not).
public struct LayoutCounters: Hashable, Sendable {
  /// `updateConstraints()` calls made by constraints passes.
  public var updateConstraints = 0
  /// `layoutSubviews()` calls made by layout passes.
  public var layoutSubviews = 0
  /// `sizeThatFits(_:)` evaluations (cache misses of the fitting-size cache).
  public var sizeThatFits = 0
  /// `draw()` calls made by display passes.
  public var draw = 0
  /// Times the layout engine read a new solution out of the solver.
  public var solves = 0
  /// Solver pivots (primal, dual and phase one).
  public var solverPivots = 0
  /// Solver constraints added, removed, and changed in place (constant or strength).
  public var constraintsAdded = 0
  public var constraintsRemoved = 0
  public var constraintsChanged = 0
  /// Rounds of constraints pass + solve + layout pass inside update cycles.
  public var layoutRounds = 0
  /// Frames given to views by layout (constraints read out, `layoutSubviews`, `setFrame`).
  public var framesAssigned = 0
  /// Of those, the frames that differed from the view's frame: views moved or resized.
  public var framesChanged = 0
  /// Of those, views whose frame had already changed earlier in the same run-loop tick:
  /// intermediate layouts (eager `layoutIfNeeded` after every change) show up here.
  public var framesChangedAgain = 0
  /// Solver rows rewritten (substitutions and pivots) and values it updated.
  public var solverRowsTouched = 0
  public var solverValuesUpdated = 0

  public init() {}

  /// The work done between two readings.
  public static func - (lhs: LayoutCounters, rhs: LayoutCounters) -> LayoutCounters {
    var d = LayoutCounters()
    d.updateConstraints = lhs.updateConstraints - rhs.updateConstraints
    d.layoutSubviews = lhs.layoutSubviews - rhs.layoutSubviews
    d.sizeThatFits = lhs.sizeThatFits - rhs.sizeThatFits
    d.draw = lhs.draw - rhs.draw
    d.solves = lhs.solves - rhs.solves
    d.solverPivots = lhs.solverPivots - rhs.solverPivots
    d.constraintsAdded = lhs.constraintsAdded - rhs.constraintsAdded
    d.constraintsRemoved = lhs.constraintsRemoved - rhs.constraintsRemoved
    d.constraintsChanged = lhs.constraintsChanged - rhs.constraintsChanged
    d.layoutRounds = lhs.layoutRounds - rhs.layoutRounds
    d.framesAssigned = lhs.framesAssigned - rhs.framesAssigned
    d.framesChanged = lhs.framesChanged - rhs.framesChanged
    d.framesChangedAgain = lhs.framesChangedAgain - rhs.framesChangedAgain
    d.solverRowsTouched = lhs.solverRowsTouched - rhs.solverRowsTouched
    d.solverValuesUpdated = lhs.solverValuesUpdated - rhs.solverValuesUpdated
    return d
  }

  /// Name and value of every counter, in a fixed order (for reports).
  public var fields: [(name: String, value: Int)] {
    [
      ("updateConstraints", updateConstraints), ("layoutSubviews", layoutSubviews),
      ("sizeThatFits", sizeThatFits), ("draw", draw), ("solves", solves),
      ("solverPivots", solverPivots), ("constraintsAdded", constraintsAdded),
      ("constraintsRemoved", constraintsRemoved), ("constraintsChanged", constraintsChanged),
      ("layoutRounds", layoutRounds), ("framesAssigned", framesAssigned),
      ("framesChanged", framesChanged), ("framesChangedAgain", framesChangedAgain),
      ("solverRowsTouched", solverRowsTouched), ("solverValuesUpdated", solverValuesUpdated),
    ]
  }
}
