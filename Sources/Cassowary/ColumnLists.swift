// The column index's lists (`Tableau.columns`): for every symbol, the slots of the rows
// that may name it, all in one shared array.
//
// With an array per symbol, every list was its own heap object: bringing a value up to
// date read the header of its symbol's list, a cache miss per updated value in a stack of
// a thousand boxes (a quarter of the time of `updateValues()` in `chain`), and every new
// symbol cost an allocation. Here a list is a range of one array (`entries`), found through
// a flat table of extents. A list that outgrows its range moves past the last range,
// twice as large, and the range it leaves is dead. The array needs no compaction: the
// ranges a list left behind (8, 16, ... up to half its room) add up to less than the room it
// holds, and a symbol's list keeps its room when the symbol is recycled, so dead entries
// never outnumber the ones in lists. Lists keep their order through moves and the
// compaction of a list in place (`Tableau.compactColumn`), so the column index behaves
// exactly as it did with an array per symbol.

/// Where one symbol's list sits in `ColumnLists.entries`.
struct ColumnExtent {
  var start: Int32 = 0
  /// Entries in the list (stale ones included).
  var count: Int32 = 0
  /// Entries its range holds.
  var capacity: Int32 = 0
}

struct ColumnLists {
  /// Per symbol, indexed by `Symbol.index`.
  private(set) var extents: [ColumnExtent] = []
  /// The lists, each in its own range below `used`; the other entries are dead or free.
  private(set) var entries: [Int32] = []
  /// Entries of `entries` in no list's range (below `used`).
  private(set) var dead = 0
  /// Entries up to the end of the last range; the ones past it are free.
  private(set) var used = 0

  /// The room a list gets at its first entry.
  static let initialCapacity: Int32 = 8

  /// Adds an empty list for a new symbol.
  mutating func addSymbol() { extents.append(ColumnExtent()) }

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
    let extent = extents[index]
    let start = Int(extent.start)
    var k = Int(extent.count)
    let tail = k > 4 ? k &- 4 : 0
    while k > tail {
      k &-= 1
      if entries[start &+ k] == slot { return }
    }
    if extent.count == extent.capacity { grow(index) }
    let at = Int(extents[index].start) &+ Int(extents[index].count)
    entries[at] = slot
    extents[index].count &+= 1
  }

  /// Moves a full list past the last range with twice the room (or extends it in place
  /// when it is the last range).
  private mutating func grow(_ index: Int) {
    let extent = extents[index]
    let capacity = extent.capacity == 0 ? ColumnLists.initialCapacity : 2 &* extent.capacity
    let start = Int(extent.start)
    if extent.capacity > 0 && start &+ Int(extent.capacity) == used {
      reserve(Int(capacity &- extent.capacity))
      used &+= Int(capacity &- extent.capacity)
      extents[index].capacity = capacity
      return
    }
    reserve(Int(capacity))
    let moved = used
    used &+= Int(capacity)
    let count = Int(extent.count)
    if count > 0 {
      entries.withUnsafeMutableBufferPointer { entries in
        let base = entries.baseAddress!
        (base + moved).update(from: base + start, count: count)
      }
    }
    dead &+= Int(extent.capacity)
    extents[index] = ColumnExtent(start: Int32(moved), count: extent.count, capacity: capacity)
  }

  /// Makes room for `n` more entries past `used`, doubling the array when it is short (its
  /// storage would double anyway; every entry of it is then usable without an append per
  /// range).
  @inline(__always) private mutating func reserve(_ n: Int) {
    if used &+ n > entries.count {
      entries.append(contentsOf: repeatElement(-1, count: Swift.max(n, entries.count, 64)))
    }
  }

  /// Overwrites entry `k` of the list of the symbol at `index` (compaction, in place).
  @inline(__always) mutating func setEntry(_ index: Int, _ k: Int, _ slot: Int32) {
    entries[Int(extents[index].start) &+ k] = slot
  }

  /// Keeps the first `count` entries of the list of the symbol at `index`.
  mutating func truncate(_ index: Int, to count: Int) {
    precondition(count <= Int(extents[index].count), "a list can only shrink")
    extents[index].count = Int32(count)
  }

  /// Calls `body` with the extents and the entries as raw buffers (for the loops of
  /// `Tableau.UnsafeHandle`, which only read them).
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
