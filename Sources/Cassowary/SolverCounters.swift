/// Deterministic work counters of a ``Solver``, cumulative since it was created.
///
/// They depend only on the sequence of operations, never on timing, which makes them the
/// most reliable regression signal a benchmark has. Subtract two readings to get the work of
/// the operations in between.
public struct SolverCounters: Hashable, Sendable {
  /// Basis exchanges, primal, dual and phase-one alike.
  public var pivots: Int = 0
  /// Row updates: merges of one row into another, and constant shifts of a row.
  public var rowsTouched: Int = 0
  /// Eliminations of a newly basic symbol from the tableau.
  public var substitutions: Int = 0
  /// Rows expanded into parametric terms because a pivot needed them (lazy representation).
  public var expansions: Int = 0
  /// Objective coefficients dropped as round-off (a symbol that looked able to lower the
  /// objective without bound; kiwi stops with "the objective is unbounded" there).
  public var repairs: Int = 0
  /// Leaving rows of primal pivots that round-off had left just below zero, put at zero so
  /// that the pivot does not step backwards (see `Tableau.raiseRoundOffDeficit(of:)`).
  public var deficitsRaised: Int = 0
  /// Constant shifts (suggestions, constant changes) applied through a cached column: one
  /// multiply-add per moved value instead of re-evaluating the dependent rows.
  public var cachedShifts: Int = 0
  /// Values of basic symbols that changed (variables, slacks, errors): the work no solver
  /// can avoid, against which the rest is measured.
  public var valuesUpdated: Int = 0
  /// Tableaux rebuilt from the constraints: after a refusal by a lazy tableau (to verify
  /// it), or after a sign of damage by round-off (see `Solver+Recovery.swift`).
  public var rebuilds: Int = 0
  /// Objectives recomputed from the constraints' error terms after a pivot that enlarged
  /// its row's cells enough to amplify round-off (see `Solver+Recovery.swift`).
  public var objectiveRefreshes: Int = 0
  /// Phase ones run: required constraints whose row offered no subject that keeps the
  /// tableau feasible, added through an artificial variable (attempts that end in a refusal,
  /// and those of a rebuild, included).
  public var phaseOnes: Int = 0
  /// Required constraints with no such subject added with their own slack or dummy as the
  /// basic symbol and made feasible by the dual simplex instead (attempts it could not
  /// finish, which phase one then decides and counts too, included; a rebuild uses phase
  /// one only).
  public var dualInsertions: Int = 0

  public init() {}

  public static func - (lhs: SolverCounters, rhs: SolverCounters) -> SolverCounters {
    var d = SolverCounters()
    d.pivots = lhs.pivots - rhs.pivots
    d.rowsTouched = lhs.rowsTouched - rhs.rowsTouched
    d.substitutions = lhs.substitutions - rhs.substitutions
    d.expansions = lhs.expansions - rhs.expansions
    d.repairs = lhs.repairs - rhs.repairs
    d.deficitsRaised = lhs.deficitsRaised - rhs.deficitsRaised
    d.cachedShifts = lhs.cachedShifts - rhs.cachedShifts
    d.valuesUpdated = lhs.valuesUpdated - rhs.valuesUpdated
    d.rebuilds = lhs.rebuilds - rhs.rebuilds
    d.objectiveRefreshes = lhs.objectiveRefreshes - rhs.objectiveRefreshes
    d.phaseOnes = lhs.phaseOnes - rhs.phaseOnes
    d.dualInsertions = lhs.dualInsertions - rhs.dualInsertions
    return d
  }
}
