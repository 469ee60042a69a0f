import BenchSupport
@testable import Cassowary
import Testing

/// External symbols take their indices from blocks of their own (`Tableau.newSymbol(_:)`),
/// so that the values a read-out copies share cache lines; the other kinds take theirs
/// from blocks too, so that the per-symbol arrays grow a block at a time.
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

  /// Over random creations and releases, two live symbols of one kind compare by index
  /// as they would under the allocation without blocks (each new symbol at the end, a
  /// released index reused last in, first out), which the test runs beside the tableau:
  /// so every ordering by `Symbol` (kind first, then index), and every pivot, is the one
  /// before. Each index is given to one live symbol; externals are never released, and
  /// come in runs of neighbouring indices, a block at a time, as do the new indices of the
  /// other kinds; the indices reserved but not given (less than a block of each) are
  /// parametric symbols of value 0 that no row names.
  @Test func indicesKeepTheOrderOfTheAllocationWithoutBlocks() {
    var generator = SplitMix64(seed: 20_261_205)
    var tableau = Tableau(lazy: true)
    let kinds: [Symbol.Kind] = [.external, .slack, .error, .dummy]
    // The allocation without blocks: a counter and a free list.
    var oldCount = 0
    var oldFree: [Int] = []
    var live: [(symbol: Symbol, old: Int)] = []
    var externals: [Int] = []
    var fresh: [Int] = []
    for _ in 0..<2_000 {
      let releasable = live.indices.filter { !live[$0].symbol.isExternal }
      if !releasable.isEmpty && generator.chanceOf(0.3) {
        let k = generator.element(of: releasable)!
        tableau.releaseSymbol(live[k].symbol)
        oldFree.append(live[k].old)
        live.remove(at: k)
        continue
      }
      let kind = generator.element(of: kinds)!
      let symbol = tableau.newSymbol(kind)
      var old: Int
      if kind != .external, let reused = oldFree.popLast() {
        old = reused
      } else {
        old = oldCount
        oldCount += 1
        if kind != .external { fresh.append(symbol.index) }
      }
      live.append((symbol, old))
      if kind == .external { externals.append(symbol.index) }
    }
    #expect(Set(live.map(\.symbol.index)).count == live.count)
    var compared = 0
    for a in live {
      for b in live where a.symbol.kind == b.symbol.kind && a.old < b.old {
        #expect(a.symbol < b.symbol, "\(a.symbol.kind): \(a.old) < \(b.old)")
        compared += 1
      }
    }
    #expect(compared > 10_000)
    for i in 1..<externals.count where i % Tableau.externalBlock != 0 {
      #expect(externals[i] == externals[i - 1] + 1)
    }
    #expect(fresh.count > 2 * Tableau.internalBlock)
    for i in 1..<fresh.count where i % Tableau.internalBlock != 0 {
      #expect(fresh[i] == fresh[i - 1] + 1)
    }
    let given = Set(live.map(\.symbol.index) + tableau.freeSymbols.map { Int($0) })
    let reserved = tableau.basicSlot.indices.filter { !given.contains($0) }
    #expect(reserved.count <= Tableau.externalBlock + Tableau.internalBlock - 2)
    for index in reserved {
      #expect(tableau.basicSlot[index] < 0)
      #expect(tableau.columnCount(index) == 0)
      #expect(tableau.values[index] == 0)
    }
  }
}
