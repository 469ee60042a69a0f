/// The simplex tableau behind a ``Solver``: rows in slots, a column index, values, the
/// objective.
///
/// Each row is an equation `basic = constant + Σ coefficient·symbol` of the system. In the
/// canonical representation (kiwi's), every symbol on a right-hand side is parametric, which
/// makes rows fill in: in a stack of N boxes, box i's position is written in terms of every
/// earlier box's error symbols. In the lazy representation a right-hand side may also name
/// basic symbols, as long as the references form no cycle; a basic symbol's value is then
/// its row evaluated over the values of what it names, and a row is expanded into parametric
/// terms only when a pivot needs it. Both representations hold the same equations and reach
/// the same optimum; the objective is canonical in both.
///
/// Rows live in reusable slots; `basicSlot` maps a basic symbol to its slot. The column index
/// (`columns`) lists, for every symbol, the slots whose rows may name it directly, so that
/// substitutions, suggestions and value updates visit only the rows concerned. Entries are
/// validated lazily: a listed slot whose row no longer names the symbol is skipped and
/// dropped at the next compaction, while each list's count of live rows is kept exact.
///
/// `Tableau` is a value type so that the rare operation that might fail half-way (adding a
/// required constraint through an artificial variable) can restore a copy.
struct Tableau {
  /// Whether rows may name basic symbols (see above). A canonical tableau is also a valid
  /// lazy one, so this can switch from `false` to `true` at any time, never back.
  var lazy: Bool
  /// Cells in all rows, to notice fill-in.
  var cellCount = 0
  /// Rows a substitution rewrote (`substitute(_:with:)`) over the tableau's life: what a
  /// canonical tableau pays for naming parametric symbols only.
  var substitutedRows = 0
  /// Of those, the rows rewritten while constraints were inserted (`Solver.insert`): one of
  /// the adaptive representation's signs to turn lazy. The pivots of suggestions and
  /// removals are left out: they say how often the values move, not how the constraints
  /// tie the variables together.
  var insertRewrites = 0
  /// Rows in the tableau.
  var rowCount = 0

  // MARK: - Per-symbol state, indexed by `Symbol.index`
  var basicSlot: [Int32] = []
  var columns = ColumnLists()
  /// The value of every symbol: its row's value when basic, 0 when parametric.
  var values: [Double] = []
  var freeSymbols: [UInt32] = []
  /// The block of indices reserved for external symbols (`newSymbol(_:)`).
  var externalIndices = IndexBlock()
  /// The same for every other kind: the block they take new indices from.
  var internalIndices = IndexBlock()
  /// How many parametric external symbols some row names. While it is zero, no row's
  /// expansion can hold an unrestricted parametric variable.
  var referencedParametricExternals = 0
  /// The external symbols whose value may have changed since the last read-out, each once,
  /// so a read-out visits only those. Those from `checkedPrefix` on changed since the last
  /// check of the values (`Solver+Audit.swift`); so did those in `rechangedExternals`, which
  /// changed again after that check. Together they are what the check at the end of an
  /// operation that changed rows looks at; a second list only for those would cost an
  /// append per moved value in every tick.
  var changedExternals: [Symbol] = []
  var checkedPrefix = 0
  var rechangedExternals: [Symbol] = []
  /// The generation of the values: each check and each read-out starts a new one. An
  /// external symbol's mark (`SymbolMarks.listed`) is the generation in which it was last
  /// listed: over `readOutGeneration` it is listed for the read-out, and equal to
  /// `checkGeneration` it changed since the last check. A check or a read-out is then one
  /// increment instead of a write per listed symbol (two passes over the moved values of a
  /// tick).
  var checkGeneration: UInt32 = 1
  /// The generation that the last read-out ended.
  var readOutGeneration: UInt32 = 0
  /// Per symbol, a traversal mark, a topological level and the change mark (`SymbolMarks`).
  var symbolMarks: [SymbolMarks] = []
  var visitEpoch: UInt32 = 0
  /// A sparse accumulator for expansions and column computations.
  var accumulator: [Double] = []
  /// The buffer `takeColumn(of:)` lends to the ratio tests.
  var keptColumn: [(basic: Symbol, coefficient: Double)] = []
  /// The highest level ever given (levels only grow), to size the work lists.
  var highestLevel: Int32 = 0
  /// Per-level work lists for `updateValues()`, as linked lists in flat arrays: the first
  /// item of each level, and the items (`LevelQueue.Item`).
  var levelHeads: [Int32] = []
  var queuedItems: [LevelQueue.Item] = []
  /// Columns that `relist(_:from:)` found past their compaction bound, kept between calls.
  var overgrownColumns: [Symbol] = []
  /// Columns that `relist(_:from:)` found full, kept between calls.
  var fullColumns: [Symbol] = []
  /// The work space of `expand(_:slot:)` and `referenceClosure(of:slot:)`
  /// (`Tableau+Expansion.swift`).
  let expansion = ExpansionScratch()
  /// The buffers of rows pivots replaced, emptied: expansions build their results in them.
  var spareRows = RowPool()

  // MARK: - Rows, indexed by slot
  var rows: [Row] = []
  var rowBasic: [Symbol] = []
  var freeSlots: [Int32] = []
  var slotMarks: [UInt32] = []
  var markEpoch: UInt32 = 0
  /// The cells of each row that name basic symbols, for evaluation and for the expansion's
  /// closure (`Tableau+References.swift`): per slot, a span of the arena.
  var referenceSpans: [ReferenceSpan] = []
  var referenceSymbols: [Symbol] = []
  var referenceCoefficients: [Double] = []
  /// Entries of the arena inside known spans (the others are dead).
  var referenceLive = 0

