import Synchronization

/// Where a ``Solver`` finds the record of each constraint it holds.
///
/// The first solver to hold a constraint claims it: it writes its own token into the
/// constraint (`Constraint.placeOwner`) and the index of the record beside it
/// (`placeRecord`). Its lookups then read that field and check that the record names the
/// constraint back, with no hashing: a lookup in a table of a large layout's constraints
/// was a cache miss or two per constraint added (an identity table, 3-4% of the time of a
/// cold build of a 3,000-cell feed, `perf record`, and 238 bytes a view). A constraint that
/// another solver has claimed (the same instance in two solvers at once) goes into the
/// identity table instead.
///
/// A record index is used only when the record at that index holds the constraint, so a
/// place left behind by `reset()` reads as absent, and is overwritten at the next insertion;
/// a restore of an earlier state (a refusal, a failed rebuild) finds every constraint's
/// place again (`relocate`). Tokens are never reused, so no two solvers take the same
/// place; only the claiming solver writes `placeRecord`, and a claim is one
/// compare-and-exchange (acquiring, against the releasing give-up), so solvers on different
/// threads sharing constraint instances stay apart. A removal gives the place up. A solver
/// that is dropped while holding a constraint, or reset, leaves its claim; another solver
/// that later adds the constraint keeps it in its table (correct, one hash slower).
struct ConstraintIndex {
  /// This solver's claim in the constraints it holds.
  let token: UInt64
  /// The constraints claimed by another solver.
  var table = IdentityTable()
  /// The constraints held (edit constraints included).
  var count = 0

  private static let lastToken = Atomic<UInt64>(0)

  init() {
    token = ConstraintIndex.lastToken.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// Whether this solver has claimed `constraint`, claiming it when no solver has.
  @inline(__always)
  private func claims(_ constraint: Constraint) -> Bool {
    let owner = constraint.placeOwner.load(ordering: .relaxed)
    return owner == token
      || (owner == 0
        && constraint.placeOwner.compareExchange(
          expected: 0, desired: token, ordering: .acquiring
        ).exchanged)
  }

  /// Notes that the record at `index` holds `constraint`, which the solver did not hold.
  mutating func place(_ constraint: Constraint, at index: Int32) {
    count &+= 1
    if claims(constraint) {
      constraint.placeRecord.store(UInt32(index), ordering: .relaxed)
    } else {
      table[ObjectIdentifier(constraint)] = index
    }
  }

  /// Notes that the record at `index` no longer holds `constraint`.
  mutating func remove(_ constraint: Constraint, at index: Int32) {
    count &-= 1
    if constraint.placeOwner.load(ordering: .relaxed) == token
      && constraint.placeRecord.load(ordering: .relaxed) == UInt32(index)
    {
      // Given up, so that another solver can claim it. Releasing, paired with the
      // claim's acquiring exchange: the next owner's write of the record index then comes
      // after this owner's last one (relaxed, a give-up's earlier write could land after
      // the next claim's, which ARM allows: a review found it; x86 orders them anyway).
      constraint.placeOwner.store(0, ordering: .releasing)
    }
    // Also dropped from the table when it is there: a state restored by a recovery can
    // hold it in both (a stale entry would otherwise outlive the constraint's removal).
    if table.count > 0 { _ = table.removeValue(forKey: ObjectIdentifier(constraint)) }
  }

  /// Makes every constraint of `records` found again, after a restore of an earlier state
  /// (`Solver.state`): a claimed constraint's place may name the record it had in a later
  /// state (an attempt of a rebuild, which renumbers the records), and one whose place was
  /// given up in between may have been claimed by another solver since. A restore follows a
  /// refusal or a failed rebuild, each already a pass over every constraint at least.
  mutating func relocate(_ records: UnsafeBufferPointer<ConstraintRecord>) {
    for r in records.indices {
      guard let constraint = records[r].constraint else { continue }
      if claims(constraint) {
        constraint.placeRecord.store(UInt32(r), ordering: .relaxed)
      } else if table[ObjectIdentifier(constraint)] != Int32(r) {
        table[ObjectIdentifier(constraint)] = Int32(r)
      }
    }
  }

  /// Forgets every constraint (the claims become stale, see above).
  mutating func removeAll() {
    table = IdentityTable()
    count = 0
  }
}
