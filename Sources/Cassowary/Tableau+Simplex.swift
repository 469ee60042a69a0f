// The simplex proper: primal optimisation after adding or removing constraints, dual
// optimisation after suggestions and constant changes and for required constraints that
// have no natural subject (`addByDualSimplex`), and phase one, which decides those the dual
// simplex cannot finish and adds them in rebuilds. Ratios use the symbols' values and
// canonical columns, so they are the same in both representations.

extension Tableau {
  // MARK: - Primal simplex

  /// Minimises the objective (or the phase-one objective) by primal pivots.
  mutating func optimize(artificialPhase: Bool = false) {
    var budget = pivotBudget
    let cellLimit = self.cellLimit
    // Degenerate pivots in a row (no progress): past a few, the lowest symbol enters (see
    // `enteringSymbol(_:lowest:)` and `Objective.enteringSymbol(lowest:)`).
    var degenerate = 0
    while true {
      let lowest = degenerate >= Tableau.degenerateRunLimit
      let entering =
        artificialPhase
        ? enteringSymbol(artificial!, lowest: lowest)
        : objective.enteringSymbol(lowest: lowest || !steepestEntering)
      guard entering.isValid else { return }
      let leaving = leavingSymbol(for: entering)
      guard leaving.isValid else {
        // The objective is a sum of non-negative errors with positive weights, so it is
        // bounded below and a real entering symbol always has a leaving row. One without is
        // round-off: a coefficient left just above the near-zero threshold after its
        // constraint went away (kiwi stops with "the objective is unbounded" here). Dropping
        // it changes the objective by less than the tolerance.
        // A larger one means the rows and the objective no longer agree: the tableau is
        // rebuilt once the operation ends.
        let residue =
          artificialPhase ? artificial!.remove(entering) : objective.remove(entering)
        if abs(residue) >= 1e-6 { damaged = true }
        counters.repairs &+= 1
        continue
      }
      // Neither the steepest entering symbol nor the largest pivot element among tied
      // leaving rows is proof against cycling, and round-off can make any rule cycle. Past
      // the budget the tableau is treated as damaged (and rebuilt) rather than left to spin.
      budget -= 1
      if budget < 0 || cellCount > cellLimit {
        damaged = true
        return
      }
      raiseRoundOffDeficit(of: leaving)
      degenerate = nearZero(values[leaving.index]) ? degenerate + 1 : 0
      guard pivot(entering: entering, leaving: leaving) else { return }
    }
  }

  /// Degenerate pivots in a row (either phase) after which the lowest symbol enters.
  static let degenerateRunLimit = 16

  /// Puts a leaving row that round-off left just below zero at zero before the pivot.
  ///
  /// The pivot makes the entering symbol worth the row's value over the pivot element, so a
  /// row at -4e-9 steps the entering symbol backwards: the objective rises, and the rows the
  /// entering symbol moves drift further below zero. Seed 381 of 60-200 boxes (adaptive,
  /// removing an edit variable) went through eight such pivots in one optimisation, two
  /// slacks taking turns, and left a required slack at -1.4e-7 where it had started at
  /// -3.8e-9. Raising the row's constant by its deficit makes the step zero (a degenerate
  /// pivot, as Harris's ratio test intends); the equation moves by less than the near-zero
  /// threshold, below which the dual simplex already treats a value as zero. A larger
  /// deficit is not round-off and is left to the dual simplex and the audit.
  @inline(__always)
  mutating func raiseRoundOffDeficit(of leaving: Symbol) {
    let value = values[leaving.index]
    guard value < 0 && nearZero(value) else { return }
    disown(Int(basicSlot[leaving.index]))
    rows[Int(basicSlot[leaving.index])].constant -= value
    counters.deficitsRaised &+= 1
  }

