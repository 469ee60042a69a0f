@testable import Cassowary
import Testing

/// After a run of suggestions through a cached column, the constants of the rows that name
/// the edit's marker lag their values, and the externals it moved are not listed: the shifts
/// wait in the column (`Tableau+ShiftCache.swift`). Whatever comes next must settle them
/// before it reads or changes a row (or, a read-out, walk the column), and then solve and
/// report the moved variables as a solver that saw the same changes without the run.
@Suite struct PendingShiftTests {
  /// What follows the run of suggestions.
  enum FollowUp: CaseIterable, CustomTestStringConvertible {
    case setConstant, removeConstraint, addConstraint, setStrength, otherEdit, removeEdit
    case suggestionIntoTheBounds, readOutOnly

    var testDescription: String { "\(self)" }
  }

  /// A parent width w (a strong edit variable), children at half of it (medium) with lower
  /// bounds of 20, and a weak cap on the first: the bounds and halves are what the
  /// follow-ups change. Three children make a column too short to defer its restricted
  /// values (`ShiftCache.deferredRestricted`); twenty-four, one that does.
  struct System {
    let solver: Solver
    let w: Variable
    let children: [Variable]
    let halves: [Constraint]
    let bounds: [Constraint]

    init(_ representation: Solver.Representation, children count: Int = 3) throws {
      let solver = Solver(representation: representation)
      let w = solver.makeVariable("w")
      let children = (0..<count).map { solver.makeVariable("c\($0)") }
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

    /// Applies `followUp`, then reads out: the variables reported as moved, by index, with
    /// their values (each must be reported once).
    @discardableResult
    func apply(_ followUp: FollowUp) throws -> [Int32: Double] {
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
      return System.readOut(solver)
    }

    static func readOut(_ solver: Solver) -> [Int32: Double] {
      var moved: [Int32: Double] = [:]
      solver.updateVariables { variable, value in
        #expect(moved[variable.index] == nil, "reported twice")
        moved[variable.index] = value
      }
      return moved
    }
  }

  /// Suggestions that keep every child at half of w and the cap broken: no pivot, so the
  /// second and later go through the cached column.
  static let run: [Double] = [200, 260, 300, 220, 280, 240]

  static let childCounts = [3, 24]

  @Test(arguments: representations, FollowUp.allCases)
  func whatFollowsCachedSuggestionsSolvesAsWithoutThem(
    _ representation: Solver.Representation, _ followUp: FollowUp
  ) throws {
    for count in Self.childCounts {
      try whatFollowsCachedSuggestions(representation, followUp, children: count)
    }
  }