  var objective = Objective()
  /// The phase-one objective while a required constraint is added through an artificial
  /// variable; `nil` otherwise.
  var artificial: Row?
  /// Basic symbols whose values may have gone negative, for the dual simplex.
  var infeasible: [Symbol] = []
  /// Symbols whose value, or whose row, changed since the values were last brought up to
  /// date (`updateValues()`).
  var staleValues: [Symbol] = []
  var scratch = MergeScratch()
  var counters = SolverCounters()
  /// While `logsPivots` is set, pivots are recorded here (entering, leaving) so that they
  /// can be undone. The buffer is kept between operations: a fresh log per constant change
  /// was an allocation in every tick that pivots.
  var pivotLog: [(entering: Symbol, leaving: Symbol)] = []
  var logsPivots = false
  /// Whether primal pivots take the steepest entering symbol while it is cheap to find
  /// (`Objective.enteringSymbol(lowest:)`); tests clear it to compare with the lowest. A
  /// rebuild's fresh tableau starts with it set.
  var steepestEntering = true

  /// Starts recording pivots, from an empty log.
  mutating func startPivotLog() {
    pivotLog.removeAll(keepingCapacity: true)
    logsPivots = true
  }
  /// Bumped by every change to some row's coefficients (not its constant); cached columns
  /// are valid for one version (see `Tableau+ShiftCache.swift`).
  var structureVersion: UInt64 = 0
  /// When set, shifts do not check the basic dummies they move but list them here, for a
  /// check once a batch of shifts is complete (an intermediate state may break a redundant
  /// equality that the batch as a whole keeps).
  var deferredDummyChecks: [Symbol]?
  var shiftCache = ShiftCache()
  /// Whether some cached column has shifts its direct rows' constants do not have yet,
  /// moved externals it has not listed, or a shift its externals' values owe since a
  /// read-out copied them with it (`settleShifts()`).
  var pendingShifts = false
  /// After a failure to make the required constraints hold: the parametric symbols that
  /// blocked it (the last phase-one objective's, or the cells of the row the dual simplex
  /// could not repair). Their constraints are the conflict.
  var blockingSymbols: [Symbol] = []
  /// Set when the tableau showed a sign that round-off has damaged it (an objective that
  /// looked unbounded, a simplex that ran past its pivot budget, a pivot element that was
  /// near zero in its row though not in its column): the solver then rebuilds
  /// it from its constraints (`Solver+Recovery.swift`).
  var damaged = false
  /// Fault injection for tests: `markerLeavingSymbol` forgets the twin rule, as before stop
  /// 69, so that a removal can lose a redundant equality's twin (a fresh tableau, as a
  /// rebuild makes, has it off).
  var skipsTwinRule = false
  /// Set by a pivot that enlarged its row's cells enough (`Tolerance.enlargedRow`) that the
  /// objective's round-off may have grown past the weakest weights: the solver then
  /// recomputes the objective from the constraints' error terms once the operation ends
  /// and re-optimises (`Solver+Recovery.swift`).
  var objectiveSuspect = false
  /// Pivots so far that enlarged their row past `Tolerance.ruinedRow` (each also set
  /// `damaged`). Undoing an insertion's pivots clears the damage they flagged as settled,
  /// but not this: the undo re-pivots through the same ruined cells.
  var ruinousPivots = 0
  /// Whether the end of the operation has work: a rebuild or an objective refresh. (One
  /// read of the tableau where two would each pay the solver's access check.)
  var needsRepair: Bool { damaged || objectiveSuspect }
  /// Whether the values changed by structure since the solver last checked them, or the
  /// tableau is `lossy` (then every operation's values are checked), or the shifts since
  /// every required constraint was last checked may have left too much round-off
  /// (`shiftDrift` past `shiftBudget`).
  var needsAudit: Bool {
    !damaged && (auditedVersion != structureVersion || lossy || shiftDrift > shiftBudget)
  }
  /// Records that the values changed by structure were just checked.
  @inline(__always) mutating func markAudited() { auditedVersion = structureVersion }
  /// Whether a division took a cell of some row under the zero threshold (a coefficient
  /// under 1e-10 after dividing by an element over 1, not a sum's round-off: 5e-5 / 1e6).
  /// A shift of that cell's symbol then leaves the row's value off by the lost cell times
  /// the shift, which the premise of `Solver+Audit.swift` (values moved through rows
  /// already checked stay right) does not cover: with `y == 1e6` and `1e6·x + 5e-5·y == 1`,
  /// moving `y` to 2e6 by its constant left `x` at -4.9e-5, the second constraint 50 off,
  /// and nothing checked it (stop 59, a fresh-eyes review). So every operation on such a
  /// tableau ends with the check, which rebuilds it when a shift shows the lost cell. A
  /// new tableau (a rebuild) starts without the mark.
  var lossy = false
  /// Whether a canonical tableau reads a symbol's column from the rows that name it
  /// (`column(of:)`); tests turn it off to compare with the general traversal.
  var readsColumnsFromRows = true
  /// The `structureVersion` at which the solver last checked the values against its
  /// required constraints (`Solver+Recovery.swift`); none yet in a new tableau.
  var auditedVersion = UInt64.max
  /// The magnitudes of the shifts since every required constraint was last checked (or
  /// since the tableau was built): each shift's size times the largest coefficient it moved
  /// a value or a row's constant by. A shift adds to what it moves, so each unit of it can
  /// leave up to an ulp of round-off per unit of a constraint's coefficients, and it can take
  /// as much off a constraint's magnitudes (values swung out to 1e9 and back: what a check
  /// at 1e9 let through can break the constraint at 0.3). Suggestions of 1e9 and then 0.3
  /// left `s == x + 0.1` 1.3e-8 off with no row changed, so no check ran before the
  /// read-out (a fresh-eyes review, stop 60). Past `shiftBudget`, the operation ends with
  /// the check of every required constraint (`Solver.checkDrift()`), which sets the next
  /// budget.
  var shiftDrift = 0.0
  /// How far `shiftDrift` may grow before that check: `Tolerance.shiftDrift` in a new
  /// tableau, then what the last such check found every required constraint could take
  /// (`Audit.measure`).
  var shiftBudget = Tolerance.shiftDrift
  /// Per slot: the required constraint whose own equation its row still is, if any
  /// (`Tableau+OwnRows.swift`).
  var owners: [RowOwner] = []
  /// Per symbol: the slot of the own row whose marker it is, else -1 (or past the end:
  /// only as long as the highest marker of an own row, so that making a symbol costs
  /// nothing more).
  var markerOwners: [Int32] = []
  /// Records whose rows stopped being their own since the solver last took the list
  /// (`Solver.takeDisowned()`): their constraints are checked again.
  var disowned: [Int32] = []
  /// Whether values moved through a cached column since the last check: by a multiple of
  /// the shift, not by evaluating their rows, so an own row's subject can be an ulp of the
  /// largest value it went through away from its row (a suggestion of 1e9 then of 0.3 left
  /// `s == x + 0.1` 2.4e-8 off, 13 times what the check allows; a fresh-eyes review, stop
  /// 60). The next check then evaluates the owned constraints of the changed values too,
  /// as it did before rows were owned.
  var shiftedThroughCache = false
  /// Whether values ever moved through a cached column in this tableau (for the internal
  /// checks, which then do not expect owned constraints to hold to the check's tolerance
  /// between checks).
  var everShiftedThroughCache = false

