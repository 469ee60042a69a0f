import BenchSupport
@testable import Cassowary
import Testing

/// The check's bit per symbol (`Audit.listed`, whether its variable has a checked
/// constraint) under random operations over every path that writes the checked lists (add,
/// remove, expose, strength changes through erase and insert, refusals restoring the saved
/// state, forced rebuilds, reset, variables made late), every check run through the loop
/// that requests its lines ahead (threshold 0), and knocked rows that must be caught.
@Suite struct ListedBitsTests {
  @Test(
    arguments: [Solver.Representation.adaptive, .lazy, .canonical],
    [UInt64(1), 2, 3, 4])
  func bitsStayExactAndKnockedRowsAreCaught(
    _ representation: Solver.Representation, seed: UInt64
  ) throws {
    let solver = Solver(representation: representation)
    solver.prefetchThreshold = (values: 0, symbols: 0)
    var rng = SplitMix64(seed: seed)
    func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
    let root = solver.makeVariable("root")
    try solver.addEditVariable(root, strength: .strong)
    try solver.suggestValue(root, 1000)
    var vars = [root]
    var present: [Constraint] = []
    var removed: [Constraint] = []
    var knocks = 0
    var caught = 0
    var refusals = 0
    var resets = 0
    func grow() throws {
      let w = solver.makeVariable()
      let parent = pick(vars)
      let list = [
        w <= parent - 8, w >= 0, (w == Double(rng.next() % 900)) | .weak,
      ]
      // Below a variable pinned under zero (step 7), `w >= 0` conflicts: refused.
      for c in list {
        do {
          try solver.addConstraint(c)
          present.append(c)
        } catch { refusals += 1 }
      }
      vars.append(w)
    }
    for _ in 0..<5 { try grow() }
    for step in 0..<500 {
      let op = rng.next() % 13
      switch op {
      case 0, 1:
        try grow()
      case 2:
        try solver.suggestValue(root, Double(200 + rng.next() % 900))
      case 3:
        if !present.isEmpty {
          let i = Int(rng.next() % UInt64(present.count))
          let c = present.remove(at: i)
          try solver.removeConstraint(c)
          removed.append(c)
        }
      case 4:
        if let c = removed.popLast() {
          do {
            try solver.addConstraint(c)
            present.append(c)
          } catch { refusals += 1 }
        }
      case 5:
        if !present.isEmpty {
          let c = pick(present)
          do { try solver.setConstant(-Double(rng.next() % 50), of: c) } catch { refusals += 1 }
        }
      case 6:
        if !present.isEmpty {
          let c = pick(present)
          let s: Strength = solver.strength(of: c)!.isRequired ? .strong : .required
          do { try solver.setStrength(s, of: c) } catch { refusals += 1 }
        }
      case 7:
        // A required constraint that conflicts: refused after rebuilds, state restored.
        if vars.count > 1 {
          let w = vars[1 + Int(rng.next() % UInt64(vars.count - 1))]
          do {
            let c = w <= -5
            try solver.addConstraint(c)
            present.append(c)
          } catch { refusals += 1 }
        }
      case 8:
        solver.tableau.damaged = true
        try solver.suggestValue(root, Double(200 + rng.next() % 900))
      case 9, 10:
        // Knock a basic variable's row off, then read out: every required constraint must
        // hold at the values handed out.
        solver.updateVariables()
        let basic = vars.map { solver.variableSymbols[Int($0.index)] }.filter {
          solver.tableau.isBasic($0)
        }
        if !basic.isEmpty {
          let rebuilds = solver.counters.rebuilds
          RecoveryTests.knockOff(solver, pick(basic))
          knocks += 1
          if op == 10 { try solver.suggestValue(root, Double(200 + rng.next() % 900)) }
          solver.updateVariables()
          if solver.counters.rebuilds > rebuilds { caught += 1 }
          #expect(
            solver.requiredConstraintsHold(), "seed \(seed) step \(step): knocked row unnoticed")
        }
      case 11:
        solver.updateVariables()
      default:
        if rng.next() % 6 == 0 {
          solver.reset()
          resets += 1
          try solver.addEditVariable(root, strength: .strong)
          try solver.suggestValue(root, 1000)
          present = []
          removed = []
          // Re-constrain the old variables (symbols renumbered by the reset).
          for w in vars.dropFirst() {
            let c = w <= root - 8
            try solver.addConstraint(c)
            present.append(c)
          }
        } else {
          solver.updateVariables()
        }
      }
      let problem = solver.listedProblem() ?? solver.ownRowProblem()
      #expect(problem == nil, "seed \(seed) step \(step) op \(op): \(problem ?? "")")
      if problem != nil { break }
    }
    solver.updateVariables()
    #expect(solver.requiredConstraintsHold())
    // The operations reached what they were drawn for.
    #expect(
      knocks > 0 && caught > 0 && refusals > 0 && resets > 0,
      "\(knocks) \(caught) \(refusals) \(resets)")
  }

  /// With the bits cleared by hand (what a missed `setListed` would leave), a knocked row
  /// goes uncaught: the test above can see the failure it looks for.
  @Test func aClearedBitHidesAKnockedRow() throws {
    let solver = Solver(representation: .lazy)
    let (root, widths, _) = try RecoveryTests.nestedBoxes(solver, count: 20)
    try solver.suggestValue(root, 100)
    solver.updateVariables()
    let symbol = try #require(
      widths.dropFirst().map { solver.variableSymbols[Int($0.index)] }.first {
        solver.tableau.isBasic($0)
      })
    let rebuilds = solver.counters.rebuilds
    // Clear every bit.
    for i in solver.audit.listed.indices { solver.audit.listed[i] = 0 }
    #expect(solver.listedProblem() != nil)
    RecoveryTests.knockOff(solver, symbol)
    solver.updateVariables()
    #expect(solver.counters.rebuilds == rebuilds)  // not caught
    #expect(!solver.requiredConstraintsHold())  // and the values break a constraint
  }
}
