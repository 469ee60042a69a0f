@testable import Cassowary
import Testing

/// The loops over many changed values (the read-out and the check of required
/// constraints) take another path in a large tableau from `Solver.prefetchThreshold`
/// values on: they request the lines of values ahead. Here the threshold is lowered to
/// `threshold` values in a tableau of any size. A list of boxes, each below the one before
/// it, moves every box when the first one moves: above and below that count, the read-out
/// must report exactly the boxes that moved, and the check must catch drift wherever it is
/// in the list.
@Suite struct LongListTests {
  /// `count` boxes of height 10, each 2 below the one above it; the first one's top is an
  /// edit variable (strong), suggested at 0.
  static func list(
    _ solver: Solver, count: Int
  ) throws -> (top: Variable, tops: [Variable], heights: [Variable]) {
    solver.prefetchThreshold = (values: threshold, symbols: 0)
    let top = solver.makeVariable("top")
    try solver.addEditVariable(top, strength: .strong)
    try solver.suggestValue(top, 0)
    var tops = [top]
    var heights: [Variable] = []
    for i in 0..<count {
      let height = solver.makeVariable("h\(i)")
      try solver.addConstraint(height == 10)
      heights.append(height)
      if i + 1 < count {
        let next = solver.makeVariable("y\(i + 1)")
        try solver.addConstraint(next == tops[i] + height + 2)
        tops.append(next)
      }
    }
    solver.updateVariables()
    return (top, tops, heights)
  }

  static let threshold = 256
  static let sizes = [40, threshold - 1, threshold + 100]

  @Test(arguments: sizes, [Solver.Representation.lazy, .canonical])
  func theReadOutReportsExactlyTheVariablesThatMoved(
    count: Int, representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let (top, tops, heights) = try Self.list(solver, count: count)
    let all = tops + heights
    for (step, value) in [37.5, 37.5, -12.0, 0.0].enumerated() {
      let before = all.map { solver.value(of: $0) }
      try solver.suggestValue(top, value)
      var reported: [Int] = []
      solver.updateVariables(collectingMoved: { reported.append(contentsOf: $0.map(Int.init)) })
      let moved = Set(
        zip(all, before).filter { solver.value(of: $0) != $1 }.map { Int($0.0.index) })
      #expect(reported.count == Set(reported).count, "step \(step): a variable reported twice")
      #expect(Set(reported) == moved, "step \(step)")
      // Every box moved with the first (none when the suggestion repeated the value).
      #expect(moved.count == (step == 1 ? 0 : count), "step \(step)")
      for (i, y) in tops.enumerated() {
        let expected = value + 12 * Double(i)
        #expect(abs(solver.value(of: y) - expected) < 1e-9, "step \(step), box \(i)")
      }
    }
  }

  /// The public read-out, which reports each moved variable with its value, says the same
  /// as the package one, which hands over the list of them. (The first wraps the second:
  /// this covers the wrapper, the test above the list.)
  @Test(arguments: [threshold - 1, threshold + 100])
  func bothReadOutsReportTheSameVariables(count: Int) throws {
    let collecting = Solver(representation: .lazy)
    let direct = Solver(representation: .lazy)
    let (topA, _, _) = try Self.list(collecting, count: count)
    let (topB, _, _) = try Self.list(direct, count: count)
    for value in [5.0, 5.0, 300.0] {
      try collecting.suggestValue(topA, value)
      try direct.suggestValue(topB, value)
      var a: [Int32: Double] = [:]
      collecting.updateVariables { a[$0.index] = $1 }
      // The package read-out hands over the list once; the solver may be read in it.
      var b: [Int32: Double] = [:]
      var lists = 0
      direct.updateVariables(collectingMoved: { moved in
        lists += 1
        for index in moved { b[index] = direct.value(of: Variable(index: index)) }
      })
      #expect(lists == 1)
      #expect(a == b)
    }
  }

  /// Drift in the row of a box far down a long list of unchecked values (as a pivot on a
  /// round-off element would leave) is caught at the end of the next operation, and the
  /// rebuilt solver has the right values. The box is 90% down the list, or third from its
  /// end (where the loop no longer requests lines ahead). `afterACheck`: the values were
  /// checked once and moved again, so the check reads them from its second list
  /// (`rechangedExternals`).
  @Test(arguments: [threshold - 1, threshold, 2_000], [false, true])
  func driftFarDownALongListIsCaught(count: Int, afterACheck: Bool) throws {
    for nearEnd in [false, true] {
      let solver = Solver(representation: .lazy)
      let (top, tops, _) = try Self.list(solver, count: count)
      if afterACheck {
        // Moves every box, then adds a constraint: the check at the end of that operation
        // reads every moved value and marks it checked.
        try solver.suggestValue(top, 20)
        try solver.addConstraint(solver.makeVariable("other") == 5)
        #expect(solver.tableau.checkedPrefix == solver.tableau.changedExternals.count)
      }
      // Moves every box through rows the last check saw: no check runs, every value stays
      // listed as unchecked, in the first list or (checked before) the second.
      try solver.suggestValue(top, 50)
      let unchecked =
        afterACheck
        ? solver.tableau.rechangedExternals
        : Array(solver.tableau.changedExternals[solver.tableau.checkedPrefix...])
      #expect(unchecked.count == count, "one listed value per box, no other")
      let rebuilds = solver.counters.rebuilds
      let box = nearEnd ? count - 3 : count * 9 / 10
      let symbol = solver.variableSymbols[Int(tops[box].index)]
      try #require(solver.tableau.isBasic(symbol))
      #expect(unchecked.firstIndex(of: symbol) == box, "the box's place in the list")
      RecoveryTests.knockOff(solver, symbol)
      try solver.suggestValue(top, 50)  // the same value: the operation only ends
      #expect(solver.counters.rebuilds == rebuilds + 1, "caught before the read-out")
      solver.updateVariables()
      for (i, y) in tops.enumerated() {
        #expect(abs(solver.value(of: y) - (50 + 12 * Double(i))) < 1e-9, "box \(i)")
      }
    }
  }
}
