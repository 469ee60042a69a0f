@testable import Cassowary
import Testing

/// The row the dual simplex makes feasible next (`Tableau.nextInfeasible()`): the most
/// negative while few are queued, the last one queued otherwise.
@Suite struct DualLeavingRuleTests {
  /// A tableau whose basic slacks have the given values (rows `basic = value + p` over
  /// parametric slacks `p` at zero), with none queued yet.
  func tableau(values: [Double]) -> (Tableau, [Symbol]) {
    var t = Tableau(lazy: true)
    var basics: [Symbol] = []
    for v in values {
      let basic = t.newSymbol(.slack)
      let p = t.newSymbol(.slack)
      var row = Row(constant: v)
      row.insert(p, 1)
      t.addRow(row, basic: basic)
      basics.append(basic)
    }
    t.updateValues()
    t.infeasible.removeAll()
    return (t, basics)
  }

  @Test func theMostNegativeRowComesFirstTheLowestAmongEquals() {
    var (t, b) = tableau(values: [-3, -7, -1, 2, -7, -0.5, -9])
    // Queued in any order, with a row that is not negative, one queued twice and one whose
    // row has left the tableau (its symbol is parametric now).
    _ = t.removeRow(of: b[6])
    t.infeasible = [b[0], b[3], b[6], b[4], b[2], b[1], b[5], b[0]]
    var order: [Symbol] = []
    while let s = t.nextInfeasible() {
      order.append(s)
      // As a pivot would: the row is feasible now, and its entry is gone.
      t.values[s.index] = 0
    }
    #expect(order == [b[1], b[4], b[0], b[2], b[5]])
    #expect(t.infeasible.isEmpty)
  }

  /// Past `dualCandidates` queued rows no pass is made: the last one queued comes first,
  /// until few enough are left.
  @Test func aLongQueueKeepsTheLastQueuedOrder() {
    let n = Tableau.dualCandidates + 4
    var (t, b) = tableau(values: (1...n).map { -Double($0) })
    t.infeasible = b.reversed()  // the least negative queued last
    var values: [Double] = []
    while let s = t.nextInfeasible() {
      values.append(t.values[s.index])
      t.values[s.index] = 0
    }
    let lastQueued = (1...4).map { -Double($0) }
    let mostNegative = (5...n).reversed().map { -Double($0) }
    #expect(values == lastQueued + mostNegative)
  }
}
