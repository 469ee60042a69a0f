import CJemalloc
import Testing

@testable import JemallocProbe

/// What the cold builds ask of the allocator: freed pages held from before an untimed build
/// to the end of the timed ones (README, "Cold layout, fairly"). Serialized: a hold is the process's, and
/// one test's hold open during another's release would keep that release from restoring.
@Suite(.serialized)
struct JemallocProbeTests {
  /// The decay times of the arenas in `arenas` now (other tests may make arenas meanwhile).
  private func times(of arenas: [(arena: Int, dirty: Int, muzzy: Int)]) -> [[Int]] {
    let now = Dictionary(
      JemallocProbe.decayTimes().map { ($0.arena, [$0.dirty, $0.muzzy]) },
      uniquingKeysWith: { a, _ in a })
    return arenas.map { now[$0.arena] ?? [] }
  }

  @Test func aHoldTurnsPurgingOffUntilTheLastReleaseRestoresIt() throws {
    let probe = try #require(JemallocProbe(), "layout-bench's tests run on jemalloc")
    let other = try #require(JemallocProbe())
    let before = JemallocProbe.decayTimes()
    #expect(!before.isEmpty && before.allSatisfy { $0.dirty >= 0 && $0.muzzy >= 0 })
    let defaults = try #require(JemallocProbe.defaultDecayTimes())
    #expect(defaults.dirty >= 0 && defaults.muzzy >= 0)
    let off = Array(repeating: [-1, -1], count: before.count)
    probe.holdFreedMemory()
    #expect(times(of: before) == off)
    // Arenas made during the hold start with purging off too.
    #expect(JemallocProbe.defaultDecayTimes().map { [$0.dirty, $0.muzzy] } == [-1, -1])
    // A second hold, from another probe: the settings are the process's, and the first
    // release must not end the other's hold.
    other.holdFreedMemory()
    probe.releaseHeldMemory()
    #expect(times(of: before) == off)
    other.releaseHeldMemory()
    #expect(times(of: before) == before.map { [$0.dirty, $0.muzzy] })
    #expect(
      JemallocProbe.defaultDecayTimes().map { [$0.dirty, $0.muzzy] }
        == [defaults.dirty, defaults.muzzy])
    // A release without a hold changes nothing.
    probe.releaseHeldMemory()
    #expect(times(of: before) == before.map { [$0.dirty, $0.muzzy] })
  }

  @Test func anArenaMadeDuringAHoldIsHeldThenGetsTheDefaults() throws {
    let probe = try #require(JemallocProbe())
    let defaults = try #require(JemallocProbe.defaultDecayTimes())
    probe.holdFreedMemory()
    var arena: UInt32 = 0
    var size = MemoryLayout<UInt32>.size
    #expect(mallctl("arenas.create", &arena, &size, nil, 0) == 0)
    func times() -> [Int]? {
      JemallocProbe.decayTimes().first { $0.arena == Int(arena) }.map { [$0.dirty, $0.muzzy] }
    }
    #expect(times() == [-1, -1])
    probe.releaseHeldMemory()
    #expect(times() == [defaults.dirty, defaults.muzzy])
    #expect(mallctl("arena.\(arena).destroy", nil, nil, nil, 0) == 0)
  }

  /// Allocations of `opt.oversize_threshold` and more come from an arena of their own, which
  /// jemalloc makes purging at once, but only when it is made while the default decay times
  /// are positive: made during a hold (defaults at -1), it would keep the hold's -1 and get
  /// the ordinary defaults at the release. The hold makes it first. (In a process where it
  /// exists already, this checks the hold and the release of an existing arena.)
  @Test func theOversizeArenaIsHeldAndThenPurgesAtOnceAgain() throws {
    let probe = try #require(JemallocProbe())
    var threshold = 0
    var size = MemoryLayout<Int>.size
    #expect(mallctl("opt.oversize_threshold", &threshold, &size, nil, 0) == 0)
    try #require(threshold > 0)
    probe.holdFreedMemory()
    let block = try #require(malloc(threshold))
    var pointer: UnsafeMutableRawPointer? = block
    var arena: UInt32 = 0
    var arenaSize = MemoryLayout<UInt32>.size
    #expect(
      mallctl(
        "arenas.lookup", &arena, &arenaSize, &pointer, MemoryLayout<UnsafeMutableRawPointer?>.size)
        == 0)
    free(block)
    func times() -> [Int]? {
      JemallocProbe.decayTimes().first { $0.arena == Int(arena) }.map { [$0.dirty, $0.muzzy] }
    }
    #expect(times() == [-1, -1])
    probe.releaseHeldMemory()
    #expect(times() == [0, 0])
  }

  @Test func freeExtentsOfAnySizeServeSmallRequests() {
    var fit = 0
    var size = MemoryLayout<Int>.size
    #expect(mallctl("opt.lg_extent_max_active_fit", &fit, &size, nil, 0) == 0)
    #expect(fit == 30)
  }
}
