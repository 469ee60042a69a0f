import BenchSupport
@testable import Cassowary
import Testing

/// The reference cache (`Tableau+References.swift`): a lazy row's value is summed over its
/// cells that name basic symbols, read from an arena that must follow every pivot.
@Suite struct ReferenceCacheTests {
  /// `evaluate` filters a row's basic cells and sums them in `Row.sumCells`'s order, the
  /// order the cached path uses: the two agree to the last bit, short rows and long ones.
  @Test func evaluatingARowSumsItsBasicCellsInTheCachedOrder() {
    var rng = SplitMix64(seed: 20_261_125)
    var tableau = Tableau(lazy: true)
    let symbols = (0..<400).map { _ in tableau.newSymbol(.slack) }
    // Some symbols basic (a one-cell row each, over a symbol that stays parametric).
    let anchor = tableau.newSymbol(.slack)
    var basic = Set<Int>()
    for s in symbols where rng.int(0...2) == 0 {
      var row = Row(constant: rng.double(-50...50))
      row.insert(anchor, 1)
      tableau.addRow(row, basic: s)
      basic.insert(s.index)
    }
    tableau.updateValues()
    for trial in 0..<300 {
      var row = Row(constant: rng.double(-10...10))
      let length = rng.int(1...(trial % 2 == 0 ? 12 : 200))
      for s in symbols.shuffled(using: &rng).prefix(length) {
        row.insert(s, rng.double(-3...3))
      }
      let cells = row.symbols.indices.filter { basic.contains(row.symbols[$0].index) }
      let kept = ContiguousArray(cells.map { row.symbols[$0] })
      let weights = ContiguousArray(cells.map { row.coefficients[$0] })
      let expected = kept.withUnsafeBufferPointer { s in
        weights.withUnsafeBufferPointer { c in
          tableau.values.withUnsafeBufferPointer { v in
            Row.sumCells(constant: row.constant, symbols: s, coefficients: c, over: v)
          }
        }
      }
      let value = tableau.evaluate(row)
      #expect(
        value.bitPattern == expected.bitPattern,
        "trial \(trial): \(cells.count) basic cells of \(row.count): \(value) != \(expected)")
    }
  }

  /// A row whose basic symbol no row names (most insertions while a layout is built) gets
  /// its value without the level pass, and so does a removed row's symbol that no row
  /// names. Two tableaux take the same operations; in one the symbol is the only stale one,
  /// in the other a parametric symbol is queued beside it, which makes the pass run. Values,
  /// read-out flags, the queue of negative restricted rows, the count of values moved and
  /// the dummies' verdict must all agree, to the bit: short rows and rows of 16 to 40 basic
  /// cells (the four-lane sum), lazy and canonical.
  @Test(arguments: [true, false])
  func anUnreferencedSymbolGetsThePassValue(lazy: Bool) {
    var rng = SplitMix64(seed: lazy ? 20_261_127 : 20_261_128)
    var fast = Tableau(lazy: lazy)
    var full = Tableau(lazy: lazy)
    let kinds: [Symbol.Kind] = [.external, .slack, .error, .dummy]
    var symbols: [Symbol] = []
    for _ in 0..<60 {
      let kind = kinds[rng.int(0...3)]
      symbols.append(fast.newSymbol(kind))
      #expect(full.newSymbol(kind) == symbols.last)
    }
    let idle = symbols[0]  // never basic: queued in `full`, its value stays 0
    var outcomes = (flagged: 0, queued: 0, inconsistent: 0, removed: 0, long: 0)
    for trial in 0..<600 {
      if trial % 5 == 4 {
        // Remove a row that no row names: its symbol turns parametric, value 0.
        let removable = symbols.filter {
          fast.basicSlot[$0.index] >= 0 && fast.columnCount($0.index) == 0
        }
        guard let basic = removable.randomElement(using: &rng) else { continue }
        _ = fast.removeRow(of: basic)
        _ = full.removeRow(of: basic)
        outcomes.removed += 1
      } else {
        let subject = fast.newSymbol(kinds[rng.int(0...3)])
        #expect(full.newSymbol(subject.kind) == subject)
        // Over earlier symbols: basic ones too when lazy, parametric ones only when not.
        var row = Row(constant: rng.double(-20...20))
        let candidates = symbols.filter { $0 != idle && (lazy || fast.basicSlot[$0.index] < 0) }
        let length = trial % 3 == 0 ? rng.int(16...40) : rng.int(0...6)
        for s in candidates.shuffled(using: &rng).prefix(length) {
          row.insert(s, rng.double(-3...3))
        }
        if row.symbols.filter({ fast.basicSlot[$0.index] >= 0 }).count >= 16 { outcomes.long += 1 }
        fast.addRow(row, basic: subject)
        full.addRow(row, basic: subject)
        symbols.append(subject)
      }
      full.staleValues.append(idle)
      let epoch = fast.visitEpoch
      let fastConsistent = fast.updateValues()
      let fullConsistent = full.updateValues()
      #expect(fast.visitEpoch == epoch, "trial \(trial): the pass ran")
      #expect(fastConsistent == fullConsistent, "trial \(trial)")
      #expect(fast.values.map(\.bitPattern) == full.values.map(\.bitPattern), "trial \(trial)")
      #expect(fast.changedExternals == full.changedExternals, "trial \(trial)")
      #expect(fast.infeasible == full.infeasible, "trial \(trial)")
      #expect(fast.counters.valuesUpdated == full.counters.valuesUpdated, "trial \(trial)")
      if !fast.changedExternals.isEmpty { outcomes.flagged += 1 }
      if !fast.infeasible.isEmpty { outcomes.queued += 1 }
      if !fastConsistent { outcomes.inconsistent += 1 }
      fast.drainChangedList { _, _ in
      } shifted: { _, _, _, _ in
      }
      full.drainChangedList { _, _ in
      } shifted: { _, _, _, _ in
      }
      fast.infeasible.removeAll()
      full.infeasible.removeAll()
    }
    // Every case that does more than store a value came up, more than a few times.
    #expect(outcomes.flagged > 30 && outcomes.queued > 30 && outcomes.inconsistent > 30)
    #expect(outcomes.removed > 30 && (!lazy || outcomes.long > 30), "\(outcomes)")
  }

  /// A stack of boxes under weak width preferences and a suggested total width: every
  /// suggestion pivots, and each pivot leaves a dense expanded row in place. After every
  /// tick the cached spans must hold exactly each row's basic cells, and the values must
  /// match a solver that solves the same system from scratch.
  @Test(arguments: [40, 120])
  func cachedSpansFollowEveryPivot(boxes: Int) throws {
    let solver = Solver(representation: .lazy)
    let total = solver.makeVariable("W")
    try solver.addEditVariable(total, strength: .strong)
    let initial = 58 * Double(boxes) + 8
    try solver.suggestValue(total, initial)
    var constraints: [Constraint] = []
    var x: [Variable] = []
    var w: [Variable] = []
    for i in 0..<boxes {
      x.append(solver.makeVariable("x\(i)"))
      w.append(solver.makeVariable("w\(i)"))
      constraints.append(i == 0 ? x[0] == 8 : x[i] == x[i - 1] + w[i - 1] + 8)
      constraints.append(x[i] >= 0)
      constraints.append(w[i] >= 10)
      // A different weight per box, so the optimum is unique and a fresh solve finds it.
      constraints.append((w[i] == 50) | Strength(1 + Double(i) / Double(boxes)))
    }
    constraints.append(x[boxes - 1] + w[boxes - 1] + 8 == total)
    for c in constraints { try solver.addConstraint(c) }
    var knownSpans = 0
    let offsets: [Double] = [120, -60, 300, -25, 10, -140, 900, -700]
    for tick in 0..<24 {
      let suggestion = initial + offsets[tick % offsets.count] * Double(1 + tick % 3)
      try solver.suggestValue(total, suggestion)
      solver.updateVariables()
      #expect(solver.tableau.referencesAreExact(), "tick \(tick): a cached span is stale")
      knownSpans += solver.tableau.referenceSpans.filter { $0.count > 0 }.count
      // A fresh solve every few ticks (with invariant checks on, each is slow).
      guard tick % 6 == 5 else { continue }
      // The same variables, made in the same order, have the same indices.
      let fresh = Solver(representation: .canonical)
      for _ in 0...(2 * boxes) { _ = fresh.makeVariable("") }
      try fresh.addEditVariable(total, strength: .strong)
      try fresh.suggestValue(total, suggestion)
      for c in constraints { try fresh.addConstraint(c) }
      fresh.updateVariables()
      for v in [total] + x + w {
        let (a, b) = (solver.value(of: v), fresh.value(of: v))
        #expect(abs(a - b) <= 1e-6 * max(1, abs(b)), "tick \(tick): \(a) != \(b)")
      }
    }
    // The cache was in use: rows named basic symbols through known spans.
    #expect(knownSpans > 0)
    #expect(solver.counters.pivots > 0)
  }

  /// The expansion's closure walks a row's cached basic cells when its span is known, and
  /// scans the row's cells otherwise: both must visit the same rows in the same order, so
  /// that expansions (and so pivots) do not depend on which spans happen to be cached. Every
  /// row of a stack of boxes, after pivoting suggestions, against a copy of the tableau with
  /// every span forgotten; the expansions must agree to the last bit.
  @Test(arguments: [30, 150])
  func theClosureThroughCachedCellsVisitsWhatAScanVisits(boxes: Int) throws {
    let solver = Solver(representation: .lazy)
    let total = solver.makeVariable("W")
    try solver.addEditVariable(total, strength: .strong)
    let initial = 58 * Double(boxes) + 8
    try solver.suggestValue(total, initial)
    var x: [Variable] = []
    var w: [Variable] = []
    for i in 0..<boxes {
      x.append(solver.makeVariable("x\(i)"))
      w.append(solver.makeVariable("w\(i)"))
      try solver.addConstraint(i == 0 ? x[0] == 8 : x[i] == x[i - 1] + w[i - 1] + 8)
      try solver.addConstraint(x[i] >= 0)
      try solver.addConstraint(w[i] >= 10)
      try solver.addConstraint((w[i] == 50) | .weak)
    }
    try solver.addConstraint(x[boxes - 1] + w[boxes - 1] + 8 == total)
    var throughSpans = 0
    for (tick, offset) in [120.0, -60, 300, -25, -140, 900, -700].enumerated() {
      try solver.suggestValue(total, initial + offset)
      solver.updateVariables()
      var cached = solver.tableau
      var scanned = solver.tableau
      for slot in scanned.referenceSpans.indices { scanned.forgetReferences(slot) }
      for slot in cached.rows.indices where cached.rowBasic[slot].isValid {
        let n = cached.referenceClosure(of: cached.rows[slot], slot: slot)
        let viaSpans = (0..<n).map { cached.expansion.order.base[$0] }
        let m = scanned.referenceClosure(of: scanned.rows[slot], slot: slot)
        let viaScan = (0..<m).map { scanned.expansion.order.base[$0] }
        #expect(viaSpans == viaScan, "tick \(tick), slot \(slot): closures differ")
        if n > 0 && cached.referenceSpans[slot].count >= 0 { throughSpans += 1 }
        let a = cached.expand(cached.rows[slot], slot: slot)
        let b = scanned.expand(scanned.rows[slot], slot: slot)
        #expect(
          a.symbols == b.symbols
            && a.coefficients.map(\.bitPattern) == b.coefficients.map(\.bitPattern)
            && a.constant.bitPattern == b.constant.bitPattern,
          "tick \(tick), slot \(slot): expansions differ")
      }
    }
    #expect(throughSpans > boxes, "the closure should have walked known spans")
  }
}
