@testable import Cassowary
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

  @Test func theThresholdIsRoundOffAndNonFiniteValuesAlwaysMove() {
    // 1e-12 plus 1e-14 of the reading: 2e-12 at 100, 1e-12 at 0.
    #expect(Tolerance.sameReading(100, 100 + 1.9e-12))
    #expect(!Tolerance.sameReading(100, 100 + 2.1e-12))
    #expect(Tolerance.sameReading(-100, -100 - 1.9e-12))
    #expect(!Tolerance.sameReading(-100, -100 - 2.1e-12))
    #expect(Tolerance.sameReading(0, 0.9e-12) && Tolerance.sameReading(0, -0.9e-12))
    #expect(!Tolerance.sameReading(0, 1.1e-12))
    #expect(Tolerance.sameReading(1e9, 1e9 + 1e-5 * 0.99))
    #expect(!Tolerance.sameReading(1e9, 1e9 + 1e-5 * 1.01))
    // A reading or a value that is not finite is always a move, so an infinite reading
    // cannot hold every later value.
    for (old, new) in [
      (Double.infinity, 5.0), (-.infinity, 5), (.infinity, .infinity), (.infinity, -.infinity),
      (5, .infinity), (5, .nan), (.nan, 5), (.nan, .nan),
    ] {
      #expect(!Tolerance.sameReading(old, new), "\(old) -> \(new)")
    }
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
    // threshold of it. Twenty variables follow the edited one, a column long enough that
    // suggestions shift it in the read-out (`ShiftCache.deferredExternals`).
    let followers = 20
    #expect(followers >= ShiftCache.deferredExternals)
    let plain = Solver(representation: representation)
    let reporting = Solver(representation: representation)
    var edited: [Variable] = []
    var others: [[Variable]] = []
    for solver in [plain, reporting] {
      let x = solver.makeVariable("x")
      try solver.addEditVariable(x, strength: .strong)
      var ws: [Variable] = []
      for i in 0..<followers {
        let w = solver.makeVariable("w\(i)")
        try solver.addConstraint(w == 3 * x - 7 + Double(i) / 3)
        ws.append(w)
      }
      edited.append(x)
      others.append(ws)
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
      for (solver, x) in zip([plain, reporting], edited) { try solver.suggestValue(x, value) }
      plain.updateVariables()
      _ = Self.movedNames(reporting)
      #expect(plain.value(of: edited[0]) == value, "step \(step)")
      let pairs = [(edited[0], edited[1])] + Array(zip(others[0], others[1]))
      var settled = reporting.tableau
      settled.settleShifts()
      for (a, b) in pairs {
        let exact = plain.value(of: a)
        let reading = reporting.value(of: b)
        #expect(abs(exact - reading) <= Self.threshold(reading), "step \(step)")
        if exact != reading { held += 1 }
        // The hold is the reading's: the reporting solver's own value, once the shift its
        // read-out left owed is settled, is the plain one's, bit for bit (a held reading
        // does not stop the shift from reaching the tableau).
        let symbol = reporting.variableSymbols[Int(b.index)]
        #expect(settled.values[symbol.index] == exact, "step \(step)")
      }
    }
    // The steps of a few ulps were held by the reporting read-out only.
    #expect(held > 1000, "\(held) readings held")
  }
}
