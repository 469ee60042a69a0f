// Rows that are still their constraint's own equation, which the check of required
// constraints may pass over (`Solver+Audit.swift`).
//
// A lazy tableau adds most of a layout's required constraints as they are: the constraint's
// terms, its marker, solved for a variable that no row names (`unreferencedSubject`). Such a
// row is the constraint, divided by the subject's coefficient; its value is the row evaluated
// at the values of what it names, so the constraint holds at those values whatever they
// are, up to the rounding of one evaluation. It holds however far the values it names are
// off: an error elsewhere shows in the constraints of the rows that carry it, not in this
// one. The check evaluates it for nothing, and in a list of 100,000 cells, whose every link
// is such a row, that was a fifth of a text tick (stop 59's profile).
//
// The premise holds only while the row in the slot is exactly that equation and the
// marker's value is what the relation needs (zero, as a parametric symbol's is). So a row
// stops being its own (`disown(_:)`) at any change to its cells or its constant:
//
// - a row added to the slot, removed, replaced (an expansion), merged into (a
//   substitution) or solved for another symbol (both pivots), cells dropped from it;
// - its constant written: a shift through a marker it names (`shiftMarker`, a cached
//   column's `settleShifts`), a round-off deficit raised;
// - its marker entering the basis (a slack is then the slack's value, not zero);
// - the tableau losing a cell to a division (`markLossy()`): then every row is checked.
//
// A row once disowned stays so until a rebuild; the check then evaluates its constraint
// for good. Refusals restore the tableau, and its marks with it. Builds with
// `CASSOWARY_INTERNAL_CHECKS` verify after every operation that each own row is, bit for
// bit, a fresh solve of its constraint, and that its constraint holds
// (`Solver+Invariants.swift`).

/// The constraint whose own equation a slot's row is: its record and its marker's index.
struct RowOwner {
  var record: Int32 = -1
  var marker: Int32 = -1
}

extension Tableau {
  /// Marks the row of `subject` (just added for the required constraint of `record`, whose
  /// marker is `marker`) as that constraint's own equation.
  mutating func own(_ subject: Symbol, record: Int32, marker: Symbol) {
    let slot = Int(basicSlot[subject.index])
    precondition(
      slot >= 0 && !isBasic(marker), "an own row is a basic subject's, its marker parametric")
    owners[slot] = RowOwner(record: record, marker: Int32(marker.index))
    if markerOwners.count <= marker.index {
      // Grown by half again at least: markers come in increasing order.
      let count = Swift.max(marker.index + 1, markerOwners.count + markerOwners.count / 2, 64)
      markerOwners.append(contentsOf: repeatElement(-1, count: count - markerOwners.count))
    }
    markerOwners[marker.index] = Int32(slot)
  }

  /// The row in `slot` changes: it is no longer its constraint's own equation.
  @inline(__always) mutating func disown(_ slot: Int) {
    if owners[slot].record >= 0 { disownOwned(slot) }
  }

  /// `symbol` becomes basic: the row whose marker it is, if any, is no longer its own.
  @inline(__always) mutating func disownMarker(_ symbol: Symbol) {
    guard symbol.index < markerOwners.count else { return }
    let slot = markerOwners[symbol.index]
    if slot >= 0 { disownOwned(Int(slot)) }
  }

  /// The slot of the own row whose marker `symbol` is, or -1.
  func ownRow(ofMarker symbol: Symbol) -> Int32 {
    symbol.index < markerOwners.count ? markerOwners[symbol.index] : -1
  }

  @inline(never) private mutating func disownOwned(_ slot: Int) {
    let owner = owners[slot]
    owners[slot] = RowOwner()
    markerOwners[Int(owner.marker)] = -1
    disowned.append(owner.record)
  }

  /// A division took a cell under the zero threshold (`lossy`): every row is checked from
  /// now on, its own or not.
  mutating func markLossy() {
    lossy = true
    for slot in owners.indices where owners[slot].record >= 0 { disownOwned(slot) }
  }
}
