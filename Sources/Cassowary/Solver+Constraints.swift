// Constraint bookkeeping: turning a constraint into a row, choosing its subject, removing it,
// and changing its constant, strength or (for edit constraints) suggested value in place.

/// What the solver remembers about one constraint in it.
struct ConstraintRecord {
  var constraint: Constraint?
  /// The slack, error or dummy symbol that identifies the constraint's row.
  var marker: Symbol
  /// The second error symbol of a non-required constraint, or `.invalid`.
  var other: Symbol
  /// The weight of the marker when it is an error symbol (an equality's excess).
  var strength: Strength
  /// The weight of `other`: an equality's shortfall, an inequality's violation. Equal to
  /// `strength` unless the constraint weighs its directions differently.
  var shortfall: Strength
  /// The current constant of the expression (`expression relation 0`).
  var constant: Double
  /// The marker's coefficient in the constraint's own equation, before any sign reversal:
  /// changing the constant by Δ is the substitution `marker := marker + Δ / coefficient`.
  var markerCoefficient: Double
}

/// An edit variable: its constraint `variable == value` and the last suggested value.
struct EditRecord {
  var variable: Variable
  var constraint: Constraint
  var record: Int32
  var value: Double
}

extension Tableau {
  /// `objective += weight · symbol`, with the symbol's row when it is basic.
  mutating func addToObjective(_ symbol: Symbol, weight: Double) {
    if var row = row(of: symbol) {
      if lazy { row = expand(row) }
      objective.add(row, times: weight)
    } else {
      objective.add(symbol, weight)
    }
  }
}