  init(lazy: Bool) {
    self.lazy = lazy
    reserveFirstRoom()
  }

  /// Rows (and columns of the ratio tests) a tableau has room for when it is made: grown
  /// from empty by doubling, each per-row array was reallocated five or six times on the
  /// way to the hundred rows of a small system (kiwi's enaml system: 40 of the 624 mallocs
  /// of its build, with the solver's per-variable and per-constraint arrays 90). 64 rows
  /// take about 4 KB.
  static var firstRoom: Int { 64 }

  private mutating func reserveFirstRoom() {
    let room = Tableau.firstRoom
    rows.reserveCapacity(room)
    rowBasic.reserveCapacity(room)
    slotMarks.reserveCapacity(room)
    referenceSpans.reserveCapacity(room)
    owners.reserveCapacity(room)
    keptColumn.reserveCapacity(room)
  }

  // MARK: - Symbols

  /// A new symbol of `kind`. An external takes the next index of the block of
  /// ``externalBlock`` indices reserved for externals (a new block at the end when the last
  /// one is full); any other kind takes a recycled index, or else the next index of its own
  /// block of ``internalBlock``.
  ///
  /// Externals are what a read-out copies and what a client reads, and every variable
  /// brings a slack or two errors per constraint along: made in the order of creation,
  /// a child of a container had its width ten symbols (80 bytes of values) from the next
  /// child's, so a tick that moved every child read and wrote a line of `values` per
  /// child. In blocks, the externals of consecutive variables share lines.
  ///
  /// The other kinds take blocks so that the per-symbol arrays grow a block at a time: one
  /// by one, each new index was appended to five arrays, a uniqueness and a capacity check
  /// each; in blocks, a build of kiwi's enaml system and the cold build of a 300-cell feed
  /// take 1.7% fewer instructions (stop 64).
  ///
  /// Orders are kept. Externals are never recycled, so only the other kinds' indices come
  /// back, in the same order as before. A new index of a kind is past every index of the
  /// kinds sharing its blocks given so far (blocks open at the end and fill in order), and a
  /// recycled one was given before it. So two symbols of one kind compare as they would
  /// have without blocks (kinds compare by kind first): every ordering by `Symbol`, and so
  /// every pivot, is the one before.
  mutating func newSymbol(_ kind: Symbol.Kind) -> Symbol {
    if kind == .external {
      // Taken out of `self` while a block may be appended to the arrays.
      var block = externalIndices
      defer { externalIndices = block }
      return Symbol(.external, index: takeIndex(from: &block, size: Tableau.externalBlock))
    }
    if let index = freeSymbols.popLast() {
      values[Int(index)] = 0
      symbolMarks[Int(index)].level = 0
      return Symbol(kind, index: Int(index))
    }
    var block = internalIndices
    defer { internalIndices = block }
    return Symbol(kind, index: takeIndex(from: &block, size: Tableau.internalBlock))
  }

  /// A range of indices reserved at the end of the per-symbol arrays, given out in order.
  struct IndexBlock {
    var next = 0
    var end = 0
  }

  /// The next index of `block`, a new block of `size` at the end when it is used up.
  @inline(__always)
  private mutating func takeIndex(from block: inout IndexBlock, size: Int) -> Int {
    if block.next == block.end {
      block.next = basicSlot.count
      block.end = block.next + size
      appendSymbolSlots(size)
    }
    block.next += 1
    return block.next - 1
  }

  /// How many indices externals reserve at a time: eight cache lines of `values`, the
  /// variables of sixteen views made one after another. At most this many less one stay
  /// unused, in the last block opened.
  static let externalBlock = 64

  /// How many indices the other kinds reserve at a time (slacks, errors and dummies: one
  /// to three per constraint).
  static let internalBlock = 32

  /// Adds `count` indices to the per-symbol arrays: parametric symbols that no row names.
  private mutating func appendSymbolSlots(_ count: Int) {
    precondition(
      basicSlot.count + count <= Int(Symbol.indexMask), "too many solver symbols")
    basicSlot.append(contentsOf: repeatElement(-1, count: count))
    columns.addSymbols(count)
    values.append(contentsOf: repeatElement(0, count: count))
    symbolMarks.append(contentsOf: repeatElement(SymbolMarks(), count: count))
    accumulator.append(contentsOf: repeatElement(0, count: count))
  }

