/// The record of each constraint a ``Solver`` holds that another solver has claimed
/// (`ConstraintIndex`), keyed by the constraint's identity.
///
/// A `[ObjectIdentifier: Int32]` hashes every key with SipHash, which was 13% of the
/// instructions of building a 1,000-deep layout (callgrind): one insertion per constraint,
/// and a lookup per removal, constant or strength change. Identities are addresses, already
/// well spread, so this table mixes them with one multiplication (Fibonacci hashing) and
/// probes linearly in flat arrays, at most half full; removal shifts the probe run back
/// instead of leaving tombstones, so lookups never slow down with churn. In a large table
/// the mix keeps constraints that are neighbours in memory next to each other (`home`).
struct IdentityTable: Sequence, ExpressibleByDictionaryLiteral {
  /// Keys by slot; 0 marks an empty slot (no object lives at address 0).
  private var keys: [UInt] = []
  private var values: [Int32] = []
  private(set) var count = 0
  /// The number of slots.
  var capacity: Int { keys.count }
  /// `hash >> shift` is a slot: the capacity is `1 << (64 - shift)`.
  private var shift: UInt64 = 64
  /// For a table of at least `1 << blockedBits` slots: `hash >> blockShift` is a block of
  /// `1 << blockBits` slots (0 for a smaller table).
  private var blockShift: UInt64 = 0
  private static let blockBits: UInt64 = 9
  /// Tables from 65,536 slots (768 KiB, more than a core's L2 cache) keep neighbours
  /// together; a smaller one stays in cache, where the plain hash costs fewer instructions
  /// and probes (a 300-cell feed's cold build: 0.6% more instructions with blocks).
  private static let blockedBits: UInt64 = 16

  init() {}

  init(dictionaryLiteral elements: (ObjectIdentifier, Int32)...) {
    for (key, value) in elements { self[key] = value }
  }

