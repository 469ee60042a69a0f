// Constraint bookkeeping: turning a constraint into a row, choosing its subject, removing it,
// and changing its constant, strength or (for edit constraints) suggested value in place.

/// What the solver remembers about one constraint in it.
struct ConstraintRecord {
  var constraint: Constraint?
  /// The slack, error or dummy symbol that identifies the constraint's row.
  var marker: Symbol
  /// The second error symbol of a non-required constraint, or `.invalid`.
  var other: Symbol
  var strength: Strength
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
    if let row = row(of: symbol) {
      objective.add(row, times: weight, scratch: &scratch)
      scratch.added.removeAll(keepingCapacity: true)
      scratch.removed.removeAll(keepingCapacity: true)
    } else {
      objective.insert(symbol, weight)
    }
  }
}

extension Solver {
  /// Adds `constraint` with the given constant and strength, or throws with nothing changed.
  /// Returns the record index.
  @discardableResult
  func insert(
    _ constraint: Constraint, constant: Double, strength: Strength
  ) throws(SolverError) -> Int32 {
    let expression = constraint.expression
    guard expression.isFinite && constant.isFinite else {
      throw .nonFiniteConstraint(constraint)
    }
    for term in expression.terms where !isKnown(term.variable) {
      throw .unknownVariable(term.variable)
    }

    // Write the expression over parametric symbols only: basic variables are replaced by
    // their rows, so the new row is already in the tableau's terms.
    var row = Row(constant: constant)
    for term in expression.terms where term.coefficient != 0 {
      let symbol = variableSymbols[Int(term.variable.index)]
      if let basicRow = tableau.row(of: symbol) {
        tableau.add(basicRow, times: term.coefficient, to: &row)
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
    if row.constant < 0 { row.reverseSign() }

    var subject = chooseSubject(row, marker: marker, other: other)
    if !subject.isValid && row.symbols.allSatisfy(\.isDummy) {
      // Only dummies: the constraint is implied by required equalities (constant 0) or
      // contradicts them.
      guard nearZero(row.constant) else {
        release(marker, other)
        throw .unsatisfiableConstraint(constraint)
      }
      subject = marker
    }
    if subject.isValid {
      row.solve(for: subject)
      tableau.addRow(row, basic: subject)
      tableau.substitute(subject, with: row)
    } else {
      // Phase one may pivot anywhere before it fails, so keep a copy to restore.
      let saved = tableau
      guard tableau.addWithArtificialVariable(row) else {
        tableau = saved
        release(marker, other)
        throw .unsatisfiableConstraint(constraint)
      }
    }

    for error in [marker, other] where error.isValid && error.kind == .error {
      tableau.addToObjective(error, weight: strength.value)
    }
    let record = ConstraintRecord(
      constraint: constraint, marker: marker, other: other, strength: strength,
      constant: constant, markerCoefficient: markerCoefficient)
    let index: Int32
    if let free = freeRecords.popLast() {
      index = free
      records[Int(index)] = record
    } else {
      index = Int32(records.count)
      records.append(record)
    }
    constraintIndex[ObjectIdentifier(constraint)] = index
    tableau.optimize()
    return index
  }

  /// The symbol to solve a new row for: an unrestricted variable if the row has one (so no
  /// restricted row can go negative), else the constraint's own slack or error symbol when
  /// its coefficient is negative (then the row's non-negative constant keeps it feasible).
  func chooseSubject(_ row: Row, marker: Symbol, other: Symbol) -> Symbol {
    if let first = row.symbols.first, first.isExternal { return first }
    if marker.isPivotable && row.coefficient(for: marker) < 0 { return marker }
    if other.isValid && other.isPivotable && row.coefficient(for: other) < 0 { return other }
    return .invalid
  }

  func release(_ marker: Symbol, _ other: Symbol) {
    tableau.releaseSymbol(marker)
    if other.isValid { tableau.releaseSymbol(other) }
  }

  /// Removes the constraint of a record.
  func erase(record index: Int32) {
    let record = records[Int(index)]
    constraintIndex.removeValue(forKey: ObjectIdentifier(record.constraint!))
    for error in [record.marker, record.other] where error.isValid && error.kind == .error {
      tableau.addToObjective(error, weight: -record.strength.value)
    }
    let marker = record.marker
    if tableau.isBasic(marker) {
      _ = tableau.removeRow(of: marker)
    } else {
      // Make the marker basic by a pivot that keeps the other rows feasible, then drop its
      // row: that removes exactly this constraint's equation.
      let leaving = tableau.markerLeavingSymbol(marker)
      precondition(leaving.isValid, "Cassowary: no leaving row for a constraint's marker")
      var row = tableau.removeRow(of: leaving)
      row.solve(for: marker, replacing: leaving)
      tableau.counters.pivots &+= 1
      tableau.substitute(marker, with: row)
    }
    tableau.optimize()
    release(record.marker, record.other)
    records[Int(index)].constraint = nil
    freeRecords.append(index)
  }

  func changeConstant(record index: Int, to constant: Double) throws(SolverError) {
    let record = records[index]
    let delta = (constant - record.constant) / record.markerCoefficient
    guard delta != 0 else { return }
    records[index].constant = constant
    if tableau.shiftMarker(record.marker, by: delta) && tableau.dualOptimize() { return }
    // The required constraints conflict with the new constant. Undo the shift: the old
    // system was feasible and the basis is still dual feasible, so the dual simplex returns
    // to the old solution.
    records[index].constant = record.constant
    _ = tableau.shiftMarker(record.marker, by: -delta)
    let restored = tableau.dualOptimize()
    precondition(restored, "Cassowary: could not restore a constant after a conflict")
    throw .unsatisfiableConstraint(record.constraint!)
  }

  func changeStrength(record index: Int, to strength: Strength) throws(SolverError) {
    let record = records[index]
    guard record.strength != strength else { return }
    if !record.strength.isRequired && !strength.isRequired {
      // Only the objective's weights change; the rows stay as they are.
      for error in [record.marker, record.other] where error.isValid && error.kind == .error {
        tableau.addToObjective(error, weight: strength.value - record.strength.value)
      }
      records[index].strength = strength
      tableau.optimize()
      return
    }
    // Required-ness changes the row's shape (dummy versus error symbols): re-insert.
    let constraint = record.constraint!
    erase(record: Int32(index))
    do {
      try insert(constraint, constant: record.constant, strength: strength)
    } catch {
      do {
        try insert(constraint, constant: record.constant, strength: record.strength)
      } catch {
        preconditionFailure("Cassowary: could not restore a constraint: \(error)")
      }
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
    records[record].constant = -value
    let marker = records[record].marker
    let delta = value - old
    if delta.isFinite {
      _ = tableau.shiftMarker(marker, by: delta)
    } else {
      // Between huge values of opposite signs the difference overflows: go through zero.
      _ = tableau.shiftMarker(marker, by: -old)
      _ = tableau.shiftMarker(marker, by: value)
    }
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
