import Cassowary
import Testing

/// `setConstant`, `setStrength`, `constant(of:)` and `strength(of:)`: changing a constraint
/// that is already in the solver. The constant is the one of `expression relation 0`, so
/// `x == 10` has constant -10.
extension SolverTests {
  // MARK: - setConstant

  @Test(arguments: representations)
  func setConstantOfARequiredEquality(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    let fix = x == 10
    try solver.addConstraint(fix)
    try solver.addConstraint(y == x + 5)
    #expect(solver.constant(of: fix) == -10)
    try solver.setConstant(-30, of: fix)
    #expect(solver.constant(of: fix) == -30)
    solver.updateVariables()
    expectValue(solver, x, 30)
    expectValue(solver, y, 35)
  }

  @Test(arguments: representations)
  func setConstantOfARequiredLowerBound(_ representation: Solver.Representation) throws {
    // x >= 10 against a weak pull to 0: x sits on the bound wherever the bound is above 0.
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let bound = x >= 10
    try solver.addConstraint(bound)
    try solver.addConstraint((x == 0) | .weak)
    try solver.setConstant(-25, of: bound)
    solver.updateVariables()
    expectValue(solver, x, 25)
    try solver.setConstant(5, of: bound)  // x >= -5: the pull wins.
    solver.updateVariables()
    expectValue(solver, x, 0)
    try solver.setConstant(-12, of: bound)
    solver.updateVariables()
    expectValue(solver, x, 12)
  }

  @Test(arguments: representations)
  func setConstantOfARequiredUpperBound(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let bound = x <= 50
    try solver.addConstraint((x == 100) | .weak)
    try solver.addConstraint(bound)
    solver.updateVariables()
    expectValue(solver, x, 50)
    try solver.setConstant(-70, of: bound)
    solver.updateVariables()
    expectValue(solver, x, 70)
    try solver.setConstant(-200, of: bound)
    solver.updateVariables()
    expectValue(solver, x, 100)
  }

  @Test(arguments: representations)
  func setConstantOfAPreference(_ representation: Solver.Representation) throws {
    // x == 10 (strong) against x == 0 (medium): the strong one moves x wherever it goes.
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let preference = (x == 10) | .strong
    try solver.addConstraint((x == 0) | .medium)
    try solver.addConstraint(preference)
    try solver.setConstant(-40, of: preference)
    solver.updateVariables()
    expectValue(solver, x, 40)
    try solver.setConstant(15, of: preference)
    solver.updateVariables()
    expectValue(solver, x, -15)
  }

  @Test(arguments: representations)
  func setConstantToTheSameValueChangesNothing(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let c = x == 4
    try solver.addConstraint(c)
    let before = solver.counters
    try solver.setConstant(-4, of: c)
    #expect(solver.counters == before)
    solver.updateVariables()
    expectValue(solver, x, 4)
  }

  @Test(arguments: representations)
  func setConstantOfARemovedConstraintIsForgotten(_ representation: Solver.Representation) throws {
    // Re-adding an instance uses the constant it was created with.
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let c = x == 4
    try solver.addConstraint(c)
    try solver.setConstant(-9, of: c)
    try solver.removeConstraint(c)
    #expect(solver.constant(of: c) == nil)
    try solver.addConstraint(c)
    #expect(solver.constant(of: c) == -4)
    solver.updateVariables()
    expectValue(solver, x, 4)
  }

  /// Three boxes between 0 and a window edge, used to compare the fast path with remove +
  /// add. Returns the solver, its variables and the constraint whose constant is changed.
  static func threeBoxes(_ representation: Solver.Representation) throws -> (
    Solver, [Variable], Constraint
  ) {
    let solver = Solver(representation: representation)
    let width = solver.makeVariable("width")
    let a = solver.makeVariable("a")
    let b = solver.makeVariable("b")
    let c = solver.makeVariable("c")
    try solver.addConstraint(a >= 0)
    try solver.addConstraint(b >= a + 40)
    let gap = c >= b + 40
    try solver.addConstraint(gap)
    try solver.addConstraint(c + 40 <= width)
    try solver.addConstraint((width == 300) | .strong)
    try solver.addConstraint(width <= 100 + 2 * b)
    for v in [a, b, c] { try solver.addConstraint((v == 0) | .weak) }
    return (solver, [width, a, b, c], gap)
  }

