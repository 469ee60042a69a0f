// Internal consistency checks, compiled in only with `-D CASSOWARY_INTERNAL_CHECKS`
// (Scripts/check.sh turns it on for the test suite). Each public mutation ends with a call.

extension Solver {
  #if CASSOWARY_INTERNAL_CHECKS
    func checkInvariants() {
      tableau.checkInvariants()
      for (i, edit) in edits.enumerated() {
        precondition(editIndex[Int(edit.variable.index)] == Int32(i), "edit index out of sync")
        precondition(records[Int(edit.record)].constant == -edit.value, "edit constant mismatch")
      }
      var held = 0
      for (index, record) in records.enumerated() {
        guard let constraint = record.constraint else { continue }
        held += 1
        precondition(recordIndex(of: constraint) == Int32(index), "record mismatch")
        precondition(
          !record.strength.isRequired || audit.entries[index].constant == record.constant,
          "audit constant out of sync")
      }
      precondition(held == constraintIndex.count, "constraint count out of sync")
      if let problem = ownRowProblem() { preconditionFailure(problem) }
      if let problem = listedProblem() { preconditionFailure(problem) }
    }
  #else
    @inline(__always) func checkInvariants() {}
  #endif
}

#if CASSOWARY_INTERNAL_CHECKS
  extension Tableau {
    /// The checks, on a settled copy when shifts are pending (the rows' constants then
    /// lag their values by design): the tableau itself stays as release builds leave it.
    func checkInvariants() {
      guard !pendingShifts else {
        var settled = self
        settled.settleShifts()
        settled.checkInvariants()
        return
      }
      let columnCounts = basicSlot.indices.map { columnCount($0) }
      var counts = [Int32](repeating: 0, count: columnCounts.count)
      // Every (symbol, row) pair the column lists hold, once: a linear search of a column per
      // cell made the check cubic on dense tableaux (a canonical deep 300 ran for minutes).
      var listed = Set<Int64>()
      for symbol in columnCounts.indices {
        for slot in columns.list(symbol) { listed.insert(Int64(symbol) << 32 | Int64(slot)) }
      }
      // Values are sums of terms as large as the largest value, and carry round-off of that
      // size: a restricted value may be below zero by the audit's share of it (seed 381 of
      // 60-200 boxes, adaptive: after 549 operations values of 2,300 points carried 6e-8,
      // and a degenerate slack read -1.8e-7 through such sums while no pivot stepped back).
      let largest = values.lazy.filter(\.isFinite).map(abs).max() ?? 0
      let roundOff = Tolerance.audit * largest
      for slot in rows.indices where rowBasic[slot].isValid {
        let basic = rowBasic[slot]
        let row = rows[slot]
        precondition(basicSlot[basic.index] == Int32(slot), "basic slot out of sync")
        for i in row.symbols.indices {
          let s = row.symbols[i]
          if i > 0 { precondition(row.symbols[i - 1] < s, "row cells not sorted") }
          precondition(s != basic, "a row names its own basic symbol")
          precondition(lazy || !isBasic(s), "a canonical row names a basic symbol")
          precondition(!isResidue(row.coefficients[i], scale: 0), "a zero cell was kept")
          precondition(
            listed.contains(Int64(s.index) << 32 | Int64(slot)), "column index misses a row")
          counts[s.index] += 1
        }
        for s in row.symbols where isBasic(s) {
          precondition(
            symbolMarks[s.index].level < symbolMarks[basic.index].level,
            "a row sits below what it names")
        }
        let value = values[basic.index]
        let recomputed = evaluate(row)
        // Values that overflowed (a caller's 1e308s) have no meaningful round-off to check.
        precondition(
          !value.isFinite || !recomputed.isFinite
            || abs(value - recomputed) <= 1e-7 * max(1, abs(value)), "a cached value is stale")
        if basic.isDummy {
          precondition(nearZero(value), "a basic dummy is not zero")
        } else if !basic.isExternal {
          precondition(
            value >= -max(1.0e-7 * max(1, abs(value)), roundOff),
            "a restricted basic is negative: \(value) (kind \(basic.kind), index \(basic.index))")
        }
      }
      precondition(counts == columnCounts, "column counts out of sync")
      // Kinds are only known from cells: one pass marks the external symbols (a search of
      // every row per parametric symbol made each check quadratic, and a test that builds a
      // list of 2,000 boxes ran for over half an hour).
      var external = [Bool](repeating: false, count: basicSlot.count)
      for row in rows {
        for s in row.symbols where s.isExternal { external[s.index] = true }
      }
      let free = basicSlot.indices.filter {
        basicSlot[$0] < 0 && columnCounts[$0] > 0 && freeSymbols.contains(UInt32($0)) == false
          && external[$0]
      }.count
      precondition(free == referencedParametricExternals, "free external count out of sync")
      for s in basicSlot.indices where basicSlot[s] < 0 {
        precondition(values[s] == 0, "a parametric symbol has a non-zero value")
      }
      for s in objective.symbols { precondition(!isBasic(s), "a basic symbol is in the objective") }
      precondition(artificial == nil, "an artificial objective was left behind")
      precondition(staleValues.isEmpty, "values were left stale")
      precondition(referencesAreExact(), "a row's cached basic cells are stale")
      checkAcyclic()
    }

    /// Rows' references to basic symbols must not loop (the values would be undefined).
    func checkAcyclic() {
      var state = [UInt8](repeating: 0, count: basicSlot.count)  // 0 new, 1 open, 2 done
      for start in basicSlot.indices where basicSlot[start] >= 0 && state[start] == 0 {
        var stack: [(Int, Int)] = [(start, 0)]
        state[start] = 1
        while let (node, next) = stack.last {
          let row = rows[Int(basicSlot[node])]
          var i = next
          var child = -1
          while i < row.symbols.count {
            let t = row.symbols[i].index
            i += 1
            if basicSlot[t] >= 0 {
              precondition(state[t] != 1, "rows name each other in a cycle")
              if state[t] == 0 {
                child = t
                break
              }
            }
          }
          if child >= 0 {
            stack[stack.count - 1].1 = i
            state[child] = 1
            stack.append((child, 0))
          } else {
            state[node] = 2
            stack.removeLast()
          }
        }
      }
    }
  }
