// The column index's lists (`Tableau.columns`): for every symbol, the slots of the rows
// that may name it, all in one shared array.
//
// With an array per symbol, every list was its own heap object: bringing a value up to
// date read the header of its symbol's list, a cache miss per updated value in a stack of
// a thousand boxes (a quarter of the time of `updateValues()` in `chain`), and every new
// symbol cost an allocation. Here a list is a range of one array (`entries`), found through
// a flat table of extents. Rooms are 2 entries times a power of two (a list past its first
// room goes straight to 8). A list that outgrows its range grows in place when it is the
// last range; otherwise it moves to a range twice as large (four times from the first), and
// the range it leaves goes on the free list of its size, for the next list that grows to
// that size. The array needs no compaction: free ranges are reused, and
// even unused they would add up to less than the room lists hold (the ranges one list left
// behind, 2, 4, ... up to half its room, sum to less than the room it holds; a symbol's
// list keeps its room when the symbol is recycled). Past the last range, the array keeps up
// to half its size again free, for growth. Lists keep their order through moves and
// through the compaction of a list in place (`Tableau.compactColumn`), so the column index
// behaves exactly as it did with an array per symbol.

/// Where one symbol's list sits in `ColumnLists.entries`.
struct ColumnExtent {
  var start: Int32 = 0
  /// Entries in the list (stale ones included).
  var count: Int32 = 0
  /// Entries its range holds.
  var capacity: Int32 = 0
  /// The rows that name the symbol: the entries less the stale ones, kept exact by the
  /// tableau (`Tableau.noteAdded`, `noteRemoved` and `relist`). Beside the extent rather than in an
  /// array of its own: the value pass reads both for every updated value.
  var live: Int32 = 0
}

struct ColumnLists {
  /// Per symbol, indexed by `Symbol.index`.
  private(set) var extents: [ColumnExtent] = []
  /// The lists, each in its own range below `used`; the other entries are dead or free.
  private(set) var entries: [Int32] = []
  /// Entries of `entries` in free ranges (below `used`).
  private(set) var dead = 0
  /// Per size class (`sizeClass(_:)`), the first free range of that size, or -1; each free
  /// range holds the start of the next one in its first entry.
  private var freeHeads: [Int32] = []
  /// Entries up to the end of the last range; the ones past it are free.
  private(set) var used = 0

  /// The room a list gets at its first entry. Most lists stay short: in a feed's layout a
  /// symbol is named by 1.3 rows on average. With 8 (until stop 70) the lists of a
  /// 3,000-cell feed held 2.6 million entries, 318 bytes a view, for 431,000 cells, and
  /// the array's growth wrote every new entry: a cold build of 10,000 cells was 14% slower
  /// with 8, 4 and the objective's slack together (stop 70).
  static let initialCapacity: Int32 = 2

  /// Whether a list of `count` entries, `live` of them valid, is due for compaction: when
  /// its stale entries outnumber its rows plus 16 (`Tableau.compactColumn`).
  @inline(__always) static func isOvergrown(count: Int, live: Int) -> Bool {
    count > 2 &* live &+ 16
  }

  /// Adds empty lists for `count` new symbols.
  mutating func addSymbols(_ count: Int) {
    extents.append(contentsOf: repeatElement(ColumnExtent(), count: count))
  }

  /// The number of rows that name the symbol at `index` (`ColumnExtent.live`).
  @inline(__always) func liveCount(_ index: Int) -> Int32 { extents[index].live }

  /// Adds `delta` to the number of rows that name the symbol at `index`; returns the new
  /// number.
  @discardableResult
  @inline(__always) mutating func addLive(_ index: Int, _ delta: Int32) -> Int32 {
    extents.withUnsafeMutableBufferPointer { extents in
      extents[index].live &+= delta
      return extents[index].live
    }
  }

  /// The number of entries in the list of the symbol at `index`.
  @inline(__always) func count(_ index: Int) -> Int { Int(extents[index].count) }

  /// Entry `k` of the list of the symbol at `index`.
  @inline(__always) func entry(_ index: Int, _ k: Int) -> Int32 {
    entries[Int(extents[index].start) &+ k]
  }

  /// The list of the symbol at `index`. The slice shares the array: iterating it while the
  /// lists are changed stays correct, but the first change then copies every list.
  func list(_ index: Int) -> ArraySlice<Int32> {
    let extent = extents[index]
    let start = Int(extent.start)
    return entries[start..<(start + Int(extent.count))]
  }

  /// Adds `slot` to the list of the symbol at `index`, unless one of its last four
  /// entries is `slot` already (`Tableau.noteAdded(_:in:)` says why).
  @inline(__always) mutating func append(_ slot: Int32, to index: Int) {
    let done = withUnsafeMutableBuffers { extents, entries in
      ColumnLists.appendInPlace(slot, to: index, extents, entries)
    }
    if done || startInPlace(slot, at: index) { return }
    grow(index)
    let at = Int(extents[index].start) &+ Int(extents[index].count)
    entries[at] = slot
    extents[index].count &+= 1
  }

  /// `append(_:to:)` over the raw buffers, when the list has room: returns `false`, having
  /// changed nothing, when `slot` must be appended to a full list (which `append` grows).
  @inline(__always)
  static func appendInPlace(
    _ slot: Int32, to index: Int, _ extents: UnsafeMutableBufferPointer<ColumnExtent>,
    _ entries: UnsafeMutableBufferPointer<Int32>
  ) -> Bool {
    let extent = extents[index]
    let start = Int(extent.start)
    var k = Int(extent.count)
    let tail = k > 4 ? k &- 4 : 0
    while k > tail {
      k &-= 1
      if entries[start &+ k] == slot { return true }
    }
    if extent.count == extent.capacity { return false }
    entries[start &+ Int(extent.count)] = slot
    extents[index].count &+= 1
    return true
  }