  @Test(arguments: representations)
  func setConstantAgreesWithRemoveAndAdd(_ representation: Solver.Representation) throws {
    // The boxes want to be at 0 but b >= a + 40, c >= b + gap; the window wants 300 and needs
    // width <= 100 + 2b, so b >= 100. With gap 40: a = 0, b = 100, c = 140, width = 300.
    // With gap 200: width >= c + 40 >= b + 240 and width <= 100 + 2b give b >= 140 and
    // width >= 380; the strong preference is broken least at width = 380, b = 140, c = 340.
    let (fast, vars, gap) = try Self.threeBoxes(representation)
    fast.updateVariables()
    for (v, expected) in zip(vars, [300.0, 0, 100, 140]) { expectValue(fast, v, expected) }
    try fast.setConstant(-200, of: gap)

    let (slow, _, oldGap) = try Self.threeBoxes(representation)
    try slow.removeConstraint(oldGap)
    try slow.addConstraint(vars[3] >= vars[2] + 200)

    fast.updateVariables()
    slow.updateVariables()
    for (v, expected) in zip(vars, [380.0, 0, 140, 340]) {
      expectValue(fast, v, expected)
      expectValue(slow, v, expected)
    }
  }

  // MARK: - setStrength

  @Test(arguments: representations)
  func setStrengthBetweenWeakAndStrong(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let ten = (x == 10) | .weak
    try solver.addConstraint(ten)
    try solver.addConstraint((x == 20) | .medium)
    solver.updateVariables()
    expectValue(solver, x, 20)
    try solver.setStrength(.strong, of: ten)
    #expect(solver.strength(of: ten) == .strong)
    solver.updateVariables()
    expectValue(solver, x, 10)
    try solver.setStrength(.weak, of: ten)
    #expect(solver.strength(of: ten) == .weak)
    solver.updateVariables()
    expectValue(solver, x, 20)
  }

  @Test(arguments: representations)
  func setStrengthOfAnInequality(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let cap = (x <= 10) | .weak
    try solver.addConstraint(cap)
    try solver.addConstraint((x == 20) | .medium)
    solver.updateVariables()
    expectValue(solver, x, 20)
    try solver.setStrength(.strong, of: cap)
    solver.updateVariables()
    expectValue(solver, x, 10)
  }

  @Test(arguments: representations)
  func setStrengthToAndFromRequired(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let ten = (x == 10) | .weak
    try solver.addConstraint(ten)
    try solver.addConstraint((x == 20) | .strong)
    try solver.setStrength(.required, of: ten)
    #expect(solver.strength(of: ten) == .required)
    solver.updateVariables()
    expectValue(solver, x, 10)
    // Now required, it refuses a contradicting required constraint...
    #expect(throws: SolverError.self) { try solver.addConstraint(x >= 11) }
    // ...and back to medium the strong pull wins again.
    try solver.setStrength(.medium, of: ten)
    solver.updateVariables()
    expectValue(solver, x, 20)
    try solver.addConstraint(x >= 11)
  }

  @Test(arguments: representations)
  func setStrengthFromRequiredKeepsAChangedConstant(_ representation: Solver.Representation) throws
  {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let fix = x == 10
    try solver.addConstraint(fix)
    try solver.addConstraint((x == 0) | .medium)
    try solver.setConstant(-15, of: fix)
    try solver.setStrength(.strong, of: fix)
    #expect(solver.constant(of: fix) == -15)
    solver.updateVariables()
    expectValue(solver, x, 15)
  }

