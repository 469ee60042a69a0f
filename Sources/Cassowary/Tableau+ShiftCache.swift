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

/// One coefficient of a cached column: the row slot it shifts or the basic symbol it moves.
struct ShiftEntry<Target> {
  let target: Target
  let coefficient: Double
}

/// The cached column of one marker.
struct ShiftColumn {
  var marker = Symbol.invalid
  /// The structure version it was computed at; `.max` when empty.
  var version = UInt64.max
  /// Rows that name the marker directly, with its coefficient: their constants shift.
  var direct: [ShiftEntry<Int32>] = []
  /// Moved basic symbols and their column coefficients, in three groups by what a moved
  /// value needs: external (flag for the read-out), restricted (queue when negative),
  /// dummy (must stay zero).
  var externals: [ShiftEntry<Symbol>] = []
  var restricted: [ShiftEntry<Symbol>] = []
  var dummies: [ShiftEntry<Symbol>] = []

  /// The four lists' buffers, taken once the column is complete (`seal()`), so that a shift
  /// reads them without retaining the arrays. They stay valid while the arrays are not
  /// changed, which only `clear()` does (and it empties them first): the arrays keep their
  /// buffers alive. A copy of the column (a copy of the tableau) shares the arrays and the
  /// buffers until one of them is cleared, which then writes to buffers of its own.
  private(set) var entries = ShiftEntries()

  /// Takes the buffers of the complete lists into `entries`.
  mutating func seal() {
    entries = ShiftEntries(
      direct: direct.withUnsafeBufferPointer { $0 },
      externals: externals.withUnsafeBufferPointer { $0 },
      restricted: restricted.withUnsafeBufferPointer { $0 },
      dummies: dummies.withUnsafeBufferPointer { $0 })
  }

  /// Empties the column, keeping its buffers.
  mutating func clear() {
    entries = ShiftEntries()
    marker = .invalid
    version = .max
    direct.removeAll(keepingCapacity: true)
    externals.removeAll(keepingCapacity: true)
    restricted.removeAll(keepingCapacity: true)
    dummies.removeAll(keepingCapacity: true)
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
  @inline(__always) mutating func structureChanged() { structureVersion &+= 1 }

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
    let entries = shiftCache.columns[k].entries
    counters.rowsTouched &+= entries.direct.count
    counters.valuesUpdated &+=
      entries.externals.count &+ entries.restricted.count &+ entries.dummies.count
    expansion.listed.reserve(entries.externals.count)
    // The column's lists are read through the buffers it holds, while the arrays they
    // change (other stored properties) are written: the column taken out of the cache and
    // put back cost four retains and eight releases per shift, and its arrays opened one by
    // one four of each, a fifth of an enaml suggestion's instructions.
    return Tableau.applyShift(
      entries, by: delta, rows: &rows, values: &values,
      marks: &symbolMarks, changedExternals: &changedExternals,
      rechangedExternals: &rechangedExternals, listed: expansion.listed.base,
      infeasible: &infeasible, generation: checkGeneration, readOut: readOutGeneration)
  }

  /// Computes the cached column of a parametric marker at the current structure version,
  /// returning its place in the cache.
  mutating func buildShiftColumn(_ marker: Symbol) -> Int {
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
    column.clear()
    column.marker = marker
    column.version = structureVersion
    for slot in slots(holding: marker) {
      let coefficient = rows[Int(slot)].coefficient(for: marker)
      column.direct.append(ShiftEntry(target: slot, coefficient: coefficient))
    }
    // Every coefficient that is not exactly zero is kept, so the cached shift moves the
    // same values the general path would.
    forEachColumnEntry(of: marker) { b, d in
      guard d != 0 else { return }
      if b.isExternal {
        column.externals.append(ShiftEntry(target: b, coefficient: d))
      } else if b.isDummy {
        column.dummies.append(ShiftEntry(target: b, coefficient: d))
      } else {
        column.restricted.append(ShiftEntry(target: b, coefficient: d))
      }
    }
    column.seal()
    swap(&column, &shiftCache.columns[k])
    return k
  }
}