  /// Phase one's entering symbol: of the non-dummy symbols whose increase lowers the
  /// artificial objective `artificial`, the one cheapest in the real objective (its
  /// coefficient there; the lowest symbol among equals), or with `lowest` the lowest one.
  ///
  /// Phase one only has to make the new required constraint hold, and many vertices do;
  /// the real objective's costs steer it to one phase two need not leave. The lowest
  /// symbol alone (Bland's rule, phase one's only rule until this stop) walked nested
  /// stacks badly once a view's intrinsic size became one equality with two errors: in a
  /// 100-level deep tree each level's phase one took up to 8 pivots and the phase two after
  /// it as many again (1,400 pivots in all, against 169 with the pair of inequalities; a
  /// 1,000-level tree built in 48 s instead of 0.7 s); the cheapest took 151.
  ///
  /// The cheapest can cycle on degenerate pivots (no progress, a leaving row at zero) where
  /// the lowest symbol would not (with the lowest leaving row as well, Bland's rule cannot
  /// cycle; `leavingSymbol` prefers the largest element, so even the old rule had no such
  /// proof). After `degenerateRunLimit` degenerate pivots in a row `optimize` asks for the
  /// lowest symbol, as phase one always did; past the pivot budget the tableau is rebuilt.
  func enteringSymbol(_ artificial: Row, lowest: Bool = false) -> Symbol {
    var best = Symbol.invalid
    var cheapest = Double.infinity
    for i in artificial.symbols.indices {
      let s = artificial.symbols[i]
      guard artificial.coefficients[i] < 0 && !s.isDummy else { continue }
      if lowest { return s }
      let cost = objective.coefficient(for: s)
      if cost < cheapest {
        best = s
        cheapest = cost
      }
    }
    return best
  }

  /// The restricted row that limits how far `entering` can increase (minimum ratio test).
  ///
  /// Rows whose ratios are equal but for round-off are ties, and a tie goes to the largest
  /// pivot element (Harris's two-pass test): the smallest ratio computed with every value
  /// raised by its round-off allowance (`Tolerance.ratioSlack(_:)`) bounds the ties, then
  /// the largest element under that bound wins, the lowest basic symbol among equal
  /// elements. Ties are common in layouts (a row per nested box, all at the same ratio), and
  /// before this the winner was whichever round-off made smallest: seed 1402480 of 2-200
  /// boxes pivoted on 0.0137 where 0.383 was on offer at the same ratio, and a few such
  /// pivots left the lazy tableau's coefficients 2e-10 off and its values 1e-6 off the
  /// optimum. A row passed over ends at most its allowance below zero, so the allowance is
  /// kept at the size of the round-off it forgives. A value round-off left below zero counts
  /// as zero, and the pivot then makes no step (`raiseRoundOffDeficit(of:)`).
  mutating func leavingSymbol(for entering: Symbol) -> Symbol {
    let column = takeColumn(of: entering)
    defer { keepColumn(column) }
    var bound = Double.infinity
    for (basic, c) in column where !basic.isExternal && c < 0 {
      let value = max(0, values[basic.index])
      bound = min(bound, (value + Tolerance.ratioSlack(value)) / -c)
    }
    var largest = 0.0
    var leaving = Symbol.invalid
    for (basic, c) in column where !basic.isExternal && c < 0 {
      guard max(0, values[basic.index]) / -c <= bound else { continue }
      if -c > largest || (-c == largest && basic < leaving) {
        largest = -c
        leaving = basic
      }
    }
    return leaving
  }

  // MARK: - Dual simplex

  /// Restores feasibility of the rows queued in `infeasible` while keeping optimality.
  /// Returns `false` when some row cannot be made feasible (the required constraints
  /// conflict); the tableau is then consistent but infeasible and the caller rolls back.
  mutating func dualOptimize() -> Bool {
    if !infeasible.isEmpty { settleShifts() }
    var budget = pivotBudget
    let cellLimit = self.cellLimit
    while let leaving = nextInfeasible() {
      // Entries can be stale: the symbol may have left the basis since it was queued, or
      // been released and its index reused by another symbol (a removed constraint's
      // marker queued while its row went away), so the row must still be this symbol's.
      let slot = basicSlot[leaving.index]
      guard slot >= 0 && rowBasic[Int(slot)] == leaving else { continue }
      let value = values[leaving.index]
      guard value < 0 && !nearZero(value) else { continue }
      // A row that names no basic symbol is its own expansion: it stays in place rather
      // than being re-installed cell by cell (a dense row in a stack of views has one cell
      // per box).
      let before = counters.expansions
      let row = lazy ? expand(rows[Int(slot)], slot: Int(slot)) : rows[Int(slot)]
      let expanded = counters.expansions != before
      let entering = dualEnteringSymbol(row)
      guard entering.isValid else {
        // Every cell of the row already helps its value be as large as it can: the
        // constraints of those symbols and of the row itself cannot hold together.
        blockingSymbols = Array(row.symbols) + [leaving]
        infeasible.removeAll()
        return false
      }
      budget -= 1
      if budget < 0 || cellCount > cellLimit {
        damaged = true
        infeasible.removeAll()
        return true
      }
      // The expanded row is handed over (consumed): kept alive here, it would share its
      // storage with the row in place, and the pivot's first change would copy it. So
      // would the row itself when it needed no expansion: its copy ends here. (With the
      // cells in two arrays the optimiser happened to end it early; with one storage it
      // did not: a wide text tick copied 2.2 rows.)
      let pivoted: Bool
      if expanded && expansion.cellsRead <= Tableau.inPlaceExpansionLimit
        && !lastClosureNames(entering, besides: Int(slot))
      {
        pivoted = pivotInPlace(entering: entering, leaving: leaving, expanded: consume row)
      } else if expanded {
        pivoted = pivot(entering: entering, leaving: leaving, expanded: consume row)
      } else {
        _ = consume row
        pivoted = pivot(entering: entering, leaving: leaving)
      }
      guard pivoted else {
        // Damaged: rebuilt once the operation ends.
        infeasible.removeAll()
        return true
      }
    }
    return true
  }