  @Test(arguments: representations)
  func setStrengthToTheSameValueChangesNothing(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let c = (x == 3) | .medium
    try solver.addConstraint(c)
    let before = solver.counters
    try solver.setStrength(.medium, of: c)
    #expect(solver.counters == before)
    #expect(solver.strength(of: c) == .medium)
  }

  @Test(arguments: representations)
  func constantAndStrengthOfUnknownConstraintsAreNil(_ representation: Solver.Representation) throws
  {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let c = (x >= 1) | .strong
    #expect(solver.constant(of: c) == nil)
    #expect(solver.strength(of: c) == nil)
    try solver.addConstraint(c)
    #expect(solver.constant(of: c) == -1)
    #expect(solver.strength(of: c) == .strong)
    try solver.removeConstraint(c)
    #expect(solver.constant(of: c) == nil)
    #expect(solver.strength(of: c) == nil)
  }
}

/// Repeated shifts of one marker go through a cached column; these pin down what that path
/// must keep doing: refusing a constant that breaks a redundant required equality, leaving
/// the solution as it was, and noticing when the tableau's structure changed under it.
extension SolverTests {
  @Test(arguments: representations)
  func repeatedRefusedConstantChangesLeaveTheSolutionAlone(
    _ representation: Solver.Representation
  ) throws {
    // b == a + 5 and b == 15 fix a at 10, so `a == 10` is redundant: its row is a dummy
    // that must stay zero. Moving its constant anywhere else must be refused, every time,
    // and the refusal's own shift back is a second shift of the same marker.
    let solver = Solver(representation: representation)
    let a = solver.makeVariable("a")
    let b = solver.makeVariable("b")
    let fix = a == 10
    try solver.addConstraint(fix)
    try solver.addConstraint(b == a + 5)
    try solver.addConstraint(b == 15)
    for attempt in [12.0, 13, -4, 11] {
      #expect(throws: SolverError.self, "a == \(attempt)") {
        try solver.setConstant(-attempt, of: fix)
      }
      #expect(solver.constant(of: fix) == -10)
      solver.updateVariables()
      expectValue(solver, a, 10)
      expectValue(solver, b, 15)
    }
    #expect(solver.counters.cachedShifts > 0)
  }

  /// A parent width w (a strong edit variable) and three children at half of it, each with a
  /// lower bound of 20.
  static func halfWidthChildren(_ solver: Solver) throws -> (w: Variable, children: [Variable]) {
    let w = solver.makeVariable("w")
    let children = (0..<3).map { solver.makeVariable("c\($0)") }
    try solver.addEditVariable(w, strength: .strong)
    for c in children {
      try solver.addConstraint((c == 0.5 * w) | .medium)
      try solver.addConstraint(c >= 20)
    }
    return (w, children)
  }

  @Test(arguments: representations)
  func repeatedSuggestionsFollowAStructureChange(_ representation: Solver.Representation)
    throws
  {
    // Runs of suggestions on w take the cached path; adding a constraint in between changes
    // the rows the cached column was computed from.
    let solver = Solver(representation: representation)
    let (w, children) = try Self.halfWidthChildren(solver)
    func expectChildren(_ expected: [Double]) {
      solver.updateVariables()
      for (c, e) in zip(children, expected) { expectValue(solver, c, e) }
    }
    for value in [100.0, 200, 300, 30] {
      try solver.suggestValue(w, value)
      expectChildren(Array(repeating: max(20, value / 2), count: 3))
    }
    let cachedBefore = solver.counters.cachedShifts
    #expect(cachedBefore > 0)
    // c1 now follows w entirely; the old column knew nothing of that.
    try solver.addConstraint(children[1] == w - 10)
    for value in [100.0, 140, 60] {
      try solver.suggestValue(w, value)
      expectChildren([max(20, value / 2), value - 10, max(20, value / 2)])
    }
    #expect(solver.counters.cachedShifts > cachedBefore)
  }

  @Test(arguments: representations)
  func cachedSuggestionsGoOnAfterARefusalRestoresTheState(
    _ representation: Solver.Representation
  ) throws {
    // A refused change of strength restores a copy of the whole solver, cached columns
    // included (their lists are shared with the copy, and read through buffers the column
    // holds). Suggestions after it take the cached path and move the values as a solver
    // that never saw the refusal does.
    func make() throws -> (Solver, Variable, [Variable], Constraint) {
      let solver = Solver(representation: representation)
      let (w, children) = try Self.halfWidthChildren(solver)
      let cap = (children[0] <= 10) | .weak
      try solver.addConstraint(cap)
      return (solver, w, children, cap)
    }
    let (solver, w, children, cap) = try make()
    let (fresh, freshW, freshChildren, _) = try make()
    for value in [100.0, 200, 300] {
      try solver.suggestValue(w, value)
      try fresh.suggestValue(freshW, value)
    }
    let cachedBefore = solver.counters.cachedShifts
    #expect(cachedBefore > 0)
    #expect(throws: SolverError.self) { try solver.setStrength(.required, of: cap) }
    for value in [120.0, 30, 260, 90] {
      try solver.suggestValue(w, value)
      try fresh.suggestValue(freshW, value)
      solver.updateVariables()
      fresh.updateVariables()
      expectValue(solver, w, fresh.value(of: freshW))
      for (c, f) in zip(children, freshChildren) { expectValue(solver, c, fresh.value(of: f)) }
    }
    #expect(solver.counters.cachedShifts > cachedBefore)
  }
}

