import BenchSupport
@testable import Cassowary
import Testing

/// Rows that are still their constraint's own equation (`Tableau+OwnRows.swift`): the
/// check of required constraints passes over them, so they must be exactly their
/// constraints, and stop being so at any change to their cells, their constant or their
/// marker's place in the basis.
@Suite struct OwnRowTests {
  /// The required records the check passes over.
  static func owned(_ solver: Solver) -> Set<Int> {
    Set(solver.audit.entries.indices.filter { solver.audit.entries[$0].owned })
  }

  /// The records the check evaluates when `variable` changes.
  static func checked(_ solver: Solver, _ variable: Variable) -> Set<Int> {
    var result = Set<Int>()
    var slot = solver.audit.firstSlot[Int(variable.index)]
    while slot >= 0 {
      result.insert(Int(solver.audit.slots[Int(slot)].record))
      slot = solver.audit.slots[Int(slot)].next
    }
    return result
  }

  /// Whether the check's bit for `variable` is set (`Audit.listed`).
  static func isListed(_ solver: Solver, _ variable: Variable) -> Bool {
    let symbol = solver.variableSymbols[Int(variable.index)].index
    return solver.audit.listed.withUnsafeBufferPointer { Audit.isListed(symbol, in: $0) }
  }

  /// A lazy solver with two variables, `x` and `y`.
  static func lazySolver() -> (Solver, Variable, Variable) {
    let solver = Solver(representation: .lazy)
    return (solver, solver.makeVariable("x"), solver.makeVariable("y"))
  }

  static func record(_ solver: Solver, _ constraint: Constraint) -> Int {
    Int(solver.recordIndex(of: constraint)!)
  }

  @Test func aConstraintAddedAsItIsIsPassedOverAndOthersAreChecked() throws {
    let (solver, x, y) = Self.lazySolver()
    let pin = x == 10
    let link = y == x + 5
    // `y` is basic by now: this row is solved for its slack, which the check evaluates.
    let cap = y <= 100
    for c in [pin, link, cap] { try solver.addConstraint(c) }
    solver.updateVariables()
    #expect(solver.value(of: y) == 15)
    let pinRecord = Self.record(solver, pin)
    let linkRecord = Self.record(solver, link)
    let capRecord = Self.record(solver, cap)
    #expect(Self.owned(solver) == [pinRecord, linkRecord])
    #expect(Self.checked(solver, x).isEmpty)
    #expect(Self.checked(solver, y) == [capRecord])
    #expect(solver.ownRowProblem() == nil)
  }

  /// The check skips a changed value on one bit (`Audit.listed`): set exactly while its
  /// variable has a constraint to check, through exposure and removal.
  @Test func aVariablesBitSaysWhetherItHasAConstraintToCheck() throws {
    let (solver, x, y) = Self.lazySolver()
    let pin = x == 10
    let link = y == x + 5
    let cap = y <= 100
    for c in [pin, link, cap] { try solver.addConstraint(c) }
    #expect(!Self.isListed(solver, x))
    #expect(Self.isListed(solver, y))
    #expect(solver.listedProblem() == nil)
    try solver.setConstant(7, of: link)
    solver.takeDisowned()
    #expect(Self.isListed(solver, x))
    #expect(solver.listedProblem() == nil)
    try solver.removeConstraint(link)
    #expect(!Self.isListed(solver, x))
    #expect(Self.isListed(solver, y))
    try solver.removeConstraint(cap)
    #expect(!Self.isListed(solver, y))
    #expect(solver.listedProblem() == nil)
    // A variable made after the others, far past the first word of bits.
    var last = y
    for _ in 0..<200 { last = solver.makeVariable() }
    try solver.addConstraint(last + x >= 3)  // its own row: `last` is its subject
    try solver.addConstraint(last <= 50)  // `last` is basic: substituted, checked
    #expect(Self.isListed(solver, last))
    #expect(solver.listedProblem() == nil)
    solver.reset()
    #expect(!Self.isListed(solver, last) && !Self.isListed(solver, y))
    #expect(solver.listedProblem() == nil)
  }

  @Test func aConstantChangeHandsTheRowBackToTheCheck() throws {
    let (solver, x, y) = Self.lazySolver()
    let pin = x == 10
    let link = y == x + 5
    for c in [pin, link] { try solver.addConstraint(c) }
    let linkRecord = Self.record(solver, link)
    #expect(Self.owned(solver).contains(linkRecord))
    // `y - x - 5 == 0` becomes `y - x + 7 == 0`.
    try solver.setConstant(7, of: link)
    solver.updateVariables()
    #expect(solver.value(of: y) == 3)
    // Handed back when the next check starts (no row's cells changed, so none ran yet).
    #expect(solver.tableau.disowned.contains(Int32(linkRecord)))
    solver.takeDisowned()
    #expect(!Self.owned(solver).contains(linkRecord))
    #expect(Self.checked(solver, x) == [linkRecord])
    #expect(Self.checked(solver, y) == [linkRecord])
    #expect(solver.ownRowProblem() == nil)
  }

