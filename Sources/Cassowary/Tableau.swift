/// The simplex tableau behind a ``Solver``: rows in slots, a column index, the objective.
///
/// Rows live in reusable slots; `basicSlot` maps a basic symbol to its slot. The column index
/// (`columns`) lists, for every symbol, the slots whose rows may hold it, so that a
/// substitution or a suggestion visits only the rows concerned instead of every row as kiwi
/// does. Entries are validated lazily: a slot listed for a symbol whose row no longer holds
/// it is skipped and dropped at the next compaction, while `columnCounts` is kept exact.
///
/// `Tableau` is a value type so that the rare operation that might fail half-way (adding a
/// required constraint through an artificial variable) can restore a copy.
struct Tableau {
  // MARK: - Per-symbol state, indexed by `Symbol.index`
  var basicSlot: [Int32] = []
  var columns: [[Int32]] = []
  var columnCounts: [Int32] = []
  var freeSymbols: [UInt32] = []
  /// Whether an external symbol's value may have changed since the last read-out.
  var changed: [Bool] = []
  /// The external symbols flagged in `changed`, so a read-out visits only those.
  var changedExternals: [Symbol] = []

  // MARK: - Rows, indexed by slot
  var rows: [Row] = []
  var rowBasic: [Symbol] = []
  var freeSlots: [Int32] = []
  var slotMarks: [UInt32] = []
  var markEpoch: UInt32 = 0

  var objective = Row()
  /// The phase-one objective while a required constraint is added through an artificial
  /// variable; `nil` otherwise.
  var artificial: Row?
  /// Basic symbols whose rows may have gone negative, for the dual simplex.
  var infeasible: [Symbol] = []
  var scratch = MergeScratch()
  var counters = SolverCounters()

  // MARK: - Symbols

  mutating func newSymbol(_ kind: Symbol.Kind) -> Symbol {
    if let index = freeSymbols.popLast() {
      return Symbol(kind, index: Int(index))
    }
    let index = basicSlot.count
    precondition(index < Int(Symbol.indexMask), "too many solver symbols")
    basicSlot.append(-1)
    changed.append(false)
    columns.append([])
    columnCounts.append(0)
    return Symbol(kind, index: index)
  }

  /// Recycles a symbol that no row refers to any more.
  mutating func releaseSymbol(_ symbol: Symbol) {
    guard symbol.isValid, basicSlot[symbol.index] < 0, columnCounts[symbol.index] == 0 else {
      return
    }
    objective.remove(symbol)
    columns[symbol.index].removeAll()
    freeSymbols.append(UInt32(symbol.index))
  }

  @inline(__always) func isBasic(_ symbol: Symbol) -> Bool { basicSlot[symbol.index] >= 0 }

  /// Notes that an external symbol's value may have changed (its row's constant moved, or it
  /// entered or left the basis).
  @inline(__always) mutating func noteChanged(_ symbol: Symbol) {
    guard symbol.isExternal, !changed[symbol.index] else { return }
    changed[symbol.index] = true
    changedExternals.append(symbol)
  }

  /// The row of a basic symbol.
  @inline(__always) func row(of symbol: Symbol) -> Row? {
    let slot = basicSlot[symbol.index]
    return slot >= 0 ? rows[Int(slot)] : nil
  }

  // MARK: - Column index

  @inline(__always) mutating func noteAdded(_ symbol: Symbol, in slot: Int32) {
    let i = symbol.index
    columns[i].append(slot)
    columnCounts[i] &+= 1
    if columns[i].count > 2 &* Int(columnCounts[i]) &+ 16 { compactColumn(symbol) }
  }

  @inline(__always) mutating func noteRemoved(_ symbol: Symbol) {
    columnCounts[symbol.index] &-= 1
  }

  /// Drops stale and repeated slots from a column so that it lists exactly its rows.
  mutating func compactColumn(_ symbol: Symbol) {
    markEpoch &+= 1
    if markEpoch == 0 {
      for i in slotMarks.indices { slotMarks[i] = 0 }
      markEpoch = 1
    }
    var list = columns[symbol.index]
    columns[symbol.index] = []
    var kept = 0
    for slot in list {
      let s = Int(slot)
      if slotMarks[s] != markEpoch, rowBasic[s].isValid, rows[s].contains(symbol) {
        slotMarks[s] = markEpoch
        list[kept] = slot
        kept &+= 1
      }
    }
    list.removeLast(list.count - kept)
    columns[symbol.index] = list
  }

