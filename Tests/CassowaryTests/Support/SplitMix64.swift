import BenchSupport

// Draws for the property tests, on the shared seeded generator so that a failing seed can
// be replayed. They go through the standard library's `random(in:using:)`, as they always
// have, so the tests' seeds keep producing the systems they were written against.
extension SplitMix64 {
  /// A uniform double in `range`.
  mutating func double(_ range: ClosedRange<Double>) -> Double {
    Double.random(in: range, using: &self)
  }

  /// A uniform integer in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  /// `true` with probability `p`.
  mutating func chanceOf(_ p: Double) -> Bool { double(0...1) < p }

  /// A uniformly chosen element; `nil` for an empty collection.
  mutating func element<C: Collection>(of items: C) -> C.Element? {
    items.isEmpty ? nil : items.randomElement(using: &self)
  }
}
