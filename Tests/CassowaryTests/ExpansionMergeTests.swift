import BenchSupport
@testable import Cassowary
import Testing

/// `Tableau.mergeRuns`, the expansion's sort: a list of sorted runs of distinct symbols
/// merged pairwise through a kept buffer must come out exactly as `sort()` orders it, for
/// any number and length of runs (one run, odd counts, empty-free runs of one symbol, runs
/// longer than the buffer left by an earlier call).
@Suite struct ExpansionMergeTests {
  @Test func mergedRunsAreSortedLikeTheStandardSort() {
    var rng = SplitMix64(seed: 20_261_124)
    var tableau = Tableau(lazy: true)
    for trial in 0..<400 {
      // Distinct symbols of every kind, dealt into runs, each run sorted.
      let total = rng.int(1...(trial % 4 == 0 ? 600 : 40))
      var pool = Set<UInt32>()
      while pool.count < total {
        let kind = Symbol.Kind(rawValue: UInt32(rng.int(0...3)))!
        pool.insert(Symbol(kind, index: rng.int(0...5_000)).raw)
      }
      var symbols = pool.map { Symbol(raw: $0) }
      symbols.shuffle(using: &rng)
      var list: [Symbol] = []
      var ends: [Int] = []
      var rest = symbols[...]
      while !rest.isEmpty {
        let length = rng.int(1...max(1, min(rest.count, trial % 3 == 0 ? 3 : 60)))
        list += rest.prefix(length).sorted()
        rest = rest.dropFirst(length)
        ends.append(list.count)
      }
      tableau.mergeRuns(&list, ends: &ends)
      #expect(list == symbols.sorted(), "trial \(trial): \(ends.count) runs of \(total)")
      #expect(ends.count <= 1)
    }
  }
}