  /// Recycles a symbol that no row refers to any more.
  mutating func releaseSymbol(_ symbol: Symbol) {
    guard symbol.isValid, basicSlot[symbol.index] < 0, columnCount(symbol.index) == 0 else {
      return
    }
    disownMarker(symbol)
    objective.remove(symbol)
    columns.removeAll(symbol.index)
    values[symbol.index] = 0
    // Its index will name another symbol: no work list may still hold this one.
    infeasible.removeAll { $0 == symbol }
    freeSymbols.append(UInt32(symbol.index))
  }

  @inline(__always) func isBasic(_ symbol: Symbol) -> Bool { basicSlot[symbol.index] >= 0 }

  /// The row of a basic symbol.
  @inline(__always) func row(of symbol: Symbol) -> Row? {
    let slot = basicSlot[symbol.index]
    return slot >= 0 ? rows[Int(slot)] : nil
  }

  /// Hands the externals of each cached column shifted since the last call without
  /// listing them to `shifted` (`ShiftColumn.unlisted`), with whether their entries hold
  /// their variables (it stores them when not) and the shift still to add to their values
  /// (it adds it to the copies and leaves the values owing it,
  /// `ShiftColumn.externalShift`); then every external symbol listed as changed to `body`,
  /// with the values by symbol index, as buffers: the whole list at once, so that a loop
  /// can request the lines of values some way ahead. A symbol may come more than once, each
  /// time at its final value: the columns come first (a listed symbol that a column also
  /// moves was listed before the column's shift, which a settle would otherwise have
  /// applied), and when a column's shift waits or is owed and anything else is handed over
  /// (another column, or listed symbols), every column's shift is added to the values
  /// first. The values read out are the audited ones: the list of
  /// unchecked values empties too.
  @inline(__always)
  mutating func drainChangedList(
    _ body: (UnsafeBufferPointer<Symbol>, UnsafeBufferPointer<Double>) -> Void,
    shifted: (
      UnsafeMutableBufferPointer<ShiftEntry<Symbol>>, Bool, Double,
      UnsafeMutableBufferPointer<Double>
    ) -> Void
  ) {
    if pendingShifts {
      var values: [Double] = []
      swap(&values, &self.values)
      values.withUnsafeMutableBufferPointer { values in
        drainUnlistedColumns(values: values, listed: changedExternals.count) {
          shifted($0, $1, $2, values)
        }
      }
      swap(&values, &self.values)
    }
    values.withUnsafeBufferPointer { values in
      changedExternals.withUnsafeBufferPointer { changed in body(changed, values) }
    }
    // Emptying an array costs a generic range replacement (66 instructions, 3% of an enaml
    // tick): skipped when empty, as the list is after a run of cached shifts, and the
    // second list nearly always. (`removeAllKeepingCapacity` here changed how the
    // read-out's copy loop was compiled: 2 more instructions per moved value, a feed text
    // tick of 1,000 cells 0.6% dearer.)
    if !changedExternals.isEmpty { changedExternals.removeAll(keepingCapacity: true) }
    if !rechangedExternals.isEmpty { rechangedExternals.removeAll(keepingCapacity: true) }
    checkedPrefix = 0
    // No symbol is listed any more: every mark is at most the generation that ends here.
    nextCheckGeneration()
    readOutGeneration = checkGeneration &- 1
  }

  /// Notes that the values were checked: none is unchecked any more.
  mutating func markChecked() {
    checkedPrefix = changedExternals.count
    rechangedExternals.removeAllKeepingCapacity()
    nextCheckGeneration()
  }

  /// Starts a new generation. Before the counter would wrap, the marks are renumbered: a
  /// listed symbol's to 1 (as if unchecked, which the caller then ends), any other's to 0.
  private mutating func nextCheckGeneration() {
    if checkGeneration == UInt32.max {
      let readOut = readOutGeneration
      for i in symbolMarks.indices {
        symbolMarks[i].listed = symbolMarks[i].listed > readOut ? 1 : 0
      }
      readOutGeneration = 0
      checkGeneration = 1
    }
    checkGeneration &+= 1
  }

  /// Whether an external symbol is listed for the next read-out, and whether it changed
  /// since the last check (then it is listed too).
  func changeState(of symbol: Symbol) -> (listed: Bool, unchecked: Bool) {
    let mark = symbolMarks[symbol.index].listed
    return (mark > readOutGeneration, mark == checkGeneration)
  }

  /// Notes that an external symbol's value may have changed, for the next read-out and the
  /// next audit.
  @inline(__always) mutating func noteChanged(_ symbol: Symbol) {
    guard symbol.isExternal else { return }
    Tableau.flagChanged(
      symbol, in: &symbolMarks[symbol.index].listed, generation: checkGeneration,
      readOut: readOutGeneration, &changedExternals, &rechangedExternals)
  }

  /// Lists `symbol` as changed since the last read-out and the last check, unless its mark
  /// says it already is (`checkGeneration`): new since the read-out, it joins
  /// `changedExternals` (past `checkedPrefix`); changed again after a check,
  /// `rechangedExternals`.
  @inline(__always)
  static func flagChanged(
    _ symbol: Symbol, in mark: inout UInt32, generation: UInt32, readOut: UInt32,
    _ changedExternals: inout [Symbol], _ rechangedExternals: inout [Symbol]
  ) {
    switch listing(mark, generation: generation, readOut: readOut) {
    case .listed: return
    case .again: rechangedExternals.append(symbol)
    case .new: changedExternals.append(symbol)
    }
    mark = generation
  }