/// `setConstants`: several constants at once, one re-optimisation.
extension SolverTests {
  /// A row of four boxes, each with a preferred width, laid end to end in a container.
  static func boxRow(_ solver: Solver) throws -> (boxes: [Variable], widths: [Constraint]) {
    let boxes = (0..<4).map { solver.makeVariable("b\($0)") }
    var widths: [Constraint] = []
    for b in boxes {
      let w = (b == 40) | .medium
      try solver.addConstraint(w)
      try solver.addConstraint(b >= 0)
      widths.append(w)
    }
    let total = boxes.dropFirst().reduce(Expression(boxes[0])) { $0 + $1 }
    try solver.addConstraint(total <= 200)
    return (boxes, widths)
  }

  @Test(arguments: representations)
  func aBatchOfConstantsEqualsTheSameChangesOneByOne(_ representation: Solver.Representation)
    throws
  {
    let batched = Solver(representation: representation)
    let one = Solver(representation: representation)
    let (a, aw) = try Self.boxRow(batched)
    let (b, bw) = try Self.boxRow(one)
    let targets: [Double] = [-70, -10, -90, -55]  // widths 70, 10, 90, 55: 225 > 200
    try batched.setConstants(Array(zip(aw, targets)))
    for (c, k) in zip(bw, targets) { try one.setConstant(k, of: c) }
    batched.updateVariables()
    one.updateVariables()
    for (x, y) in zip(a, b) { #expect(abs(batched.value(of: x) - one.value(of: y)) < 1e-9) }
    let sum = a.reduce(0) { $0 + batched.value(of: $1) }
    #expect(abs(sum - 200) < 1e-9)
    for (c, k) in zip(aw, targets) { #expect(batched.constant(of: c) == k) }
    // Later changes of the same constraint win.
    try batched.setConstants([(aw[0], -30), (aw[0], -20)])
    batched.updateVariables()
    #expect(batched.constant(of: aw[0]) == -20)
  }

  @Test(arguments: representations)
  func aRefusedBatchRestoresEveryConstant(_ representation: Solver.Representation) throws {
    // x == 10 is implied by y == x + 5 and y == 15: moving it (with anything else in the
    // same batch) must be refused, and nothing of the batch may stay.
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    let z = solver.makeVariable("z")
    let fix = x == 10
    let pull = (z == 3) | .weak
    try solver.addConstraint(fix)
    try solver.addConstraint(y == x + 5)
    try solver.addConstraint(y == 15)
    try solver.addConstraint(pull)
    do {
      try solver.setConstants([(pull, -7), (fix, -12)])
      Issue.record("the batch should have been refused")
    } catch {
      guard case .unsatisfiableConstraint(let c) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(c === fix, "the error names the required constraint of the batch")
    }
    #expect(solver.constant(of: fix) == -10 && solver.constant(of: pull) == -3)
    solver.updateVariables()
    expectValue(solver, x, 10)
    expectValue(solver, z, 3)
  }

  @Test(arguments: representations)
  func aBatchIsCheckedBeforeAnythingChanges(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let (_, widths) = try Self.boxRow(solver)
    let stranger = solver.makeVariable("s") == 1
    #expect(throws: SolverError.self) { try solver.setConstants([(widths[0], -5), (stranger, 0)]) }
    #expect(throws: SolverError.self) {
      try solver.setConstants([(widths[1], -5), (widths[2], .infinity)])
    }
    #expect(solver.constant(of: widths[0]) == -40 && solver.constant(of: widths[1]) == -40)
  }
}

extension SolverTests {
  @Test(arguments: representations)
  func aBatchMayMoveARedundantPairTogether(_ representation: Solver.Representation) throws {
    // The second `x == 10` is implied by the first: neither can move alone, both together
    // can. Halfway through the batch the pair disagrees; only the end state counts.
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let first = x == 10
    let second = x == 10
    try solver.addConstraint(first)
    try solver.addConstraint(second)
    #expect(throws: SolverError.self) { try solver.setConstant(-20, of: first) }
    try solver.setConstants([(first, -20), (second, -20)])
    solver.updateVariables()
    expectValue(solver, x, 20)
    #expect(solver.constant(of: first) == -20 && solver.constant(of: second) == -20)
  }

