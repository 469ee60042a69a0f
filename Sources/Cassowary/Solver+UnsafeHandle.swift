// The solver's loops over changed values, on raw buffers: copying them out at a read-out,
// and the check of required constraints (what it checks and when: `Solver+Audit.swift`).
// They run over every changed value on each read-out or check, so each buffer is opened
// once and indexed unchecked in release builds (debug builds keep the buffers' own checks).

extension Solver {
  /// Copies the values of the symbols changed since the last read-out into
  /// `variableValues`.
  func copyChangedValues() {
    symbolVariables.withUnsafeBufferPointer { variableOf in
      variableValues.withUnsafeMutableBufferPointer { out in
        tableau.drainChangedValues { symbol, value in
          out[Int(variableOf[symbol.index])] = value
        }
      }
    }
  }

  /// Whether the required constraints of the variables of `symbols` and `more` (values
  /// changed since the last read-out or the last check) hold, each checked once. A value
  /// that is not finite fails.
  func changedValuesHold(_ symbols: ArraySlice<Symbol>, _ more: [Symbol]) -> Bool {
    audit.epoch &+= 1
    if audit.epoch == 0 {
      for i in audit.entries.indices { audit.entries[i].mark = 0 }
      audit.epoch = 1
    }
    let epoch = audit.epoch
    var entries: [Audit.Entry] = []
    swap(&entries, &audit.entries)
    defer { swap(&entries, &audit.entries) }
    // Every array the loop reads is opened once: through the solver (a class) each read of
    // `audit.slots[i]` reloaded the array and checked its bounds, per term.
    return tableau.values.withUnsafeBufferPointer { values in
      entries.withUnsafeMutableBufferPointer { entries in
        audit.slots.withUnsafeBufferPointer { slots in
          audit.firstSlot.withUnsafeBufferPointer { firstSlot in
            symbolVariables.withUnsafeBufferPointer { variableOf in
              /// Whether the constraints of `symbol` not checked yet in this pass hold.
              func holds(_ symbol: Symbol) -> Bool {
                guard values[symbol.index].isFinite else { return false }
                var slot = firstSlot[Int(variableOf[symbol.index])]
                while slot >= 0 {
                  let r = Int(slots[Int(slot)].record)
                  slot = slots[Int(slot)].next
                  guard entries[r].mark != epoch else { continue }
                  entries[r].mark = epoch
                  if !Audit.holds(entry: entries[r], slots: slots, values: values) {
                    return false
                  }
                }
                return true
              }
              for symbol in symbols where !holds(symbol) { return false }
              for symbol in more where !holds(symbol) { return false }
              return true
            }
          }
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
        if !audit.holds(entry: audit.entries[r], values: values) {
          return false
        }
      }
      return true
    }
  }
}

extension Audit {
  /// Whether a constraint's entry holds at `values` within ``Tolerance/audit`` of the
  /// magnitudes in its residual.
  @inline(__always)
  func holds(entry: Entry, values: UnsafeBufferPointer<Double>) -> Bool {
    slots.withUnsafeBufferPointer { slots in
      Audit.holds(entry: entry, slots: slots, values: values)
    }
  }

  /// `holds(entry:values:)` over the term slots as a raw buffer.
  @inline(__always)
  static func holds(
    entry: Entry, slots: UnsafeBufferPointer<Slot>, values: UnsafeBufferPointer<Double>
  ) -> Bool {
    var residual = entry.constant
    var scale = abs(entry.constant)
    let first = Int(entry.start)
    for i in first..<(first + Int(entry.count)) {
      let t = slots[i].coefficient * values[Int(slots[i].symbol)]
      residual += t
      scale += abs(t)
    }
    let allowed = Tolerance.audit * (scale + 1)
    switch entry.relation {
    case .equal: return abs(residual) <= allowed
    case .greaterOrEqual: return residual >= -allowed
    case .lessOrEqual: return residual <= allowed
    }
  }
}
