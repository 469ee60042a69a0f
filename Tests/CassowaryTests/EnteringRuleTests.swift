import BenchSupport
@testable import Cassowary
import Testing

/// The entering symbol of a primal pivot (`Objective.enteringSymbol(lowest:)`): the most
/// negative coefficient while the candidates are few, the lowest symbol otherwise or when
/// asked.
@Suite struct EnteringRuleTests {
  @Test func theSteepestCoefficientEntersTheLowestAmongEquals() {
    var objective = Objective()
    let a = Symbol(.error, index: 3)
    let b = Symbol(.error, index: 5)
    let c = Symbol(.error, index: 7)
    objective.add(a, -1)
    objective.add(c, -1000)
    objective.add(b, -1000)
    #expect(objective.enteringSymbol() == b)
    #expect(objective.enteringSymbol(lowest: true) == a)
    // `b` turns positive; its heap entry stays, stale, and must not be taken.
    objective.add(b, 2000)
    #expect(objective.enteringSymbol() == c)
    objective.add(c, 1000)
    #expect(objective.enteringSymbol() == a)
    objective.add(a, 1)
    #expect(objective.enteringSymbol() == .invalid)
  }

  /// A dummy never enters, however negative.
  @Test func aDummyNeverEnters() {
    var objective = Objective()
    objective.add(Symbol(.dummy, index: 1), -1e6)
    objective.add(Symbol(.slack, index: 9), -1)
    #expect(objective.enteringSymbol() == Symbol(.slack, index: 9))
  }

  /// Past `dantzigCandidates` heap entries the pass is not made: the lowest symbol enters,
  /// as a removal that turns thousands of errors negative would otherwise scan them all at
  /// every pivot.
  @Test func manyCandidatesTakeTheLowest() {
    var objective = Objective()
    let n = Objective.dantzigCandidates + 1
    for i in 0..<n { objective.add(Symbol(.error, index: i), i == n - 1 ? -10 : -1) }
    #expect(objective.enteringSymbol() == Symbol(.error, index: 0))
    // The lowest ones leave (their entries go stale and come off the top): few enough now.
    for i in 0..<(n / 2) { objective.add(Symbol(.error, index: i), 1) }
    #expect(objective.enteringSymbol() == Symbol(.error, index: n - 1))
  }

  /// Both rules reach the optimum: the same weighted error (the objective's value) on
  /// random rows of boxes with preferred widths of three strengths that cannot all hold.
  /// (The values may differ where the optimum is tied.) Over the systems the steepest
  /// symbol takes fewer pivots, which Dantzig's rule does not promise for each one.
  @Test func bothRulesReachTheOptimum() throws {
    var totals = [0, 0]
    var differing = 0
    for seed in 0..<40 {
      var objectives: [Double] = []
      var pivots: [Int] = []
      for steepest in [true, false] {
        var rng = SplitMix64(seed: UInt64(seed))
        let solver = Solver()
        solver.tableau.steepestEntering = steepest
        let width = solver.makeVariable("W")
        try solver.addEditVariable(width, strength: .strong)
        try solver.suggestValue(width, 300 + Double(rng.next() % 400))
        var boxes: [Variable] = []
        var left = Expression(constant: 0)
        for i in 0..<(3 + Int(rng.next() % 12)) {
          let w = solver.makeVariable("w\(i)")
          try solver.addConstraint(w >= Double(rng.next() % 20))
          let strengths: [Strength] = [.weak, .medium, .strong]
          let preferred = Double(20 + rng.next() % 120)
          try solver.addConstraint((w == preferred) | strengths[Int(rng.next() % 3)])
          if i > 0, rng.next() % 3 == 0 {
            try solver.addConstraint((w == boxes[i - 1]) | .medium)
          }
          left = left + w
          boxes.append(w)
        }
        try solver.addConstraint(left <= width)
        try solver.addConstraint((left == width) | .weak)
        solver.updateVariables()
        objectives.append(solver.tableau.objective.constant)
        pivots.append(solver.counters.pivots)
      }
      let (a, b) = (objectives[0], objectives[1])
      #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), "seed \(seed): \(a) against \(b)")
      totals[0] += pivots[0]
      totals[1] += pivots[1]
      if pivots[0] != pivots[1] { differing += 1 }
    }
    // The rules part ways on these systems, and the steepest takes fewer pivots overall.
    #expect(differing > 0)
    #expect(totals[0] < totals[1])
  }
}