extension Solver {
  /// Adds `constraint` with the given constant and strength (and shortfall strength, by
  /// default the same), or throws with nothing changed. Returns the record index.
  @discardableResult
  func insert(
    _ constraint: Constraint, constant: Double, strength: Strength, shortfall: Strength? = nil
  ) throws(SolverError) -> Int32 {
    let shortfall = shortfall ?? strength
    if !Solver.acceptsWeights(constraint.relation, strength, shortfall) {
      throw .requiredSplitStrength(constraint)
    }
    let expression = constraint.expression
    guard expression.isFinite && constant.isFinite else {
      throw .nonFiniteConstraint(constraint)
    }
    for term in expression.terms where !Limits.accepts(coefficient: term.coefficient) {
      throw .coefficientOutOfRange(constraint, term.coefficient)
    }
    guard Limits.accepts(constant: constant) else {
      throw .constantOutOfRange(constraint, constant)
    }
    for term in expression.terms where !isKnown(term.variable) {
      throw .unknownVariable(term.variable)
    }
    // This insertion's rewrites count toward the switch below (`Tableau.insertRewrites`).
    let rewrites = tableau.substitutedRows
    defer { tableau.insertRewrites &+= Swift.max(0, tableau.substitutedRows &- rewrites) }
    // Round-off that shifts leave in a required constraint's residual grows with its
    // coefficients (`Tableau.shiftBudget`, `Audit.measure`; the drift check sets it again
    // from every one).
    if strength.isRequired {
      var weight = 1.0
      for term in expression.terms { weight += abs(term.coefficient) }
      let room = Swift.max(2 * Tolerance.shiftDrift / weight, Tolerance.shiftDriftFloor)
      if room < tableau.shiftBudget { tableau.shiftBudget = room }
    }

    // The adaptive representation turns lazy at fill-in, and when the insertions'
    // substitutions have rewritten more rows than half the tableau holds: kiwi's enaml
    // system (111 constraints tying 37 variables together) rewrote five rows per constraint
    // and built with 10% fewer instructions from that point on lazily; a wide container's
    // children (each naming its own variables and the container's) rewrite one per five
    // constraints and stay canonical, where they build 17-20% cheaper than lazily (stop 63).
    if representation == .adaptive && !tableau.lazy && !buildingCanonically
      && (tableau.cellCount > 8 &* tableau.rowCount &+ 64
        || tableau.insertRewrites > tableau.rowCount / 2 &+ 8)
    {
      tableau.lazy = true
    }
    // Canonical: write the expression over parametric symbols by replacing basic variables
    // with their rows. Lazy: name basic variables as they are.
    var row = Row(constant: constant)
    // Room for the terms and the markers: a required constraint has one. A canonical
    // tableau keeps one cell spare, for the substitutions that add to its rows (without
    // it, the builds of a wide container made 6% more allocations); a lazy one adds rows
    // as they are, and the spare cell was 61 bytes a view in a feed's cold build.
    let markers = strength.isRequired && tableau.lazy ? 1 : 2
    row.reserveCapacity(expression.terms.count + markers)
    for term in expression.terms where term.coefficient != 0 {
      let symbol = variableSymbols[Int(term.variable.index)]
      if !tableau.lazy && tableau.isBasic(symbol) {
        tableau.add(rowOf: symbol, times: term.coefficient, to: &row)
      } else {
        row.insert(symbol, term.coefficient)
      }
    }

    var marker: Symbol
    var other = Symbol.invalid
    let markerCoefficient: Double
    switch constraint.relation {
    case .lessOrEqual, .greaterOrEqual:
      markerCoefficient = constraint.relation == .lessOrEqual ? 1 : -1
      marker = tableau.newSymbol(.slack)
      row.insert(marker, markerCoefficient)
      if !strength.isRequired {
        other = tableau.newSymbol(.error)
        row.insert(other, -markerCoefficient)
      }
    case .equal:
      if strength.isRequired {
        // A dummy never enters the basis; it only marks the row for removal.
        markerCoefficient = 1
        marker = tableau.newSymbol(.dummy)
        row.insert(marker, 1)
      } else {
        markerCoefficient = -1
        marker = tableau.newSymbol(.error)
        other = tableau.newSymbol(.error)
        row.insert(marker, -1)
        row.insert(other, 1)
      }
    }
    // Normalise so that the row's value is non-negative: then a subject with a negative
    // coefficient gets a non-negative value. (A row of value zero keeps its sign: a
    // required one with no other subject is then added with its slack basic at zero by the
    // dual insertion below, which needs no pivot: the state stop 35's sign rule made
    // (d6dfa24), withdrawn in 48b7ec8 after seed 3501287 failed under it. Stop 37 traced
    // that failure to drift one operation left and the next hid before a read-out, which the
    // check after every operation now catches; see README, "Checking the solver".)
    if tableau.evaluate(row) < 0 { row.reverseSign() }

    var subject = Symbol.invalid
    // Whether the row goes in as the constraint's own equation (`Tableau+OwnRows.swift`):
    // required, as it is (no expansion, no substitution), solved for a variable, with no
    // cell lost to the division.
    var ownsRow = false
    if tableau.lazy {
      // Subjects that no row names keep the new row's references as they are.
      subject = unreferencedSubject(row, marker: marker, other: other)
      if !subject.isValid { row = tableau.expand(row) }
      ownsRow = subject.isValid && subject.isExternal && strength.isRequired && !tableau.lossy
    }
    if !subject.isValid { subject = chooseSubject(row, marker: marker, other: other) }
    if !subject.isValid && row.symbols.allSatisfy(\.isDummy) {
      // Only dummies: the constraint is implied by required equalities (constant 0) or
      // contradicts them.
      guard nearZero(row.constant) else {
        release(marker, other)
        throw refusal(of: constraint, blockedBy: Array(row.symbols))
      }
      subject = marker
    }
    if subject.isValid {
      // Solving divides by the subject's coefficient, as a pivot does (see `pivot`).
      let scaling = row.solve(for: subject)
      if scaling.largest > Tolerance.enlargedRow {
        tableau.objectiveSuspect = true
      }
      if scaling.vanished {
        tableau.markLossy()
        ownsRow = false
      }
      tableau.addRow(row, basic: subject)
      if tableau.lazy {
        tableau.substituteInObjectives(subject, with: row)
      } else {
        tableau.substitute(subject, with: row)
      }
      tableau.updateValues()
    } else {
      // No subject (a non-required row always has one of its errors). A required row goes
      // in with its own slack or dummy basic and the dual simplex repairs it (see
      // `addByDualSimplex`); what that cannot finish it undoes, and phase one decides, as
      // it does every such row in a rebuild. A refusal is phase one's (or, after a pivot
      // refused while undoing, verified on rebuilt tableaux by `verifyingRefusal`).
      var phaseOneRow: Row? = nil
      if strength.isRequired && !rebuilding {
        switch tableau.addByDualSimplex(consume row, marker: marker) {
        case .added: break
        case .undone(let equation): phaseOneRow = equation
        case .damaged:
          release(marker, other)
          throw refusal(of: constraint, blockedBy: tableau.blockingSymbols)
        }
      } else {
        phaseOneRow = consume row
      }
      if let phaseOneRow {
        // Phase one undoes its own pivots when it fails.
        guard tableau.addWithArtificialVariable(phaseOneRow) else {
          release(marker, other)
          throw refusal(of: constraint, blockedBy: tableau.blockingSymbols)
        }
      }
    }

    if marker.kind == .error { tableau.addToObjective(marker, weight: strength.value) }
    if other.isValid && other.kind == .error {
      tableau.addToObjective(other, weight: shortfall.value)
    }
    let record = ConstraintRecord(
      constraint: constraint, marker: marker, other: other, strength: strength,
      shortfall: shortfall, constant: constant, markerCoefficient: markerCoefficient)
    let index: Int32
    if let free = freeRecords.popLast() {
      index = free
      records[Int(index)] = record
    } else {
      index = Int32(records.count)
      records.append(record)
    }
    constraintIndex.place(constraint, at: index)
    if strength.isRequired {
      // Records disowned before this one took the index are exposed first.
      takeDisowned()
      if ownsRow { tableau.own(subject, record: index, marker: marker) }
      // The symbols lent in place: passed as an array, they were retained and released.
      variableSymbols.withReadBuffer { symbols in
        audit.add(record: index, constraint, constant: constant, symbols: symbols, owned: ownsRow)
      }
    }
    tableau.optimize()
    return index
  }

