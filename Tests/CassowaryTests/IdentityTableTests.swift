@testable import Cassowary
import BenchSupport
import Testing

/// `IdentityTable` (the solver's constraint index) against a `Dictionary` over long random
/// runs of insertions, updates and removals: growth, probe runs that wrap around the end,
/// and removals in the middle of runs (the backward shift) all happen many times over.
@Suite struct IdentityTableTests {
  final class Key {}

  @Test(arguments: [1, 2, 3] as [UInt64])
  func matchesADictionaryUnderChurn(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let keys = (0..<3000).map { _ in Key() }
    var table = IdentityTable()
    var reference: [ObjectIdentifier: Int32] = [:]
    for step in 0..<60_000 {
      let id = ObjectIdentifier(keys[Int(random.next() % UInt64(keys.count))])
      switch random.next() % 3 {
      case 0, 1:
        let value = Int32(truncatingIfNeeded: random.next())
        table[id] = value
        reference[id] = value
      default:
        #expect(table.removeValue(forKey: id) == reference.removeValue(forKey: id))
      }
      #expect(table.count == reference.count)
      if step % 1000 == 0 {
        for key in keys {
          let id = ObjectIdentifier(key)
          #expect(table[id] == reference[id], "step \(step)")
        }
        var listed: [UInt: Int32] = [:]
        for (key, value) in table { listed[key] = value }
        #expect(listed.count == reference.count)
        for (id, value) in reference { #expect(listed[UInt(bitPattern: id)] == value) }
      }
    }
    for (id, _) in reference { table[id] = nil }
    #expect(table.count == 0)
    for key in keys { #expect(table[ObjectIdentifier(key)] == nil) }
  }
}