#endif

extension Solver {
  /// What is wrong with the rows marked as their constraints' own equations
  /// (`Tableau+OwnRows.swift`), or nil: each must be a fresh solve of its constraint, bit
  /// for bit, with its marker parametric; every required record the check passes over
  /// must have such a row (or wait in `Tableau.disowned`); and, in a tableau where no value
  /// ever moved through a cached column, the owned constraints must hold at the (settled)
  /// values as the check they are spared would find. Run after every operation by the
  /// internal checks, and by tests.
  func ownRowProblem() -> String? {
    let pending = Set(tableau.disowned.map(Int.init))
    var ownedRecords = 0
    for slot in tableau.owners.indices where tableau.owners[slot].record >= 0 {
      let owner = tableau.owners[slot]
      let r = Int(owner.record)
      let subject = tableau.rowBasic[slot]
      let record = records[r]
      guard record.constraint != nil, record.strength.isRequired, audit.entries[r].owned else {
        return "the own row in slot \(slot): its record \(r) is gone, not required or checked"
      }
      guard subject.isExternal else {
        return "the own row in slot \(slot): its subject is not a variable"
      }
      guard
        record.marker.index == Int(owner.marker),
        tableau.markerOwners[Int(owner.marker)] == Int32(slot), !tableau.isBasic(record.marker)
      else { return "the own row in slot \(slot): its marker is out of sync or basic" }
      var fresh = Row(constant: record.constant)
      for term in record.constraint!.expression.terms where term.coefficient != 0 {
        fresh.insert(variableSymbols[Int(term.variable.index)], term.coefficient)
      }
      fresh.insert(record.marker, record.markerCoefficient)
      fresh.solve(for: subject)
      let row = tableau.rows[slot]
      guard
        row.constant.bitPattern == fresh.constant.bitPattern
          && row.symbols.elementsEqual(fresh.symbols)
          && row.coefficients.elementsEqual(
            fresh.coefficients, by: { $0.bitPattern == $1.bitPattern })
      else { return "the own row in slot \(slot) is not record \(r)'s equation" }
      ownedRecords += 1
    }
    let passedOver = audit.entries.indices.filter {
      audit.entries[$0].owned && !pending.contains($0)
    }
    guard ownedRecords == passedOver.count else {
      return
        "\(passedOver.count) records are passed over by the check, \(ownedRecords) have own rows"
    }
    guard !tableau.damaged && !tableau.everShiftedThroughCache else { return nil }
    var settled = tableau
    settled.settleShifts()
    return settled.values.withUnsafeBufferPointer { values -> String? in
      for r in passedOver where !audit.holds(entry: audit.entries[r], values: values) {
        return "record \(r), passed over by the check, does not hold"
      }
      return nil
    }
  }
}

extension Solver {
  /// What is wrong with the check's bits of the symbols that have checked constraints
  /// (`Audit.listed`), or nil: a variable's bit must be set exactly when its list of
  /// checked constraints is not empty, and no other bit may be set. Run after every
  /// operation by the internal checks, and by tests.
  func listedProblem() -> String? {
    var listedVariables = 0
    for v in variableSymbols.indices {
      let s = variableSymbols[v].index
      let bit = audit.listed.withUnsafeBufferPointer { Audit.isListed(s, in: $0) }
      guard bit == (audit.firstSlot[v] >= 0) else {
        return "variable \(v): its bit says \(bit), its list \(audit.firstSlot[v])"
      }
      if bit { listedVariables += 1 }
    }
    let bits = audit.listed.reduce(0) { $0 + $1.nonzeroBitCount }
    guard bits == listedVariables else {
      return "\(bits) bits are set for \(listedVariables) variables with checked constraints"
    }
    return nil
  }
}
