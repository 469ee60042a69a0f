// The check of the values a solver hands out against its required constraints.
//
// Values come out of rows, and rows are the constraints after hundreds of pivots, each of
// which rounds. Round-off in a row is invisible until it meets the values: a cell that
// should have cancelled, a pivot element that was zero in exact arithmetic. So each
// required constraint that names a variable whose value changed is evaluated on the
// original constraint, and a residual beyond ``Tolerance/audit`` marks the tableau damaged,
// which rebuilds it from its constraints (`Solver+Recovery.swift`). The check's loops, over
// raw buffers, are in `Solver+UnsafeHandle.swift`. Constraints whose variables did not
// change hold as they held at the previous check. Nor is a constraint whose row is still
// its own equation evaluated (`Tableau+OwnRows.swift`): it holds at whatever values its
// row reads, and carries no round-off of its own; its terms join their variables' lists
// when the row first changes.
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
    /// Whether the record's row is its own equation (`Tableau+OwnRows.swift`): its term
    /// slots are then in the owned lists, which the check walks only after cached shifts.
    var owned = false
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
  /// Per variable: the first term slot of an owned constraint (one whose row is its own
  /// equation, `Tableau+OwnRows.swift`) that names it, or -1. The check walks these lists
  /// too after values moved through a cached column (`Tableau.shiftedThroughCache`).
  var firstOwnedSlot: [Int32] = []
  /// Per symbol index, one bit: whether the variable of that symbol has a checked
  /// constraint (`firstSlot` is not -1); words past the end are all clear. A text tick in a
  /// long feed changes 100,000 values, and since own rows are passed over nearly all of
  /// their lists are empty: finding that out through `symbolVariables` and `firstSlot` was
  /// two cache misses a value (69% of the check's samples), where this is a bit in a dense
  /// array read in the order of the changed symbols (1.2 MB for 10 million symbols).
  var listed: [UInt64] = []
  var epoch: UInt32 = 0

  /// Calls `body` with the arrays the check reads as raw buffers: the entries (whose marks
  /// it writes), the slots, the first slot of each variable's checked and owned lists, and
  /// the bits of listed symbols. Opened in one method, so that the solver makes one access
  /// to its audit, not one per array.
  @inline(__always)
  mutating func withCheckBuffers<R>(
    _ body: (
      UnsafeMutableBufferPointer<Entry>, UnsafeBufferPointer<Slot>, UnsafeBufferPointer<Int32>,
      UnsafeBufferPointer<Int32>, UnsafeBufferPointer<UInt64>
    ) -> R
  ) -> R {
    entries.withUnsafeMutableBufferPointer { entries in
      slots.withReadBuffer { slots in
        firstSlot.withReadBuffer { firstSlot in
          firstOwnedSlot.withReadBuffer { firstOwnedSlot in
            listed.withReadBuffer { listed in
              body(entries, slots, firstSlot, firstOwnedSlot, listed)
            }
          }
        }
      }
    }
  }

  /// Whether the variable of the symbol with index `symbol` has a checked constraint.
  @inline(__always) static func isListed(_ symbol: Int, in listed: UnsafeBufferPointer<UInt64>)
    -> Bool
  {
    let word = symbol &>> 6
    return word < listed.count && listed[word] & (1 &<< UInt64(symbol & 63)) != 0
  }

  /// Makes room for `variables` variables and `constraints` constraints of a few terms.
  mutating func reserveCapacity(variables: Int, constraints: Int) {
    firstSlot.reserveCapacity(variables)
    firstOwnedSlot.reserveCapacity(variables)
    entries.reserveCapacity(constraints)
    slots.reserveCapacity(4 * constraints)
  }

  mutating func addVariable() {
    firstSlot.append(-1)
    firstOwnedSlot.append(-1)
  }

  mutating func removeAll() {
    for i in firstSlot.indices {
      firstSlot[i] = -1
      firstOwnedSlot[i] = -1
    }
    listed.removeAll(keepingCapacity: true)
    entries.removeAll()
    slots.removeAll()
  }

  /// Starts checking a required constraint held in `record`. The terms of an `owned` one
  /// (its row is its own equation) go to the owned lists, which the check walks only
  /// after cached shifts, until `expose(record:symbolVariables:)`.
  mutating func add(
    record: Int32, _ constraint: Constraint, constant: Double,
    symbols variableSymbols: UnsafeBufferPointer<Symbol>, owned: Bool = false
  ) {
    let r = Int(record)
    // One by one: records are numbered in order, so the loop runs once at most, and
    // `append(contentsOf:)` cost a call of 180 instructions per constraint.
    while entries.count <= r { entries.append(Entry()) }
    let terms = constraint.expression.terms
    let count = terms.count
    if Int(entries[r].capacity) < count {
      entries[r].start = Int32(slots.count)
      entries[r].capacity = UInt16(clamping: count)
      for _ in 0..<count {
        slots.append(Slot(coefficient: 0, symbol: 0, record: record, next: -1, previous: -1))
      }
    }
    // The words of the listed bits that the terms' symbols need exist before the buffers
    // are opened.
    if !owned {
      var highest = -1
      for term in terms {
        highest = Swift.max(highest, variableSymbols[Int(term.variable.index)].index)
      }
      if highest >= 0 && listed.count <= highest &>> 6 { growListed(toHold: highest &>> 6) }
    }
    entries[r].count = Int32(count)
    entries[r].relation = constraint.relation
    entries[r].constant = constant
    entries[r].owned = owned
    // The terms are written and linked over raw buffers: through the arrays, each term
    // made six checked accesses, a uniqueness check and a bounds check each (a cold
    // Auto Layout build adds about 50 required constraints a feed cell).
    let start = Int(entries[r].start)
    terms.withUnsafeBufferPointer { terms in
      slots.withUnsafeMutableBufferPointer { slots in
        if owned {
          firstOwnedSlot.withUnsafeMutableBufferPointer { heads in
            for k in 0..<count {
              _ = Audit.link(
                terms[k], at: start &+ k, record: record, symbolOf: variableSymbols, slots: slots,
                heads: heads)
            }
          }
        } else {
          firstSlot.withUnsafeMutableBufferPointer { heads in
            listed.withUnsafeMutableBufferPointer { listed in
              for k in 0..<count {
                let symbol = Audit.link(
                  terms[k], at: start &+ k, record: record, symbolOf: variableSymbols, slots: slots,
                  heads: heads)
                if symbol >= 0 { listed[symbol &>> 6] |= 1 &<< UInt64(symbol & 63) }
              }
            }
          }
        }
      }
    }
  }

  /// Writes `term` to the slot `at` and makes it the head of its variable's list in
  /// `heads` (`link(_:variable:owned:)` over raw buffers). Returns the term's symbol index
  /// when its list was empty (its listed bit is then set), else -1.
  @inline(__always)
  private static func link(
    _ term: Term, at: Int, record: Int32, symbolOf: UnsafeBufferPointer<Symbol>,
    slots: UnsafeMutableBufferPointer<Slot>, heads: UnsafeMutableBufferPointer<Int32>
  ) -> Int {
    let v = Int(term.variable.index)
    let symbol = symbolOf[v].index
    let head = heads[v]
    slots[at] = Slot(
      coefficient: term.coefficient, symbol: Int32(symbol), record: record, next: head,
      previous: -1)
    if head >= 0 { slots[Int(head)].previous = Int32(at) }
    heads[v] = Int32(at)
    return head < 0 ? symbol : -1
  }

  /// Moves the constraint of `record`, whose row was its own equation and is no longer,
  /// to the lists the check always walks (nothing for a record that is not owned: a removed
  /// one, or one exposed before). `symbolVariables` leads from a slot's symbol to its
  /// variable.
  mutating func expose(record: Int32, symbolVariables: [Int32]) {
    let r = Int(record)
    guard r < entries.count && entries[r].owned else { return }
    let first = Int(entries[r].start)
    for at in first..<(first + Int(entries[r].count)) {
      let v = Int(symbolVariables[Int(slots[at].symbol)])
      unlink(at, variable: v, owned: true)
      link(at, variable: v, owned: false)
    }
    entries[r].owned = false
  }

  /// Stops checking the constraint of `record`.
  mutating func remove(record: Int32, symbolVariables: [Int32]) {
    let r = Int(record)
    let first = Int(entries[r].start)
    for at in first..<(first + Int(entries[r].count)) {
      unlink(at, variable: Int(symbolVariables[Int(slots[at].symbol)]), owned: entries[r].owned)
    }
    entries[r].count = 0
    entries[r].owned = false
  }

  /// Puts the term slot `at` first in its variable's list, the owned one or the other.
  @inline(__always) private mutating func link(_ at: Int, variable v: Int, owned: Bool) {
    let head = owned ? firstOwnedSlot[v] : firstSlot[v]
    slots[at].next = head
    slots[at].previous = -1
    if head >= 0 { slots[Int(head)].previous = Int32(at) }
    if owned {
      firstOwnedSlot[v] = Int32(at)
    } else {
      firstSlot[v] = Int32(at)
      if head < 0 { setListed(Int(slots[at].symbol), true) }
    }
  }

  private mutating func setListed(_ symbol: Int, _ on: Bool) {
    let word = symbol &>> 6
    if on {
      if listed.count <= word { growListed(toHold: word) }
      listed[word] |= 1 &<< UInt64(symbol & 63)
    } else {
      listed[word] &= ~(1 &<< UInt64(symbol & 63))
    }
  }

  /// Adds clear words up to `word`, and at least as many as there were, 16 at first (1,024
  /// symbols): a build grows the bits a few times, not at every word. (One word at a time
  /// took 14 more allocations to build the enaml system and 30 more for a deep 100, by the
  /// package-benchmark counts.)
  private mutating func growListed(toHold word: Int) {
    let count = Swift.max(word + 1, 16, 2 * listed.count)
    listed.append(contentsOf: repeatElement(0, count: count - listed.count))
  }

  /// Takes the term slot `at` out of its variable's list.
  @inline(__always) private mutating func unlink(_ at: Int, variable v: Int, owned: Bool) {
    let next = slots[at].next
    let previous = slots[at].previous
    if previous >= 0 {
      slots[Int(previous)].next = next
    } else if owned {
      firstOwnedSlot[v] = next
    } else {
      firstSlot[v] = next
      if next < 0 { setListed(Int(slots[at].symbol), false) }
    }
    if next >= 0 { slots[Int(next)].previous = previous }
  }
}