  /// The next row for the dual simplex to make feasible, taken out of `infeasible`: the
  /// one whose value is most negative (the lowest symbol among equals) while the queue
  /// holds at most ``dualCandidates`` entries, else the queue's last entry (the last one
  /// queued, but for the reordering a pass's removals make). Stale entries met on the way
  /// are dropped; `nil` when none is left. Ties are exact: two values that differ by
  /// round-off are not equal. Like the last-queued order before it, the rule has no proof
  /// against cycling; the pivot budget bounds a cycle, and a rebuild follows.
  ///
  /// The most negative row is the classic choice of the dual simplex, as the steepest
  /// coefficient is of the primal one (`Objective.enteringSymbol(lowest:)`). Against the
  /// last one queued (stop 64): a chain of 1,000 boxes pivots 13% less a tick (464 pivots
  /// in 200 ticks against 533), and kiwi's enaml system builds in 47 pivots against 51 and
  /// lands on kiwi's own layout of it, where the last one queued had found another of its
  /// tied optima (a form pushed to the bottom of its window, equally good by the weights).
  /// A long queue (a resize of a large tree) keeps the last-queued order, which costs no
  /// pass over it.
  mutating func nextInfeasible() -> Symbol? {
    guard infeasible.count <= Tableau.dualCandidates else { return infeasible.popLast() }
    var best = -1
    var most = 0.0
    var i = 0
    while i < infeasible.count {
      let s = infeasible[i]
      let slot = basicSlot[s.index]
      let v = values[s.index]
      guard slot >= 0 && rowBasic[Int(slot)] == s && v < 0 && !nearZero(v) else {
        infeasible.swapAt(i, infeasible.count &- 1)
        infeasible.removeLast()
        continue
      }
      if v < most || (v == most && s < infeasible[best]) {
        most = v
        best = i
      }
      i &+= 1
    }
    guard best >= 0 else { return nil }
    infeasible.swapAt(best, infeasible.count &- 1)
    return infeasible.removeLast()
  }

  /// How many queued rows `nextInfeasible()` compares.
  static let dualCandidates = 16

  /// The most cells an expansion may read for its row to be pivoted in place
  /// (`pivotInPlace`). Past it, installing the expansion is cheaper: the row is then
  /// canonical, and the next pivot on it expands nothing. Pivoted in place, a deep tree's
  /// rows, whose expansions read the rows of every level above, were expanded again at
  /// every tick: 2.8 times the instructions of a text tick in a tree 1,000 views deep.
  static let inPlaceExpansionLimit = 64

  /// The most pivots one optimisation may take: more than any exact run the fuzzer has
  /// seen needs (a few per row at most), and linear in the size.
  var pivotBudget: Int { 2 &* rowCount &+ 500 }
  /// The most cells the rows may hold by the end of one optimisation: a pivot sequence that
  /// fills the tableau in tenfold is round-off feeding on itself, not a layout.
  var cellLimit: Int { 10 &* cellCount &+ 100_000 }

