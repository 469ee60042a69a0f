#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds from the monotonic clock: never jumps with wall-clock changes, about 20 ns a
/// read through the vDSO on Linux.
@inline(__always)
public func monotonicNanos() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// The median of a sample (the mean of the two middle values for an even count).
public func median(_ values: [Double]) -> Double {
  precondition(!values.isEmpty, "median of an empty sample")
  let sorted = values.sorted()
  let mid = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