  /// Whether a constraint of `relation` can weigh an excess at `strength` and a shortfall at
  /// `shortfall`: always when they are equal, else only a non-required equality.
  static func acceptsWeights(
    _ relation: Relation, _ strength: Strength, _ shortfall: Strength
  ) -> Bool {
    shortfall == strength
      || (relation == .equal && !strength.isRequired && !shortfall.isRequired)
  }

  /// The symbol to solve a new row for: an unrestricted variable if the row has one (so no
  /// restricted row can go negative), else the constraint's own slack or error symbol when
  /// its coefficient is negative (then the row's non-negative constant keeps it feasible).
  func chooseSubject(_ row: Row, marker: Symbol, other: Symbol) -> Symbol {
    let cells = row.unretainedHandle
    if cells.count > 0 && cells.symbols[0].isExternal { return cells.symbols[0] }
    if marker.isPivotable && row.coefficient(for: marker) < 0 { return marker }
    if other.isValid && other.isPivotable && row.coefficient(for: other) < 0 { return other }
    return .invalid
  }

  /// In the lazy representation, a subject that no row and not the objective names, so that
  /// the new row needs neither expansion nor substitution: a variable seen for the first time,
  /// or the constraint's own slack or error symbol when its value comes out non-negative.
  ///
  /// A restricted subject is only safe when the row's expansion holds no parametric
  /// external variable (kiwi would make that variable the subject, and the simplex must
  /// never see an unrestricted variable in the objective). That is certain when no row
  /// names a parametric external variable at all, the usual case in a layout where every
  /// variable is determined; otherwise the row is expanded and kiwi's rule applies.
  func unreferencedSubject(_ row: Row, marker: Symbol, other: Symbol) -> Symbol {
    var freeExternal = false
    for s in row.unretainedHandle.symbols where s.isExternal && !tableau.isBasic(s) {
      if tableau.columnCount(s.index) == 0 && tableau.objective.coefficient(for: s) == 0 {
        return s
      }
      freeExternal = true
    }
    guard !freeExternal && tableau.referencedParametricExternals == 0 else { return .invalid }
    if marker.isPivotable && row.coefficient(for: marker) < 0 { return marker }
    if other.isValid && other.isPivotable && row.coefficient(for: other) < 0 { return other }
    return .invalid
  }

  /// The error for a required constraint that cannot hold, after recording in
  /// ``conflictingConstraints`` the required constraints whose markers blocked it.
  func refusal(of constraint: Constraint, blockedBy blocking: [Symbol]) -> SolverError {
    let markers = Set(blocking.map(\.raw))
    conflictingConstraints = records.compactMap { record in
      guard let c = record.constraint, c !== constraint, record.strength.isRequired,
        markers.contains(record.marker.raw)
      else { return nil }
      return c
    }
    tableau.blockingSymbols = []
    return .unsatisfiableConstraint(constraint)
  }

  func release(_ marker: Symbol, _ other: Symbol) {
    tableau.releaseSymbol(marker)
    if other.isValid { tableau.releaseSymbol(other) }
  }

