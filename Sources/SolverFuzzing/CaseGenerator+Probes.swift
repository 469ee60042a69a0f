import Cassowary

// Probes: required constraints that the active required constraints rule out, offered to
// the solver at the end of a round. The differential oracle checks that a solver accepts
// what it must (every other operation is valid at the witness); probes check the other
// half of soundness, that it refuses what it must, and that a refusal leaves it exactly as
// it was. A solver that accepted a probe would hand out a layout breaking a required
// constraint while reporting success.
//
// Each probe carries its proof (``FuzzProbe``): a combination, with multipliers of the
// right signs, of one to four active required constraints, often sharing variables so
// that terms cancel and the probe reads as a bound on a few variables that the sources
// imply together. The probe then asks for that combination to be `gap` below its floor.

extension CaseGenerator {
  /// With `probes`, now and then (from `probeRng`) a probe of the current active set.
  mutating func appendProbe(_ run: inout OperationLog) {
    guard probes, probeRng.chance(0.4) else { return }
    if let probe = makeProbe(run.model) { run.append(.probe(probe)) }
  }

  /// A probe of `model`'s active required constraints, nil when there are none.
  mutating func makeProbe(_ model: FuzzModel) -> FuzzProbe? {
    let required = constraints.indices.filter {
      model.isActive($0) && model.strengths[$0].isRequired
    }
    guard !required.isEmpty else { return nil }
    // The active required constraints of each variable, to find neighbours of a source.
    var byVariable: [Int: [Int]] = [:]
    for c in required {
      for term in constraints[c].terms { byVariable[term.variable, default: []].append(c) }
    }
    var chosen: [Int] = [probeRng.pick(required)]
    for _ in 0..<probeRng.int(in: 0...3) {
      var candidates: [Int] = []
      if probeRng.chance(0.75) {
        for c in chosen {
          for term in constraints[c].terms { candidates += byVariable[term.variable] ?? [] }
        }
        candidates.removeAll { chosen.contains($0) }
      }
      if candidates.isEmpty { candidates = required.filter { !chosen.contains($0) } }
      guard !candidates.isEmpty else { break }
      chosen.append(probeRng.pick(candidates))
    }
    // The combination S = sum of m * (terms + constant), m signed so that S >= 0 wherever
    // the sources hold. Multipliers are multiples of 1/4: with coefficients and witness
    // values multiples of 1/4 too, every sum below is exact.
    var sources: [FuzzProbe.Source] = []
    var coefficients: [Int: Double] = [:]
    var constant = 0.0
    for c in chosen {
      let magnitude = 0.25 * Double(probeRng.int(in: 1...8))
      let multiplier: Double
      switch constraints[c].relation {
      case .greaterOrEqual: multiplier = magnitude
      case .lessOrEqual: multiplier = -magnitude
      case .equal: multiplier = probeRng.chance(0.5) ? magnitude : -magnitude
      }
      sources.append(FuzzProbe.Source(constraint: c, multiplier: multiplier))
      for term in constraints[c].terms {
        coefficients[term.variable, default: 0] += multiplier * term.coefficient
      }
      constant += multiplier * model.constants[c]
    }
    var terms = coefficients.keys.sorted().compactMap { v -> FuzzTerm? in
      coefficients[v] == 0 ? nil : FuzzTerm(variable: v, coefficient: coefficients[v]!)
    }
    let gap = probeRng.pick([0.25, 1, 3, 10, 64])
    let slack = probeRng.pick([0.0, 0.0, 1, 5])
    // At the witness S is exactly `floor` (>= 0): the probe is feasible at a constant that
    // leaves S at or above that, and impossible at one asking S below 0 by `gap`.
    var atWitness = 0.0
    for term in terms { atWitness += term.coefficient * witness[term.variable] }
    let relation: Relation
    let infeasible: Double
    let feasible: Double
    switch probeRng.int(in: 0...2) {
    case 0:
      // S + gap <= 0.
      relation = .lessOrEqual
      infeasible = constant + gap
      feasible = -atWitness - slack
    case 1:
      // -S - gap >= 0.
      relation = .greaterOrEqual
      terms = terms.map { FuzzTerm(variable: $0.variable, coefficient: -$0.coefficient) }
      infeasible = -constant - gap
      feasible = atWitness + slack
    default:
      // S + gap == 0.
      relation = .equal
      infeasible = constant + gap
      feasible = -atWitness
    }
    let route = probeRng.pick(FuzzProbe.Route.allCases)
    var companions: [FuzzConstantChange] = []
    if route == .setConstants {
      // Other changes the batch makes, none of a source (the proof reads their constants).
      var others = constraints.indices.filter {
        model.isActive($0) && constraints[$0].role != .tieBreaker && !chosen.contains($0)
      }
      probeRng.shuffle(&others)
      for c in others.prefix(probeRng.int(in: 1...3)) {
        companions.append(FuzzConstantChange(constraint: c, constant: companionConstant(c, model)))
      }
    }
    return FuzzProbe(
      route: route, terms: terms, relation: relation, infeasibleConstant: infeasible,
      feasibleConstant: feasible, gap: gap, sources: sources, companions: companions)
  }

  /// A new constant for constraint `c` that the witness still allows (as
  /// `newConstant` in `CaseGenerator+Operations.swift`, from `probeRng`).
  private mutating func companionConstant(_ c: Int, _ model: FuzzModel) -> Double {
    guard model.strengths[c].isRequired else {
      return model.constants[c] + Double(probeRng.int(in: -100...100))
    }
    let slack = Double(probeRng.int(in: 0...40))
    switch constraints[c].relation {
    case .equal: return model.constants[c]
    case .greaterOrEqual: return model.tightConstant(c) + slack
    case .lessOrEqual: return model.tightConstant(c) - slack
    }
  }
}