  /// The slots of the rows that hold `symbol`, each once.
  mutating func slots(holding symbol: Symbol) -> [Int32] {
    if columns[symbol.index].count != Int(columnCounts[symbol.index]) {
      compactColumn(symbol)
    }
    return columns[symbol.index]
  }

  // MARK: - Rows

  /// Makes `basic` basic with `row` as its definition.
  mutating func addRow(_ row: Row, basic: Symbol) {
    let slot: Int32
    if let free = freeSlots.popLast() {
      slot = free
      rows[Int(slot)] = row
      rowBasic[Int(slot)] = basic
    } else {
      slot = Int32(rows.count)
      rows.append(row)
      rowBasic.append(basic)
      slotMarks.append(0)
    }
    basicSlot[basic.index] = slot
    noteChanged(basic)
    for symbol in row.symbols { noteAdded(symbol, in: slot) }
  }

  /// Takes the row of a basic symbol out of the tableau; the symbol becomes parametric.
  mutating func removeRow(of basic: Symbol) -> Row {
    let slot = Int(basicSlot[basic.index])
    var row = Row()
    swap(&row, &rows[slot])
    for symbol in row.symbols { noteRemoved(symbol) }
    rowBasic[slot] = .invalid
    basicSlot[basic.index] = -1
    noteChanged(basic)
    freeSlots.append(Int32(slot))
    return row
  }

  /// `rows[slot] += k · other`, keeping the column index exact.
  @inline(__always)
  mutating func addToRow(_ slot: Int, _ other: Row, times k: Double) {
    scratch.added.removeAll(keepingCapacity: true)
    scratch.removed.removeAll(keepingCapacity: true)
    rows[slot].add(other, times: k, scratch: &scratch)
    counters.rowsTouched &+= 1
    if other.constant != 0 { noteChanged(rowBasic[slot]) }
    let s32 = Int32(slot)
    for i in scratch.added.indices { noteAdded(scratch.added[i], in: s32) }
    for i in scratch.removed.indices { noteRemoved(scratch.removed[i]) }
  }

  /// `target += k · other` for a row outside the tableau (objective, artificial, a new row).
  @inline(__always)
  mutating func add(_ other: Row, times k: Double, to target: inout Row) {
    target.add(other, times: k, scratch: &scratch)
    scratch.added.removeAll(keepingCapacity: true)
    scratch.removed.removeAll(keepingCapacity: true)
  }

  /// Replaces `symbol` by its definition `row` in every row that holds it and in the
  /// objectives. Rows with a restricted basic symbol that go negative are queued for the dual
  /// simplex.
  mutating func substitute(_ symbol: Symbol, with row: Row) {
    counters.substitutions &+= 1
    var list: [Int32] = []
    swap(&list, &columns[symbol.index])
    for slot32 in list {
      let slot = Int(slot32)
      guard rowBasic[slot].isValid else { continue }
      let c = rows[slot].remove(symbol)
      guard c != 0 else { continue }
      noteRemoved(symbol)
      addToRow(slot, row, times: c)
      let basic = rowBasic[slot]
      if !basic.isExternal && rows[slot].constant < 0 { infeasible.append(basic) }
    }
    list.removeAll(keepingCapacity: true)
    swap(&list, &columns[symbol.index])
    assert(columnCounts[symbol.index] == 0, "substitution left the symbol in a row")
    let c = objective.remove(symbol)
    if c != 0 {
      objective.add(row, times: c, scratch: &scratch)
      scratch.added.removeAll(keepingCapacity: true)
      scratch.removed.removeAll(keepingCapacity: true)
    }
    if artificial != nil {
      let a = artificial!.remove(symbol)
      if a != 0 {
        artificial!.add(row, times: a, scratch: &scratch)
        scratch.added.removeAll(keepingCapacity: true)
        scratch.removed.removeAll(keepingCapacity: true)
      }
    }
  }

  /// Exchanges a basic symbol (`leaving`) for a parametric one (`entering`), in place.
  mutating func pivot(entering: Symbol, leaving: Symbol) {
    counters.pivots &+= 1
    let slot = Int(basicSlot[leaving.index])
    let slot32 = Int32(slot)
    rows[slot].solve(for: entering, replacing: leaving)
    noteAdded(leaving, in: slot32)
    noteRemoved(entering)
    basicSlot[leaving.index] = -1
    basicSlot[entering.index] = slot32
    rowBasic[slot] = entering
    noteChanged(leaving)
    noteChanged(entering)
    substitute(entering, with: rows[slot])
  }
}