  /// Removes the constraint of a record.
  func erase(record index: Int32) {
    let record = records[Int(index)]
    constraintIndex.remove(record.constraint!, at: index)
    if record.marker.kind == .error {
      tableau.addToObjective(record.marker, weight: -record.strength.value)
    }
    if record.other.isValid && record.other.kind == .error {
      tableau.addToObjective(record.other, weight: -record.shortfall.value)
    }
    let marker = record.marker
    if !tableau.isBasic(marker) {
      // Make the marker basic by a pivot that keeps the other rows feasible; dropping its
      // row then removes exactly this constraint's equation.
      let leaving = tableau.markerLeavingSymbol(marker)
      // A refused pivot (a near-zero element) leaves the marker parametric and the tableau
      // marked damaged: the constraint's record goes below, and the rebuild at the end of
      // the operation leaves it out.
      if leaving.isValid { _ = tableau.pivot(entering: marker, leaving: leaving) }
      // Otherwise no row names the marker (its cells fell under the threshold): there is
      // no row to remove.
    }
    if tableau.isBasic(marker) {
      if tableau.lazy {
        // Rows that name the marker take its definition before it goes.
        let definition = tableau.row(of: marker)!
        tableau.substitute(marker, with: definition)
      }
      _ = tableau.removeRow(of: marker)
    }
    tableau.updateValues()
    tableau.optimize()
    release(record.marker, record.other)
    if record.strength.isRequired {
      takeDisowned()
      audit.remove(record: index, symbolVariables: symbolVariables)
    }
    records[Int(index)].constraint = nil
    freeRecords.append(index)
  }

  /// Sets the constant of a record and of its audit entry when it has one (every record
  /// below the highest one the audit checked has an entry; the audit reads those of
  /// required constraints only).
  func setConstant(ofRecord index: Int, to constant: Double) {
    // Its row's constant is written now or at the next settle: no longer its own.
    tableau.disownMarker(records[index].marker)
    records[index].constant = constant
    if index < audit.entries.count { audit.entries[index].constant = constant }
  }

  /// Shifts a record's marker for its constant going from `old` to `new`. Constants are
  /// within ``Limits/largestConstant``, so the difference is always finite.
  func shiftRecord(
    _ record: ConstraintRecord, from old: Double, to new: Double, propagate: Bool = true
  ) -> Bool {
    let delta = (new - old) / record.markerCoefficient
    return tableau.shiftMarker(record.marker, by: delta, propagate: propagate)
  }

  func changeConstant(record index: Int, to constant: Double) throws(SolverError) {
    let record = records[index]
    guard constant != record.constant else { return }
    setConstant(ofRecord: index, to: constant)
    tableau.startPivotLog()
    defer { tableau.logsPivots = false }
    let shifted = shiftRecord(record, from: record.constant, to: constant)
    if shifted && tableau.dualOptimize() { return }
    // The required constraints conflict with the new constant. What blocked: the dual
    // simplex's row, or, when the shift broke a redundant equality (no dual simplex ran),
    // that equality's dummy row.
    let blocking =
      shifted
      ? tableau.blockingSymbols
      : tableau.dummyConflict(
        [(record.marker, (constant - record.constant) / record.markerCoefficient)])
    // Undo the shift and then the dual pivots, newest first: that restores the old basis,
    // hence the old solution exactly (another optimum would do for the simplex, but not for
    // the caller).
    setConstant(ofRecord: index, to: record.constant)
    _ = shiftRecord(record, from: constant, to: record.constant)
    undoLoggedPivots()
    throw refusal(of: record.constraint!, blockedBy: blocking)
  }

  /// Reverses the pivots logged since the log was started, newest first (a refused pivot
  /// leaves the tableau damaged, rebuilt once the operation ends).
  private func undoLoggedPivots() {
    _ = tableau.undoLoggedPivots()
    tableau.infeasible.removeAll()
  }

