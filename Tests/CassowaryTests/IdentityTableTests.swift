@testable import Cassowary
import BenchSupport
import Testing

/// `IdentityTable` (the solver's constraint index) against a `Dictionary` over long random
/// runs of insertions, updates and removals: growth, probe runs that wrap around the end,
/// and removals in the middle of runs (the backward shift) all happen many times over.
@Suite struct IdentityTableTests {
  final class Key {}

  /// Seeds 1-3 churn 3,000 keys (at most 8,192 slots: the plain hash); seed 4 churns
  /// 40,000 (65,536 slots and more: the blocked home of a large table).
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func matchesADictionaryUnderChurn(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let keys = (0..<(seed == 4 ? 40_000 : 3000)).map { _ in Key() }
    var table = IdentityTable()
    var reference: [ObjectIdentifier: Int32] = [:]
    if keys.count > 3000 {
      // Every key first, so that the table grows past 65,536 slots.
      for (i, key) in keys.enumerated() {
        table[ObjectIdentifier(key)] = Int32(i)
        reference[ObjectIdentifier(key)] = Int32(i)
      }
      #expect(table.capacity >= 65_536)
    }
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

/// Probe lengths of the identity table over keys made one after another, as a layout makes
/// its constraints: the home slot keeps neighbours in memory next to each other in the
/// table, and that must not lengthen probe runs. Keys are the solver's constraints (over 48
/// bytes each; 16-byte objects packed 256 to a page would fill whole blocks).
@Suite struct IdentityTableProbeTests {
  final class Large {
    let payload: (Double, Double, Double, Double, Double, Double, Double, Double, Double) = (
      0, 0, 0, 0, 0, 0, 0, 0, 0
    )
  }

  /// `count` keys inserted in the order they were made, then a third removed and as many
  /// new ones made and inserted (the churn a layout's removals and re-adds make).
  func probeLengths(_ make: () -> AnyObject, count: Int) -> (mean: Double, longest: Int) {
    var keys = (0..<count).map { _ in make() }
    var table = IdentityTable()
    for (i, key) in keys.enumerated() { table[ObjectIdentifier(key)] = Int32(i) }
    var random = SplitMix64(seed: 7)
    for _ in 0..<(count / 3) {
      let i = Int(random.next() % UInt64(keys.count))
      table[ObjectIdentifier(keys[i])] = nil
      keys[i] = make()
      table[ObjectIdentifier(keys[i])] = Int32(i)
    }
    #expect(table.count == count)
    for (i, key) in keys.enumerated() { #expect(table[ObjectIdentifier(key)] == Int32(i)) }
    // Keys removed for good are absent, and removing them again finds nothing.
    let removed = (0..<1000).map { _ in make() }
    for (i, key) in removed.enumerated() { table[ObjectIdentifier(key)] = Int32(i) }
    for key in removed { table[ObjectIdentifier(key)] = nil }
    for key in removed {
      #expect(table[ObjectIdentifier(key)] == nil)
      #expect(table.removeValue(forKey: ObjectIdentifier(key)) == nil)
    }
    #expect(table.count == count)
    return table.probeLengths()
  }

  @Test func constraintsMadeInSequenceProbeShortRuns() {
    let made = probeLengths({ Constraint(Expression([], constant: 0), .equal) }, count: 100_000)
    #expect(made.mean < 2, "mean probe length \(made.mean)")
    #expect(made.longest < 32, "longest probe \(made.longest)")
  }

  @Test func largerKeysProbeShortRuns() {
    let made = probeLengths({ Large() }, count: 100_000)
    #expect(made.mean < 2, "mean probe length \(made.mean)")
    #expect(made.longest < 32, "longest probe \(made.longest)")
  }
}