  /// Which list a changed external with this mark joins, if any.
  enum Listing { case listed, new, again }

  @inline(__always)
  static func listing(_ mark: UInt32, generation: UInt32, readOut: UInt32) -> Listing {
    mark == generation ? .listed : mark > readOut ? .again : .new
  }

  // MARK: - Column index

  /// Lists `slot` in `symbol`'s column; the row at `slot` already names the symbol.
  ///
  /// The row at `slot` did not name the symbol until now, so an entry for `slot` among the
  /// list's last four is stale and becomes valid again: nothing is appended then
  /// (`ColumnLists.append`). This is the common case in a stack: the same few slots take
  /// turns holding a dense expanded row (a cell per box), and each turn would add a stale
  /// entry to every box's column.
  @inline(__always) mutating func noteAdded(_ symbol: Symbol, in slot: Int32) {
    let i = symbol.index
    columns.append(slot, to: i)
    let live = columns.addLive(i, 1)
    cellCount &+= 1
    if live == 1 && symbol.isExternal && basicSlot[i] < 0 {
      referencedParametricExternals &+= 1
    }
    if ColumnLists.isOvergrown(count: columns.count(i), live: Int(live)) { compactColumn(symbol) }
  }

  /// `noteAdded(_:in:)` for each of `symbols`, in order (the symbols a merge added to the
  /// row at `slot`). Lists with room are appended to over raw buffers, in one scope for
  /// many symbols; one that must grow, or be compacted after the append, goes through the
  /// arrays. (Through them, each symbol cost three uniqueness checks: a canonical build
  /// lists a few symbols per merge, and merges several times per constraint.)
  mutating func noteAdded(_ symbols: UnsafeBufferPointer<Symbol>, in slot: Int32) {
    var k = 0
    while k < symbols.count {
      var parametric = 0
      let start = k
      // Whether the list of the symbol before `k` needs compacting (else the fast loop
      // stopped at `k`, whose list is full, or ran out).
      let compact = basicSlot.withUnsafeBufferPointer { basicSlot in
        columns.withUnsafeMutableBuffers { extents, entries in
          while k < symbols.count {
            let symbol = symbols[k]
            let i = symbol.index
            guard ColumnLists.appendInPlace(slot, to: i, extents, entries) else { return false }
            k &+= 1
            extents[i].live &+= 1
            let live = Int(extents[i].live)
            if live == 1 && symbol.isExternal && basicSlot[i] < 0 { parametric &+= 1 }
            if ColumnLists.isOvergrown(count: Int(extents[i].count), live: live) { return true }
          }
          return false
        }
      }
      cellCount &+= k &- start
      referencedParametricExternals &+= parametric
      if compact {
        compactColumn(symbols[k &- 1])
      } else if k < symbols.count {
        noteAdded(symbols[k], in: slot)
        k &+= 1
      }
    }
  }

  @inline(__always) mutating func noteRemoved(_ symbol: Symbol) {
    let live = columns.addLive(symbol.index, -1)
    cellCount &-= 1
    if live == 0 && symbol.isExternal && basicSlot[symbol.index] < 0 {
      referencedParametricExternals &-= 1
    }
  }

  /// The number of rows that name the symbol at `index` (exact, where its list may also
  /// hold stale slots).
  @inline(__always) func columnCount(_ index: Int) -> Int32 { columns.liveCount(index) }

  /// Records that `symbol` became basic (`true`) or parametric, for
  /// `referencedParametricExternals`.
  @inline(__always) mutating func noteBasis(_ symbol: Symbol, basic: Bool) {
    guard symbol.isExternal && columnCount(symbol.index) > 0 else { return }
    referencedParametricExternals &+= basic ? -1 : 1
  }

  /// Drops stale and repeated slots from a column so that it lists exactly its rows.
  mutating func compactColumn(_ symbol: Symbol) {
    var epoch = markEpoch
    // Over raw buffers: through the arrays, each entry cost two uniqueness checks and a
    // retain of its row (a canonical build compacts a column every few constraints).
    rows.withReadBuffer { rows in
      rowBasic.withReadBuffer { rowBasic in
        slotMarks.withUnsafeMutableBufferPointer { marks in
          columns.withUnsafeMutableBuffers { extents, entries in
            Tableau.compactList(
              of: symbol, epoch: &epoch, rows: rows, rowBasic: rowBasic, slotMarks: marks,
              extents: extents, entries: entries)
          }
        }
      }
    }
    markEpoch = epoch
  }

  /// `compactColumn(_:)` over raw buffers when the list holds stale or repeated slots
  /// (more entries than rows that name the symbol).
  @inline(__always)
  static func compactListIfNeeded(
    of symbol: Symbol, epoch: inout UInt32, rows: UnsafeBufferPointer<Row>,
    rowBasic: UnsafeBufferPointer<Symbol>, slotMarks: UnsafeMutableBufferPointer<UInt32>,
    extents: UnsafeMutableBufferPointer<ColumnExtent>, entries: UnsafeMutableBufferPointer<Int32>
  ) {
    let extent = extents[symbol.index]
    guard extent.count != extent.live else { return }
    compactList(
      of: symbol, epoch: &epoch, rows: rows, rowBasic: rowBasic, slotMarks: slotMarks,
      extents: extents, entries: entries)
  }

