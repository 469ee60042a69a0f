import CJemalloc
import Testing

@testable import JemallocProbe

/// What the cold builds ask of the allocator: freed pages held between an untimed build and
/// the timed ones (README, "Cold layout, fairly").
struct JemallocProbeTests {
  @Test func heldMemoryIsNotPurgedUntilReleased() throws {
    let probe = try #require(JemallocProbe(), "layout-bench's tests run on jemalloc")
    let before = JemallocProbe.decayTimes()
    #expect(!before.isEmpty && before.allSatisfy { $0.dirty >= 0 && $0.muzzy >= 0 })
    probe.holdFreedMemory()
    let held = JemallocProbe.decayTimes()
    #expect(held.map(\.arena) == before.map(\.arena))
    #expect(held.allSatisfy { $0.dirty == -1 && $0.muzzy == -1 })
    probe.releaseHeldMemory()
    let after = JemallocProbe.decayTimes()
    #expect(after.map(\.arena) == before.map(\.arena))
    #expect(after.map(\.dirty) == before.map(\.dirty) && after.map(\.muzzy) == before.map(\.muzzy))
  }

  @Test func freeExtentsOfAnySizeServeSmallRequests() {
    var fit = 0
    var size = MemoryLayout<Int>.size
    #expect(mallctl("opt.lg_extent_max_active_fit", &fit, &size, nil, 0) == 0)
    #expect(fit == 30)
  }
}