  /// The symbol whose entry keeps the objective optimal: the smallest ratio of objective
  /// coefficient to row coefficient among positive, non-dummy cells of a canonical row.
  func dualEnteringSymbol(_ row: Row) -> Symbol {
    var best = Double.infinity
    var entering = Symbol.invalid
    for i in row.symbols.indices {
      let s = row.symbols[i]
      let c = row.coefficients[i]
      guard c > 0 && !nearZero(c) && !s.isDummy else { continue }
      let ratio = objective.coefficient(for: s) / c
      if ratio < best || (ratio == best && s < entering) {
        best = ratio
        entering = s
      }
    }
    return entering
  }

  // MARK: - Removing a parametric marker

  /// The row to pivot on to make `marker` basic before its constraint is removed: the most
  /// restrictive restricted row where it has a negative coefficient, else the most
  /// restrictive with a positive one, else a row of an unrestricted variable.
  ///
  /// A dummy marker (a required equality's) goes first through the row of a basic dummy
  /// that names it, the largest coefficient first: such a row is another required equality
  /// that the removed one made redundant (`v == 20` twice: the second's dummy is basic,
  /// equal to the first's), and it must stay a row of dummies only, held at zero. kiwi's
  /// rule alone took the row of an error at the same ratio (zero), after which the basic
  /// dummy's row named that error and its twin: the remaining `v == 20` was no longer
  /// required, and a later `v == 60` was accepted (found by a review at stop 69; kiwi's
  /// `getMarkerLeavingRow` makes the same choice).
  mutating func markerLeavingSymbol(_ marker: Symbol) -> Symbol {
    var negativeRatio = Double.infinity
    var positiveRatio = Double.infinity
    var first = Symbol.invalid
    var second = Symbol.invalid
    var third = Symbol.invalid
    var twin = Symbol.invalid
    var twinMagnitude = 0.0
    let column = takeColumn(of: marker)
    defer { keepColumn(column) }
    for (basic, c) in column {
      let value = values[basic.index]
      if marker.isDummy && basic.isDummy {
        if abs(c) > twinMagnitude || (abs(c) == twinMagnitude && basic < twin) {
          twinMagnitude = abs(c)
          twin = basic
        }
      } else if basic.isExternal {
        if !third.isValid || third < basic { third = basic }
      } else if c < 0 {
        let ratio = -value / c
        if ratio < negativeRatio || (ratio == negativeRatio && basic < first) {
          negativeRatio = ratio
          first = basic
        }
      } else {
        let ratio = value / c
        if ratio < positiveRatio || (ratio == positiveRatio && basic < second) {
          positiveRatio = ratio
          second = basic
        }
      }
    }
    if twin.isValid && !skipsTwinRule { return twin }
    return first.isValid ? first : (second.isValid ? second : third)
  }

  // MARK: - A required row by the dual simplex

  /// What `addByDualSimplex` did.
  enum DualInsertion {
    /// The row is in, feasible, and the tableau optimal.
    case added
    /// The dual simplex did not finish (no entering symbol, its pivot budget spent, a
    /// refused pivot): its pivots are undone and the row taken out again, and this is the
    /// same equation (`0 = constant + cells`, canonical, of non-negative value) for phase
    /// one to decide. Phase one, not this path, refuses a constraint.
    case undone(Row)
    /// As `undone`, but a pivot that undid another was refused: the tableau is damaged
    /// (rebuilt from the constraints once the operation ends), and the row is gone.
    case damaged
  }

