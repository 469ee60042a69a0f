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
}

// MARK: - Round-level tests

extension SampleStatistics {
  /// Two-sided Mann-Whitney p-value, exact when the samples are small and have no ties
  /// (the permutation distribution of U, counted by dynamic programming), otherwise the
  /// normal approximation of ``mannWhitneyP(_:_:)``. Rounds are few (5 to 30 per side),
  /// where the normal approximation is off by a factor of two in the tail that decides a
  /// verdict.
  public static func mannWhitneyExactP(_ a: [Double], _ b: [Double]) -> Double {
    let m = a.count
    let n = b.count
    guard m > 0, n > 0 else { return 1 }
    let pooled = (a + b).sorted()
    let tied = zip(pooled, pooled.dropFirst()).contains { $0 == $1 }
    guard !tied, m * n <= 2_500 else { return mannWhitneyP(a, b) }
    // U = number of pairs (x in a, y in b) with x > y.
    var u = 0
    for x in a { for y in b where x > y { u += 1 } }
    // counts[i][j][k]: arrangements of i a's and j b's with U = k; rolled over i.
    let maxU = m * n
    var table = [[Double]](repeating: [Double](repeating: 0, count: maxU + 1), count: n + 1)
    for j in 0...n { table[j][0] = 1 }
    for i in 1...m {
      var next = [[Double]](repeating: [Double](repeating: 0, count: maxU + 1), count: n + 1)
      next[0][0] = 1
      for j in 1...n {
        for k in 0...(i * j) {
          // The largest of the i + j values is an a (it beats all j b's) or a b.
          let fromA = k >= j ? table[j][k - j] : 0
          let fromB = next[j - 1][k]
          next[j][k] = fromA + fromB
        }
      }
      table = next
    }
    let counts = table[n]
    let total = counts.reduce(0, +)
    let low = Swift.min(u, maxU - u)
    var tail = 0.0
    for k in 0...low { tail += counts[k] }
    return Swift.min(1, 2 * tail / total)
  }

  /// Holm's step-down adjustment of a family of p-values: the adjusted values, in the
  /// input's order. Rejecting where an adjusted value is below alpha keeps the chance of
  /// any false rejection in the family at most alpha, whatever the dependence.
  public static func holmAdjusted(_ p: [Double]) -> [Double] {
    let order = p.indices.sorted { p[$0] < p[$1] }
    var adjusted = [Double](repeating: 1, count: p.count)
    var running = 0.0
    for (rank, index) in order.enumerated() {
      let value = Swift.min(1, Double(p.count - rank) * p[index])
      running = Swift.max(running, value)
      adjusted[index] = running
    }
    return adjusted
  }
}

// MARK: - Summaries

/// The median of a sample (the mean of the two middle values for an even count).
public func median(_ values: [Double]) -> Double {
  precondition(!values.isEmpty, "median of an empty sample")
  let sorted = values.sorted()
  let mid = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// The slope of log(y) against log(x) by least squares (nil with fewer than two points or
/// no spread in x).
public func loglogSlope(_ x: [Double], _ y: [Double]) -> Double? {
  guard let fit = LogLogFit(x, y), fit.count >= 2, fit.sxx > 0 else { return nil }
  return fit.sxy / fit.sxx
}

/// The coefficient of determination R² of the least-squares line behind
/// ``loglogSlope(_:_:)``: 1 when every point lies on one power law, lower as the points
/// scatter about it or bend away from it (a size where the cost changes regime). nil with
/// fewer than three points, since a line through two always fits them exactly, or with no
/// spread in x.
public func loglogFitR2(_ x: [Double], _ y: [Double]) -> Double? {
  guard let fit = LogLogFit(x, y), fit.count >= 3, fit.sxx > 0 else { return nil }
  // Equal costs at every size lie on the flat line exactly (the bound absorbs the round-off
  // of averaging equal logs, which would otherwise make 0/0 into anything).
  guard fit.syy > 1e-20 else { return 1 }
  // Explained over total variation; round-off must not carry it past 1.
  return Swift.min(1, fit.sxy * fit.sxy / (fit.sxx * fit.syy))
}

/// Centred sums of squares and products of (log x, log y) over the points where both are
/// positive, the one pass both log-log statistics share.
private struct LogLogFit {
  var count = 0
  var sxx = 0.0
  var sxy = 0.0
  var syy = 0.0

  init?(_ x: [Double], _ y: [Double]) {
    var lx: [Double] = []
    var ly: [Double] = []
    for (a, b) in zip(x, y) where a > 0 && b > 0 {
      lx.append(Foundation.log(a))
      ly.append(Foundation.log(b))
    }
    guard !lx.isEmpty else { return nil }
    count = lx.count
    let n = Double(count)
    let mx = lx.reduce(0, +) / n
    let my = ly.reduce(0, +) / n
    for i in lx.indices {
      sxx += (lx[i] - mx) * (lx[i] - mx)
      sxy += (lx[i] - mx) * (ly[i] - my)
      syy += (ly[i] - my) * (ly[i] - my)
    }
  }
}

/// Standard deviation over mean (sample standard deviation; 0 for fewer than two values or
/// a zero mean).
public func coefficientOfVariation(_ values: [Double]) -> Double {
  guard values.count >= 2 else { return 0 }
  let mean = values.reduce(0, +) / Double(values.count)
  let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
  return mean > 0 ? variance.squareRoot() / mean : 0
}

/// The `q` quantile of an ascending sample, interpolated between closest ranks.
public func percentile(_ sorted: [Double], _ q: Double) -> Double {
  precondition(!sorted.isEmpty && (0...1).contains(q), "percentile out of range")
  let rank = q * Double(sorted.count - 1)
  let low = Int(rank.rounded(.down))
  let high = Swift.min(low + 1, sorted.count - 1)
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
}
