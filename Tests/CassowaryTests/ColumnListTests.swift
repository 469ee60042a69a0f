import BenchSupport
@testable import Cassowary
import Testing

/// The column index (`Tableau.columns`): each symbol's list of the rows that name it, which
/// may hold stale slots until compacted. Steady-state ticks must not grow it.
@Suite struct ColumnListTests {
  /// A stack of boxes whose widths prefer 50 (weak) and are at least 10, in a container
  /// whose width is edited: shrinking it below the preferred total pushes widths onto their
  /// floors, widening it frees them, so the same slacks and errors pivot in and out of the
  /// same rows on every round trip, each adding a stale slot to a list.
  static func stack(_ representation: Solver.Representation) throws -> (
    solver: Solver, width: Variable, widths: [Variable]
  ) {
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
    return (solver, width, widths)
  }

  /// Shrinks and widens the stack's container once.
  static func roundTrip(_ solver: Solver, _ width: Variable) throws {
    try solver.suggestValue(width, 400)
    solver.updateVariables()
    try solver.suggestValue(width, 1_700)
    solver.updateVariables()
  }

  @Test(arguments: [Solver.Representation.adaptive, .lazy, .canonical])
  func columnListsStopGrowingWhenTheSamePivotsRepeat(
    representation: Solver.Representation
  ) throws {
    let (solver, width, widths) = try Self.stack(representation)
    func capacity() -> Int {
      solver.tableau.columns.extents.reduce(0) { $0 + Int($1.capacity) }
    }
    func roundTrip() throws { try Self.roundTrip(solver, width) }
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
    let columns = solver.tableau.columns
    #expect(columns.used - columns.dead == settled, "ranges and dead entries")
    #expect(columns.dead < settled, "dead entries outnumber the lists' room")
    // And the values are right: 1,700 leaves every width at its preference or above.
    #expect(widths.allSatisfy { solver.value(of: $0) >= 50 - 1e-9 })
  }

  /// `Tableau.compactColumn`, the tableau's own compaction over raw buffers: a list keeps,
  /// in its order, each slot once whose row still names the symbol, and as many as the
  /// live count says. Checked for every symbol of the stack after its lists have gathered
  /// stale entries in repeated pivots.
  @Test(arguments: [Solver.Representation.adaptive, .lazy, .canonical])
  func compactionKeepsEachRowThatNamesTheSymbolOnceInOrder(
    representation: Solver.Representation
  ) throws {
    let (solver, width, _) = try Self.stack(representation)
    for _ in 0..<40 { try Self.roundTrip(solver, width) }
    var tableau = solver.tableau
    var symbols: [Symbol] = []
    var seen: Set<Int> = []
    for row in tableau.rows {
      for symbol in row.symbols where seen.insert(symbol.index).inserted { symbols.append(symbol) }
    }
    var compacted = 0
    for symbol in symbols {
      let list = Array(tableau.columns.list(symbol.index))
      var want: [Int32] = []
      for slot in list where !want.contains(slot) {
        let s = Int(slot)
        if tableau.rowBasic[s].isValid && tableau.rows[s].contains(symbol) { want.append(slot) }
      }
      if want.count < list.count { compacted += 1 }
      tableau.compactColumn(symbol)
      #expect(Array(tableau.columns.list(symbol.index)) == want, "\(representation) \(symbol)")
      #expect(Int(tableau.columnCount(symbol.index)) == want.count, "\(representation) \(symbol)")
    }
    #expect(compacted > 0, "\(representation): no list held a stale entry to compact")
  }
}