  /// Adds the row of a required constraint that has no subject (a canonical expression that
  /// must equal zero, naming restricted symbols and its own marker only) with the marker as
  /// its basic symbol, then restores feasibility with the dual simplex.
  ///
  /// The tableau is optimal before (every operation ends optimal), and a new row whose
  /// basic symbol no other row or objective names leaves the objective as it was: the basis
  /// is dual feasible, so the dual simplex ends at the optimum without the phase-one
  /// detour (an artificial variable, the primal ratio test's columns, then phase two). A
  /// slack that the solution already satisfies is feasible at once. A dummy (an equality)
  /// must leave the basis: one dual pivot in the direction that takes it to zero, with the
  /// entering symbol chosen by the dual ratio test as for any infeasible row.
  ///
  /// Anything short of that (a conflict, but also a dummy whose only cells are too small to
  /// pivot on, or a run of pivots past the budget) is undone and handed to phase one, which
  /// decides as it did before this path existed; a refusal is always phase one's.
  mutating func addByDualSimplex(_ row: consuming Row, marker: Symbol) -> DualInsertion {
    counters.dualInsertions &+= 1
    var row = row
    // The marker's coefficient is ±1, so solving for it scales nothing up.
    row.solve(for: marker)
    let wasDamaged = damaged
    let ruinousBefore = ruinousPivots
    startPivotLog()
    defer { logsPivots = false }
    addRow(row, basic: marker)
    // Nothing names the fresh marker, so the objective stays as it is; a dummy that is not
    // zero is driven out below, not reported as inconsistent.
    updateValues()
    var done = true
    if marker.isDummy {
      let slot = Int(basicSlot[marker.index])
      let entering = dummyEnteringSymbol(rows[slot], value: values[marker.index])
      done = entering.isValid && pivot(entering: entering, leaving: marker)
    }
    // A spent budget or a refused pivot marks the tableau damaged: undone here instead.
    if done && dualOptimize() && damaged == wasDamaged { return .added }
    infeasible.removeAll()
    guard undoLoggedPivots() else {
      dropRow(of: marker)
      return .damaged
    }
    // The undo puts back the basis, not the round-off a ruinous pivot spread through the
    // rows it touched: that stays damage, rebuilt once the operation ends.
    damaged = wasDamaged || ruinousPivots != ruinousBefore
    guard var equation = dropRow(of: marker) else { return .damaged }
    // `marker = constant + cells` is `0 = constant + cells - marker`.
    equation.insert(marker, -1)
    if lazy { equation = expand(equation) }
    if evaluate(equation) < 0 { equation.reverseSign() }
    return .undone(equation)
  }

  /// The symbol to enter in place of a basic dummy of value `value`: among the restricted
  /// cells whose increase moves the dummy toward zero (either sign when it is zero within
  /// the tolerance), the smallest ratio of objective coefficient to the cell's magnitude,
  /// ties to the lowest symbol, which keeps every objective coefficient non-negative (the
  /// dual ratio test of `dualEnteringSymbol` for a row that must rise or fall). Cells under
  /// the pivot threshold are passed over; with none left, `.invalid`.
  ///
  /// A value within the tolerance counts as zero, not by its sign: restricted to the sign
  /// of a round-off value, the choice took a costlier cell on soak seed 5200445 (2-200
  /// boxes, adaptive), whose values then ended with strong preferences 4.6e-7 off their
  /// optimum (0.46 weighted error over a fresh solve, 0.066 allowed).
  func dummyEnteringSymbol(_ row: Row, value: Double) -> Symbol {
    let direction: Double = nearZero(value) ? 0 : (value < 0 ? 1 : -1)
    var best = Double.infinity
    var entering = Symbol.invalid
    for i in row.symbols.indices {
      let s = row.symbols[i]
      guard s.isPivotable else { continue }
      let c = direction == 0 ? abs(row.coefficients[i]) : direction * row.coefficients[i]
      guard c > 0 && !nearZero(c) else { continue }
      let ratio = objective.coefficient(for: s) / c
      if ratio < best || (ratio == best && s < entering) {
        best = ratio
        entering = s
      }
    }
    return entering
  }

  /// Reverses the pivots logged since the log was started, newest first, and stops
  /// logging. Returns `false` when an undoing pivot was refused: the tableau is then marked
  /// damaged and is rebuilt once the operation ends.
  mutating func undoLoggedPivots() -> Bool {
    logsPivots = false
    let log = pivotLog
    for step in log.reversed() where !pivot(entering: step.leaving, leaving: step.entering) {
      return false
    }
    return true
  }

  /// Removes the row of a symbol an insertion made basic (phase one's artificial symbol, a
  /// dual insertion's marker) once its pivots are undone, and brings the values back.
  /// Returns the row (`symbol = constant + cells`) when the symbol was basic; `nil` after a
  /// refused pivot, when only the symbol's cells can be dropped.
  @discardableResult
  mutating func dropRow(of symbol: Symbol) -> Row? {
    var removed: Row? = nil
    if isBasic(symbol) {
      if lazy, let definition = row(of: symbol) {
        // Rows may name the basic symbol; they take its definition before it goes.
        substitute(symbol, with: definition)
      }
      removed = removeRow(of: symbol)
    } else {
      // Only after a refused pivot: the rows are no longer trusted (the tableau is rebuilt
      // once the operation ends), and no row may keep a released symbol.
      dropColumn(of: symbol)
    }
    updateValues()
    infeasible.removeAll()
    return removed
  }

