import CJemalloc
import LayoutHarness
import Synchronization

/// Allocation counts from jemalloc, which an executable that depends on this target links
/// in place of the C library's malloc (`layout-bench`, and a user's own harness program).
/// Bytes allocated and freed come from the thread's own counters (pointer reads); request
/// counts from the merged arena statistics, refreshed by flushing the thread cache and
/// advancing the statistics epoch. Reading costs a few allocation requests of its own,
/// which the runner measures and subtracts.
public final class JemallocProbe: AllocationProbe {
  private let allocated: UnsafeMutablePointer<UInt64>
  /// Nil when this jemalloc does not count frees: the probe then reports no memory left by
  /// a build, and counts the rest.
  private let deallocated: UnsafeMutablePointer<UInt64>?

  /// Nil when the allocator in use is not jemalloc (or has no statistics).
  public init?() {
    guard let allocated = Self.threadCounter("thread.allocatedp") else { return nil }
    self.allocated = allocated
    deallocated = Self.threadCounter("thread.deallocatedp")
    guard Self.requests() != nil else { return nil }
  }

  /// The address of one of the calling thread's byte counters, which jemalloc keeps current:
  /// reading it is a load, with no call and no allocation.
  private static func threadCounter(_ name: String) -> UnsafeMutablePointer<UInt64>? {
    var pointer: UnsafeMutablePointer<UInt64>?
    var size = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
    guard mallctl(name, &pointer, &size, nil, 0) == 0 else { return nil }
    return pointer
  }

  /// jemalloc's version string (`5.3.0-0-g54eaed1d...`), or nil when the allocator in use
  /// is not jemalloc.
  public static let version: String? = {
    var pointer: UnsafePointer<CChar>?
    var size = MemoryLayout<UnsafePointer<CChar>?>.size
    guard mallctl("version", &pointer, &size, nil, 0) == 0, let pointer else { return nil }
    return String(cString: pointer)
  }()

  /// jemalloc's transparent huge page option in effect (`opt.thp`: `always`, `never` or
  /// `default`), or nil when the allocator is not jemalloc. Timings of large trees depend
  /// on it, so reports record it beside the allocator.
  public static let hugePages: String? = {
    var pointer: UnsafePointer<CChar>?
    var size = MemoryLayout<UnsafePointer<CChar>?>.size
    guard mallctl("opt.thp", &pointer, &size, nil, 0) == 0, let pointer else { return nil }
    return String(cString: pointer)
  }()

  public func read() -> (count: UInt64, bytes: UInt64) {
    (Self.requests() ?? 0, allocated.pointee)
  }

  public func freedBytes() -> UInt64? { deallocated?.pointee }

  /// The holds open, the arenas' decay times (ms) from before the first, and the defaults
  /// that arenas made later start with: the settings are the process's, so probes share
  /// them, and a hold inside another leaves them to the outer one's release. (nil muzzy: it
  /// could not be set, so it is not restored.)
  private static let holds = Mutex<
    (count: Int, saved: [(arena: Int, dirty: Int, muzzy: Int?)], defaults: (Int?, Int?))
  >((0, [], (nil, nil)))

  /// Turns off the purging of every arena (their dirty and muzzy decay times to -1): freed
  /// pages stay mapped, with the huge pages they were on. Every arena, not the thread's
  /// alone: jemalloc serves allocations of 8 MB and more (a large tree's solver arrays) from
  /// an arena of their own, which purges them as soon as they are freed.
  ///
  /// That arena is made at the first such allocation, with eager purging only if the
  /// default decay times are positive then. So it is made here first (an allocation of the
  /// threshold, freed untouched; a no-op when it exists), the arenas are saved and held,
  /// and only then do the decay times that arenas start with go to -1 for the hold: an
  /// arena made after that is held, and gets the old defaults at the release. (Defaults
  /// changed first, an arena made before the saving, by another thread, was saved at -1
  /// and "restored" to it: a reviewer's reproduction.) A hold that began after the first
  /// build of a tree found the pages that build's arrays freed as they grew purged already:
  /// the timed builds touched them again, each 2 MB page cleared by the kernel (a feed of
  /// 100,000 cells spent 2.4-2.6 s of its 8.8-9.4 s timed build in the kernel; README,
  /// "Stop 71").
  public func holdFreedMemory() {
    Self.holds.withLock { holds in
      holds.count += 1
      guard holds.count == 1 else { return }
      Self.makeOversizeArena()
      let saving = Self.arenaCount
      holds.saved = (0..<saving).compactMap { arena in
        // An arena not made yet has no settings: skipped.
        guard let dirty = Self.decay("dirty", arena, to: -1) else { return nil }
        return (arena, dirty, Self.decay("muzzy", arena, to: -1))
      }
      holds.defaults = (Self.defaultDecay("dirty", to: -1), Self.defaultDecay("muzzy", to: -1))
      // Made between the saving and the defaults' change: held, not saved (the release
      // gives them the old defaults).
      for arena in saving..<Self.arenaCount {
        _ = Self.decay("dirty", arena, to: -1)
        _ = Self.decay("muzzy", arena, to: -1)
      }
    }
  }