  /// Where a row can change in place (`Tableau+OwnRows.swift`).
  enum Change: CaseIterable {
    case pivot, merge, replacement, removal, droppedColumn, shift, cachedShift, deficit
  }

  /// Every change to an own row's cells or constant hands its record back to the check,
  /// at the tableau's level: `y == x + 5`, whose row is its own, solved for one of the two
  /// (called `y` below) and naming the other, free.
  @Test(arguments: Change.allCases)
  func everyChangeToAnOwnRowHandsItBack(_ change: Change) throws {
    let (solver, x, y) = Self.lazySolver()
    let link = y == x + 5
    try solver.addConstraint(link)
    let record = Self.record(solver, link)
    let marker = solver.records[record].marker
    let slot = Int(solver.tableau.ownRow(ofMarker: marker))
    try #require(slot >= 0 && solver.tableau.owners[slot].record == Int32(record))
    // The row's subject, and the free variable it names.
    let ySymbol = solver.tableau.rowBasic[slot]
    let xSymbol = [x, y].map { solver.variableSymbols[Int($0.index)] }.first { $0 != ySymbol }!
    switch change {
    case .pivot:
      let pivoted = solver.tableau.pivot(entering: xSymbol, leaving: ySymbol)
      #expect(pivoted)
    case .merge:
      solver.tableau.addToRow(slot, Row(constant: 1), times: 1)
    case .replacement:
      solver.tableau.replaceRow(slot, with: solver.tableau.rows[slot])
    case .removal:
      _ = solver.tableau.removeRow(of: ySymbol)
    case .droppedColumn:
      solver.tableau.dropColumn(of: xSymbol)
    case .shift:
      _ = solver.tableau.shiftMarker(marker, by: 1, propagate: false)
    case .cachedShift:
      // The second shift within a structure version builds the column and goes through it.
      _ = solver.tableau.shiftMarker(marker, by: 1)
      _ = solver.tableau.shiftMarker(marker, by: 1)
      #expect(solver.tableau.pendingShifts)
      solver.tableau.settleShifts()
    case .deficit:
      solver.tableau.values[ySymbol.index] = -1e-12
      solver.tableau.raiseRoundOffDeficit(of: ySymbol)
    }
    #expect(solver.tableau.owners[slot].record == -1)
    #expect(solver.tableau.ownRow(ofMarker: marker) == -1)
    #expect(solver.tableau.disowned == [Int32(record)])
  }

  /// A required inequality's own row names its slack, which is zero while parametric; a
  /// stronger preference that opens the gap makes the slack basic, and then the relation
  /// holds only if the slack's value is not negative: the check evaluates it again.
  @Test func aSlackEnteringTheBasisHandsTheRowBackToTheCheck() throws {
    let (solver, x, y) = Self.lazySolver()
    let pin = x == 10
    let cap = y <= x + 5
    for c in [pin, cap] { try solver.addConstraint(c) }
    let capRecord = Self.record(solver, cap)
    #expect(Self.owned(solver).contains(capRecord))
    try solver.addConstraint((y == 0) | .strong)
    solver.takeDisowned()
    solver.updateVariables()
    #expect(solver.value(of: y) == 0)
    #expect(solver.tableau.isBasic(solver.records[capRecord].marker))
    #expect(!Self.owned(solver).contains(capRecord))
    #expect(Self.checked(solver, y).contains(capRecord))
    #expect(solver.ownRowProblem() == nil)
  }

  /// Stop 59's lossy case: the division that solves `x`'s row drops a cell. Every row is
  /// checked from then on, the pin's own row too.
  @Test func aLossyTableauPassesNoRowOver() throws {
    let (solver, x, y) = Self.lazySolver()
    let pin = y == 1e6
    try solver.addConstraint(pin)
    #expect(Self.owned(solver) == [Self.record(solver, pin)])
    try solver.addConstraint(1e6 * x + 5e-5 * y == 1)
    #expect(solver.tableau.lossy)
    solver.takeDisowned()
    #expect(Self.owned(solver).isEmpty)
    #expect(Self.checked(solver, y).count == 2)
    // Nor is a constraint added later passed over.
    let z = solver.makeVariable("z")
    try solver.addConstraint(z == y + 1)
    #expect(Self.owned(solver).isEmpty)
    #expect(solver.ownRowProblem() == nil)
  }

