import Cassowary
import Testing

/// A read-out keeps a variable's value when the new one is within round-off of it
/// (`Solver.value(of:)`): rows rewritten by pivots sum the same value to an ulp or two
/// apart, and a client must not see that as a move.
@Suite struct ReadOutRoundOffTests {
  /// The largest distance a reading may lag its value by, as `value(of:)` states it.
  static func threshold(_ reading: Double) -> Double { 1.0e-12 + 1.0e-14 * abs(reading) }

  /// Reads out with the reporting call, returning the names of the moved variables.
  static func movedNames(_ solver: Solver) -> [String] {
    var names: [String] = []
    solver.updateVariables { variable, _ in names.append(solver.name(of: variable)) }
    return names.sorted()
  }

  @Test(arguments: representations)
  func anUlpKeepsTheReadingAndAMillionthOfAMillionthDoesNot(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let y = solver.makeVariable("y")
    try solver.addEditVariable(x, strength: .strong)
    try solver.addConstraint(y == x + 10)
    try solver.suggestValue(x, 100)
    #expect(Self.movedNames(solver) == ["x", "y"])
    #expect(solver.value(of: x) == 100)
    // One ulp up: the solution moved by 1.4e-14, which is round-off.
    try solver.suggestValue(x, (100.0).nextUp)
    #expect(Self.movedNames(solver) == [])
    #expect(solver.value(of: x) == 100)
    #expect(solver.value(of: y) == 110)
    // Ten ulps down from there, past 100: still within 2e-12.
    var down = (100.0).nextUp
    for _ in 0..<10 { down = down.nextDown }
    try solver.suggestValue(x, down)
    #expect(Self.movedNames(solver) == [])
    #expect(solver.value(of: x) == 100)
    // 1e-11 is beyond it: both move, to the new solution.
    try solver.suggestValue(x, 100 + 1.0e-11)
    #expect(Self.movedNames(solver) == ["x", "y"])
    #expect(solver.value(of: x) == 100 + 1.0e-11)
    #expect(abs(solver.value(of: y) - (110 + 1.0e-11)) <= Self.threshold(solver.value(of: y)))
  }

  @Test(arguments: representations)
  func aReadingLagsItsValueByAtMostTheThreshold(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    try solver.addEditVariable(x, strength: .strong)
    var truth = 100.0
    try solver.suggestValue(x, truth)
    solver.updateVariables()
    // 300 steps of 3 ulps (4.3e-14 each, 1.3e-11 in all), each under the threshold of 2e-12.
    var moves = 0
    for step in 0..<300 {
      truth = truth.nextUp.nextUp.nextUp
      try solver.suggestValue(x, truth)
      let before = solver.value(of: x)
      let moved = Self.movedNames(solver)
      let reading = solver.value(of: x)
      #expect(
        abs(reading - truth) <= Self.threshold(reading), "step \(step): \(reading) for \(truth)")
      if moved.isEmpty {
        #expect(reading == before, "step \(step)")
      } else {
        moves += 1
        #expect(reading == truth, "step \(step): a move reads the value itself")
      }
    }
    // About one move per 47 steps: the reading follows, a threshold behind at most.
    #expect(moves >= 4 && moves <= 10, "\(moves) moves")
    #expect(abs(solver.value(of: x) - truth) <= Self.threshold(solver.value(of: x)))
  }

  @Test(arguments: representations)
  func thePlainReadOutCopiesValuesAsComputed(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    try solver.addEditVariable(x, strength: .strong)
    try solver.suggestValue(x, 100)
    solver.updateVariables()
    #expect(solver.value(of: x) == 100)
    // One ulp up is read as it is by `updateVariables()`.
    try solver.suggestValue(x, (100.0).nextUp)
    solver.updateVariables()
    #expect(solver.value(of: x) == (100.0).nextUp)
    // A reporting read-out compares with that reading: back down one ulp is no move.
    try solver.suggestValue(x, 100)
    #expect(Self.movedNames(solver) == [])
    #expect(solver.value(of: x) == (100.0).nextUp)
  }

  @Test(arguments: representations)
  func bothReadOutsStayWithinRoundOffOfEachOther(_ representation: Solver.Representation) throws {
    // One solver read with `updateVariables()`, one with the reporting call, through the
    // same suggestions: the first reads the solution as computed, the second within the
    // threshold of it.
    let plain = Solver(representation: representation)
    let reporting = Solver(representation: representation)
    var pairs: [(Solver, Variable, Variable)] = []
    for solver in [plain, reporting] {
      let x = solver.makeVariable("x")
      let w = solver.makeVariable("w")
      try solver.addEditVariable(x, strength: .strong)
      try solver.addConstraint(w == 3 * x - 7)
      pairs.append((solver, x, w))
    }
    var value = 50.0
    var held = 0
    for step in 0..<200 {
      // Mostly a few ulps, every fifth step a real move.
      if step % 5 == 0 {
        value += Double(step % 7) - 3.5
      } else {
        for _ in 0...(step % 4) { value = value.nextUp }
      }
      for (solver, x, _) in pairs { try solver.suggestValue(x, value) }
      plain.updateVariables()
      _ = Self.movedNames(reporting)
      let (a, ax, aw) = pairs[0]
      let (b, bx, bw) = pairs[1]
      #expect(a.value(of: ax) == value, "step \(step)")
      for (exact, reading) in [
        (a.value(of: ax), b.value(of: bx)), (a.value(of: aw), b.value(of: bw)),
      ] {
        #expect(abs(exact - reading) <= Self.threshold(reading), "step \(step)")
        if exact != reading { held += 1 }
      }
    }
    // The steps of a few ulps were held by the reporting read-out only.
    #expect(held > 100, "\(held) readings held")
  }
}
