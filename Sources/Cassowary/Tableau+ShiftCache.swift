// Repeated constant shifts of one marker (a suggestion on the same edit variable, a constant
// changed again and again) through a cached column.
//
// While no row's coefficients change, every basic value is an affine function of the rows'
// constants, so shifting a parametric marker by `delta` moves each basic symbol's value by
// `delta` times the marker's coefficient in that symbol's expansion: the marker's canonical
// column. `updateValues()` finds those moves by visiting the dependent rows level by level
// and evaluating each; the cache keeps the column itself, grouped by what must be checked
// afterwards, so a later shift is one multiply-add per moved value over flat arrays. A
// window resize that moves ten thousand widths then costs ten thousand multiply-adds.
//
// The cache is valid for one structure version of the tableau: any change to a row's
// coefficients (a pivot, a row added, removed, replaced or merged into) bumps the version.
// Shifting only changes constants, so a run of ticks without pivots keeps the cache. It is
// built at the second shift of the same marker within one version, so a marker shifted only
// once, or a tick that pivots every time, never pays for it.
//
// The constants of the rows that name the marker directly are not written at each shift:
// the column keeps the sum of the shifts not yet applied to them (`pending`), and they are
// brought up to date (`settleShifts()`) before anything else reads or changes a row. A run
// of suggestions reads only values, which the shift moves itself; and in a lazy tableau
// those rows are many (the 3,000 children of `wide`, each naming the edited width), their
// constants a third of a suggestion's cost for nothing until the next pivot. Every other
// operation settles first (the solver's mutations, the general shift path, the dual simplex,
// a repair, the internal checks), and a structure change with shifts pending is a bug that
// `structureChanged()` asserts against.
//
// Nor are the externals a cached shift moves listed for the read-out one by one (a mark
// to test and set, and an append, per value: a quarter of a `wide` tick). The column is
// marked `unlisted`, and the read-out walks its externals itself; a settle lists them
// first when anything else comes before the read-out, so that the check at the end of an
// operation that changes rows sees them as it always did.

/// One coefficient of a cached column: the row slot it shifts or the basic symbol it moves.
struct ShiftEntry<Target> {
  let target: Target
  /// An external's variable index, once a read-out has looked it up (-1 before; see
  /// `ShiftColumn.variablesKnown`). It fills what would be padding before `coefficient`.
  var variable: Int32 = -1
  let coefficient: Double

  init(target: Target, coefficient: Double) {
    self.target = target
    self.coefficient = coefficient
  }
}

/// The cached column of one marker.
///
/// Its four lists live in buffers of its own (`ShiftBuffers`, a class the column holds), and
/// `entries` points into them: a shift reads the lists through those pointers without
/// retaining anything (reading arrays out of the cache cost four retains and four releases
/// per shift, a fifth of an enaml suggestion). A copy of the column (a copy of the tableau,
/// saved for a rollback) shares the buffers; a rebuild writes to buffers of its own unless
/// no copy holds them (`begin(_:version:)`), as an array would.
struct ShiftColumn {
  private(set) var marker = Symbol.invalid
  /// The structure version it was computed at; `.max` when empty.
  private(set) var version = UInt64.max
  /// Rows that name the marker directly, with its coefficient (their constants shift by
  /// `pending` when the column settles), and the moved basic symbols with their column
  /// coefficients, in three groups by what a moved value needs: external (flag for the
  /// read-out), restricted (queue when negative), dummy (must stay zero).
  private(set) var entries = ShiftEntries()
  private var buffers: ShiftBuffers?
  /// The largest magnitude among its coefficients, direct and moved, and at least 1 (what
  /// one shift's size is multiplied by in `Tableau.shiftDrift`).
  private(set) var largest = 1.0
  /// The sum of the shifts not yet applied to the constants of the `direct` rows.
  var pending = 0.0
  /// Whether it was shifted since the last read-out without its externals being listed:
  /// the read-out then walks `entries.externals` itself, and anything else that reads the
  /// lists first has them listed (`Tableau.settleShifts()`).
  var unlisted = false
  /// The sum of the shifts not yet added to the externals' values in `values` (a column of
  /// `ShiftCache.deferredExternals` externals or more). The read-out adds it to each value
  /// as it copies them (one pass over them, not a shift's and a copy's) and leaves it owed:
  /// the values in `values` stay behind until a settle adds it (before anything else reads
  /// a value or a row), so the read-out's pass stores only the copies. A read-out that
  /// finds a second column shifted or owing, or externals listed besides, adds every
  /// column's sum to `values` first (`Tableau.drainUnlistedColumns`).
  var externalShift = 0.0
  /// Whether the externals' entries hold their variables (`ShiftEntry.variable`): the first
  /// read-out that walks the column looks them up, later ones read them with the entry.
  var variablesKnown = false
  /// While the column defers its restricted values (it is `ShiftCache.deferring`):
  /// `deferred` is the sum of the shifts not yet applied to them, and every sum in `bounds`
  /// keeps each of them non-negative.
  var deferred = 0.0
  var bounds = (lower: 0.0, upper: 0.0)