  /// Drops a parametric symbol's cells from every row and from the objective.
  mutating func dropColumn(of symbol: Symbol) {
    structureChanged()
    for slot in slots(holding: symbol) {
      disown(Int(slot))
      rows[Int(slot)].remove(symbol)
      forgetReferences(Int(slot))
      noteRemoved(symbol)
    }
    objective.remove(symbol)
  }

  // MARK: - Phase one

  /// Adds `row` (a canonical expression that must equal zero, with no eligible subject)
  /// through an artificial variable, minimised to zero by phase-one pivots. Returns `false`
  /// when it cannot reach zero: the constraint conflicts with the required ones. On `false`
  /// the tableau is exactly as before: the phase-one pivots are undone newest first (which
  /// restores the old basis) and the artificial row dropped. Undoing costs the pivots
  /// made; keeping a copy to restore instead costs a copy of the whole tableau on every
  /// such insertion, which made building large layouts quadratic.
  mutating func addWithArtificialVariable(_ row: Row) -> Bool {
    counters.phaseOnes &+= 1
    let art = newSymbol(.slack)
    addRow(row, basic: art)
    updateValues()
    startPivotLog()
    defer { logsPivots = false }
    artificial = row
    optimize(artificialPhase: true)
    let phaseOneObjective = artificial!
    artificial = nil
    // Judged on the artificial symbol's value (zero once it left the basis), not on the
    // phase-one objective's constant: that copy of the same number drifts with the round-off
    // of every substitution into it, and a drift past 1e-8 refused feasible systems.
    let success = !isBasic(art) || nearZero(values[art.index])
    guard success else {
      // At the phase-one optimum the artificial symbol is written over the parametric
      // symbols that stop it from decreasing further: their constraints are the conflict.
      // (Set on failure only: a success's list, left for a later refusal to read, named
      // constraints of another operation.)
      blockingSymbols = Array(phaseOneObjective.symbols)
      undoPhaseOne(art)
      return false
    }

    if isBasic(art) {
      let slot = Int(basicSlot[art.index])
      let artRow = lazy ? expand(rows[slot], slot: slot) : rows[slot]
      if artRow.isConstant {
        _ = removeRow(of: art)
        updateValues()
        releaseSymbol(art)
        return true
      }
      // The artificial symbol is zero and must leave the basis. Any symbol of its row can
      // take its place: a restricted one by preference; otherwise a dummy (then a redundant
      // required equality, which stays zero) or an unrestricted variable. A cell below the
      // pivot threshold is passed over (a pivot would refuse it); with no other cell, the
      // pivot refuses and the tableau is rebuilt.
      var entering = Symbol.invalid
      for pivotable in [true, false] where !entering.isValid {
        for i in artRow.symbols.indices
        where artRow.symbols[i].isPivotable == pivotable && !nearZero(artRow.coefficients[i]) {
          entering = artRow.symbols[i]
          break
        }
      }
      if !entering.isValid {
        entering = artRow.symbols.first(where: { $0.isPivotable }) ?? artRow.symbols[0]
      }
      guard pivot(entering: entering, leaving: art, expanded: artRow) else {
        // A near-zero pivot element: the tableau is damaged and is rebuilt from the
        // constraints once the operation ends; until then the artificial row goes, so that
        // no row is left with a released basic symbol.
        if lazy, let definition = self.row(of: art) { substitute(art, with: definition) }
        _ = removeRow(of: art)
        updateValues()
        objective.remove(art)
        releaseSymbol(art)
        return true
      }
    }

    // The artificial variable is zero now; drop its column everywhere.
    dropColumn(of: art)
    releaseSymbol(art)
    return true
  }

  /// Reverses the logged phase-one pivots, then removes the artificial row: the basis, and
  /// so the solution, are the ones before the insertion.
  private mutating func undoPhaseOne(_ art: Symbol) {
    // A refused pivot leaves the tableau damaged, rebuilt once the operation ends.
    _ = undoLoggedPivots()
    dropRow(of: art)
    releaseSymbol(art)
  }

  // MARK: - Constant changes

