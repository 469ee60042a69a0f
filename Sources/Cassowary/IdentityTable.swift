/// The record of each constraint a ``Solver`` holds, keyed by the constraint's identity.
///
/// A `[ObjectIdentifier: Int32]` hashes every key with SipHash, which was 13% of the
/// instructions of building a 1,000-deep layout (callgrind): one insertion per constraint,
/// and a lookup per removal, constant or strength change. Identities are addresses, already
/// well spread, so this table mixes them with one multiplication (Fibonacci hashing) and
/// probes linearly in flat arrays, at most half full; removal shifts the probe run back
/// instead of leaving tombstones, so lookups never slow down with churn.
struct IdentityTable: Sequence, ExpressibleByDictionaryLiteral {
  /// Keys by slot; 0 marks an empty slot (no object lives at address 0).
  private var keys: [UInt] = []
  private var values: [Int32] = []
  private(set) var count = 0
  /// `hash >> shift` is a slot: the capacity is `1 << (64 - shift)`.
  private var shift: UInt64 = 64

  init() {}

  init(dictionaryLiteral elements: (ObjectIdentifier, Int32)...) {
    for (key, value) in elements { self[key] = value }
  }

  @inline(__always) private func home(_ key: UInt) -> Int {
    Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
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

  private mutating func grow() {
    let oldKeys = keys
    let oldValues = values
    let capacity = Swift.max(16, oldKeys.count * 2)
    shift = UInt64(64 - capacity.trailingZeroBitCount)
    keys = Array(repeating: 0, count: capacity)
    values = Array(repeating: 0, count: capacity)
    count = 0
    for i in oldKeys.indices where oldKeys[i] != 0 { insert(oldKeys[i], oldValues[i]) }
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