  /// Empties the column for `marker` at `version`, with buffers that no copy shares.
  mutating func begin(_ marker: Symbol, version: UInt64) {
    if buffers == nil || !isKnownUniquelyReferenced(&buffers) { buffers = ShiftBuffers() }
    let buffers = self.buffers.unsafelyUnwrapped
    self.marker = marker
    self.version = version
    pending = 0
    largest = 1
    unlisted = false
    externalShift = 0
    variablesKnown = false
    deferred = 0
    entries = ShiftEntries(
      direct: .init(start: buffers.direct.base, count: 0),
      externals: .init(start: buffers.externals.base, count: 0),
      restricted: .init(start: buffers.restricted.base, count: 0),
      dummies: .init(start: buffers.dummies.base, count: 0))
  }

  /// Adds a row that names the marker directly (after `begin`).
  mutating func addDirect(_ slot: Int32, _ coefficient: Double) {
    let buffers = self.buffers.unsafelyUnwrapped
    largest = Swift.max(largest, abs(coefficient))
    entries.direct = ShiftBuffers.append(
      ShiftEntry(target: slot, coefficient: coefficient), to: &buffers.direct, entries.direct)
  }

  /// Adds a basic symbol the marker moves (after `begin`), to the group its kind needs.
  mutating func addMoved(_ symbol: Symbol, _ coefficient: Double) {
    let buffers = self.buffers.unsafelyUnwrapped
    let entry = ShiftEntry(target: symbol, coefficient: coefficient)
    largest = Swift.max(largest, abs(coefficient))
    if symbol.isExternal {
      entries.externals = ShiftBuffers.append(entry, to: &buffers.externals, entries.externals)
    } else if symbol.isDummy {
      entries.dummies = ShiftBuffers.append(entry, to: &buffers.dummies, entries.dummies)
    } else {
      entries.restricted = ShiftBuffers.append(entry, to: &buffers.restricted, entries.restricted)
    }
  }
}

/// The buffers of a cached column's lists, grown to the longest column they held.
final class ShiftBuffers {
  @exclusivity(unchecked) var direct = ScratchList<ShiftEntry<Int32>>(capacity: 16)
  @exclusivity(unchecked) var externals = ScratchList<ShiftEntry<Symbol>>(capacity: 16)
  @exclusivity(unchecked) var restricted = ScratchList<ShiftEntry<Symbol>>(capacity: 16)
  @exclusivity(unchecked) var dummies = ScratchList<ShiftEntry<Symbol>>(capacity: 16)