  func whatFollowsCachedSuggestions(
    _ representation: Solver.Representation, _ followUp: FollowUp, children count: Int
  ) throws {
    let run = try System(representation, children: count)
    for value in Self.run { try run.solver.suggestValue(run.w, value) }
    let (cached, pending) = (run.solver.counters.cachedShifts, run.solver.tableau.pendingShifts)
    #expect(cached >= 4, "the run goes through the cache")
    #expect(pending, "the run leaves shifts pending")
    let defers = run.solver.tableau.shiftCache.deferring >= 0
    #expect(defers == (count > 3), "only the long column defers its restricted values")
    let moved = try run.apply(followUp)

    let reference = try System(representation, children: count)
    try reference.solver.suggestValue(reference.w, Self.run.last!)
    let referenceMoved = try reference.apply(followUp)

    for (a, b) in zip([run.w] + run.children, [reference.w] + reference.children) {
      expectValue(run.solver, a, reference.solver.value(of: b))
    }
    // The same variables reported, at the same values (both read out for the first time).
    #expect(Set(moved.keys) == Set(referenceMoved.keys))
    for (index, value) in moved { #expect(isClose(value, referenceMoved[index] ?? .nan)) }
    // Then a few more suggestions, cached again where the follow-up kept the edit.
    guard followUp != .removeEdit else { return }
    try Self.expectSameSuggestions(run, reference, [180, 50, 120])
  }

  /// Suggests each value to both systems' edit and reads both out: the same values, the
  /// same variables reported at the same values (both read out before).
  static func expectSameSuggestions(
    _ run: System, _ reference: System, _ values: [Double]
  ) throws {
    for value in values {
      try run.solver.suggestValue(run.w, value)
      try reference.solver.suggestValue(reference.w, value)
      let (moved, referenceMoved) = (System.readOut(run.solver), System.readOut(reference.solver))
      for (a, b) in zip([run.w] + run.children, [reference.w] + reference.children) {
        expectValue(run.solver, a, reference.solver.value(of: b))
      }
      #expect(Set(moved.keys) == Set(referenceMoved.keys))
      for (index, value) in moved { #expect(isClose(value, referenceMoved[index] ?? .nan)) }
    }
  }

  /// A check of the values that is still due when an operation ends (here forced by hand;
  /// the repair loop can leave one to the next operation) sees the values that a cached
  /// shift in that operation moved: they are listed before it reads the lists.
  @Test(arguments: representations)
  func aCheckDueAfterCachedShiftsSeesTheirValues(_ representation: Solver.Representation) throws {
    let system = try System(representation)
    for value in Self.run { try system.solver.suggestValue(system.w, value) }
    _ = System.readOut(system.solver)
    let child = system.solver.variableSymbols[Int(system.children[1].index)]
    #expect(!system.solver.tableau.changeState(of: child).listed)
    system.solver.tableau.auditedVersion = .max
    try system.solver.suggestValues([(system.w, 230), (system.w, 250)])
    #expect(system.solver.tableau.changeState(of: child).listed, "listed for the check")
    #expect(!system.solver.tableau.needsAudit)
    #expect(System.readOut(system.solver)[system.children[1].index] == 125)
  }

  /// Two strong edits `a` and `b` and a variable `s = a + 2b` (at least -1000) that both
  /// their columns move.
  static func twoEdits(_ representation: Solver.Representation) throws -> (
    Solver, a: Variable, b: Variable, s: Variable
  ) {
    let solver = Solver(representation: representation)
    let (a, b, s) = (solver.makeVariable("a"), solver.makeVariable("b"), solver.makeVariable("s"))
    try solver.addEditVariable(a, strength: .strong)
    try solver.addEditVariable(b, strength: .strong)
    try solver.addConstraint(s == a + 2 * b)
    try solver.addConstraint(s >= -1000)
    return (solver, a, b, s)
  }

  /// Two edits whose cached columns move the same variable: a read-out walks both columns
  /// and reports the variable once, at its value; a read-out with nothing moved since
  /// reports nothing. Then an operation before the read-out lists the columns' externals
  /// (and the check at its end sees them), with the same report.
  @Test(arguments: representations)
  func sharedExternalsOfTwoColumnsAreReportedOnce(
    _ representation: Solver.Representation
  ) throws {
    let (solver, a, b, sum) = try Self.twoEdits(representation)
    _ = System.readOut(solver)
    for (x, y) in [(1.0, 2.0), (3, 4), (5, 6), (7, 8)] {
      try solver.suggestValue(a, x)
      try solver.suggestValue(b, y)
    }
    #expect(solver.counters.cachedShifts >= 4, "both edits go through their columns")
    #expect(System.readOut(solver) == [a.index: 7, b.index: 8, sum.index: 23])
    // Only cached shifts since the read-out: nothing is listed, the columns are walked.
    let before = solver.counters.cachedShifts
    try solver.suggestValue(a, 1)
    try solver.suggestValue(b, 3)
    #expect(solver.counters.cachedShifts == before + 2)
    #expect(solver.tableau.changedExternals.isEmpty)
    let unlisted = solver.tableau.shiftCache.columns.filter(\.unlisted).count
    #expect(unlisted == 2)
    #expect(System.readOut(solver) == [a.index: 1, b.index: 3, sum.index: 7])
    #expect(System.readOut(solver).isEmpty)

    try solver.suggestValue(a, 9)
    try solver.suggestValue(b, 10)
    let symbol = solver.variableSymbols[Int(sum.index)]
    // An operation first: it settles, which lists the moved externals for the check.
    try solver.addConstraint(a <= 500)
    #expect(solver.tableau.shiftCache.columns.allSatisfy { !$0.unlisted })
    #expect(solver.tableau.changeState(of: symbol).listed)
    #expect(System.readOut(solver) == [a.index: 9, b.index: 10, sum.index: 29])
  }

  /// The same with columns long enough that their externals wait for the read-out
  /// (`ShiftCache.deferredExternals`): both columns' shifts are added before either is
  /// copied, so each variable is reported once, at its final value; and a settle adds them
  /// before it lists them.
  @Test(arguments: representations)
  func sharedExternalsOfTwoLongColumnsAreReportedOnce(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let (a, b) = (solver.makeVariable("a"), solver.makeVariable("b"))
    try solver.addEditVariable(a, strength: .strong)
    try solver.addEditVariable(b, strength: .strong)
    let count = ShiftCache.deferredExternals + 4
    let sums = (0..<count).map { solver.makeVariable("s\($0)") }
    for (i, sum) in sums.enumerated() {
      try solver.addConstraint(sum == a + 2 * b + Double(i))
      try solver.addConstraint(sum >= -1000)
    }
    _ = System.readOut(solver)
    func expected(_ x: Double, _ y: Double) -> [Int32: Double] {
      var values = [a.index: x, b.index: y]
      for (i, sum) in sums.enumerated() { values[sum.index] = x + 2 * y + Double(i) }
      return values
    }
    for (x, y) in [(1.0, 2.0), (3, 4), (5, 6), (7, 8)] {
      try solver.suggestValue(a, x)
      try solver.suggestValue(b, y)
    }
    #expect(System.readOut(solver) == expected(7, 8))
    try solver.suggestValue(a, 1)
    try solver.suggestValue(b, 3)
    let waiting = solver.tableau.shiftCache.columns.filter { $0.externalShift != 0 }.count
    #expect(waiting == 2, "both columns' externals wait for the read-out")
    #expect(System.readOut(solver) == expected(1, 3))
    #expect(System.readOut(solver).isEmpty)

    try solver.suggestValue(a, 9)
    try solver.suggestValue(b, 10)
    // An operation first: it settles, which adds the shifts and lists the externals.
    try solver.addConstraint(a <= 500)
    #expect(solver.tableau.shiftCache.columns.allSatisfy { $0.externalShift == 0 })
    #expect(System.readOut(solver) == expected(9, 10))

    // One column read out alone owes its shift; then the other one is shifted alone: the
    // read-out adds the first one's owed shift before it copies the second's externals.
    for (x, y) in [(1.0, 2.0), (3, 4)] {
      try solver.suggestValue(a, x)
      try solver.suggestValue(b, y)
    }
    #expect(System.readOut(solver) == expected(3, 4))
    try solver.suggestValue(a, 5)
    #expect(System.readOut(solver) == expected(5, 4).filter { $0.key != b.index })
    let owing = solver.tableau.shiftCache.columns.filter { $0.externalShift != 0 }
    #expect(owing.count == 1 && !owing[0].unlisted, "a's column owes what it read out")
    try solver.suggestValue(b, 6)
    #expect(System.readOut(solver) == expected(5, 6).filter { $0.key != a.index })
    for (i, sum) in sums.enumerated() { expectValue(solver, sum, 17 + Double(i)) }
  }

  /// A long column whose externals wait and a short one that moved its own at the shift,
  /// sharing a variable: the wait ends before either is copied, so the shared variable is
  /// reported once, and not at all when the two shifts cancel on it (found in review: the
  /// short column, copied first, reported it short of the long column's shift).
  @Test(arguments: representations)
  func aWaitingColumnAndAShortOneReportASharedVariableOnce(
    _ representation: Solver.Representation
  ) throws {
    let (solver, a, b, s) = try Self.twoEdits(representation)
    let others = (0..<ShiftCache.deferredExternals + 4).map { solver.makeVariable("t\($0)") }
    for (i, t) in others.enumerated() { try solver.addConstraint(t == 2 * b + Double(i)) }
    _ = System.readOut(solver)
    for (x, y) in [(1.0, 2.0), (3, 4), (5, 6), (7, 8)] {
      try solver.suggestValue(a, x)
      try solver.suggestValue(b, y)
    }
    _ = System.readOut(solver)
    try solver.suggestValue(a, 1)
    try solver.suggestValue(b, 3)
    let columns = solver.tableau.shiftCache.columns.filter(\.unlisted)
    #expect(columns.count == 2 && columns.filter { $0.externalShift != 0 }.count == 1)
    var expected: [Int32: Double] = [a.index: 1, b.index: 3, s.index: 7]
    for (i, t) in others.enumerated() { expected[t.index] = 6 + Double(i) }
    #expect(System.readOut(solver) == expected)
    // a up by 2, b down by 1: s stays at 7.
    try solver.suggestValue(a, 3)
    try solver.suggestValue(b, 2)
    expected = [a.index: 3, b.index: 2]
    for (i, t) in others.enumerated() { expected[t.index] = 4 + Double(i) }
    #expect(System.readOut(solver) == expected)
  }

  /// Settling applies the sum of the pending shifts: the rows then hold what shifting them
  /// at each suggestion would have given, and every row evaluates to its basic value.
  /// The same with a read-out after every suggestion, which leaves a long column's shift
  /// owed to the tableau's values: the settle adds it.
  @Test(arguments: representations, childCounts)
  func settledRowsEvaluateToTheirValues(
    _ representation: Solver.Representation, _ count: Int
  ) throws {
    for readingOut in [false, true] {
      try settledRowsEvaluateToTheirValues(representation, count, readingOut: readingOut)
    }
  }

  func settledRowsEvaluateToTheirValues(
    _ representation: Solver.Representation, _ count: Int, readingOut: Bool
  ) throws {
    let system = try System(representation, children: count)
    for value in Self.run {
      try system.solver.suggestValue(system.w, value)
      if readingOut { system.solver.updateVariables() }
    }
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

  /// A system whose column is long enough that its externals wait for the read-out
  /// (`ShiftCache.deferredExternals`), through the run of suggestions, each read out.
  static func longColumnReadOutOneByOne(_ representation: Solver.Representation) throws -> System {
    let run = try System(representation, children: ShiftCache.deferredExternals + 8)
    for value in Self.run {
      try run.solver.suggestValue(run.w, value)
      _ = System.readOut(run.solver)
      for child in run.children { expectValue(run.solver, child, value / 2) }
    }
    return run
  }

  /// A read-out of a long column's shift leaves the shift owed: the copies hold the values,
  /// the tableau's stay behind until a settle, and the column's sum keeps growing with the
  /// next suggestions. Whatever follows the run (read out after every suggestion) solves
  /// as a solver that saw only the last suggestion, and later suggestions too.
  @Test(arguments: representations, FollowUp.allCases)
  func whatFollowsReadOutsOfCachedSuggestionsSolvesAsWithoutThem(
    _ representation: Solver.Representation, _ followUp: FollowUp
  ) throws {
    let run = try Self.longColumnReadOutOneByOne(representation)
    let owing = run.solver.tableau.shiftCache.columns.filter { $0.externalShift != 0 }
    #expect(owing.count == 1, "the column owes its externals the shifts it read out")
    #expect(run.solver.tableau.pendingShifts)
    let symbol = run.solver.variableSymbols[Int(run.children[1].index)]
    #expect(run.solver.tableau.values[symbol.index] != Self.run.last! / 2, "not written back")
    _ = try run.apply(followUp)

    let reference = try System(representation, children: run.children.count)
    try reference.solver.suggestValue(reference.w, Self.run.last!)
    _ = try reference.apply(followUp)
    for (a, b) in zip([run.w] + run.children, [reference.w] + reference.children) {
      expectValue(run.solver, a, reference.solver.value(of: b))
    }
    guard followUp != .removeEdit else { return }
    try Self.expectSameSuggestions(run, reference, [180, 50, 120, 240])
  }

  /// An operation between two read-outs of a long column settles what the first left owed
  /// and lists what it moved; a suggestion after it leaves the column waiting again, and the
  /// read-out, which copies the listed values after the columns, adds the wait to the
  /// tableau first: every value comes out at its solution, each reported once.
  @Test(arguments: representations)
  func anOwedColumnAndListedValuesAreCopiedAtTheirValues(
    _ representation: Solver.Representation
  ) throws {
    let run = try Self.longColumnReadOutOneByOne(representation)
    // The first child's bound moves over its half: a pivot, which lists what it moves.
    try run.solver.setConstant(-150, of: run.bounds[0])
    #expect(!run.solver.tableau.changedExternals.isEmpty)
    // The first suggestion after the pivot takes the general path; the second builds the
    // column again, and its externals wait.
    try run.solver.suggestValue(run.w, 250)
    try run.solver.suggestValue(run.w, 260)
    #expect(run.solver.tableau.shiftCache.columns.contains { $0.externalShift != 0 })
    #expect(!run.solver.tableau.changedExternals.isEmpty)
    let moved = System.readOut(run.solver)
    #expect(run.solver.tableau.shiftCache.columns.allSatisfy { $0.externalShift == 0 })
    expectValue(run.solver, run.children[0], 150)
    for child in run.children.dropFirst() { expectValue(run.solver, child, 130) }
    #expect(moved[run.children[0].index].map { isClose($0, 150) } ?? false)
    #expect(moved[run.children[1].index].map { isClose($0, 130) } ?? false)
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
