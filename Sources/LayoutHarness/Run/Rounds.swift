import BenchSupport

/// A run of several rounds: each round is a separate process that builds its own trees,
/// warms up and measures, so that the process-to-process variation of the machine (10-40%
/// on shared 2-core runners) shows up between rounds, where a test can see it, instead of
/// hiding inside one process's ticks.
extension RunReport {
  /// Merges the reports of separate rounds of the same scenarios into one report: results
  /// matched by strategy, scenario and seed, in the first round's order; samples pooled
  /// (for tables and charts), statistics recomputed over them, and each round's median
  /// and p99 kept in `rounds` for verdicts. Counters and allocations are the first round's:
  /// they are deterministic, and a round that disagrees is an error.
  public static func mergingRounds(_ reports: [RunReport]) throws(RoundsError) -> RunReport {
    guard let first = reports.first else { throw .noRounds }
    func key(_ r: RunResult) -> String { r.matchKey }
    var merged = first
    var indexByKey: [String: Int] = [:]
    for (i, result) in first.results.enumerated() {
      indexByKey[key(result)] = i
      merged.results[i].rounds = result.roundSummaries
    }
    for (round, report) in reports.enumerated().dropFirst() {
      guard report.hz == first.hz else {
        throw .mismatch("round \(round + 1) ran at \(report.hz) Hz")
      }
      guard report.results.count == first.results.count else {
        throw .mismatch(
          "round \(round + 1) has \(report.results.count) results, not \(first.results.count)")
      }
      for result in report.results {
        guard let i = indexByKey[key(result)] else {
          throw .mismatch("round \(round + 1) has a result the first lacks: \(key(result))")
        }
        guard result.counters == merged.results[i].counters else {
          throw .mismatch(
            "round \(round + 1) did different work on \(key(result)) (counters differ)")
        }
        merged.results[i].samplesNs += result.samplesNs
        merged.results[i].rounds! += result.roundSummaries
        if let more = result.cold, let cold = merged.results[i].cold {
          merged.results[i].cold = ColdLayout(
            samplesNs: cold.samplesNs + more.samplesNs, unitCount: cold.unitCount,
            bytesPerView: cold.bytesPerView, retainedBytesPerView: cold.retainedBytesPerView)
        }
        if let more = result.preemptions {
          merged.results[i].preemptions = (merged.results[i].preemptions ?? 0) + more
        }
      }
    }
    let budget = FrameBudget(hz: first.hz)
    for i in merged.results.indices {
      let samples = merged.results[i].samplesNs
      merged.results[i].tickNs = TickStatistics(samples: samples)
      let assessment = budget.assess(samples)
      merged.results[i].overBudget = assessment.overBudget
      merged.results[i].missedFrames = assessment.missedFrames
      merged.results[i].hitchMsPerS = assessment.hitchMsPerS
      merged.results[i].budgets = FrameBudget.assessments(samples, hz: budget.hz)
    }
    for i in merged.results.indices {
      let references = merged.results[i].rounds!.compactMap(\.referenceNs)
      merged.results[i].referenceNs = references.isEmpty ? nil : median(references)
    }
    merged.measurementOverheadNs = median(reports.map(\.measurementOverheadNs))
    return merged
  }
}

public enum RoundsError: Error, CustomStringConvertible, Sendable {
  case noRounds
  case mismatch(String)

  public var description: String {
    switch self {
    case .noRounds: "no rounds to merge"
    case .mismatch(let what): "the rounds do not match: \(what)"
    }
  }
}