  /// Appends `entry` to `list`, whose first `current.count` entries are kept; returns the
  /// list's entries after it.
  static func append<Target>(
    _ entry: ShiftEntry<Target>, to list: inout ScratchList<ShiftEntry<Target>>,
    _ current: UnsafeBufferPointer<ShiftEntry<Target>>
  ) -> UnsafeBufferPointer<ShiftEntry<Target>> {
    let n = current.count
    list.reserve(n &+ 1, keeping: n)
    list.base[n] = entry
    return UnsafeBufferPointer(start: list.base, count: n &+ 1)
  }

  deinit {
    direct.deallocate()
    externals.deallocate()
    restricted.deallocate()
    dummies.deallocate()
  }
}

/// The lists of a cached column as raw buffers, for the shift that reads them.
struct ShiftEntries {
  var direct = UnsafeBufferPointer<ShiftEntry<Int32>>(start: nil, count: 0)
  var externals = UnsafeBufferPointer<ShiftEntry<Symbol>>(start: nil, count: 0)
  var restricted = UnsafeBufferPointer<ShiftEntry<Symbol>>(start: nil, count: 0)
  var dummies = UnsafeBufferPointer<ShiftEntry<Symbol>>(start: nil, count: 0)
}

/// A few cached columns (several edit variables are often suggested together) and the
/// markers seen once.
struct ShiftCache {
  static let capacity = 4
  var columns: [ShiftColumn] = []
  /// Where the next new column goes once all slots are used (round robin).
  var nextVictim = 0
  /// Markers shifted once at the current version, the candidates for a column.
  var seen: [(marker: Symbol, version: UInt64)] = []
  /// The column that defers its restricted values, -1 when none: at most one does, so that
  /// the values it bounds its shifts by are only ever moved by it.
  var deferring = -1
  /// From how many restricted values a column defers them: a shorter column's values cost
  /// less than its bounds (a division each) when another column takes over.
  static let deferredRestricted = 16
  /// From how many externals a column leaves their shift to the read-out
  /// (`ShiftColumn.externalShift`).
  static let deferredExternals = 16

  func index(of marker: Symbol, version: UInt64) -> Int? {
    columns.firstIndex { $0.marker == marker && $0.version == version }
  }

  /// Records a shift of `marker` that did not use a column; returns whether it is the
  /// second one at this version (the column is then worth building).
  mutating func noteShift(_ marker: Symbol, version: UInt64) -> Bool {
    if seen.contains(where: { $0.marker == marker && $0.version == version }) { return true }
    seen.removeAll { $0.version != version }
    if seen.count >= ShiftCache.capacity { seen.removeFirst() }
    seen.append((marker, version))
    return false
  }
}

extension Tableau {
  /// Marks a change of some row's coefficients: cached columns are no longer valid.
  @inline(__always) mutating func structureChanged() {
    assert(!pendingShifts, "rows changed before the pending shifts were settled")
    structureVersion &+= 1
  }

  /// Shifts a parametric marker through its cached column when there is one (or when this is
  /// the second shift at this structure version, after building it). Returns `nil` when
  /// the caller must take the general path, else whether every basic dummy stayed zero.
  mutating func shiftThroughColumn(_ marker: Symbol, by delta: Double) -> Bool? {
    let version = structureVersion
    var found = shiftCache.index(of: marker, version: version)
    if found == nil {
      guard shiftCache.noteShift(marker, version: version) else { return nil }
      found = buildShiftColumn(marker)
    }
    let k = found!
    counters.cachedShifts &+= 1
    shiftDrift += abs(delta) * shiftCache.columns[k].largest
    shiftedThroughCache = true
    everShiftedThroughCache = true
    let entries = shiftCache.columns[k].entries
    if entries.direct.count > 0 {
      shiftCache.columns[k].pending += delta
      pendingShifts = true
    }
    counters.valuesUpdated &+=
      entries.externals.count &+ entries.restricted.count &+ entries.dummies.count
    // The column's lists are read through its buffers (`ShiftColumn`) while the tableau's
    // arrays, other stored properties, are written.
    guard
      entries.externals.count >= ShiftCache.deferredExternals
        || entries.restricted.count >= ShiftCache.deferredRestricted
    else {
      // A short column (enaml's) moves everything now, after any deferred restricted
      // values (the same values, maybe) are brought up to date.
      if entries.externals.count > 0 {
        shiftCache.columns[k].unlisted = true
        pendingShifts = true
      }
      if shiftCache.deferring >= 0 { applyDeferredRestricted() }
      return Tableau.applyShift(
        entries, by: delta, values: &values, infeasible: &infeasible, movingExternals: true,
        movingRestricted: true)
    }
    return shiftLongColumn(k, entries, by: delta)
  }

