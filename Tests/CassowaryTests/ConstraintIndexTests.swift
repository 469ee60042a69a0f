@testable import Cassowary
import Dispatch
import Synchronization
import Testing

/// How a solver finds its constraints' records (`ConstraintIndex`): through the place the
/// first solver to hold a constraint writes into it, else through its identity table. Every
/// lookup must find exactly the constraints the solver holds, whichever solvers share the
/// instances and whatever renumbered the records.
@Suite struct ConstraintIndexTests {
  /// A solver with `count` variables, `v0` first.
  static func solver(variables count: Int) -> (Solver, [Variable]) {
    let solver = Solver()
    return (solver, (0..<count).map { solver.makeVariable("v\($0)") })
  }

  /// A chain `v0 == 10`, `v(i) == v(i-1) + 5` over the variables (numbered alike in every
  /// solver made with `solver(variables:)`), with a weak upper bound per variable.
  static func chain(_ v: [Variable]) -> [Constraint] {
    var list = [v[0] == 10]
    for i in 1..<v.count { list.append(v[i] == v[i - 1] + 5) }
    for i in v.indices { list.append((v[i] <= 1) | .weak) }
    return list
  }

  /// Whether the solver holds exactly `held` among `all`, and its values are the chain's.
  static func expectHolds(
    _ solver: Solver, _ held: [Constraint], of all: [Constraint],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let heldSet = Set(held.map(ObjectIdentifier.init))
    for c in all {
      #expect(
        solver.hasConstraint(c) == heldSet.contains(ObjectIdentifier(c)),
        "\(c)", sourceLocation: sourceLocation)
    }
    #expect(solver.constraintCount == held.count, sourceLocation: sourceLocation)
  }

  @Test func twoSolversHoldingTheSameConstraintsEachFindThem() throws {
    let (a, va) = Self.solver(variables: 3)
    let (b, vb) = Self.solver(variables: 3)
    let list = Self.chain(va)
    for c in list { try a.addConstraint(c) }
    for c in list { try b.addConstraint(c) }
    // The first solver claimed them; the second keeps them in its table.
    #expect(list.allSatisfy { $0.placeOwner.load(ordering: .relaxed) == a.constraintIndex.token })
    #expect(a.constraintIndex.table.count == 0)
    #expect(b.constraintIndex.table.count == list.count)
    Self.expectHolds(a, list, of: list)
    Self.expectHolds(b, list, of: list)

    // A change in one solver is not seen by the other.
    try b.setConstant(-20, of: list[0])
    a.updateVariables()
    b.updateVariables()
    #expect(a.value(of: va[2]) == 20)
    #expect(b.value(of: vb[2]) == 30)

    // The first solver lets the constraint go: the second still holds it, the first can
    // take it back (claiming it again, as no solver holds its place).
    try a.removeConstraint(list[0])
    #expect(list[0].placeOwner.load(ordering: .relaxed) == 0)
    Self.expectHolds(a, Array(list.dropFirst()), of: list)
    Self.expectHolds(b, list, of: list)
    #expect(throws: SolverError.unknownConstraint(list[0])) { try a.removeConstraint(list[0]) }
    try a.addConstraint(list[0])
    #expect(list[0].placeOwner.load(ordering: .relaxed) == a.constraintIndex.token)
    #expect(throws: SolverError.duplicateConstraint(list[0])) { try a.addConstraint(list[0]) }
    #expect(throws: SolverError.duplicateConstraint(list[0])) { try b.addConstraint(list[0]) }

    // The second solver lets every constraint go: its table empties, the first is intact.
    for c in list { try b.removeConstraint(c) }
    #expect(b.constraintIndex.table.count == 0)
    Self.expectHolds(b, [], of: list)
    Self.expectHolds(a, list, of: list)
    a.updateVariables()
    #expect(a.value(of: va[2]) == 20)
    #expect(a.strength(of: list[3]) == .weak)
  }

  @Test func aResetSolverHoldsNoneOfItsFormerConstraints() throws {
    let (solver, v) = Self.solver(variables: 4)
    let list = Self.chain(v)
    for c in list { try solver.addConstraint(c) }
    solver.reset()
    // Their places still name the solver, and record indices it no longer has.
    #expect(list[0].placeOwner.load(ordering: .relaxed) == solver.constraintIndex.token)
    Self.expectHolds(solver, [], of: list)
    #expect(throws: SolverError.unknownConstraint(list[1])) {
      try solver.setConstant(1, of: list[1])
    }
    // Added again in another order, each is found at its new record.
    for c in list.reversed() { try solver.addConstraint(c) }
    Self.expectHolds(solver, list, of: list)
    try solver.setConstant(-30, of: list[0])
    solver.updateVariables()
    #expect(solver.value(of: v[3]) == 45)
  }

  /// A refusal is verified on rebuilt tableaux (one inserts the constraints in reverse
  /// order, so the records are renumbered, and each insertion writes its place), then the
  /// old state comes back: the places must follow it.
  @Test func aRestoredStateFindsEveryConstraintAtItsRecord() throws {
    let (solver, v) = Self.solver(variables: 40)
    let list = Self.chain(v)
    for c in list { try solver.addConstraint(c) }
    let records = list.map { solver.recordIndex(of: $0) }
    let conflict = v[39] == 0
    #expect(throws: SolverError.unsatisfiableConstraint(conflict)) {
      try solver.addConstraint(conflict)
    }
    #expect(solver.counters.rebuilds > 0)
    #expect(list.map { solver.recordIndex(of: $0) } == records)
    Self.expectHolds(solver, list, of: list + [conflict])
    // Every constraint can still be changed and removed through its record.
    try solver.setConstant(-12, of: list[0])
    solver.updateVariables()
    #expect(solver.value(of: v[39]) == 12 + 39 * 5)
    for c in list.reversed() { try solver.removeConstraint(c) }
    Self.expectHolds(solver, [], of: list)
  }

  /// Solvers on several threads add and remove the same constraint instances: each claim is
  /// one compare-and-exchange, so every solver ends up finding exactly its own.
  @Test func solversOnSeveralThreadsShareConstraintInstances() throws {
    let solvers = 8
    let (_, template) = Self.solver(variables: 60)
    let list = Self.chain(template)
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: solvers) { k in
      do {
        let (solver, v) = Self.solver(variables: 60)
        for round in 0..<20 {
          for c in list { try solver.addConstraint(c) }
          solver.updateVariables()
          guard solver.value(of: v[59]) == 10 + 59 * 5 else {
            throw SolverError.unknownConstraint(list[0])
          }
          // Half go, in an order of this solver's own, then come back.
          let leaving = list.indices.filter { ($0 + k + round) % 2 == 0 }
          for i in leaving { try solver.removeConstraint(list[i]) }
          for i in leaving where solver.hasConstraint(list[i]) {
            failures.withLock { $0.append("solver \(k) still holds \(list[i])") }
          }
          for i in leaving { try solver.addConstraint(list[i]) }
          for c in list where !solver.hasConstraint(c) {
            failures.withLock { $0.append("solver \(k) lost \(c)") }
          }
          for c in list { try solver.removeConstraint(c) }
          if solver.constraintCount != 0 {
            failures.withLock { $0.append("solver \(k) still counts \(solver.constraintCount)") }
          }
        }
      } catch {
        failures.withLock { $0.append("solver \(k): \(error)") }
      }
    }
    failures.withLock { #expect($0.isEmpty, "\($0.prefix(5))") }
    // Every solver let go of every constraint: no place is left claimed.
    #expect(list.allSatisfy { $0.placeOwner.load(ordering: .relaxed) == 0 })
  }
}