  /// Ends a hold; the last one open restores the decay times and purges what the arenas
  /// still hold unused. An arena made during the hold gets the defaults from before it.
  public func releaseHeldMemory() {
    Self.holds.withLock { holds in
      guard holds.count > 0 else { return }
      holds.count -= 1
      guard holds.count == 0 else { return }
      if let dirty = holds.defaults.0 { _ = Self.defaultDecay("dirty", to: dirty) }
      if let muzzy = holds.defaults.1 { _ = Self.defaultDecay("muzzy", to: muzzy) }
      // Saved arenas get their own times back, the others the defaults; each is purged.
      var saved = holds.saved.makeIterator()
      var next = saved.next()
      for arena in 0..<Self.arenaCount {
        var times = (dirty: holds.defaults.0, muzzy: holds.defaults.1)
        if let entry = next, entry.arena == arena {
          times = (entry.dirty, entry.muzzy)
          next = saved.next()
        }
        if let dirty = times.dirty { _ = Self.decay("dirty", arena, to: dirty) }
        if let muzzy = times.muzzy { _ = Self.decay("muzzy", arena, to: muzzy) }
        _ = mallctl("arena.\(arena).purge", nil, nil, nil, 0)
      }
      holds.saved = []
      holds.defaults = (nil, nil)
    }
  }

  /// Makes the arena of oversize allocations (`opt.oversize_threshold`, 8 MB by default)
  /// if it is not made yet, by allocating one such block and freeing it (when it exists,
  /// the block comes from it and goes back). Its pages are never touched.
  private static func makeOversizeArena() {
    var threshold = 0
    var size = MemoryLayout<Int>.size
    guard mallctl("opt.oversize_threshold", &threshold, &size, nil, 0) == 0, threshold > 0
    else { return }
    free(malloc(threshold))
  }

  /// Sets `arenas.<kind>_decay_ms`, the decay time of arenas made from now on, returning its
  /// old value (nil on failure).
  private static func defaultDecay(_ kind: String, to value: Int) -> Int? {
    var old = 0
    var size = MemoryLayout<Int>.size
    var new = value
    guard mallctl("arenas.\(kind)_decay_ms", &old, &size, &new, MemoryLayout<Int>.size) == 0
    else { return nil }
    return old
  }

  /// The decay times (ms) arenas made from now on start with (for tests).
  static func defaultDecayTimes() -> (dirty: Int, muzzy: Int)? {
    var times = (dirty: 0, muzzy: 0)
    var size = MemoryLayout<Int>.size
    guard mallctl("arenas.dirty_decay_ms", &times.dirty, &size, nil, 0) == 0,
      mallctl("arenas.muzzy_decay_ms", &times.muzzy, &size, nil, 0) == 0
    else { return nil }
    return times
  }

  /// Every made arena's decay times (ms), as `holdFreedMemory()` finds them (for tests).
  static func decayTimes() -> [(arena: Int, dirty: Int, muzzy: Int)] {
    (0..<arenaCount).compactMap { arena in
      var times = (dirty: 0, muzzy: 0)
      var size = MemoryLayout<Int>.size
      guard mallctl("arena.\(arena).dirty_decay_ms", &times.dirty, &size, nil, 0) == 0,
        mallctl("arena.\(arena).muzzy_decay_ms", &times.muzzy, &size, nil, 0) == 0
      else { return nil }
      return (arena, times.dirty, times.muzzy)
    }
  }

  /// How many arenas there can be (`arenas.narenas`; 0 when it cannot be read). Those not
  /// made yet have no settings.
  private static var arenaCount: Int {
    var count: UInt32 = 0
    var size = MemoryLayout<UInt32>.size
    return mallctl("arenas.narenas", &count, &size, nil, 0) == 0 ? Int(count) : 0
  }

  /// Sets `arena.<arena>.<kind>_decay_ms`, returning its old value (nil on failure).
  private static func decay(_ kind: String, _ arena: Int, to value: Int) -> Int? {
    var old = 0
    var size = MemoryLayout<Int>.size
    var new = value
    let name = "arena.\(arena).\(kind)_decay_ms"
    guard mallctl(name, &old, &size, &new, MemoryLayout<Int>.size) == 0 else { return nil }
    return old
  }

  private static func requests() -> UInt64? {
    guard mallctl("thread.tcache.flush", nil, nil, nil, 0) == 0 else { return nil }
    var epoch: UInt64 = 1
    guard mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size) == 0 else { return nil }
    var total: UInt64 = 0
    for name in ["stats.arenas.4096.small.nrequests", "stats.arenas.4096.large.nrequests"] {
      var value: UInt64 = 0
      var size = MemoryLayout<UInt64>.size
      guard mallctl(name, &value, &size, nil, 0) == 0 else { return nil }
      total &+= value
    }
    return total
  }
}