  /// The rest of `shiftThroughColumn` for a column of `ShiftCache.deferredExternals`
  /// externals or `ShiftCache.deferredRestricted` restricted values or more: the
  /// externals of the first wait for the read-out (`ShiftColumn.externalShift`), the
  /// restricted values of the second may wait for a settle (`shiftRestricted(ofColumn:by:)`).
  /// Apart, so that the short columns' path keeps the few instructions it had.
  private mutating func shiftLongColumn(_ k: Int, _ entries: ShiftEntries, by delta: Double)
    -> Bool
  {
    let externalsWait = entries.externals.count >= ShiftCache.deferredExternals
    if entries.externals.count > 0 {
      shiftCache.columns[k].unlisted = true
      pendingShifts = true
      if externalsWait { shiftCache.columns[k].externalShift += delta }
    }
    guard entries.restricted.count >= ShiftCache.deferredRestricted else {
      if shiftCache.deferring >= 0 { applyDeferredRestricted() }
      return Tableau.applyShift(
        entries, by: delta, values: &values, infeasible: &infeasible,
        movingExternals: !externalsWait, movingRestricted: true)
    }
    let consistent = Tableau.applyShift(
      entries, by: delta, values: &values, infeasible: &infeasible,
      movingExternals: !externalsWait, movingRestricted: false)
    shiftRestricted(ofColumn: k, by: delta)
    return consistent
  }

  /// Moves the restricted values of cached column `k` (of `ShiftCache.deferredRestricted`
  /// or more) by `delta`, or defers the move.
  ///
  /// A restricted value matters to nothing but the dual simplex until something reads the
  /// rows, and then only whether it went negative. So the column that shifts, once it has
  /// moved its restricted values and found them non-negative, keeps the interval of further
  /// shifts that keeps them all non-negative (`ShiftColumn.bounds`), and a shift whose sum
  /// stays in it only adds to `deferred` (`wide`'s 3,000 children have three restricted
  /// values each to one external). A shift out of it moves the values by the whole sum and
  /// queues the negative ones, as without the interval; the settle (`settleShifts()`)
  /// applies the sum before anything else reads a value or a row. One column defers at a
  /// time: another's shift brings the deferred values up to date first, since the values
  /// it moves may be the same ones.
  private mutating func shiftRestricted(ofColumn k: Int, by delta: Double) {
    var total = delta
    if shiftCache.deferring == k {
      total = shiftCache.columns[k].deferred + delta
      let bounds = shiftCache.columns[k].bounds
      if total >= bounds.lower && total <= bounds.upper {
        shiftCache.columns[k].deferred = total
        pendingShifts = true
        return
      }
      shiftCache.columns[k].deferred = 0
      shiftCache.deferring = -1
    } else {
      applyDeferredRestricted()
    }
    if let bounds = Tableau.shiftRestricted(
      shiftCache.columns[k].entries.restricted, by: total, values: &values,
      infeasible: &infeasible, bounding: true)
    {
      shiftCache.columns[k].bounds = bounds
      shiftCache.deferring = k
    }
  }

