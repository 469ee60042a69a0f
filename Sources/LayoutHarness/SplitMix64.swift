/// A small, fast, seedable generator (Steele, Lea & Flood's SplitMix64), so that the same
/// seed gives the same scenes and mutations on every machine and Swift version (the
/// standard library's generator is neither seedable nor stable).
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `range` (deterministic across platforms, unlike
  /// `Int.random(in:using:)`, whose algorithm is not specified).
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    let span = UInt64(range.upperBound - range.lowerBound) + 1
    return range.lowerBound + Int(next() % span)
  }

  public mutating func int(in range: Range<Int>) -> Int {
    int(in: range.lowerBound...(range.upperBound - 1))
  }

  /// A uniform double in [0, 1).
  public mutating func unit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  public mutating func chance(_ probability: Double) -> Bool { unit() < probability }

  public mutating func pick<T>(_ items: [T]) -> T { items[int(in: 0..<items.count)] }
}