  /// The home slot of a key. In a large table (`blockedBits`), the page of the address (4 KiB) is hashed
  /// to a block of 512 slots and the address within its page (in steps of 16 bytes, the
  /// allocation alignment) picks every other slot of the block: constraints made one after
  /// another sit next to each other in memory, so their slots share pages and cache lines
  /// of the table, where hashing each address scattered them: a lookup was a cache and TLB
  /// miss per array in a table of a large layout (half a million constraints for a
  /// 10,000-cell feed, whose cold build spent 5% of its time here, `perf record`). Pages
  /// spread over blocks as hashed addresses spread over slots. A page of constraints (over
  /// 48 bytes each) fills at most a quarter of a block; 16-byte objects packed 256 to a page
  /// would fill whole blocks and lengthen probe runs (the table stays correct).
  @inline(__always) private func home(_ key: UInt) -> Int {
    let k = UInt64(key)
    guard blockShift != 0 else {
      return Int(truncatingIfNeeded: (k &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }
    let hash = (k >> 12) &* 0x9E37_79B9_7F4A_7C15
    let block = hash >> blockShift
    // Pages of one allocation size share a layout: each page's slots are turned by its own
    // amount within the block, so that two pages in one block interleave instead of
    // landing on the same slots.
    let turn = hash >> (blockShift &- IdentityTable.blockBits)
    let slot = ((k >> 3) & 0x1FE) &+ turn
    return Int(truncatingIfNeeded: block << IdentityTable.blockBits | slot & 0x1FF)
  }

  /// The slot holding `key`, or the empty slot where it would go.
  @inline(__always) private func probe(_ key: UInt) -> Int {
    let mask = keys.count &- 1
    var i = home(key)
    while keys[i] != 0 && keys[i] != key { i = (i &+ 1) & mask }
    return i
  }

  subscript(key: ObjectIdentifier) -> Int32? {
    get {
      guard count > 0 else { return nil }
      let k = UInt(bitPattern: key)
      let i = probe(k)
      return keys[i] == k ? values[i] : nil
    }
    set {
      if let value = newValue {
        insert(UInt(bitPattern: key), value)
      } else {
        _ = remove(UInt(bitPattern: key))
      }
    }
  }

  @discardableResult
  mutating func removeValue(forKey key: ObjectIdentifier) -> Int32? {
    remove(UInt(bitPattern: key))
  }

  private mutating func insert(_ key: UInt, _ value: Int32) {
    if (count &+ 1) &* 2 > keys.count { grow() }
    let i = probe(key)
    if keys[i] == 0 {
      keys[i] = key
      count &+= 1
    }
    values[i] = value
  }

  private mutating func remove(_ key: UInt) -> Int32? {
    guard count > 0 else { return nil }
    var i = probe(key)
    guard keys[i] == key else { return nil }
    let removed = values[i]
    keys[i] = 0
    count &-= 1
    // Backward shift: move up every later key of the run whose home slot is not in the
    // cyclic range (i, j], so that no probe run has a hole.
    let mask = keys.count &- 1
    var j = i
    while true {
      j = (j &+ 1) & mask
      let k = keys[j]
      if k == 0 { break }
      let h = home(k)
      let stays = i <= j ? (i < h && h <= j) : (i < h || h <= j)
      if !stays {
        keys[i] = k
        values[i] = values[j]
        keys[j] = 0
        i = j
      }
    }
    return removed
  }

  /// Doubles the table and places every key again, over raw buffers: through `insert`, each
  /// key paid a probe through the arrays' bounds checks and two uniqueness checks (a table
  /// grows five times while kiwi's enaml system of 113 constraints is built, 1.3% of the
  /// build).
  private mutating func grow() {
    let oldKeys = keys
    let oldValues = values
    let capacity = Swift.max(16, oldKeys.count * 2)
    shift = UInt64(64 - capacity.trailingZeroBitCount)
    blockShift = 64 - shift >= IdentityTable.blockedBits ? shift + IdentityTable.blockBits : 0
    let mask = capacity &- 1
    var newValues = [Int32](repeating: 0, count: capacity)
    let newKeys = [UInt](unsafeUninitializedCapacity: capacity) { newKeys, initialized in
      newKeys.initialize(repeating: 0)
      initialized = capacity
      newValues.withUnsafeMutableBufferPointer { newValues in
        oldKeys.withUnsafeBufferPointer { oldKeys in
          oldValues.withUnsafeBufferPointer { oldValues in
            // The keys are distinct: each goes to the first empty slot from its home.
            for i in 0..<oldKeys.count where oldKeys[i] != 0 {
              var slot = home(oldKeys[i])
              while newKeys[slot] != 0 { slot = (slot &+ 1) & mask }
              newKeys[slot] = oldKeys[i]
              newValues[slot] = oldValues[i]
            }
          }
        }
      }
    }
    keys = newKeys
    values = newValues
  }

  /// The mean and the longest number of slots a lookup of a present key reads (tests).
  func probeLengths() -> (mean: Double, longest: Int) {
    var total = 0
    var longest = 0
    let mask = keys.count &- 1
    for i in keys.indices where keys[i] != 0 {
      let length = ((i &- home(keys[i])) & mask) &+ 1
      total &+= length
      longest = Swift.max(longest, length)
    }
    return (count == 0 ? 0 : Double(total) / Double(count), longest)
  }

  struct Iterator: IteratorProtocol {
    fileprivate let keys: [UInt]
    fileprivate let values: [Int32]
    fileprivate var index = 0

    /// The next entry: the key as `UInt(bitPattern:)` of its identifier, and its value.
    mutating func next() -> (key: UInt, value: Int32)? {
      while index < keys.count {
        defer { index += 1 }
        if keys[index] != 0 { return (keys[index], values[index]) }
      }
      return nil
    }
  }

  func makeIterator() -> Iterator { Iterator(keys: keys, values: values) }
}