  /// Applies the deferring column's sum to its restricted values (`shiftRestricted`), and
  /// ends its deferral: what comes next may move those values some other way.
  mutating func applyDeferredRestricted() {
    let k = shiftCache.deferring
    guard k >= 0 else { return }
    shiftCache.deferring = -1
    let total = shiftCache.columns[k].deferred
    shiftCache.columns[k].deferred = 0
    guard total != 0 else { return }
    // A column whose rows changed under it is damage, found by the settle that follows.
    guard shiftCache.columns[k].version == structureVersion else { return }
    Tableau.moveRestricted(shiftCache.columns[k].entries.restricted, by: total, values: &values)
  }

  /// How many externals the unlisted columns hold (a bound on what the next read-out finds
  /// there besides `changedExternals`).
  var unlistedExternalCount: Int {
    guard pendingShifts else { return 0 }
    var count = 0
    for column in shiftCache.columns where column.unlisted {
      count &+= column.entries.externals.count
    }
    return count
  }

  /// Hands the externals of each unlisted column to `body` (the read-out), with whether
  /// their entries hold their variables (`body` stores them when not) and the shift still
  /// to add to their values in `values` (`body` adds it to the copies and leaves `values`
  /// as they are: the shift stays owed, `ShiftColumn.externalShift`), then marks them read:
  /// the columns are listed, and only pending or owed sums keep the shifts pending.
  /// With a column whose externals wait for a shift and anything else to copy (another
  /// column unlisted or owing, or `listed` externals, which the read-out copies from
  /// `values` after the columns), every column's shift is added to `values` first (they
  /// may move the same values), and `body` gets none. Inlined into the read-out, with
  /// `body`: called through a closure, the copy cost a call per column and 470
  /// instructions per enaml read-out more.
  @inline(__always)
  mutating func drainUnlistedColumns(
    values: UnsafeMutableBufferPointer<Double>, listed: Int,
    _ body: (
      UnsafeMutableBufferPointer<ShiftEntry<Symbol>>, _ variablesKnown: Bool, _ shift: Double
    ) -> Void
  ) {
    guard pendingShifts else { return }
    // A deferred sum keeps the shifts pending too.
    var pending = shiftCache.deferring >= 0
    // By index: a `for column in` loop copies each column, a retain and a release of its
    // buffers.
    // A column whose externals wait, and any other column unlisted or owing (which may move
    // the same variables, its own shift already in their values or owed), or any listed
    // external: every wait ends before anything is copied, else a shared variable would be
    // copied and reported once short of its final value and again at it (found in review),
    // or copied last from a value still owed a shift.
    var waiting = false
    var involved = 0
    for k in shiftCache.columns.indices
    where shiftCache.columns[k].unlisted || shiftCache.columns[k].externalShift != 0 {
      involved &+= 1
      if shiftCache.columns[k].externalShift != 0 { waiting = true }
    }
    if waiting && (involved > 1 || listed > 0) {
      for k in shiftCache.columns.indices where shiftCache.columns[k].externalShift != 0 {
        guard shiftCache.columns[k].version == structureVersion else { continue }
        Tableau.moveExternals(
          shiftCache.columns[k].entries.externals, by: shiftCache.columns[k].externalShift,
          values: values)
        shiftCache.columns[k].externalShift = 0
      }
    }
    for k in shiftCache.columns.indices {
      if shiftCache.columns[k].unlisted {
        shiftCache.columns[k].unlisted = false
        let shift = shiftCache.columns[k].externalShift
        // A column is unlisted only between its shift and the next settle, and every change
        // of the rows settles first: one of another version is a path that did not.
        if shiftCache.columns[k].version == structureVersion {
          // The column's own buffers (`ShiftBuffers`); a copy of the tableau that shares
          // them has the same symbols, so the same variables.
          body(
            UnsafeMutableBufferPointer(mutating: shiftCache.columns[k].entries.externals),
            shiftCache.columns[k].variablesKnown, shift)
          shiftCache.columns[k].variablesKnown = true
        } else {
          assertionFailure("rows changed before the pending shifts were settled")
          shiftCache.columns[k].externalShift = 0
          damaged = true
        }
      }
      if shiftCache.columns[k].pending != 0 || shiftCache.columns[k].externalShift != 0 {
        pending = true
      }
    }
    pendingShifts = pending
  }

