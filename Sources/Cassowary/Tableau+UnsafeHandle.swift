// The tableau's arrays through one scoped handle. `updateValues()` visits thousands of rows
// and values per call; through the arrays themselves every read would pay a bounds check and
// every write a uniqueness check. `withUnsafeHandle(_:)` opens each buffer once, and the loops
// are methods of the handle, written as plain indexing.

extension Tableau {
  /// The tableau's per-symbol and per-slot arrays and its work lists as raw buffers, valid
  /// only inside `withUnsafeHandle(_:)`. Release builds index them unchecked; debug builds
  /// still check every index (the buffers' own checks).
  struct UnsafeHandle {
    /// The tableau's `lazy` and `visitEpoch` when the scope opened.
    let lazy: Bool
    let epoch: UInt32
    /// `Tableau.checkGeneration` and `Tableau.readOutGeneration` (the marks of changed values).
    let checkGeneration: UInt32
    let readOutGeneration: UInt32
    // Per symbol, indexed by `Symbol.index`.
    let values: UnsafeMutableBufferPointer<Double>
    let symbolMarks: UnsafeMutableBufferPointer<SymbolMarks>
    let basicSlot: UnsafeBufferPointer<Int32>
    let columnExtents: UnsafeBufferPointer<ColumnExtent>
    let columnEntries: UnsafeBufferPointer<Int32>
    // Per slot.
    let rows: UnsafeBufferPointer<Row>
    let rowBasic: UnsafeBufferPointer<Symbol>
    // The work lists of `updateValues()`, sized before the scope opens (`LevelQueue`).
    let staleValues: UnsafeBufferPointer<Symbol>
    let queuedItems: UnsafeMutableBufferPointer<LevelQueue.Item>
    let levelHeads: UnsafeMutableBufferPointer<Int32>
    // Lists that may grow inside the scope.
    let changedExternals: UnsafeMutablePointer<[Symbol]>
    let rechangedExternals: UnsafeMutablePointer<[Symbol]>
    let infeasible: UnsafeMutablePointer<[Symbol]>
    // The reference cache (`Tableau+References.swift`): spans per slot, the arena (which
    // may grow inside the scope) and its count of live entries.
    let referenceSpans: UnsafeMutableBufferPointer<ReferenceSpan>
    let referenceSymbols: UnsafeMutablePointer<[Symbol]>
    let referenceCoefficients: UnsafeMutablePointer<[Double]>
    let referenceLive: UnsafeMutablePointer<Int>
  }

  /// Calls `body` with a handle on the tableau's arrays. While it runs, the tableau is
  /// reachable only through the handle (exclusivity rules out any other access), so values
  /// that `body` needs from `self` are in the handle or read before the call.
  ///
  /// The handle is passed `inout`, which tells the optimiser that nothing else writes to it:
  /// its buffer addresses then stay in registers across the loops' stores, instead of being
  /// loaded again after each one (passed by value, a pass over 25,000 rows cost 1% more).
  ///
  /// Every array is opened for writing, even those the loops only read: in a mutating
  /// method that costs a uniqueness check, where a read-only scope retained and released
  /// the array's storage (seven atomic pairs per call, and a layout build brings the values
  /// up to date after every insertion).
  ///
  /// The sixteen scopes are written flat; the formatter would indent each one level deeper.
  // swift-format-ignore
  @inline(__always)
  mutating func withUnsafeHandle<R>(_ body: (inout UnsafeHandle) -> R) -> R {
    values.withUnsafeMutableBufferPointer { values in
    symbolMarks.withUnsafeMutableBufferPointer { symbolMarks in
    basicSlot.withUnsafeMutableBufferPointer { basicSlot in
    columns.withUnsafeMutableBuffers { columnExtents, columnEntries in
    rows.withUnsafeMutableBufferPointer { rows in
    rowBasic.withUnsafeMutableBufferPointer { rowBasic in
    staleValues.withUnsafeMutableBufferPointer { staleValues in
    queuedItems.withUnsafeMutableBufferPointer { queuedItems in
    levelHeads.withUnsafeMutableBufferPointer { levelHeads in
    withUnsafeMutablePointer(to: &changedExternals) { changedExternals in
    withUnsafeMutablePointer(to: &rechangedExternals) { rechangedExternals in
    withUnsafeMutablePointer(to: &infeasible) { infeasible in
    referenceSpans.withUnsafeMutableBufferPointer { referenceSpans in
    withUnsafeMutablePointer(to: &referenceSymbols) { referenceSymbols in
    withUnsafeMutablePointer(to: &referenceCoefficients) { referenceCoefficients in
    withUnsafeMutablePointer(to: &referenceLive) { referenceLive in
      var handle = UnsafeHandle(
        lazy: lazy, epoch: visitEpoch, checkGeneration: checkGeneration,
        readOutGeneration: readOutGeneration, values: values,
        symbolMarks: symbolMarks,
        basicSlot: UnsafeBufferPointer(basicSlot), columnExtents: UnsafeBufferPointer(columnExtents),
        columnEntries: UnsafeBufferPointer(columnEntries),
        rows: UnsafeBufferPointer(rows),
        rowBasic: UnsafeBufferPointer(rowBasic), staleValues: UnsafeBufferPointer(staleValues),
        queuedItems: queuedItems, levelHeads: levelHeads,
        changedExternals: changedExternals, rechangedExternals: rechangedExternals,
        infeasible: infeasible,
        referenceSpans: referenceSpans, referenceSymbols: referenceSymbols,
        referenceCoefficients: referenceCoefficients, referenceLive: referenceLive)
      return body(&handle)
    }}}}}}}}}}}}}}}}
  }

