// The check of the values a solver hands out against its required constraints.
//
// Values come out of rows, and rows are the constraints after hundreds of pivots, each of
// which rounds. Round-off in a row is invisible until it meets the values: a cell that
// should have cancelled, a pivot element that was zero in exact arithmetic. So before
// values leave the solver (`updateVariables`), each required constraint that names a
// variable whose value changed is evaluated on the original constraint, and a residual
// beyond ``Tolerance/audit`` marks the tableau damaged, which rebuilds it from its
// constraints (`Solver+Recovery.swift`). Constraints whose variables did not change hold
// as they held at the previous read-out.
//
// The check runs after operations that changed the tableau's rows (a pivot, an added or
// removed constraint); a read-out after suggestions that only moved values through rows
// already checked skips it, which keeps the per-frame suggestion path at its cost. Between
// two checks, an error can only grow from the cells a row lost as cancellation residues,
// below 1e-11 of the magnitudes that cancelled (`isResidue`).

/// The required constraints in a flat form for the check: terms over symbol indices.
struct Audit {
  /// For each variable (by `Variable.index`), the records of the required constraints
  /// that name it.
  var recordsOf: [[Int32]] = []
  /// Per record: where its terms start in `symbols` / `coefficients`, how many there are
  /// (0 for a record that is not checked) and how many its space can hold.
  var start: [Int32] = []
  var count: [Int32] = []
  var capacity: [Int32] = []
  var relation: [Relation] = []
  var symbols: [Int32] = []
  var coefficients: [Double] = []
  /// Per record: checked in this pass when equal to `epoch`.
  var marks: [UInt32] = []
  var epoch: UInt32 = 0

  mutating func addVariable() { recordsOf.append([]) }

  mutating func removeAll() {
    for i in recordsOf.indices { recordsOf[i].removeAll() }
    start.removeAll()
    count.removeAll()
    capacity.removeAll()
    relation.removeAll()
    symbols.removeAll()
    coefficients.removeAll()
    marks.removeAll()
  }

  /// Starts checking a required constraint held in `record`.
  mutating func add(
    record: Int32, _ constraint: Constraint, constant: Double, symbols variableSymbols: [Symbol]
  ) {
    let r = Int(record)
    while start.count <= r {
      start.append(0)
      count.append(0)
      capacity.append(0)
      relation.append(.equal)
      marks.append(0)
    }
    let terms = constraint.expression.terms
    if Int(capacity[r]) < terms.count {
      start[r] = Int32(symbols.count)
      capacity[r] = Int32(terms.count)
      symbols.append(contentsOf: repeatElement(0, count: terms.count))
      coefficients.append(contentsOf: repeatElement(0, count: terms.count))
    }
    var at = Int(start[r])
    for term in terms {
      symbols[at] = Int32(variableSymbols[Int(term.variable.index)].index)
      coefficients[at] = term.coefficient
      at += 1
      recordsOf[Int(term.variable.index)].append(record)
    }
    count[r] = Int32(terms.count)
    relation[r] = constraint.relation
  }

  /// Stops checking the constraint of `record`.
  mutating func remove(record: Int32, _ constraint: Constraint) {
    count[Int(record)] = 0
    for term in constraint.expression.terms {
      let v = Int(term.variable.index)
      if let i = recordsOf[v].lastIndex(of: record) {
        recordsOf[v].swapAt(i, recordsOf[v].count - 1)
        recordsOf[v].removeLast()
      }
    }
  }

  /// Whether the constraint of `record`, with constant `constant`, holds at `values`
  /// within ``Tolerance/audit`` of the magnitudes in its residual.
  @inline(__always)
  func holds(record r: Int, constant: Double, values: UnsafeBufferPointer<Double>) -> Bool {
    var residual = constant
    var scale = abs(constant)
    let first = Int(start[r])
    for i in first..<(first + Int(count[r])) {
      let t = coefficients[i] * values[Int(symbols[i])]
      residual += t
      scale += abs(t)
    }
    let allowed = Tolerance.audit * (scale + 1)
    switch relation[r] {
    case .equal: return abs(residual) <= allowed
    case .greaterOrEqual: return residual >= -allowed
    case .lessOrEqual: return residual <= allowed
    }
  }
}

extension Solver {
  /// Whether the required constraints of the variables whose values changed since the last
  /// read-out hold, each checked once. A value that is not finite fails.
  func changedValuesHold() -> Bool {
    audit.epoch &+= 1
    if audit.epoch == 0 {
      for i in audit.marks.indices { audit.marks[i] = 0 }
      audit.epoch = 1
    }
    let epoch = audit.epoch
    var marks: [UInt32] = []
    swap(&marks, &audit.marks)
    defer { swap(&marks, &audit.marks) }
    return tableau.values.withUnsafeBufferPointer { values in
      records.withUnsafeBufferPointer { records in
        marks.withUnsafeMutableBufferPointer { marks in
          for symbol in tableau.changedExternals {
            guard values[symbol.index].isFinite else { return false }
            for record in audit.recordsOf[Int(symbolVariables[symbol.index])] {
              let r = Int(record)
              guard marks[r] != epoch else { continue }
              marks[r] = epoch
              if !audit.holds(record: r, constant: records[r].constant, values: values) {
                return false
              }
            }
          }
          return true
        }
      }
    }
  }

  /// Whether every required constraint holds at the current values: the check of a
  /// rebuilt tableau.
  func requiredConstraintsHold() -> Bool {
    tableau.values.withUnsafeBufferPointer { values in
      for r in records.indices
      where records[r].constraint != nil && records[r].strength.isRequired {
        if !audit.holds(record: r, constant: records[r].constant, values: values) {
          return false
        }
      }
      return true
    }
  }
}