  /// `changeConstant` for several records: every shift first, then one value update, one
  /// check of the redundant equalities the shifts moved, and one dual optimisation; on a
  /// conflict everything is undone, shifts and pivots newest first.
  func changeConstants(_ changes: [(record: Int, constant: Double)]) throws(SolverError) {
    tableau.startPivotLog()
    var applied: [(record: Int, old: Double)] = []
    swap(&applied, &changedRecords)
    defer {
      tableau.logsPivots = false
      applied.removeAll(keepingCapacity: true)
      swap(&applied, &changedRecords)
    }
    tableau.deferredDummyChecks = []
    for (index, constant) in changes {
      let record = records[index]
      guard constant != record.constant else { continue }
      applied.append((index, record.constant))
      setConstant(ofRecord: index, to: constant)
      _ = shiftRecord(record, from: record.constant, to: constant, propagate: false)
    }
    let updated = tableau.updateValues()
    let consistent = tableau.finishDeferredDummyChecks()
    if applied.isEmpty { return }
    if updated && consistent && tableau.dualOptimize() { return }
    // What blocked: the dual simplex's row, or, when the shifts broke a redundant equality
    // (no dual simplex ran), that equality's dummy row.
    let blocking =
      updated && consistent
      ? tableau.blockingSymbols
      : tableau.dummyConflict(netShifts(applied))
    tableau.deferredDummyChecks = []
    for (index, old) in applied.reversed() {
      let record = records[index]
      setConstant(ofRecord: index, to: old)
      _ = shiftRecord(record, from: record.constant, to: old, propagate: false)
    }
    _ = tableau.updateValues()
    _ = tableau.finishDeferredDummyChecks()
    undoLoggedPivots()
    let culprit = applied.first { records[$0.record].strength.isRequired } ?? applied[0]
    throw refusal(of: records[culprit.record].constraint!, blockedBy: blocking)
  }

  /// The marker shifts of a batch of applied changes, one per record, from the constant it
  /// had before the batch (its first entry's old one) to the one it has now: a record
  /// changed twice, 0 to 12 to 6, moved by 6, not by 6 + (6 - 12).
  private func netShifts(
    _ applied: [(record: Int, old: Double)]
  ) -> [(marker: Symbol, delta: Double)] {
    var seen = Set<Int>()
    var shifts: [(marker: Symbol, delta: Double)] = []
    for change in applied where seen.insert(change.record).inserted {
      let record = records[change.record]
      shifts.append((record.marker, (record.constant - change.old) / record.markerCoefficient))
    }
    return shifts
  }

  /// Changes a record's strength, and its shortfall strength (by default the same).
  func changeStrength(
    record index: Int, to strength: Strength, shortfall: Strength? = nil
  ) throws(SolverError) {
    let record = records[index]
    let shortfall = shortfall ?? strength
    guard record.strength != strength || record.shortfall != shortfall else { return }
    if !Solver.acceptsWeights(record.constraint!.relation, strength, shortfall) {
      throw .requiredSplitStrength(record.constraint!)
    }
    if !record.strength.isRequired && !strength.isRequired {
      // Only the objective's weights change; the rows stay as they are.
      if record.marker.kind == .error && strength != record.strength {
        tableau.addToObjective(record.marker, weight: strength.value - record.strength.value)
      }
      if record.other.isValid && record.other.kind == .error && shortfall != record.shortfall {
        tableau.addToObjective(record.other, weight: shortfall.value - record.shortfall.value)
      }
      records[index].strength = strength
      records[index].shortfall = shortfall
      tableau.optimize()
      return
    }
    // Required-ness changes the row's shape (dummy versus error symbols): re-insert. This
    // is rare, so a failure simply restores a copy of the whole state.
    let constraint = record.constraint!
    let saved = state
    erase(record: Int32(index))
    do {
      let newIndex = try insert(
        constraint, constant: record.constant, strength: strength, shortfall: shortfall)
      if let edit = edits.firstIndex(where: { $0.constraint == constraint }) {
        edits[edit].record = newIndex
      }
    } catch {
      state = saved
      throw error
    }
  }

  /// Moves an edit constraint to a new suggested value; the caller runs the dual simplex.
  func applySuggestion(edit: Int, value: Double) {
    let old = edits[edit].value
    guard value != old else { return }
    edits[edit].value = value
    let record = Int(edits[edit].record)
    // The edit constraint is `variable - value == 0` with marker coefficient -1, so the
    // shift is `value - old`.
    // Never required (`addEditVariable` refuses a required strength), so the audit has no
    // copy of this constant to update.
    assert(!records[record].strength.isRequired, "a required edit constraint")
    records[record].constant = -value
    let marker = records[record].marker
    // An edit constraint is never required, so no redundant required equality can depend on
    // it: a basic dummy that moves is round-off in a lazy tableau (see
    // `Solver+Recovery.swift`).
    if !tableau.shiftMarker(marker, by: value - old) && tableau.lazy { tableau.damaged = true }
  }

  func removeEdit(at edit: Int) {
    let removed = edits[edit]
    erase(record: removed.record)
    editIndex[Int(removed.variable.index)] = -1
    let last = edits.removeLast()
    if edit < edits.count {
      edits[edit] = last
      editIndex[Int(last.variable.index)] = Int32(edit)
    }
  }
}
