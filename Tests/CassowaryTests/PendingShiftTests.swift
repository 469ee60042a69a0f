@testable import Cassowary
import Testing

/// After a run of suggestions through a cached column, the constants of the rows that name
/// the edit's marker lag their values: the shifts wait in the column
/// (`Tableau+ShiftCache.swift`). Whatever comes next must settle them before it reads or
/// changes a row, and then solve as a solver that saw the same changes without the run.
@Suite struct PendingShiftTests {
  /// What follows the run of suggestions.
  enum FollowUp: CaseIterable, CustomTestStringConvertible {
    case setConstant, removeConstraint, addConstraint, setStrength, otherEdit, removeEdit
    case suggestionIntoTheBounds, readOutOnly

    var testDescription: String { "\(self)" }
  }

  /// A parent width w (a strong edit variable), three children at half of it (medium)
  /// with lower bounds of 20, and a weak cap on the first: the bounds and halves are what
  /// the follow-ups change.
  struct System {
    let solver: Solver
    let w: Variable
    let children: [Variable]
    let halves: [Constraint]
    let bounds: [Constraint]

    init(_ representation: Solver.Representation) throws {
      let solver = Solver(representation: representation)
      let w = solver.makeVariable("w")
      let children = (0..<3).map { solver.makeVariable("c\($0)") }
      try solver.addEditVariable(w, strength: .strong)
      let halves = children.map { ($0 == 0.5 * w) | .medium }
      let bounds = children.map { $0 >= 20 }
      for (half, bound) in zip(halves, bounds) {
        try solver.addConstraint(half)
        try solver.addConstraint(bound)
      }
      try solver.addConstraint((children[0] <= 90) | .weak)
      (self.solver, self.w, self.children, self.halves, self.bounds) =
        (solver, w, children, halves, bounds)
    }

    func apply(_ followUp: FollowUp) throws {
      switch followUp {
      case .setConstant: try solver.setConstant(-70, of: bounds[2])
      case .removeConstraint: try solver.removeConstraint(bounds[0])
      case .addConstraint: try solver.addConstraint(children[1] == w - 10)
      case .setStrength: try solver.setStrength(.strong, of: halves[2])
      case .otherEdit:
        try solver.addEditVariable(children[2], strength: .strong)
        try solver.suggestValue(children[2], 70)
      case .removeEdit: try solver.removeEditVariable(w)
      // Halves under the bounds: restricted values go negative, the dual simplex pivots.
      case .suggestionIntoTheBounds: try solver.suggestValue(w, 10)
      case .readOutOnly: break
      }
      solver.updateVariables()
    }
  }

  /// Suggestions that keep every child at half of w and the cap broken: no pivot, so the
  /// second and later go through the cached column.
  static let run: [Double] = [200, 260, 300, 220, 280, 240]

  @Test(arguments: representations, FollowUp.allCases)
  func whatFollowsCachedSuggestionsSolvesAsWithoutThem(
    _ representation: Solver.Representation, _ followUp: FollowUp
  ) throws {
    let run = try System(representation)
    for value in Self.run { try run.solver.suggestValue(run.w, value) }
    let (cached, pending) = (run.solver.counters.cachedShifts, run.solver.tableau.pendingShifts)
    #expect(cached >= 4, "the run goes through the cache")
    #expect(pending, "the run leaves shifts pending")
    try run.apply(followUp)

    let reference = try System(representation)
    try reference.solver.suggestValue(reference.w, Self.run.last!)
    try reference.apply(followUp)

    for (a, b) in zip([run.w] + run.children, [reference.w] + reference.children) {
      expectValue(run.solver, a, reference.solver.value(of: b))
    }
    // Then a few more suggestions, cached again where the follow-up kept the edit.
    guard followUp != .removeEdit else { return }
    for value in [180.0, 50, 120] {
      try run.solver.suggestValue(run.w, value)
      try reference.solver.suggestValue(reference.w, value)
      run.solver.updateVariables()
      reference.solver.updateVariables()
      for (a, b) in zip([run.w] + run.children, [reference.w] + reference.children) {
        expectValue(run.solver, a, reference.solver.value(of: b))
      }
    }
  }

  /// Settling applies the sum of the pending shifts: the rows then hold what shifting them
  /// at each suggestion would have given, and every row evaluates to its basic value.
  @Test(arguments: representations)
  func settledRowsEvaluateToTheirValues(_ representation: Solver.Representation) throws {
    let system = try System(representation)
    for value in Self.run { try system.solver.suggestValue(system.w, value) }
    var tableau = system.solver.tableau
    let pending = tableau.pendingShifts
    #expect(pending)
    let stale = tableau.rows.indices.contains { slot in
      let basic = tableau.rowBasic[slot]
      return basic.isValid
        && !isClose(tableau.evaluateIgnoringPending(slot), tableau.values[basic.index])
    }
    #expect(stale, "some row's constant lags its value before settling")
    tableau.settleShifts()
    #expect(!tableau.pendingShifts)
    for slot in tableau.rows.indices where tableau.rowBasic[slot].isValid {
      let basic = tableau.rowBasic[slot]
      #expect(isClose(tableau.evaluate(tableau.rows[slot]), tableau.values[basic.index]))
    }
  }
}

extension Tableau {
  /// `evaluate` of the row in `slot` without its check that no shift is pending (tests).
  func evaluateIgnoringPending(_ slot: Int) -> Double {
    var copy = self
    copy.pendingShifts = false
    return copy.evaluate(rows[slot])
  }
}