  /// Values a cached column moves are moved by a multiple of the shift, not by evaluating
  /// their rows: after a swing to 1e9 and back, `s` sat an ulp of 1e9 (2.4e-8) away from
  /// `x + 0.1`, 13 times what the check allows at that scale. The check after it evaluates
  /// the owned constraints of the moved values too, and rebuilds, as before rows were
  /// owned. (Found by a fresh-eyes review at stop 60: 0 rebuilds, `s` - `x` =
  /// 0.0999999762.)
  @Test func aConstraintMovedThroughACachedColumnIsChecked() throws {
    let solver = Solver(representation: .lazy)
    let x = solver.makeVariable("x")
    let s = solver.makeVariable("s")
    let z = solver.makeVariable("z")
    try solver.addEditVariable(x, strength: .strong)
    let link = s == x + 0.1
    try solver.addConstraint(link)
    #expect(Self.owned(solver) == [Self.record(solver, link)])
    try solver.suggestValue(x, 1e9)
    try solver.suggestValue(x, 0.3)
    #expect(solver.counters.cachedShifts > 0)
    // Any change to the rows ends with the check.
    try solver.addConstraint(z == 5)
    solver.updateVariables()
    #expect(solver.counters.rebuilds == 1)
    let residual = solver.value(of: s) - solver.value(of: x) - 0.1
    #expect(abs(residual) <= Tolerance.audit * 1.5)
  }

  /// The downstream case of `RecoveryTests` with `b`'s row its own: a knocked row is no
  /// longer its own (as after the pivot that would knock it), and the check finds it.
  @Test func aKnockedOwnRowIsCaught() throws {
    let solver = Solver(representation: .lazy)
    let y = solver.makeVariable("y")
    let b = solver.makeVariable("b")
    let link = b == y - 10
    try solver.addConstraint(link)
    try solver.addConstraint(y <= 50)
    try solver.addConstraint((y == 60) | .weak)
    solver.updateVariables()
    #expect(solver.value(of: y) == 50 && solver.value(of: b) == 40)
    let bSymbol = solver.variableSymbols[Int(b.index)]
    let linkRecord = Self.record(solver, link)
    try #require(Self.owned(solver).contains(linkRecord))
    try #require(solver.tableau.rowBasic[Int(solver.tableau.basicSlot[bSymbol.index])] == bSymbol)
    let rebuilds = solver.counters.rebuilds
    RecoveryTests.knockOff(solver, bSymbol)
    solver.updateVariables()
    #expect(solver.counters.rebuilds == rebuilds + 1, "the knocked row was caught")
    #expect(abs(solver.value(of: y) - solver.value(of: b) - 10) < 1e-9)
  }

  /// A stack of `count` boxes under an edited top: each box's top is the previous box's
  /// bottom plus a gap, its height at least a minimum and weakly a preferred height, and
  /// the last bottom under a cap that the preferences overrun (so pivots follow). Most
  /// links are their rows' own equations.
  static func stack(
    _ solver: Solver, count: Int
  ) throws -> (top: Variable, tops: [Variable], minimums: [Constraint], links: [Constraint]) {
    let top = solver.makeVariable("top")
    try solver.addEditVariable(top, strength: .strong)
    try solver.suggestValue(top, 0)
    var tops = [top]
    var minimums: [Constraint] = []
    var links: [Constraint] = []
    var previous = top
    for i in 0..<count {
      let height = solver.makeVariable("h\(i)")
      let next = solver.makeVariable("y\(i + 1)")
      let minimum = height >= 10
      let link = next == previous + height + 8
      for c in [link, minimum, (height == Double(20 + i % 7)) | .weak] {
        try solver.addConstraint(c)
      }
      minimums.append(minimum)
      links.append(link)
      tops.append(next)
      previous = next
    }
    try solver.addConstraint(previous <= Double(count) * 25)
    return (top, tops, minimums, links)
  }

  /// A stack built lazily, then moved, re-constrained and re-stated many times: after every
  /// operation each row the check passes over is still, bit for bit, its constraint solved
  /// for its subject, its marker parametric, and its constraint holds.
  @Test(arguments: [Solver.Representation.lazy, .adaptive])
  func rowsPassedOverStayTheirConstraintsThroughOperations(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let (top, tops, minimums, links) = try Self.stack(solver, count: 150)
    let ownedAtFirst = Self.owned(solver).count
    #expect(ownedAtFirst >= 100)
    #expect(solver.ownRowProblem() == nil)
    var random = SplitMix64(seed: 16)
    var removed: [Constraint] = []
    for step in 0..<400 {
      switch random.next() % 6 {
      case 0, 1:
        try solver.suggestValue(top, Double(random.next() % 400))
      case 2:
        // A minimum restated: its constant moves, its row is no longer its own.
        let c = minimums[Int(random.next() % UInt64(minimums.count))]
        if solver.hasConstraint(c) {
          try solver.setConstant(-Double(5 + random.next() % 20), of: c)
        }
      case 3:
        let c = links[Int(random.next() % UInt64(links.count))]
        if solver.hasConstraint(c) {
          try solver.removeConstraint(c)
          removed.append(c)
        }
      case 4:
        if let c = removed.popLast() { try solver.addConstraint(c) }
      default:
        solver.updateVariables()
      }
      let problem = solver.ownRowProblem() ?? solver.listedProblem()
      #expect(problem == nil, "after step \(step)")
      if problem != nil { break }
    }
    solver.updateVariables()
    for y in tops { #expect(solver.value(of: y).isFinite) }
    #expect(Self.owned(solver).count > 0)
    #expect(solver.counters.rebuilds == 0)
  }
}