  /// Makes the work lists of `updateValues()` long enough that they never grow inside it:
  /// each symbol is queued at most once per call, and every level has a list head.
  ///
  /// The lists grow to twice what is needed: while a layout is built, every insertion makes a
  /// symbol or two and brings the values up to date, and growing the lists by exactly that
  /// each time was a fifth of the cost of updating the values of a new row.
  mutating func reserveWorkLists() {
    // Only basic symbols, and seeds (the stale values), are ever queued.
    let symbolCount = rows.count &+ staleValues.count
    if queuedItems.count < symbolCount {
      let grown = Swift.max(symbolCount, 2 &* queuedItems.count)
      queuedItems.append(
        contentsOf: repeatElement(
          LevelQueue.Item(key: -1, next: -1), count: grown - queuedItems.count))
    }
    let levelCount = Int(highestLevel) + 2
    if levelHeads.count < levelCount {
      let grown = Swift.max(levelCount, 2 &* levelHeads.count)
      levelHeads.append(contentsOf: repeatElement(-1, count: grown - levelHeads.count))
    }
  }
}

extension Tableau {
  /// Applies a cached column's shift by `delta` (`Tableau+ShiftCache.swift`) to the basic
  /// values it moves. The constants of the rows that name the marker wait in the column's
  /// `pending` (`shiftDirectRows` applies them). The externals move here with
  /// `movingExternals`, else they wait in its `externalShift`; either way the read-out
  /// walks the column (`ShiftColumn.unlisted`), adding that shift as it copies them, or a
  /// settle adds it (`moveExternals`) and lists them (`listShifted`) if anything else comes
  /// first. With `movingRestricted`, the restricted
  /// values move here, and the ones that go negative are queued in `infeasible` (else they
  /// are the caller's: `Tableau.shiftRestricted(ofColumn:by:)`). Returns whether every
  /// basic dummy stayed zero.
  @inline(__always)
  static func applyShift(
    _ column: ShiftEntries, by delta: Double, values: inout [Double],
    infeasible: inout [Symbol], movingExternals: Bool, movingRestricted: Bool
  ) -> Bool {
    values.withUnsafeMutableBufferPointer { values in
      if movingExternals { moveExternals(column.externals, by: delta, values: values) }
      if movingRestricted {
        for entry in column.restricted {
          let index = entry.target.index
          let v = values[index] + entry.coefficient * delta
          values[index] = v
          if v < 0 { infeasible.append(entry.target) }
        }
      }
      var consistent = true
      for entry in column.dummies {
        let index = entry.target.index
        let v = values[index] + entry.coefficient * delta
        values[index] = v
        if !nearZero(v) { consistent = false }
      }
      return consistent
    }
  }