  @Test(arguments: representations)
  func constantsAtTheLimitShiftAndBeyondItAreRefused(
    _ representation: Solver.Representation
  ) throws {
    // From the most negative constant the limits allow to the most positive.
    let huge = Limits.largestConstant
    let tolerance = 1e-9 * huge
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    let pull = (x == huge) | .weak
    try solver.addConstraint(pull)
    try solver.addConstraint(y == 0.5 * x)
    try solver.setConstant(huge, of: pull)
    solver.updateVariables()
    expectValue(solver, x, -huge, tolerance: tolerance)
    try solver.setConstants([(pull, -huge)])
    solver.updateVariables()
    expectValue(solver, x, huge, tolerance: tolerance)
    expectValue(solver, y, huge / 2, tolerance: tolerance)
    // Past the limit, every way in is refused with the number named, and nothing changes.
    let beyond = 1.7e308
    #expect(throws: SolverError.valueOutOfRange(beyond)) {
      try solver.setConstant(beyond, of: pull)
    }
    #expect(throws: SolverError.valueOutOfRange(-beyond)) {
      try solver.setConstants([(pull, 1), (pull, -beyond)])
    }
    let far = (x == beyond) | .weak
    #expect(throws: SolverError.constantOutOfRange(far, -beyond)) { try solver.addConstraint(far) }
    let steep = y == 1e13 * x
    #expect(throws: SolverError.coefficientOutOfRange(steep, -1e13)) {
      try solver.addConstraint(steep)
    }
    let flat = y == 1e-13 * x
    #expect(throws: SolverError.coefficientOutOfRange(flat, -1e-13)) {
      try solver.addConstraint(flat)
    }
    #expect(solver.constant(of: pull) == -huge)
    #expect(!solver.hasConstraint(far) && !solver.hasConstraint(steep))
    solver.updateVariables()
    expectValue(solver, x, huge, tolerance: tolerance)
  }
}