  /// The pass of `compactColumn(_:)`: keeps the slots whose rows name `symbol`, each once
  /// (marked in `slotMarks` with a new `epoch`, the tableau's `markEpoch`), in place.
  static func compactList(
    of symbol: Symbol, epoch: inout UInt32, rows: UnsafeBufferPointer<Row>,
    rowBasic: UnsafeBufferPointer<Symbol>, slotMarks marks: UnsafeMutableBufferPointer<UInt32>,
    extents: UnsafeMutableBufferPointer<ColumnExtent>, entries: UnsafeMutableBufferPointer<Int32>
  ) {
    epoch &+= 1
    if epoch == 0 {
      for i in marks.indices { marks[i] = 0 }
      epoch = 1
    }
    let index = symbol.index
    let start = Int(extents[index].start)
    var kept = 0
    for k in 0..<Int(extents[index].count) {
      let slot = entries[start &+ k]
      let s = Int(slot)
      if marks[s] != epoch, rowBasic[s].isValid, rows[s].contains(symbol) {
        marks[s] = epoch
        entries[start &+ kept] = slot
        kept &+= 1
      }
    }
    extents[index].count = Int32(kept)
  }

  /// The slots of the rows that name `symbol` directly, each once.
  mutating func slots(holding symbol: Symbol) -> ArraySlice<Int32> {
    if columns.count(symbol.index) != Int(columnCount(symbol.index)) {
      compactColumn(symbol)
    }
    return columns.list(symbol.index)
  }

  // MARK: - Rows

  /// Makes `basic` basic with `row` as its definition.
  mutating func addRow(_ row: Row, basic: Symbol) {
    structureChanged()
    let slot: Int32
    disownMarker(basic)
    if let free = freeSlots.popLast() {
      slot = free
      disown(Int(slot))
      rows[Int(slot)] = row
      rowBasic[Int(slot)] = basic
      forgetReferences(Int(slot))
    } else {
      slot = Int32(rows.count)
      rows.append(row)
      rowBasic.append(basic)
      slotMarks.append(0)
      referenceSpans.append(.unknown)
      owners.append(RowOwner())
    }
    // Rows that name the new basic symbol now name a basic one.
    referencesGained(basic)
    noteBasis(basic, basic: true)
    basicSlot[basic.index] = slot
    rowCount &+= 1
    // Over the cells, unretained (the caller holds the row): `row.symbols` made a view of
    // the cells that retained the row's storage, a retain and a release per row added.
    for symbol in row.unretainedHandle.symbols { noteAdded(symbol, in: slot) }
    setLevel(basic, level(of: row))
    staleValues.append(basic)
  }

  /// Takes the row of a basic symbol out of the tableau; the symbol becomes parametric.
  mutating func removeRow(of basic: Symbol) -> Row {
    structureChanged()
    let slot = Int(basicSlot[basic.index])
    disown(slot)
    var row = Row()
    swap(&row, &rows[slot])
    for symbol in row.unretainedHandle.symbols { noteRemoved(symbol) }
    forgetReferences(slot)
    referencesLost(basic)
    rowBasic[slot] = .invalid
    basicSlot[basic.index] = -1
    rowCount &-= 1
    symbolMarks[basic.index].level = 0
    noteBasis(basic, basic: false)
    freeSlots.append(Int32(slot))
    staleValues.append(basic)
    return row
  }

  /// Replaces the row in `slot` by an equivalent one (its expansion), keeping the index.
  ///
  /// Only the symbols that differ between the two rows touch the column index: a dense row
  /// expanded again after a few cells of it became basic keeps most of its symbols, whose
  /// columns already list this slot (both rows are sorted, so one merge finds them).
  mutating func replaceRow(_ slot: Int, with row: consuming Row) {
    structureChanged()
    // The new row is in place before any column is touched: a compaction that `noteAdded`
    // may start checks the slot's row. It is moved in, not copied, so that the pivot that
    // follows changes it without copying its buffers.
    disown(slot)
    var old = row
    swap(&old, &rows[slot])
    forgetReferences(slot)
    relist(slot, from: old)
    // The old row's buffers are for the next expansions.
    spareRows.give(consume old)
  }

  /// The level a basic symbol with this row needs. (Inlined, as `evaluate(_:)` is, so that
  /// `addRow` does not copy the tableau to call it.)
  @inline(__always)
  func level(of row: Row) -> Int32 {
    var highest: Int32 = 0
    for s in row.unretainedHandle.symbols where basicSlot[s.index] >= 0 {
      highest = Swift.max(highest, symbolMarks[s.index].level)
    }
    return highest &+ 1
  }

  /// Sets a basic symbol's level, raising the rows that name it (and theirs) as needed.
  ///
  /// Over raw buffers, the lists compacted in place as the walk reaches them, as
  /// `dependents(of:)` walks: through the arrays, this was 5% of a build of kiwi's enaml
  /// system (a pivot sets the entering symbol's level).
  mutating func setLevel(_ symbol: Symbol, _ level: Int32) {
    symbolMarks[symbol.index].level = level
    if level > highestLevel { highestLevel = level }
    if columnCount(symbol.index) == 0 { return }
    // The scratch lent unretained (a `let` of the tableau): bound to a local, it was
    // retained and released per call.
    return Unmanaged.passUnretained(expansion)._withUnsafeGuaranteedRef { stack in
      var highest = highestLevel
      var listEpoch = markEpoch
      rows.withReadBuffer { rows in
        rowBasic.withReadBuffer { rowBasic in
          symbolMarks.withUnsafeMutableBufferPointer { marks in
            slotMarks.withUnsafeMutableBufferPointer { slotMarks in
              columns.withUnsafeMutableBuffers { extents, entries in
                stack.touched.reserve(1)
                stack.touched.base[0] = symbol
                var depth = 1
                while depth > 0 {
                  depth &-= 1
                  let s = stack.touched.base[depth]
                  let above = marks[s.index].level &+ 1
                  Tableau.compactListIfNeeded(
                    of: s, epoch: &listEpoch, rows: rows, rowBasic: rowBasic,
                    slotMarks: slotMarks, extents: extents, entries: entries)
                  let extent = extents[s.index]
                  let start = Int(extent.start)
                  for k in 0..<Int(extent.count) {
                    let r = rowBasic[Int(entries[start &+ k])]
                    if marks[r.index].level < above {
                      marks[r.index].level = above
                      if above > highest { highest = above }
                      stack.touched.reserve(depth &+ 1, keeping: depth)
                      stack.touched.base[depth] = r
                      depth &+= 1
                    }
                  }
                }
              }
            }
          }
        }
      }
      highestLevel = highest
      markEpoch = listEpoch
    }
  }

