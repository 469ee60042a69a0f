import BenchSupport
@testable import Cassowary
import Testing

/// External symbols take their indices from blocks of their own (`Tableau.newSymbol(_:)`),
/// so that the values a read-out copies share cache lines.
@Suite struct ExternalBlockTests {
  /// Variables made between constraints, as a layout makes them (each child's variables,
  /// then its constraints' slacks and errors), still get neighbouring indices: each run of
  /// `externalBlock` variables is one run of indices, and the next run starts past every
  /// slack and error made so far. The layout is solved as before.
  @Test func variablesMadeBetweenConstraintsGetNeighbouringIndices() throws {
    let solver = Solver()
    let width = solver.makeVariable("W")
    try solver.addEditVariable(width, strength: .strong)
    try solver.suggestValue(width, 640)
    var widths: [Variable] = []
    for i in 0..<150 {
      let w = solver.makeVariable("w\(i)")
      try solver.addConstraint(w >= 10)
      try solver.addConstraint((w == 0.5 * width) | .medium)
      try solver.addConstraint((w == 100) | .weak)
      widths.append(w)
    }
    solver.updateVariables()
    let indices = ([width] + widths).map { solver.variableSymbols[Int($0.index)].index }
    // A block holds at least a cache line of values (eight), and whole lines.
    let block = Tableau.externalBlock
    #expect(block >= 8 && block % 8 == 0)
    for i in 1..<indices.count {
      if i % block == 0 {
        // A new block, past the slacks and errors of the last one's variables.
        #expect(indices[i] > indices[i - 1] + 3 * (block - 1), "variable \(i)")
      } else {
        #expect(indices[i] == indices[i - 1] + 1, "variable \(i)")
      }
    }
    for w in widths { #expect(solver.value(of: w) == 320) }
    try solver.suggestValue(width, 1000)
    solver.updateVariables()
    for w in widths { #expect(solver.value(of: w) == 500) }
  }

  /// In any sequence of kinds, each index is given once, the indices of each kind grow in
  /// the order the symbols are made (so every ordering by `Symbol` is the one symbols made
  /// one after another would have), and the indices reserved for externals but not given
  /// yet are parametric symbols of value 0 that no row names.
  @Test func indicesOfEachKindGrowInCreationOrder() {
    var generator = SplitMix64(seed: 20_261_205)
    var tableau = Tableau(lazy: true)
    let kinds: [Symbol.Kind] = [.external, .slack, .error, .dummy]
    var made: [Symbol] = []
    for _ in 0..<1_000 {
      made.append(tableau.newSymbol(generator.element(of: kinds)!))
    }
    #expect(Set(made.map(\.index)).count == made.count)
    for kind in kinds {
      let indices = made.filter { $0.kind == kind }.map(\.index)
      #expect(indices == indices.sorted(), "\(kind)")
    }
    let given = Set(made.map(\.index))
    let reserved = tableau.basicSlot.indices.filter { !given.contains($0) }
    #expect(reserved.count < Tableau.externalBlock)
    for index in reserved {
      #expect(tableau.basicSlot[index] < 0)
      #expect(tableau.columnCount(index) == 0)
      #expect(tableau.values[index] == 0)
    }
    let externals = made.filter(\.isExternal).map(\.index)
    for i in 1..<externals.count where i % Tableau.externalBlock != 0 {
      #expect(externals[i] == externals[i - 1] + 1)
    }
  }
}
