import Cassowary
@testable import SolverFuzzing
import Testing

/// The oracle must notice a solver that accepts a probe. A sound solver refuses every real
/// probe, so the tests hand it probes whose "infeasible" constant is one the witness
/// satisfies: the solver accepts those, and the oracle must say so.
@Suite struct ProbeOracleTests {
  /// The first case from seed 0 up with an inequality probe by `route`, cut after that
  /// probe, with the probe's infeasible constant swapped for one the witness satisfies with
  /// more room than the feasible one (so that a constant change moves it).
  static func tamperedCase(_ route: FuzzProbe.Route) -> (FuzzCase, Int)? {
    for seed in 0..<200 as Range<UInt64> {
      let fuzzCase = FuzzCase(seed: seed, boxes: 2...30)
      for (index, operation) in fuzzCase.operations.enumerated() {
        guard case .probe(let probe) = operation, probe.route == route, probe.relation != .equal
        else { continue }
        let looser = probe.feasibleConstant + (probe.relation == .lessOrEqual ? -4 : 4)
        let tampered = FuzzProbe(
          route: probe.route, terms: probe.terms, relation: probe.relation,
          infeasibleConstant: looser, feasibleConstant: probe.feasibleConstant,
          gap: probe.gap, sources: probe.sources, companions: probe.companions)
        var operations = Array(fuzzCase.operations.prefix(index))
        operations.append(.probe(tampered))
        return (
          FuzzCase(
            seed: fuzzCase.seed, boxCount: fuzzCase.boxCount, vertical: fuzzCase.vertical,
            variableNames: fuzzCase.variableNames, witness: fuzzCase.witness,
            constraints: fuzzCase.constraints, operations: operations),
          index
        )
      }
    }
    return nil
  }

  @Test(arguments: FuzzProbe.Route.allCases)
  func anAcceptedProbeIsAFailure(_ route: FuzzProbe.Route) throws {
    let (tampered, index) = try #require(Self.tamperedCase(route))
    var oracle = DifferentialOracle(tampered)
    for representation in DifferentialFuzzer.allRepresentations {
      let failure = oracle.replay(representation)
      #expect(failure?.operationIndex == index, "\(route) \(representation)")
      #expect(
        failure?.message.hasPrefix("accepted probe by \(route.rawValue)") == true,
        "\(String(describing: failure))")
    }
  }
}