  /// Moves a cached column's restricted values by `delta` and queues the ones that went
  /// negative in `infeasible`. With `bounding`, and when none did, returns the sums of
  /// further shifts that keep every one non-negative: `v + c·s >= 0` for `s` from the
  /// largest `-v/c` of the positive `c` to the smallest of the negative, each bound moved
  /// toward zero by a part in 1e12 of itself so that the rounded `v + c·s` cannot come out
  /// below zero (its round-off is a few parts in 1e16 of `v`, the bound's margin a part
  /// in 1e12 of `v`).
  static func shiftRestricted(
    _ restricted: UnsafeBufferPointer<ShiftEntry<Symbol>>, by delta: Double,
    values: inout [Double], infeasible: inout [Symbol], bounding: Bool
  ) -> (lower: Double, upper: Double)? {
    values.withUnsafeMutableBufferPointer { values in
      var negative = false
      for entry in restricted {
        let index = entry.target.index
        let v = values[index] + entry.coefficient * delta
        values[index] = v
        if v < 0 {
          infeasible.append(entry.target)
          negative = true
        }
      }
      guard bounding && !negative else { return nil }
      var lower = -Double.infinity
      var upper = Double.infinity
      for entry in restricted {
        let c = entry.coefficient
        let bound = -values[entry.target.index] / c
        if c > 0 { lower = Swift.max(lower, bound) } else { upper = Swift.min(upper, bound) }
      }
      let inside = 1 - 1.0e-12
      return (lower * inside, upper * inside)
    }
  }

  /// Adds the shifts a cached column's externals wait for (`ShiftColumn.externalShift`) to
  /// their values.
  @inline(__always)
  static func moveExternals(
    _ externals: UnsafeBufferPointer<ShiftEntry<Symbol>>, by shift: Double,
    values: UnsafeMutableBufferPointer<Double>
  ) {
    for entry in externals {
      values[entry.target.index] += entry.coefficient * shift
    }
  }

  /// Adds a deferred sum of shifts to a cached column's restricted values (inside its
  /// bounds, so none goes negative).
  static func moveRestricted(
    _ restricted: UnsafeBufferPointer<ShiftEntry<Symbol>>, by total: Double,
    values: inout [Double]
  ) {
    values.withUnsafeMutableBufferPointer { values in
      for entry in restricted {
        values[entry.target.index] += entry.coefficient * total
      }
    }
  }

  /// Lists the externals of a cached column for the next read-out and the next check, as
  /// `Tableau.flagChanged` would one by one (an unlisted column's, before anything but a
  /// read-out reads the lists: `Tableau.settleShifts()`).
  ///
  /// From `batchedListing` externals on, the ones to list are gathered in `listed` (room for
  /// all of the column's: new ones from the start, those changed again after a check from
  /// the end) and appended to the lists once: an append per value cost a uniqueness check,
  /// a capacity check and a write-back of the array, twice the work of the rest of the
  /// value's update.
  static func listShifted(
    _ externals: UnsafeBufferPointer<ShiftEntry<Symbol>>, marks: inout [SymbolMarks],
    changedExternals: inout [Symbol], rechangedExternals: inout [Symbol],
    listed: UnsafeMutablePointer<Symbol>, generation: UInt32, readOut: UInt32
  ) {
    marks.withUnsafeMutableBufferPointer { marks in
      let room = externals.count
      guard room >= Tableau.batchedListing else {
        // Room first: the optimiser then knows the array is unique, and the appends in
        // the loop call no uniqueness check (each still checks the capacity).
        changedExternals.reserveCapacity(changedExternals.count &+ room)
        for entry in externals {
          Tableau.flagChanged(
            entry.target, in: &marks[entry.target.index].listed, generation: generation,
            readOut: readOut, &changedExternals, &rechangedExternals)
        }
        return
      }
      var new = 0
      var again = 0
      for entry in externals {
        let index = entry.target.index
        switch Tableau.listing(marks[index].listed, generation: generation, readOut: readOut) {
        case .listed: continue
        case .again:
          again &+= 1
          listed[room &- again] = entry.target
        case .new:
          listed[new] = entry.target
          new &+= 1
        }
        marks[index].listed = generation
      }
      if new > 0 {
        changedExternals.append(contentsOf: UnsafeBufferPointer(start: listed, count: new))
      }
      if again > 0 {
        // Listed from the end: reversed, they come in the column's order.
        var tail = UnsafeMutableBufferPointer(start: listed + (room &- again), count: again)
        tail.reverse()
        rechangedExternals.append(contentsOf: UnsafeBufferPointer(tail))
      }
    }
  }

