@testable import Cassowary
import Testing

/// The column index (`Tableau.columns`): each symbol's list of the rows that name it, which
/// may hold stale slots until compacted. Steady-state ticks must not grow it.
@Suite struct ColumnListTests {
  /// A stack of boxes whose widths prefer 50 (weak) and are at least 10, in a container
  /// whose width is edited: shrinking it below the preferred total pushes widths onto their
  /// floors, widening it frees them, so the same slacks and errors pivot in and out of the
  /// same rows on every round trip, each adding a stale slot to a list.
  @Test(arguments: [Solver.Representation.adaptive, .lazy, .canonical])
  func columnListsStopGrowingWhenTheSamePivotsRepeat(
    representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let width = solver.makeVariable("W")
    try solver.addEditVariable(width, strength: .strong)
    var previousEnd: Expression = Expression(constant: 0)
    var widths: [Variable] = []
    for i in 0..<12 {
      let x = solver.makeVariable("x\(i)")
      let w = solver.makeVariable("w\(i)")
      try solver.addConstraint(Expression(x) == previousEnd + 4)
      try solver.addConstraint(Expression(w) >= 10)
      try solver.addConstraint((Expression(w) == 50) | .weak)
      previousEnd = Expression(x) + Expression(w)
      widths.append(w)
    }
    try solver.addConstraint(previousEnd + 4 == Expression(width))
    func capacity() -> Int { solver.tableau.columns.reduce(0) { $0 + $1.capacity } }
    func roundTrip() throws {
      try solver.suggestValue(width, 400)
      solver.updateVariables()
      try solver.suggestValue(width, 1_700)
      solver.updateVariables()
    }
    // The lazy tableau settles into its cycle of row forms in its third round trip; a
    // column list may then hold stale slots up to twice its rows plus 16 before it is
    // compacted (`Tableau.noteAdded`), so lists reach their largest size within a few
    // dozen more.
    for _ in 0..<60 { try roundTrip() }
    let settled = capacity()
    let pivots = solver.counters.pivots
    for _ in 0..<200 { try roundTrip() }
    #expect(solver.counters.pivots - pivots >= 400, "the round trips should pivot")
    #expect(capacity() == settled, "\(representation): column lists grew in repeated pivots")
    // And the values are right: 1,700 leaves every width at its preference or above.
    #expect(widths.allSatisfy { solver.value(of: $0) >= 50 - 1e-9 })
  }
}