  /// Gives an empty list without a range its first one, holding `slot`, straight from the
  /// array's free end: the common case of `grow` for a new symbol (no free range of the
  /// first size, and room past `used`) without its checks. Returns `false`, having changed
  /// nothing, in every other case.
  @inline(__always) private mutating func startInPlace(_ slot: Int32, at index: Int) -> Bool {
    let first = Int(ColumnLists.initialCapacity)
    guard used &+ first <= entries.count, freeHeads.isEmpty || freeHeads[0] < 0 else {
      return false
    }
    let start = used
    let started = withUnsafeMutableBuffers { extents, entries in
      guard extents[index].capacity == 0 else { return false }
      entries[start] = slot
      extents[index].start = Int32(start)
      extents[index].count = 1
      extents[index].capacity = ColumnLists.initialCapacity
      return true
    }
    if started { used = start &+ first }
    return started
  }

  /// Moves a full list to a range with twice the room: a free one of that size if there is
  /// one, else past the last range (or extends it in place when it is the last range). Its
  /// old range becomes free, for the next list that grows to that size.
  private mutating func grow(_ index: Int) {
    let extent = extents[index]
    // A list past its first room grows to four times it: most lists never leave their first
    // room, and the ones that do are often a few entries long (moving through every power
    // of two cost the enaml build 4% more instructions).
    let capacity =
      extent.capacity == 0
      ? ColumnLists.initialCapacity
      : (extent.capacity == ColumnLists.initialCapacity ? 4 : 2) &* extent.capacity
    let start = Int(extent.start)
    if extent.capacity > 0 && start &+ Int(extent.capacity) == used {
      reserve(Int(capacity &- extent.capacity))
      used &+= Int(capacity &- extent.capacity)
      extents[index].capacity = capacity
      return
    }
    let size = ColumnLists.sizeClass(capacity)
    var moved = size < freeHeads.count ? Int(freeHeads[size]) : -1
    if moved >= 0 {
      freeHeads[size] = entries[moved]
      dead &-= Int(capacity)
    } else {
      reserve(Int(capacity))
      moved = used
      used &+= Int(capacity)
    }
    let count = Int(extent.count)
    if count > 0 {
      entries.withUnsafeMutableBufferPointer { entries in
        let base = entries.baseAddress!
        (base + moved).update(from: base + start, count: count)
      }
    }
    if extent.capacity > 0 {
      let old = ColumnLists.sizeClass(extent.capacity)
      while freeHeads.count <= old { freeHeads.append(-1) }
      entries[start] = freeHeads[old]
      freeHeads[old] = Int32(start)
      dead &+= Int(extent.capacity)
    }
    extents[index].start = Int32(moved)
    extents[index].capacity = capacity
  }

  /// The free-list index of a room of `capacity` entries (the initial room times a power
  /// of two).
  @inline(__always) static func sizeClass(_ capacity: Int32) -> Int {
    Int((capacity / initialCapacity).trailingZeroBitCount)
  }

  /// Makes room for `n` more entries past `used`, growing the array by half when it is
  /// short (growing it one range at a time was an append per range; by doubling, a feed of
  /// 3,000 cells left 4 million entries unused at its peak).
  @inline(__always) private mutating func reserve(_ n: Int) {
    if used &+ n > entries.count {
      let count = entries.count &+ Swift.max(n, entries.count / 2, 64)
      // Ranges start at `Int32` offsets (8 GB of entries: far beyond any layout's memory).
      precondition(count <= Int(Int32.max), "the column lists outgrew 2^31 entries")
      entries.reserveCapacity(count)
      entries.append(contentsOf: repeatElement(-1, count: count &- entries.count))
    }
  }

  /// The free ranges, as (start, capacity) pairs (tests).
  func freeRanges() -> [(start: Int, capacity: Int)] {
    var ranges: [(start: Int, capacity: Int)] = []
    for size in freeHeads.indices {
      var at = freeHeads[size]
      while at >= 0 {
        ranges.append((Int(at), Int(ColumnLists.initialCapacity) << size))
        at = entries[Int(at)]
      }
    }
    return ranges
  }

  /// Keeps the first `count` entries of the list of the symbol at `index`.
  mutating func truncate(_ index: Int, to count: Int) {
    precondition(count <= Int(extents[index].count), "a list can only shrink")
    extents[index].count = Int32(count)
  }

  /// Calls `body` with the extents and the entries as raw buffers (for the loops of
  /// `Tableau.UnsafeHandle`, which read them, and `Tableau.relist`, which changes counts and
  /// appends in place).
  @inline(__always)
  mutating func withUnsafeMutableBuffers<R>(
    _ body: (UnsafeMutableBufferPointer<ColumnExtent>, UnsafeMutableBufferPointer<Int32>) -> R
  ) -> R {
    extents.withUnsafeMutableBufferPointer { extents in
      entries.withUnsafeMutableBufferPointer { entries in body(extents, entries) }
    }
  }

  /// Empties the list of the symbol at `index`, keeping its room.
  mutating func removeAll(_ index: Int) { extents[index].count = 0 }
}