  /// Applies a change of a constraint's constant, expressed as `marker := marker + delta`,
  /// to the rows that name the marker, and updates the values (with `propagate` false, the
  /// caller runs `updateValues()` once after several shifts). Returns `false` when a basic
  /// dummy (a redundant required equality) would stop being zero.
  mutating func shiftMarker(_ marker: Symbol, by delta: Double, propagate: Bool = true) -> Bool {
    if delta == 0 { return true }
    // Every equation that names the marker directly gets `marker + delta` in its place:
    // with a basic marker, that is its own row and (lazy) the rows that refer to it.
    var consistent = true
    let markerSlot = basicSlot[marker.index]
    let markerIsBasic = markerSlot >= 0
    // A batch (`propagate` false) shifts many markers and propagates once, which beats any
    // per-marker column; cached columns serve runs of single shifts.
    if propagate && !markerIsBasic, let cached = shiftThroughColumn(marker, by: delta) {
      return updateValues() && cached
    }
    settleShifts()
    // What this shift adds to `shiftDrift`: its size times the largest coefficient it moves
    // a row's constant by, and at least its size (a constraint's own constant moves by it).
    var largest = 1.0
    defer { shiftDrift += abs(delta) * largest }
    if markerIsBasic {
      disown(Int(markerSlot))
      rows[Int(markerSlot)].constant -= delta
      counters.rowsTouched &+= 1
      // The rows that name it keep their values (see below), so nothing else moves.
      consistent = setShiftedValue(marker, values[marker.index] - delta) && consistent
    }
    for slot32 in slots(holding: marker) {
      let slot = Int(slot32)
      let coefficient = rows[slot].coefficient(for: marker)
      largest = Swift.max(largest, abs(coefficient))
      let shift = coefficient * delta
      disown(slot)
      rows[slot].constant += shift
      counters.rowsTouched &+= 1
      // A row naming a basic marker keeps its value: the marker moved the other way.
      if markerIsBasic { continue }
      // Only the constant moved, so the value moves by the same amount. A row that others
      // name goes through `updateValues()` instead, which then visits them.
      let basic = rowBasic[slot]
      if columnCount(basic.index) > 0 {
        staleValues.append(basic)
      } else {
        consistent = setShiftedValue(basic, values[basic.index] + shift) && consistent
      }
    }
    return (!propagate || updateValues()) && consistent
  }

  /// Ends a run of shifts whose redundant-equality checks were deferred (with
  /// `deferredDummyChecks` set): whether every basic dummy they moved is zero again. Call
  /// after `updateValues()`, which checks the dummies it recomputes itself.
  mutating func finishDeferredDummyChecks() -> Bool {
    let moved = deferredDummyChecks ?? []
    deferredDummyChecks = nil
    for d in moved where isBasic(d) && !nearZero(values[d.index]) { return false }
    return true
  }

  /// After `shifts` (`marker := marker + delta`) made a basic dummy non-zero, a redundant
  /// required equality that can no longer hold: that dummy and the dummy markers its row
  /// names, whose equalities imply it. Empty when no basic dummy moved. For the conflicts
  /// of a refused constant change (a dual simplex that finds no entering symbol names its
  /// own); a cold path, expanding each basic dummy's row.
  mutating func dummyConflict(_ shifts: [(marker: Symbol, delta: Double)]) -> [Symbol] {
    for slot in rows.indices {
      let basic = rowBasic[slot]
      guard basic.isDummy else { continue }
      let row = lazy ? expand(rows[slot]) : rows[slot]
      var moved = 0.0
      for (marker, delta) in shifts {
        moved += row.coefficient(for: marker) * delta
        if marker == basic { moved -= delta }
      }
      if !nearZero(moved) { return Array(row.symbols) + [basic] }
    }
    return []
  }

  /// Stores a basic symbol's new value after a shift, with the checks `updateValues()`
  /// makes. Returns `false` for a basic dummy that stops being zero.
  @inline(__always)
  mutating func setShiftedValue(_ symbol: Symbol, _ value: Double) -> Bool {
    values[symbol.index] = value
    counters.valuesUpdated &+= 1
    noteChanged(symbol)
    if symbol.isExternal { return true }
    if symbol.isDummy {
      guard deferredDummyChecks == nil else {
        deferredDummyChecks!.append(symbol)
        return true
      }
      return nearZero(value)
    }
    if value < 0 { infeasible.append(symbol) }
    return true
  }
}
