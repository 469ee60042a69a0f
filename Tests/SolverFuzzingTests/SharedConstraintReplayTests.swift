@testable import Cassowary
@testable import SolverFuzzing
import Testing

/// Replays that share their constraint instances (`DifferentialOracle.sharesConstraints`):
/// every representation still passes, and the later solvers do find instances an earlier,
/// still living solver holds, so the identity tables of `ConstraintIndex` are exercised.
@Suite struct SharedConstraintReplayTests {
  @Test func replaysSharingInstancesPassAndReachTheTables() {
    var tabled = 0
    for seed in UInt64(0)..<6 {
      var oracle = DifferentialOracle(FuzzCase(seed: seed, boxes: 20...60))
      oracle.sharesConstraints = true
      for representation in DifferentialFuzzer.allRepresentations {
        let failure = oracle.replay(representation)
        #expect(failure == nil, "seed \(seed) \(representation): \(String(describing: failure))")
      }
      #expect(oracle.keptSolvers.count == DifferentialFuzzer.allRepresentations.count)
      // The first solver claimed what it added; each later one keeps in its table the
      // instances held by an earlier solver when it added them.
      #expect(oracle.keptSolvers[0].constraintIndex.table.count == 0)
      tabled += oracle.keptSolvers.dropFirst().map { $0.constraintIndex.table.count }.reduce(0, +)
    }
    #expect(tabled > 0, "no replay went through a table")
  }
}