  /// The constants of a cached column's direct rows, shifted by `delta` (the sum of its
  /// pending shifts, `Tableau.settleShifts()`).
  static func shiftDirectRows(
    _ direct: UnsafeBufferPointer<ShiftEntry<Int32>>, by delta: Double, rows: inout [Row]
  ) {
    rows.withUnsafeMutableBufferPointer { rows in
      for entry in direct {
        rows[Int(entry.target)].constant += entry.coefficient * delta
      }
    }
  }

  /// From how many externals a cached column's listing gathers the ones it lists before
  /// appending them (`listShifted`): below, the two appends cost more than the appends one
  /// by one they replace (an enaml suggestion moves about seven).
  static var batchedListing: Int { 16 }
}

extension Tableau.UnsafeHandle {
  /// Calls `body` with the slots of the rows that name the symbol at `index` (its column),
  /// which may hold stale slots beyond its count of live rows (`ColumnExtent.live`).
  @inline(__always)
  func referrers<R>(of index: Int, _ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
    let extent = columnExtents[index]
    let start = Int(extent.start)
    return body(UnsafeBufferPointer(rebasing: columnEntries[start..<(start &+ Int(extent.count))]))
  }
}

/// Symbols waiting for a recomputation in one pass of `updateValues()`, one linked list per
/// level, over the tableau's work lists: `heads[level]` is the first item of a level (-1
/// when none), an item holds its symbol's key and its successor. Every list is empty again
/// when a pass ends.
///
/// A basic symbol is queued by its slot (`rowBasic` gives the symbol back), a parametric
/// one, which only the pass's seeds can be, by its place in `staleValues` (as `-1 - i`).
/// The slot travels with the symbol: a symbol queued because a row names a changed value is
/// that row's basic symbol, and the pass knows the row's slot when it queues it. Looked up
/// again in `basicSlot` when the symbol came up, it was a cache miss per updated value in a
/// large tree; `rowBasic`, read to queue it, is in cache.
struct LevelQueue {
  struct Item {
    var key: Int32
    var next: Int32
  }
  let items: UnsafeMutableBufferPointer<Item>
  let heads: UnsafeMutableBufferPointer<Int32>
  let rowBasic: UnsafeBufferPointer<Symbol>
  let seeds: UnsafeBufferPointer<Symbol>
  /// Items used so far in this pass.
  var count = 0
  /// The highest level that has had an item in this pass.
  var highest = -1

  @inline(__always)
  init(_ tableau: Tableau.UnsafeHandle) {
    items = tableau.queuedItems
    heads = tableau.levelHeads
    rowBasic = tableau.rowBasic
    seeds = tableau.staleValues
  }

  /// Queues the basic symbol of the row in `slot`.
  @inline(__always)
  mutating func push(slot: Int32, level: Int) {
    assert(slot >= 0, "only a seed can be parametric")
    append(key: slot, level: level)
  }

  /// Queues the seed at `index` in `staleValues`, whose row is in `slot` (-1: parametric).
  @inline(__always)
  mutating func pushSeed(slot: Int32, at index: Int, level: Int) {
    append(key: slot >= 0 ? slot : Int32(truncatingIfNeeded: -1 &- index), level: level)
  }

  @inline(__always)
  private mutating func append(key: Int32, level: Int) {
    items[count] = Item(key: key, next: heads[level])
    heads[level] = Int32(count)
    count &+= 1
    if level > highest { highest = level }
  }

  /// Detaches the list of `level`, returning its first item (-1 when it is empty).
  @inline(__always)
  func takeList(_ level: Int) -> Int32 {
    let first = heads[level]
    heads[level] = -1
    return first
  }

  /// The symbol and slot (-1: parametric) of `item` in a detached list; moves `item` on to
  /// its successor.
  @inline(__always)
  func pop(_ item: inout Int32) -> (symbol: Symbol, slot: Int32) {
    let entry = items[Int(item)]
    item = entry.next
    if entry.key >= 0 { return (rowBasic[Int(entry.key)], entry.key) }
    return (seeds[Int(-1 &- entry.key)], -1)
  }
}

