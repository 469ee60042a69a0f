import BenchSupport

/// A fixed piece of work timed beside every tick, so that a tick's cost can be read relative
/// to how fast the machine's memory was at that moment.
///
/// On shared runners the machine moves by 30-50% within a tenth of a second: a run of 6,000
/// ticks of `feed300/text` showed blocks of 500 ticks at 73 to 143 us, the three strategies
/// (run in lockstep) moving together. What moves is the memory system, not the core: a walk
/// through 16 KB that stays in the level-1 cache timed the same (6.7 us) in every round of 14
/// runs while the ticks beside it varied by 20%. So this reference is a dependent walk
/// (pointer chasing) of a fixed random cycle through 8 MB of 32-bit indices, larger than the
/// caches a neighbour shares with us: each step waits for the cache level or memory that a
/// neighbour's work slows down, as the layout code's dependent loads do. It depends on
/// nothing under test (no layout, no solver, no allocation while timed), runs once per
/// lockstep tick after the strategies (256 steps, about 60-90 us), and its median per round
/// is stored beside the round's tick statistics. `Comparison` judges times relative to it.
/// Measured on 6 runs of 10 rounds of feed300: the spread of the rounds fell from 13-20%
/// (raw) to 8-15% (relative), that of the runs' medians from 14-28% to 7-16%.
public struct SpeedReference: Sendable {
  /// The steps of one timed slice.
  public static let steps = 256
  private let next: [Int32]
  private var position: Int32 = 0
  private var accumulator = 1.0

  public init() {
    // A single cycle through every slot (Sattolo's shuffle), from a fixed seed.
    let count = 2_097_152
    var order = Array(Int32(0)..<Int32(count))
    var random = SplitMix64(seed: 0x5eed_5eed)
    var i = count - 1
    while i > 0 {
      let j = Int(random.next() % UInt64(i))
      order.swapAt(i, j)
      i -= 1
    }
    var next = [Int32](repeating: 0, count: count)
    for k in 0..<count { next[Int(order[k])] = order[(k + 1) % count] }
    self.next = next
  }

  /// Runs one slice and returns its duration in nanoseconds.
  public mutating func timeSlice() -> Double {
    let start = monotonicNanos()
    var p = position
    var a = accumulator
    next.withUnsafeBufferPointer { links in
      for _ in 0..<Self.steps {
        p = links[Int(p)]
        a = a * 0.999_999_9 + Double(p) * 1e-9
      }
    }
    let end = monotonicNanos()
    position = p
    accumulator = a
    return Double(end &- start)
  }

  /// Keeps the work observable (so that it cannot be optimised away).
  public var checksum: Double { accumulator + Double(position) }
}
