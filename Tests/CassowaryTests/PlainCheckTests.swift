@testable import Cassowary
import Testing

/// The short way through the check of changed values (`Solver.fewChangedValuesPlainlyHold`):
/// it may answer only when the whole check would have checked nothing.
@Suite struct PlainCheckTests {
  /// `x == 10`, then `y == x + 5` solved for `y`, a variable named nowhere else: the
  /// solver and `y`'s symbol.
  static func chain() throws -> (Solver, Symbol) {
    let solver = Solver(representation: .lazy)
    let x = solver.makeVariable()
    try solver.addConstraint(x == 10)
    let y = solver.makeVariable()
    try solver.addConstraint(y == x + 5)
    return (solver, solver.variableSymbols[Int(y.index)])
  }

  /// A layout's usual constraint: its subject is a variable named nowhere else, and the
  /// check has nothing to evaluate after it.
  @Test func aFreshSubjectHoldsWithoutTheWholeCheck() throws {
    let (solver, s) = try Self.chain()
    // Only `y` changed since the last check, and its one constraint is its own row.
    solver.tableau.values[s.index] = 15
    solver.tableau.noteChanged(s)
    #expect(solver.fewChangedValuesPlainlyHold() == true)
    // The whole check, which reads the own rows' constraints too, agrees.
    #expect(solver.changedValuesHold(includingOwned: true))
  }

  /// A changed value of a variable that a checked constraint names goes to the whole check,
  /// which finds the constraint broken: answered on the short way, the broken value would
  /// pass.
  @Test func aListedValueGoesToTheWholeCheck() throws {
    let solver = Solver(representation: .lazy)
    let (root, widths, _) = try RecoveryTests.nestedBoxes(solver, count: 20)
    try solver.suggestValue(root, 100)
    solver.updateVariables()
    let listed = widths.map { solver.variableSymbols[Int($0.index)] }.filter { symbol in
      solver.audit.listed.withUnsafeBufferPointer { Audit.isListed(symbol.index, in: $0) }
    }
    #expect(!listed.isEmpty)
    var broken = 0
    for symbol in listed {
      // Moved off the value its constraints hold at, as drift would leave it.
      for delta in [1000.0, -1000.0] {
        let old = solver.tableau.values[symbol.index]
        solver.tableau.values[symbol.index] = old + delta
        solver.tableau.noteChanged(symbol)
        #expect(solver.fewChangedValuesPlainlyHold() == false)
        if !solver.changedValuesHold(includingOwned: false) { broken += 1 }
        solver.tableau.values[symbol.index] = old
        solver.tableau.markChecked()
      }
    }
    // The whole check found broken constraints that the short way would have passed.
    #expect(broken > 0)
  }

  /// A value that is not finite fails, as the whole check fails it.
  @Test func aValueThatIsNotFiniteIsNotPlain() throws {
    let (solver, s) = try Self.chain()
    solver.tableau.values[s.index] = .nan
    solver.tableau.noteChanged(s)
    #expect(solver.fewChangedValuesPlainlyHold() == false)
    #expect(!solver.changedValuesHold(includingOwned: false))
  }

  /// More changed values than the short way looks at: it does not answer.
  @Test func manyChangedValuesAreLeftToTheWholeCheck() throws {
    let solver = Solver(representation: .lazy)
    var symbols: [Symbol] = []
    for _ in 0...Solver.plainLimit {
      let v = solver.makeVariable()
      try solver.addConstraint(v == 1)
      symbols.append(solver.variableSymbols[Int(v.index)])
    }
    for s in symbols {
      solver.tableau.values[s.index] = 2
      solver.tableau.noteChanged(s)
    }
    #expect(solver.fewChangedValuesPlainlyHold() == nil)
  }
}
