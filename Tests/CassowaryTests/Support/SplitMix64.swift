// A tiny seeded generator for the property tests, so that a failing seed can be replayed.

/// SplitMix64 (Steele, Lea & Flood, "Fast Splittable Pseudorandom Number Generators", 2014).
/// Deterministic across platforms and runs, unlike `SystemRandomNumberGenerator`.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform double in `range`.
  mutating func double(_ range: ClosedRange<Double>) -> Double {
    Double.random(in: range, using: &self)
  }

  /// A uniform integer in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  /// `true` with probability `p`.
  mutating func chance(_ p: Double) -> Bool { double(0...1) < p }

  /// A uniformly chosen element; `nil` for an empty collection.
  mutating func pick<C: Collection>(_ items: C) -> C.Element? {
    items.isEmpty ? nil : items.randomElement(using: &self)
  }
}