  /// Computes the cached column of a parametric marker at the current structure version,
  /// returning its place in the cache.
  mutating func buildShiftColumn(_ marker: Symbol) -> Int {
    // The victim's pending shifts go to its rows before its slot is reused; the new
    // column reads the direct rows' coefficients only, but settling everything keeps one
    // rule: nothing but a cached shift runs with shifts pending.
    settleShifts()
    // The slot to fill: a new one while there is room, else the next victim, whose buffers
    // are reused (a column rebuilt every few ticks then allocates nothing).
    let k: Int
    if shiftCache.columns.count < ShiftCache.capacity {
      k = shiftCache.columns.count
      shiftCache.columns.append(ShiftColumn())
    } else {
      k = shiftCache.nextVictim
      shiftCache.nextVictim = (k + 1) % ShiftCache.capacity
    }
    var column = ShiftColumn()
    swap(&column, &shiftCache.columns[k])
    column.begin(marker, version: structureVersion)
    for slot in slots(holding: marker) {
      column.addDirect(slot, rows[Int(slot)].coefficient(for: marker))
    }
    // Every coefficient that is not exactly zero is kept, so the cached shift moves the
    // same values the general path would.
    forEachColumnEntry(of: marker) { b, d in
      guard d != 0 else { return }
      column.addMoved(b, d)
    }
    swap(&column, &shiftCache.columns[k])
    return k
  }
}

extension Tableau {
  /// Applies the cached columns' pending shifts to the constants of their direct rows
  /// (see the top of this file). Call before reading or changing any row.
  @inline(__always) mutating func settleShifts() {
    if pendingShifts { settlePendingShifts() }
  }

  private mutating func settlePendingShifts() {
    if shiftCache.deferring >= 0 {
      if shiftCache.columns[shiftCache.deferring].version != structureVersion {
        assertionFailure("rows changed before the pending shifts were settled")
        damaged = true
      }
      applyDeferredRestricted()
    }
    for k in shiftCache.columns.indices {
      let pending = shiftCache.columns[k].pending
      let unlisted = shiftCache.columns[k].unlisted
      let owed = shiftCache.columns[k].externalShift
      guard pending != 0 || unlisted || owed != 0 else { continue }
      shiftCache.columns[k].pending = 0
      shiftCache.columns[k].unlisted = false
      // Its rows changed under it (a path that did not settle first, which the debug
      // checks refuse): its slots may hold other rows now. The tableau is rebuilt from its
      // constraints instead (`Solver+Recovery.swift`), whose constants are all current,
      // and which lists every variable as changed.
      guard shiftCache.columns[k].version == structureVersion else {
        assertionFailure("rows changed before the pending shifts were settled")
        damaged = true
        continue
      }
      let entries = shiftCache.columns[k].entries
      if pending != 0 {
        for entry in entries.direct { disown(Int(entry.target)) }
        Tableau.shiftDirectRows(entries.direct, by: pending, rows: &rows)
        counters.rowsTouched &+= entries.direct.count
      }
      // The shift its externals wait for, or owe since a read-out copied them with it.
      shiftCache.columns[k].externalShift = 0
      if owed != 0 {
        values.withUnsafeMutableBufferPointer { values in
          Tableau.moveExternals(entries.externals, by: owed, values: values)
        }
      }
      if unlisted {
        expansion.listed.reserve(entries.externals.count)
        Tableau.listShifted(
          entries.externals, marks: &symbolMarks, changedExternals: &changedExternals,
          rechangedExternals: &rechangedExternals, listed: expansion.listed.base,
          generation: checkGeneration, readOut: readOutGeneration)
      }
    }
    pendingShifts = false
  }
}
