/// What a report must hold to be used: checked when it is read, so that a hand-edited or
/// corrupted report is an error naming the JSON path and the value, never a trap later
/// (`ticks: -5` crashed a live `compare`, `ticks: 0` a statistic, `ticks: 1e15` ran forever).
extension RunReport {
  /// The largest tick and warm-up counts a report may ask a live comparison to run again.
  public static let maximumTicks = 1_000_000
  /// The largest scenario size (as `--size`).
  public static let maximumSize = 1_000_000
  /// The most mutations per tick (as `--per-tick`): a frame that applies ten thousand
  /// changes is already far past any real screen, and 100,000 churn mutations per tick ran
  /// for over a minute on 3 ticks of a 10-cell feed.
  public static let maximumPerTick = 10_000

  /// The first thing wrong with this report, as "JSON path: what", or nil.
  public func problem() -> String? {
    func finite(_ value: Double, _ path: String, positive: Bool = false) -> String? {
      guard value.isFinite, positive ? value > 0 : value >= 0 else {
        return "\(path) is \(value), not a \(positive ? "positive" : "non-negative") finite number"
      }
      return nil
    }
    guard FrameBudget.supportedHz.contains(hz) else {
      return "hz is \(hz), not \(FrameBudget.supportedHz.lowerBound) to "
        + "\(FrameBudget.supportedHz.upperBound)"
    }
    if let p = finite(budgetNs, "budgetNs", positive: true) { return p }
    if let p = finite(measurementOverheadNs, "measurementOverheadNs") { return p }
    guard !results.isEmpty || !sweeps.isEmpty else {
      return "results is empty: nothing was measured"
    }
    for (i, r) in results.enumerated() {
      let at = "results[\(i)]"
      guard (1...Self.maximumSize).contains(r.size) else {
        return "\(at).size is \(r.size), not 1 to \(Self.maximumSize)"
      }
      guard (1...Self.maximumPerTick).contains(r.perTick) else {
        return "\(at).perTick is \(r.perTick), not 1 to \(Self.maximumPerTick)"
      }
      guard r.views >= 0 else { return "\(at).views is \(r.views), not 0 or more" }
      guard (1...Self.maximumTicks).contains(r.ticks) else {
        return "\(at).ticks is \(r.ticks), not 1 to \(Self.maximumTicks)"
      }
      guard (0...Self.maximumTicks).contains(r.warmupTicks) else {
        return "\(at).warmupTicks is \(r.warmupTicks), not 0 to \(Self.maximumTicks)"
      }
      guard !r.samplesNs.isEmpty else { return "\(at).samplesNs is empty" }
      if let j = r.samplesNs.firstIndex(where: { !($0.isFinite && $0 >= 0) }) {
        return "\(at).samplesNs[\(j)] is \(r.samplesNs[j]), not a non-negative finite number"
      }
      let stats = r.tickNs
      for (name, value) in [
        ("min", stats.min), ("p50", stats.p50), ("p90", stats.p90), ("p99", stats.p99),
        ("max", stats.max), ("mean", stats.mean),
      ] {
        if let p = finite(value, "\(at).tickNs.\(name)") { return p }
      }
      guard r.overBudget >= 0, r.missedFrames >= 0 else {
        return "\(at).overBudget or missedFrames is negative"
      }
      if let p = finite(r.hitchMsPerS, "\(at).hitchMsPerS") { return p }
      for name in r.counters.keys.sorted() {
        if let p = finite(r.counters[name]!, "\(at).counters.\(name)") { return p }
      }
      if let c = r.allocations.countPerTick, let p = finite(c, "\(at).allocations.countPerTick") {
        return p
      }
      if let b = r.allocations.bytesPerTick, let p = finite(b, "\(at).allocations.bytesPerTick") {
        return p
      }
      if let n = r.instructionsPerTick, let p = finite(n, "\(at).instructionsPerTick") { return p }
      if let n = r.referenceNs, let p = finite(n, "\(at).referenceNs", positive: true) { return p }
      if let cold = r.cold {
        guard !cold.samplesNs.isEmpty else { return "\(at).cold.samplesNs is empty" }
        if let j = cold.samplesNs.firstIndex(where: { !($0.isFinite && $0 >= 0) }) {
          return "\(at).cold.samplesNs[\(j)] is \(cold.samplesNs[j]), not a non-negative "
            + "finite number"
        }
        if let p = finite(cold.p50Ns, "\(at).cold.p50Ns") { return p }
        guard (1...Self.maximumSize).contains(cold.unitCount) else {
          return "\(at).cold.unitCount is \(cold.unitCount), not 1 to \(Self.maximumSize)"
        }
        if let b = cold.bytesPerView, let p = finite(b, "\(at).cold.bytesPerView") { return p }
        // Signed: a build may free more memory from before it than it keeps.
        if let b = cold.retainedBytesPerView, !b.isFinite {
          return "\(at).cold.retainedBytesPerView is \(b), not a finite number"
        }
      }
      if let rounds = r.rounds {
        guard !rounds.isEmpty else { return "\(at).rounds is empty" }
        for (k, round) in rounds.enumerated() {
          if let p = finite(round.p50Ns, "\(at).rounds[\(k)].p50Ns") { return p }
          if let p = finite(round.p99Ns, "\(at).rounds[\(k)].p99Ns") { return p }
          guard (1...Self.maximumTicks).contains(round.ticks) else {
            return "\(at).rounds[\(k)].ticks is \(round.ticks), not 1 to \(Self.maximumTicks)"
          }
          if let n = round.referenceNs,
            let p = finite(n, "\(at).rounds[\(k)].referenceNs", positive: true)
          {
            return p
          }
        }
      }
    }
    return nil
  }
}
