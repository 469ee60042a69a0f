internal import Foundation

/// The statistics a comparison of two runs rests on: a rank test for a shift between two
/// samples of tick costs, and bootstrap confidence intervals for differences of quantiles.
/// Both are distribution-free: tick costs are skewed and heavy-tailed, never normal.
public enum SampleStatistics {
  /// Mann-Whitney U test (Wilcoxon rank-sum), two-sided, normal approximation with tie
  /// correction and continuity correction. Returns the p-value of "both samples come from
  /// the same distribution" (1 when either sample is empty or every value is tied).
  public static func mannWhitneyP(_ a: [Double], _ b: [Double]) -> Double {
    let n1 = Double(a.count)
    let n2 = Double(b.count)
    guard n1 > 0, n2 > 0 else { return 1 }
    var pooled: [(value: Double, first: Bool)] = a.map { ($0, true) } + b.map { ($0, false) }
    pooled.sort { $0.value < $1.value }
    var rankSumA = 0.0
    var tieTerm = 0.0
    var i = 0
    while i < pooled.count {
      var j = i
      while j + 1 < pooled.count && pooled[j + 1].value == pooled[i].value { j += 1 }
      // Ranks are 1-based; tied values share the average of their ranks.
      let rank = Double(i + j + 2) / 2
      let ties = Double(j - i + 1)
      for k in i...j where pooled[k].first { rankSumA += rank }
      tieTerm += ties * ties * ties - ties
      i = j + 1
    }
    let n = n1 + n2
    let u = rankSumA - n1 * (n1 + 1) / 2
    let mean = n1 * n2 / 2
    let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
    guard variance > 0 else { return 1 }
    let distance = max(0, abs(u - mean) - 0.5)
    let z = distance / variance.squareRoot()
    return Foundation.erfc(z / 2.0.squareRoot())
  }

  /// A percentile bootstrap confidence interval for `quantile(b) - quantile(a)`, from
  /// `resamples` resamples of each side drawn with a fixed seed (so the same inputs give
  /// the same interval).
  public static func bootstrapDifference(
    _ a: [Double], _ b: [Double], quantile q: Double, confidence: Double = 0.95,
    resamples: Int = 1000, seed: UInt64 = 0x5EED
  ) -> (low: Double, high: Double) {
    guard !a.isEmpty, !b.isEmpty else { return (0, 0) }
    var rng = SplitMix64(seed: seed)
    var differences: [Double] = []
    differences.reserveCapacity(resamples)
    var bufferA = [Double](repeating: 0, count: a.count)
    var bufferB = [Double](repeating: 0, count: b.count)
    for _ in 0..<resamples {
      for i in bufferA.indices { bufferA[i] = a[rng.int(in: 0..<a.count)] }
      for i in bufferB.indices { bufferB[i] = b[rng.int(in: 0..<b.count)] }
      bufferA.sort()
      bufferB.sort()
      differences.append(percentile(bufferB, q) - percentile(bufferA, q))
    }
    differences.sort()
    let tail = (1 - confidence) / 2
    return (percentile(differences, tail), percentile(differences, 1 - tail))
  }

  /// The relative half-width of a bootstrap confidence interval of one sample's median:
  /// how much the median itself moves when the same run is drawn again. A change smaller
  /// than this is noise, whatever a test says.
  public static func medianNoise(_ samples: [Double], seed: UInt64 = 0x401CE) -> Double {
    guard samples.count >= 2 else { return 0 }
    let sorted = samples.sorted()
    let median = percentile(sorted, 0.5)
    guard median > 0 else { return 0 }
    let ci = bootstrapDifference([median], samples, quantile: 0.5, resamples: 500, seed: seed)
    return max(abs(ci.low), abs(ci.high)) / median
  }
}