/// `ColumnLists` against a model that keeps an array per symbol: random appends (with the
/// check of the last four entries), compactions in place, truncations and emptying, over
/// enough symbols and steps that lists move many times.
@Suite struct ColumnListsModelTests {
  @Test(arguments: [1, 2, 3])
  func listsMatchAnArrayPerSymbol(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var lists = ColumnLists()
    var model: [[Int32]] = []
    // A count per symbol that the lists keep beside each extent (`ColumnExtent.live`): it
    // must survive every move of a list.
    var live: [Int32] = []
    var reused = false
    var lastDead = 0
    for step in 0..<40_000 {
      if model.count < 300 && (model.isEmpty || rng.int(in: 0..<50) == 0) {
        lists.addSymbols(1)
        model.append([])
        live.append(0)
      }
      if rng.int(in: 0..<3) == 0 {
        let k = rng.int(in: 0..<model.count)
        let delta = Int32(rng.int(in: -2...3))
        #expect(lists.addLive(k, delta) == live[k] + delta)
        live[k] += delta
      }
      let i = rng.int(in: 0..<model.count)
      switch rng.int(in: 0..<10) {
      case 0..<7:
        // Few distinct slots, so that repeats within the last four happen.
        let slot = Int32(rng.int(in: 0..<(model[i].count < 8 ? 40 : 12)))
        if lists.extents[i].capacity == 0 {
          // A list's first range is a free one of the first size when there is one (the
          // head of its free list), else the one past the last range.
          let free = lists.freeRanges().filter { $0.capacity == Int(ColumnLists.initialCapacity) }
          let used = lists.used
          lists.append(slot, to: i)
          let start = Int(lists.extents[i].start)
          if free.isEmpty {
            #expect(start == used, "seed \(seed), step \(step)")
          } else {
            #expect(start == free[0].start, "seed \(seed), step \(step)")
          }
        } else if rng.int(in: 0..<2) == 0 {
          lists.append(slot, to: i)
        } else {
          // The raw-buffer path of `Tableau.relist`: in place when the list has room,
          // else nothing changes and `append` grows it.
          let room = lists.extents[i].count < lists.extents[i].capacity
          let repeated = model[i].suffix(4).contains(slot)
          let done = lists.withUnsafeMutableBuffers { extents, entries in
            ColumnLists.appendInPlace(slot, to: i, extents, entries)
          }
          #expect(done == (room || repeated), "seed \(seed), step \(step)")
          if !done { lists.append(slot, to: i) }
        }
        if !model[i].suffix(4).contains(slot) { model[i].append(slot) }
      case 7:
        let keep = model[i].filter { $0 % 3 != 0 }
        // In place over the raw buffers, as `Tableau.compactColumn` compacts a list.
        let kept = lists.withUnsafeMutableBuffers { extents, entries in
          let start = Int(extents[i].start)
          var kept = 0
          for k in 0..<Int(extents[i].count) where entries[start + k] % 3 != 0 {
            entries[start + kept] = entries[start + k]
            kept += 1
          }
          return kept
        }
        lists.truncate(i, to: kept)
        model[i] = keep
      case 8:
        let n = rng.int(in: 0...model[i].count)
        lists.truncate(i, to: n)
        model[i].removeLast(model[i].count - n)
      default:
        if rng.int(in: 0..<4) == 0 {
          lists.removeAll(i)
          model[i].removeAll()
        }
      }
      if lists.dead < lastDead { reused = true }
      lastDead = lists.dead
      if step % 97 == 0 || step == 39_999 {
        for j in model.indices {
          #expect(Array(lists.list(j)) == model[j], "seed \(seed), step \(step), list \(j)")
          #expect(lists.liveCount(j) == live[j], "seed \(seed), step \(step), count \(j)")
        }
        let capacity = lists.extents.reduce(0) { $0 + Int($1.capacity) }
        #expect(lists.used - lists.dead == capacity, "seed \(seed), step \(step)")
        #expect(lists.used <= lists.entries.count)
        // Lists' ranges and free ranges lie inside the used part of the array, do not
        // overlap, and the free ones hold the dead entries.
        let free = lists.freeRanges()
        #expect(free.reduce(0) { $0 + $1.capacity } == lists.dead)
        let ranges =
          (lists.extents.filter { $0.capacity > 0 }
          .map { Int($0.start)..<Int($0.start + $0.capacity) }
          + free.map { $0.start..<($0.start + $0.capacity) })
          .sorted { $0.lowerBound < $1.lowerBound }
        #expect(ranges.allSatisfy { $0.upperBound <= lists.used })
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound })
      }
    }
    #expect(reused, "seed \(seed): a free range should have been reused")
    // Dead entries (ranges lists moved out of) never outnumber the ones lists hold.
    let capacity = lists.extents.reduce(0) { $0 + Int($1.capacity) }
    #expect(lists.dead < capacity && capacity > 4_000, "seed \(seed): \(lists.dead), \(capacity)")
  }
}