  /// `rows[slot] += k · other`, keeping the column index exact.
  @inline(__always)
  mutating func addToRow(
    _ slot: Int, _ other: Row, times k: Double, dropping dropped: Symbol = .invalid
  ) {
    structureChanged()
    disown(slot)
    rows[slot].add(other, times: k, dropping: dropped, scratch: &scratch)
    forgetReferences(slot)
    counters.rowsTouched &+= 1
    let s32 = Int32(slot)
    // The lists stay valid through the loops: only a merge rewrites them.
    noteAdded(scratch.added, in: s32)
    for symbol in scratch.removed { noteRemoved(symbol) }
  }

  /// `target += k · other` for a row outside the tableau (objective, artificial, a new row).
  @inline(__always)
  mutating func add(_ other: Row, times k: Double, to target: inout Row) {
    target.add(other, times: k, scratch: &scratch)
  }

  /// `target += k · (the row of basic)` for a row outside the tableau. (The row is lent in
  /// place: `row(of:)` copied it out, a retain and a release.)
  @inline(__always)
  mutating func add(rowOf basic: Symbol, times k: Double, to target: inout Row) {
    target.add(rows[Int(basicSlot[basic.index])], times: k, scratch: &scratch)
  }

  /// Replaces `symbol` by `row` in the objectives.
  mutating func substituteInObjectives(_ symbol: Symbol, with row: Row) {
    objective.substitute(symbol, with: row)
    if artificial != nil {
      let a = artificial!.remove(symbol)
      if a != 0 {
        artificial!.add(row, times: a, scratch: &scratch)
      }
    }
  }

  /// Replaces `symbol` by its definition `row` in every row that names it and in the
  /// objectives. The rows' values are brought up to date by the caller.
  mutating func substitute(_ symbol: Symbol, with row: Row) {
    structureChanged()
    counters.substitutions &+= 1
    // A new row's subject is often named by no row yet (a variable's first constraint).
    let index = symbol.index
    guard columns.count(index) > 0 else {
      assert(columnCount(symbol.index) == 0, "a row names the symbol but its list is empty")
      substituteInObjectives(symbol, with: row)
      return
    }
    // By index, not through a slice of the lists: the merges below add other symbols'
    // entries, which can reallocate the shared array (a held slice would then copy it).
    let listed = columns.count(index)
    for k in 0..<listed {
      let slot = Int(columns.entry(index, k))
      guard rowBasic[slot].isValid else { continue }
      // One merge both drops the symbol's cell and adds its definition in its place.
      let c = rows[slot].coefficient(for: symbol)
      guard c != 0 else { continue }
      noteRemoved(symbol)
      addToRow(slot, row, times: c, dropping: symbol)
      staleValues.append(rowBasic[slot])
      substitutedRows &+= 1
    }
    assert(columns.count(index) == listed, "a merge listed the substituted symbol")
    columns.removeAll(index)
    assert(columnCount(symbol.index) == 0, "substitution left the symbol in a row")
    substituteInObjectives(symbol, with: row)
  }

  /// Exchanges a basic symbol (`leaving`) for a parametric one (`entering`), in place.
  /// `expanded` is the leaving row already expanded into parametric terms, when the caller
  /// has it.
  ///
  /// Returns `false`, with the tableau marked damaged and the basis unchanged, when the
  /// entering symbol's cell in the (expanded) row is near zero. The lazy ratio tests read
  /// a symbol's column through sums other than the expansion's, so at a pivot element near
  /// the threshold the two can disagree (seed 90307 of 2-200 boxes: a column entry of
  /// 1e-8 whose expanded cell was a dropped residue); dividing by it gave infinite values.
  /// A pivot that enlarges its row past `Tolerance.ruinedRow` is made, and marks the tableau
  /// damaged (rebuilt once the operation ends).
  mutating func pivot(entering: Symbol, leaving: Symbol, expanded: consuming Row? = nil)
    -> Bool
  {
    let slot = Int(basicSlot[leaving.index])
    // The entering symbol's row must be canonical: then rows naming it stay acyclic. (An
    // expansion is the same equation: it may stay in place when the pivot is refused.)
    if let expanded = expanded.take() {
      replaceRow(slot, with: expanded)
    } else if lazy && namesBasicSymbols(slot: slot) {
      replaceRow(slot, with: expand(rows[slot], slot: slot))
    }
    let element = rows[slot].coefficient(for: entering)
    guard !nearZero(element) else {
      damaged = true
      return false
    }
    counters.pivots &+= 1
    structureChanged()
    if logsPivots { pivotLog.append((entering, leaving)) }
    let scaling = rows[slot].solve(for: entering, replacing: leaving)
    // The row names parametric symbols only here: a cell it drops moves no value.
    noteSolvedRow(
      slot, entering: entering, leaving: leaving, largest: scaling.largest,
      vanished: scaling.vanished)
    swapBasis(entering: entering, leaving: leaving, slot: slot)
    // The pivot row names parametric symbols only (canonical, or expanded above), and the
    // leaving symbol is parametric now: its level is 1 without a pass over its cells.
    assert(level(of: rows[slot]) == 1, "a pivot row names a basic symbol")
    if lazy {
      setLevel(entering, 1)
    } else {
      // The substitution below takes the entering symbol out of every row that names it,
      // so no row sits above it: raising them first (a pass over its column, and theirs)
      // was work for nothing, a twentieth of a canonical build.
      symbolMarks[entering.index].level = 1
      if highestLevel < 1 { highestLevel = 1 }
    }
    staleValues.append(leaving)
    staleValues.append(entering)
    if lazy {
      substituteInObjectives(entering, with: rows[slot])
    } else {
      substitute(entering, with: rows[slot])
    }
    updateValues()
    return true
  }

