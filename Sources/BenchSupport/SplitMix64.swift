/// Steele, Lea & Flood's SplitMix64 ("Fast Splittable Pseudorandom Number Generators",
/// 2014): a tiny seedable generator whose output is the same on every platform and Swift
/// version, so that a seed gives the same scenes, mutations and fuzz cases everywhere and a
/// failing seed replays exactly. The standard library's generator cannot be seeded, and its
/// `random(in:using:)` algorithms are not specified, so the harness and the fuzzer draw
/// through this type's own helpers.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The position in the stream: `SplitMix64(seed: state)` continues from here.
  public private(set) var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `range` (the modulo bias is far below anything a benchmark or a
  /// fuzzer notices; a range spanning every `Int` takes the raw draw).
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
    return range.lowerBound &+ Int(truncatingIfNeeded: span == 0 ? next() : next() % span)
  }

  public mutating func int(in range: Range<Int>) -> Int {
    int(in: range.lowerBound...(range.upperBound - 1))
  }

  /// A uniform integer in `0...bound`, taking the floor of a non-negative real bound (an
  /// available length is often a multiple of 1/4, never negative).
  ///
  /// Converting to `Int` truncates, and truncation is the floor of the non-negative numbers
  /// seen here: `rounded()` would call libm's `floor`, which a client without Foundation
  /// then fails to link.
  public mutating func upTo(_ bound: Double) -> Int {
    int(in: 0...Int(max(0, bound)))
  }

  /// A uniform double in [0, 1).
  public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  public mutating func chance(_ probability: Double) -> Bool { unit() < probability }

  public mutating func pick<T>(_ items: [T]) -> T { items[int(in: 0..<items.count)] }

  /// Fisher-Yates, drawing from this generator.
  public mutating func shuffle<T>(_ items: inout [T]) {
    guard items.count > 1 else { return }
    for i in stride(from: items.count - 1, to: 0, by: -1) {
      items.swapAt(i, int(in: 0...i))
    }
  }
}
