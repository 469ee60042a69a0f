@testable import Cassowary
import SolverBench
import Testing

/// Primal pivots take the steepest entering symbol (`Objective.enteringSymbol(lowest:)`).
@Suite struct EnamlEnteringRuleTests {
  /// kiwi's enaml system, added a constraint at a time as kiwi's benchmark adds it, builds
  /// in fewer pivots than with the lowest symbol (kiwi's rule), to the same values, and its
  /// ticks move them alike.
  @Test(arguments: [Solver.Representation.adaptive, .lazy, .canonical])
  func theSteepestSymbolBuildsEnamlInFewerPivots(_ representation: Solver.Representation) throws {
    func build(steepest: Bool) throws -> (pivots: Int, values: [[Double]]) {
      let s = Solver(representation: representation)
      s.tableau.steepestEntering = steepest
      let variables = SolverWorkload.addEnaml(to: s)
      s.updateVariables()
      let pivots = s.counters.pivots
      var values = [variables.map { s.value(of: $0) }]
      let width = variables[SolverWorkload.enamlSystem.position(of: "width")]
      let height = variables[SolverWorkload.enamlSystem.position(of: "height")]
      for (w, h) in [(640.0, 480.0), (1920, 1080), (300, 900)] {
        try s.suggestValue(width, w)
        try s.suggestValue(height, h)
        s.updateVariables()
        values.append(variables.map { s.value(of: $0) })
      }
      return (pivots, values)
    }
    let steepest = try build(steepest: true)
    let lowest = try build(steepest: false)
    #expect(steepest.pivots < lowest.pivots)
    for (a, b) in zip(steepest.values, lowest.values) {
      for (x, y) in zip(a, b) { #expect(abs(x - y) <= 1e-9 * max(1, abs(y))) }
    }
  }
}
