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
    for (id, index) in constraintIndex {
      precondition(ObjectIdentifier(records[Int(index)].constraint!) == id, "record mismatch")
    }
  }
  #else
  @inline(__always) func checkInvariants() {}
  #endif
}

#if CASSOWARY_INTERNAL_CHECKS
extension Tableau {
  func checkInvariants() {
    var counts = [Int32](repeating: 0, count: columnCounts.count)
    for slot in rows.indices where rowBasic[slot].isValid {
      let basic = rowBasic[slot]
      let row = rows[slot]
      precondition(basicSlot[basic.index] == Int32(slot), "basic slot out of sync")
      for i in row.symbols.indices {
        let s = row.symbols[i]
        if i > 0 { precondition(row.symbols[i - 1] < s, "row cells not sorted") }
        precondition(!isBasic(s), "a basic symbol appears in a row")
        precondition(!nearZero(row.coefficients[i]), "a near-zero cell was kept")
        precondition(columns[s.index].contains(Int32(slot)), "column index misses a row")
        counts[s.index] += 1
      }
      if basic.isDummy {
        precondition(nearZero(row.constant), "a basic dummy is not zero")
      } else if !basic.isExternal {
        precondition(row.constant >= -1.0e-7, "a restricted basic variable is negative")
      }
    }
    precondition(counts == columnCounts, "column counts out of sync")
    for s in objective.symbols { precondition(!isBasic(s), "a basic symbol is in the objective") }
    precondition(artificial == nil, "an artificial objective was left behind")
  }
}
#endif
