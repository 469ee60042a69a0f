// The check of the values a solver hands out against its required constraints.
//
// Values come out of rows, and rows are the constraints after hundreds of pivots, each of
// which rounds. Round-off in a row is invisible until it meets the values: a cell that
// should have cancelled, a pivot element that was zero in exact arithmetic. So each
// required constraint that names a variable whose value changed is evaluated on the
// original constraint, and a residual beyond ``Tolerance/audit`` marks the tableau damaged,
// which rebuilds it from its constraints (`Solver+Recovery.swift`). The check's loops, over
// raw buffers, are in `Solver+UnsafeHandle.swift`. Constraints whose variables did not
// change hold as they held at the previous check.
//
// The check runs at the end of every operation that changed the tableau's rows (a pivot, an
// added or removed constraint), refused ones included, over the values changed since the
// last check or read-out (`Solver.finishOperation`): drift one operation made must not wait for a read-out, since
// the next operation can move the values to where it no longer shows. Operations that only
// moved values through rows already checked skip it, which keeps the per-frame suggestion
// path at its cost; so does a read-out when no rows changed since the last check. Between
// two checks, an error can only grow from the cells a row lost as cancellation residues,
// below 1e-11 of the magnitudes that cancelled (`isResidue`). A cell that a division took
// under the zero threshold is not such a residue (5e-5 / 1e6): a tableau that lost one is
// checked after every operation (`Tableau.lossy`).

/// The required constraints in a flat form for the check: terms over symbol indices, in
/// flat arrays (one allocation per array, not per constraint or per variable: building a
/// layout adds thousands of constraints).
struct Audit {
  /// Per record: its constant, where its terms start in the term arrays, how many there
  /// are (0 for a record that is not checked), whether the current pass checked it
  /// (`mark == epoch`), how many terms its space holds and its relation: 24 bytes.
  ///
  /// The constant is a copy of the record's (`Solver.setConstant(ofRecord:to:)` writes
  /// both): read from the record, it was a cache miss per checked constraint in a large tree
  /// (a record is 48 bytes, in an array of every constraint). The room is kept up to
  /// 65,535 terms (a larger space says 65,535: it is reused for at most that many).
  struct Entry {
    var constant = 0.0
    var start: Int32 = 0
    var count: Int32 = 0
    var mark: UInt32 = 0
    var capacity: UInt16 = 0
    var relation: Relation = .equal
  }
  var entries: [Entry] = []
  /// One term of a checked constraint: its symbol index and coefficient, its record, and
  /// its place in its variable's list of slots (doubly linked, so that removal is O(1)).
  /// The variable is the symbol's (`Solver.symbolVariables`): 24 bytes a term, not 32 (a
  /// required constraint of a layout has two to six terms, and most constraints of a
  /// layout are required).
  struct Slot {
    var coefficient: Double
    var symbol: Int32
    var record: Int32
    var next: Int32
    var previous: Int32
  }
  var slots: [Slot] = []
  /// Per variable (by `Variable.index`): the first term slot of a checked constraint that
  /// names it, or -1.
  var firstSlot: [Int32] = []
  var epoch: UInt32 = 0

  mutating func addVariable() { firstSlot.append(-1) }

  mutating func removeAll() {
    for i in firstSlot.indices { firstSlot[i] = -1 }
    entries.removeAll()
    slots.removeAll()
  }

  /// Starts checking a required constraint held in `record`.
  mutating func add(
    record: Int32, _ constraint: Constraint, constant: Double, symbols variableSymbols: [Symbol]
  ) {
    let r = Int(record)
    while entries.count <= r { entries.append(Entry()) }
    let terms = constraint.expression.terms
    let fresh = Int(entries[r].capacity) < terms.count
    if fresh {
      entries[r].start = Int32(slots.count)
      entries[r].capacity = UInt16(clamping: terms.count)
    }
    var at = Int(entries[r].start)
    for term in terms {
      let v = Int(term.variable.index)
      let first = firstSlot[v]
      let slot = Slot(
        coefficient: term.coefficient, symbol: Int32(variableSymbols[v].index), record: record,
        next: first, previous: -1)
      if fresh { slots.append(slot) } else { slots[at] = slot }
      if first >= 0 { slots[Int(first)].previous = Int32(at) }
      firstSlot[v] = Int32(at)
      at += 1
    }
    entries[r].count = Int32(terms.count)
    entries[r].relation = constraint.relation
    entries[r].constant = constant
  }

  /// Stops checking the constraint of `record`; `symbolVariables` leads from a slot's
  /// symbol to its variable.
  mutating func remove(record: Int32, symbolVariables: [Int32]) {
    let r = Int(record)
    let first = Int(entries[r].start)
    for at in first..<(first + Int(entries[r].count)) {
      let next = slots[at].next
      let previous = slots[at].previous
      if previous >= 0 {
        slots[Int(previous)].next = next
      } else {
        firstSlot[Int(symbolVariables[Int(slots[at].symbol)])] = next
      }
      if next >= 0 { slots[Int(next)].previous = previous }
    }
    entries[r].count = 0
  }
}