extension Tableau {
  /// The column index's side of `replaceRow(_:with:)`: the row in `slot` replaced `old`;
  /// the symbols only the new row names get the slot listed, the ones only the old row named
  /// lose a count. (`noteAdded` and `noteRemoved` per symbol, over raw buffers: a dense row
  /// in a stack of views has a cell per box, and each went through two uniqueness checks.)
  mutating func relist(_ slot: Int, from old: Row) {
    let slot32 = Int32(slot)
    var cellDelta = 0
    var externalsDelta = 0
    var overgrown: [Symbol] = []
    swap(&overgrown, &overgrownColumns)
    // Lists with no room left for the slot: appended (and grown) after the loop, which
    // works on the lists' raw buffers.
    var full: [Symbol] = []
    swap(&full, &fullColumns)
    rows.withUnsafeMutableBufferPointer { rows in
      basicSlot.withUnsafeMutableBufferPointer { basicSlot in
        columns.withUnsafeMutableBuffers { extents, entries in
          rows[slot].symbols.withUnsafeBufferPointer { new in
            old.symbols.withUnsafeBufferPointer { old in
              var i = 0
              var j = 0
              while i < old.count || j < new.count {
                if j == new.count || (i < old.count && old[i] < new[j]) {
                  let s = old[i]
                  let index = s.index
                  extents[index].live &-= 1
                  cellDelta &-= 1
                  if extents[index].live == 0 && s.isExternal && basicSlot[index] < 0 {
                    externalsDelta &-= 1
                  }
                  i &+= 1
                } else if i == old.count || new[j] < old[i] {
                  let s = new[j]
                  let index = s.index
                  extents[index].live &+= 1
                  cellDelta &+= 1
                  let live = extents[index].live
                  if live == 1 && s.isExternal && basicSlot[index] < 0 {
                    externalsDelta &+= 1
                  }
                  if !ColumnLists.appendInPlace(slot32, to: index, extents, entries) {
                    full.append(s)
                  } else if ColumnLists.isOvergrown(
                    count: Int(extents[index].count), live: Int(live))
                  {
                    overgrown.append(s)
                  }
                  j &+= 1
                } else {
                  i &+= 1
                  j &+= 1
                }
              }
            }
          }
        }
      }
    }
    for s in full {
      columns.append(slot32, to: s.index)
      let live = Int(columns.liveCount(s.index))
      if ColumnLists.isOvergrown(count: columns.count(s.index), live: live) { overgrown.append(s) }
    }
    full.removeAllKeepingCapacity()
    swap(&full, &fullColumns)
    cellCount &+= cellDelta
    referencedParametricExternals &+= externalsDelta
    for s in overgrown { compactColumn(s) }
    overgrown.removeAllKeepingCapacity()
    swap(&overgrown, &overgrownColumns)
  }
}

extension Array {
  /// `removeAll(keepingCapacity: true)` for the solver's short work lists: up to two
  /// elements are taken off the end, a uniqueness check each, where the standard call goes
  /// through the generic range replacement (66-80 instructions a call: 0.9% of a build of
  /// kiwi's enaml system, where most value updates have one stale symbol). On a buffer
  /// shared with a copy of the list (a snapshot of the solver), one or two elements leave
  /// a new buffer of their size, not of the old capacity: the list regrows as it did when
  /// it was new.
  @inline(__always)
  mutating func removeAllKeepingCapacity() {
    if count > 2 {
      removeAll(keepingCapacity: true)
    } else {
      while !isEmpty { removeLast() }
    }
  }

  /// Calls `body` with the array's elements as a read-only raw buffer, through a write
  /// scope. On the tableau's arrays, in its mutating methods, a write scope costs a
  /// uniqueness check where `withUnsafeBufferPointer` retained and released the storage:
  /// the expansion, the dependents walk and `setLevel` open a dozen such scopes per pivot
  /// (1.1% of a build of kiwi's enaml system).
  @inline(__always)
  mutating func withReadBuffer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows
    -> R
  {
    try withUnsafeMutableBufferPointer { try body(UnsafeBufferPointer($0)) }
  }
}