  /// The row side of both pivots: the row in `slot`, just solved for `entering` in place of
  /// `leaving`, whose division left cells as large as `largest` (the expansion's too, for
  /// an in-place pivot) and, when `vanished`, cells under the zero threshold (a division by
  /// an element over 1), which no row keeps. Large cells make the objective suspect, or the
  /// tableau damaged (`Tolerance.enlargedRow`, `Tolerance.ruinedRow`).
  @inline(__always)
  private mutating func noteSolvedRow(
    _ slot: Int, entering: Symbol, leaving: Symbol, largest: Double, vanished: Bool
  ) {
    if largest > Tolerance.enlargedRow {
      objectiveSuspect = true
      if largest > Tolerance.ruinedRow {
        damaged = true
        ruinousPivots &+= 1
      }
    }
    noteAdded(leaving, in: Int32(slot))
    noteRemoved(entering)
    if vanished {
      markLossy()
      for symbol in rows[slot].removeZeroCells() { noteRemoved(symbol) }
    }
  }

  /// The basis side of both pivots on the row in `slot`: `entering` becomes its basic
  /// symbol and `leaving` a parametric one (on level 0). The row changed, and rows that name
  /// either symbol now name a basic one more or less: the reference cache forgets them.
  @inline(__always)
  private mutating func swapBasis(entering: Symbol, leaving: Symbol, slot: Int) {
    disown(slot)
    disownMarker(entering)
    noteBasis(entering, basic: true)
    basicSlot[entering.index] = Int32(slot)
    basicSlot[leaving.index] = -1
    noteBasis(leaving, basic: false)
    rowBasic[slot] = entering
    forgetReferences(slot)
    referencesGained(entering)
    referencesLost(leaving)
    symbolMarks[leaving.index].level = 0
  }

  /// The dual simplex's pivot on a row that names basic symbols, when the entering symbol's
  /// cell is the row's own (`lastClosureNames(_:besides:)` is false): the row stays as it
  /// is, solved for the entering symbol, whose new row then names the same basic symbols
  /// (and sits on a level above theirs); only the objectives take `expanded`, the row's
  /// expansion, solved the same way, since they must name parametric symbols only.
  ///
  /// The expansion stays out of the tableau, and its buffers go back to the spares.
  /// Installed (`pivot(entering:leaving:expanded:)`), it stayed for good, longer than the
  /// row it replaced, and its buffer was a new allocation until the spares held one as
  /// large: after 300 warm-up text ticks on 1,000 views, grid ticks allocated 0.46 times
  /// each, balanced 0.253, random 0.052, feed 0.568; with this pivot 0.018, 0.025, 0.008
  /// and 0.39. Only for small expansions (`inPlaceExpansionLimit`). Returns `false` as
  /// that pivot does.
  ///
  /// The row left lazy sums its value through references, and may land an ulp from where
  /// the installed expansion's constant stood; read-outs keep such values
  /// (`Tolerance.sameReading`), which this pivot needs: without them it moved frames by an
  /// ulp (grid 1,000 text, 600 ticks: 682 frame changes under 1e-6 points against 497),
  /// and layouts ran again for nothing (stop 55).
  mutating func pivotInPlace(
    entering: Symbol, leaving: Symbol, expanded definition: consuming Row
  ) -> Bool {
    let slot = Int(basicSlot[leaving.index])
    let element = rows[slot].coefficient(for: entering)
    assert(
      element == definition.coefficient(for: entering), "the entering cell is not the row's own")
    guard !nearZero(element) else {
      damaged = true
      spareRows.give(consume definition)
      return false
    }
    counters.pivots &+= 1
    structureChanged()
    if logsPivots { pivotLog.append((entering, leaving)) }
    let scaling = rows[slot].solve(for: entering, replacing: leaving)
    let definitionScaling = definition.solve(for: entering, replacing: leaving)
    noteSolvedRow(
      slot, entering: entering, leaving: leaving,
      largest: Swift.max(scaling.largest, definitionScaling.largest), vanished: scaling.vanished)
    if definitionScaling.vanished { _ = definition.removeZeroCells() }
    swapBasis(entering: entering, leaving: leaving, slot: slot)
    // Above every basic symbol the row still names; the rows that name the entering symbol
    // are raised above it.
    setLevel(entering, level(of: rows[slot]))
    staleValues.append(leaving)
    staleValues.append(entering)
    substituteInObjectives(entering, with: definition)
    spareRows.give(consume definition)
    updateValues()
    return true
  }
}

/// A symbol's traversal mark, topological level and change mark, side by side: the value
/// pass reads them all for every symbol it queues (in three arrays, three cache misses per
/// updated value in a large tree).
struct SymbolMarks {
  /// Marked in the current traversal when equal to `Tableau.visitEpoch` (expansions,
  /// column computations, the value pass).
  var visit: UInt32 = 0
  /// 0 when parametric, else one more than the highest level among the basic symbols its
  /// row names. Rows that name a symbol always sit higher, so values can be brought up to
  /// date level by level, visiting only rows whose inputs changed. Levels are upper bounds:
  /// they are raised when needed, never lowered below that rule.
  var level: Int32 = 0
  /// The generation of the values in which an external symbol was last listed as changed
  /// (`Tableau.checkGeneration`; 0 when never).
  var listed: UInt32 = 0
}
