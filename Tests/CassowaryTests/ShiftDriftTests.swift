@testable import Cassowary
import Testing

/// Values handed out after suggestions that swing a value far out and back. A shift moves a
/// value (or a row's constant) by adding to it, so a swing to 1e9 and back leaves round-off
/// of about 1e9 times 2^-53 in it: 1e-7, over a hundred times `Tolerance.audit` at layout
/// magnitudes. Suggestions change no row, so no check used to run before the read-out,
/// and the drifted values were handed out (found by a review at stop 60).
@Suite struct ShiftDriftTests {
  /// The largest amount by which the values read out break a required constraint, each
  /// over the scale the check uses (1 + the magnitudes of its terms and constant).
  static func worstResidual(_ solver: Solver, _ constraints: [Constraint]) -> Double {
    var worst = 0.0
    for constraint in constraints where constraint.strength.isRequired {
      var sum = constraint.expression.constant
      var scale = 1 + abs(sum)
      for term in constraint.expression.terms {
        let v = term.coefficient * solver.value(of: term.variable)
        sum += v
        scale += abs(v)
      }
      let broken: Double
      switch constraint.relation {
      case .equal: broken = abs(sum)
      case .greaterOrEqual: broken = max(0, -sum)
      case .lessOrEqual: broken = max(0, sum)
      }
      worst = max(worst, broken / scale)
    }
    return worst
  }

  static let representations: [Solver.Representation] = [.adaptive, .lazy, .canonical]

  /// Suggests each of `values` for the edit variable of `s == x + 0.1`, reads out after
  /// each, and expects the link (and the edit itself) to hold.
  static func followLink(_ representation: Solver.Representation, _ values: [Double]) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let s = solver.makeVariable("s")
    try solver.addEditVariable(x, strength: .strong)
    let link = s == x + 0.1
    try solver.addConstraint(link)
    for value in values {
      try solver.suggestValue(x, value)
      solver.updateVariables()
      #expect(abs(solver.value(of: x) - value) <= Tolerance.audit * (1 + abs(value)))
      let worst = worstResidual(solver, [link])
      #expect(worst <= Tolerance.audit, "after suggesting \(value): residual \(worst)")
    }
  }

  /// The reviewer's case, with a read-out after each suggestion and no row change at all.
  @Test(arguments: representations)
  func aSwingAndBackLeavesNoDriftInTheValuesReadOut(_ representation: Solver.Representation)
    throws
  {
    try Self.followLink(representation, [1e9, 0.3, 1e9, 0.7, 0.3, 1e9, 0.1])
  }

  /// A stop on the way back: the check the swing to 1e9 asks for passes at that
  /// magnitude, and so does one at 2e6, with the round-off of 1e9 still in the values; the
  /// way down from 2e6 must be checked again, though it is shorter than the budget of a
  /// tableau with no round-off in it (a review at stop 62: 2.4e-8 off at 0.3, 13 times the
  /// tolerance, when each check started the sum from zero with the full budget).
  @Test(arguments: representations)
  func aStopOnTheWayBackIsCheckedToo(_ representation: Solver.Representation) throws {
    try Self.followLink(representation, [1e9, 2e6, 0.3, 999_999_999, 1.9e6, 0.7])
  }

  /// Large coefficients multiply the round-off of the values they weigh (the same review:
  /// 69 times the tolerance when only the shifts' sizes were counted).
  @Test(arguments: representations)
  func largeCoefficientsLowerTheBudget(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let e = solver.makeVariable("e")
    let a = solver.makeVariable("a")
    let b = solver.makeVariable("b")
    try solver.addEditVariable(e, strength: .strong)
    let constraints = [a == e, 1000 * b == 1000 * a + 1]
    for constraint in constraints { try solver.addConstraint(constraint) }
    for value in [0.0013, 2_200_000.3, 0.0013, 2e6, 0.0007] {
      try solver.suggestValue(e, value)
      solver.updateVariables()
      let worst = Self.worstResidual(solver, constraints)
      #expect(worst <= Tolerance.audit, "after suggesting \(value): residual \(worst)")
    }
  }

  /// The same drift through constant changes (`setConstant` shifts a marker as a suggestion
  /// does).
  @Test(arguments: representations)
  func aConstantSwungOutAndBackLeavesNoDrift(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let a = solver.makeVariable("a")
    let b = solver.makeVariable("b")
    let c = solver.makeVariable("c")
    let anchor = a == 5
    let links = [b == a + 0.1, c == 2 * b - 0.3]
    try solver.addConstraint(anchor)
    for link in links { try solver.addConstraint(link) }
    for constant in [-1e9, -5.5, -9e8, -0.25, -1e9, -7] {
      try solver.setConstant(constant, of: anchor)
      solver.updateVariables()
      let worst = Self.worstResidual(solver, links)
      #expect(worst <= Tolerance.audit, "after the constant \(constant): residual \(worst)")
    }
  }

  /// Ordinary ticks do not pay for a check: shifts of layout magnitudes leave round-off far
  /// below the tolerance, so a thousand of them add up to less than the budget. A swing to
  /// 1e9 goes over it, and the operation ends with the check, which starts the sum again
  /// and sets the next budget.
  @Test func onlyLargeShiftsAskForACheck() throws {
    let solver = Solver(representation: .lazy)
    let width = solver.makeVariable("W")
    let half = solver.makeVariable("h")
    try solver.addEditVariable(width, strength: .strong)
    try solver.addConstraint(half == 0.5 * width)
    try solver.suggestValue(width, 400)
    solver.updateVariables()
    for t in 0..<1_000 {
      try solver.suggestValue(width, 400 + Double(t % 7) * 10)
      solver.updateVariables()
      #expect(!solver.tableau.needsAudit)
    }
    #expect(solver.counters.cachedShifts > 900)
    #expect(solver.tableau.shiftDrift > 1_000)
    #expect(solver.tableau.shiftDrift < solver.tableau.shiftBudget)
    try solver.suggestValue(width, 1e9)
    #expect(solver.tableau.shiftDrift == 0, "the suggestion ended with the check")
    #expect(solver.tableau.shiftBudget > 1_000, "the check set a budget from the values")
    #expect(!solver.tableau.needsAudit)
  }

  /// Values that overflowed break every relation, in the check of changed values and in
  /// the measure of every constraint (the drift check, a rebuild's acceptance): `x - y`
  /// at two infinite values is not a number over an infinite scale, and an excess written
  /// as `max(0, -residual)` would be 0 for it, within any tolerance.
  @Test(arguments: [Relation.greaterOrEqual, .lessOrEqual, .equal])
  func valuesThatOverflowedBreakEveryRelation(_ relation: Relation) {
    let slots = [
      Audit.Slot(coefficient: 1, symbol: 0, record: 0, next: 1, previous: -1),
      Audit.Slot(coefficient: -1, symbol: 1, record: 0, next: -1, previous: 0),
    ]
    var entry = Audit.Entry()
    entry.count = 2
    entry.relation = relation
    let values = [Double.infinity, .infinity]
    slots.withUnsafeBufferPointer { slots in
      values.withUnsafeBufferPointer { values in
        #expect(!Audit.holds(entry: entry, slots: slots, values: values))
        #expect(Audit.measure(entry: entry, slots: slots, values: values).ratio.isNaN)
      }
    }
  }
}
