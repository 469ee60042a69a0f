import CJemalloc
import Testing

@testable import JemallocProbe

/// What the cold builds ask of the allocator: freed pages held between an untimed build and
/// the timed ones (README, "Cold layout, fairly"). Serialized: a hold is the process's, and
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
  }

  @Test func freeExtentsOfAnySizeServeSmallRequests() {
    var fit = 0
    var size = MemoryLayout<Int>.size
    #expect(mallctl("opt.lg_extent_max_active_fit", &fit, &size, nil, 0) == 0)
    #expect(fit == 30)
  }
}
