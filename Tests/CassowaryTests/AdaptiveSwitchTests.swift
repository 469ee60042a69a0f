import Testing

@testable import Cassowary

/// When the adaptive representation turns lazy (`Solver.insert`).
struct AdaptiveSwitchTests {
  @Test func onlyWhatInsertionsRewriteCountsTowardTheLazyTurn() throws {
    // A row of boxes, each preferring a width of 50 weakly, ending at an edited width: the
    // suggestions, which alternate around the natural width, pivot in the canonical tableau
    // and rewrite rows. Those rewrites say how often values move, not how the constraints
    // tie the variables together: only the insertions' rewrites count toward the turn
    // (`Tableau.insertRewrites`).
    let solver = Solver()
    let width = solver.makeVariable()
    try solver.addEditVariable(width, strength: .strong)
    let n = 4
    try solver.suggestValue(width, 58 * Double(n) + 8)
    var x: [Variable] = []
    var w: [Variable] = []
    for i in 0..<n {
      x.append(solver.makeVariable())
      w.append(solver.makeVariable())
      try solver.addConstraint(i == 0 ? x[0] == 8 : x[i] == x[i - 1] + w[i - 1] + 8)
      try solver.addConstraint(x[i] >= 0)
      try solver.addConstraint(w[i] >= 10)
      try solver.addConstraint((w[i] == 50) | .weak)
    }
    try solver.addConstraint(x[n - 1] + w[n - 1] + 8 == width)
    solver.updateVariables()
    #expect(!solver.isLazy)
    let inserted = solver.tableau.insertRewrites
    let rewritten = solver.tableau.substitutedRows
    let offsets: [Double] = [120, -60, 300, -25, 10, -140]
    for t in 0..<60 {
      try solver.suggestValue(width, 58 * Double(n) + 8 + offsets[t % 6])
      solver.updateVariables()
    }
    #expect(solver.tableau.substitutedRows > rewritten + 60)
    #expect(solver.tableau.insertRewrites == inserted)
    try solver.addConstraint(solver.makeVariable() == 5)
    #expect(!solver.isLazy)
  }
}
