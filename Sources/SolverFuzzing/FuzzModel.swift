import Cassowary

/// What a case's operations so far have made of the system: which constraints are in, at
/// which constant and strength, and the edit variables with their last suggestions.
///
/// The generator steps a model to choose operations that keep the witness valid, and the
/// oracle steps one beside each solver to know what the solver should now hold. Both
/// apply the same operations, so they always agree.
package struct FuzzModel {
  package enum Status { case pending, active, removed }

  package struct Edit {
    package let variable: Int
    package let strength: Strength
    /// The solver's edit constant starts at 0, as if 0 had been suggested.
    package var suggestion: Double
  }

  package let fuzzCase: FuzzCase
  package private(set) var status: [Status]
  package private(set) var constants: [Double]
  package private(set) var strengths: [Strength]
  /// A split equality's shortfall weight (see ``FuzzConstraint/shortfall``), else nil.
  package private(set) var shortfalls: [Strength?]
  /// In the order they were added, so every walk over them is deterministic.
  package private(set) var edits: [Edit] = []
  package private(set) var activeCount = 0

  package init(_ fuzzCase: FuzzCase) {
    self.fuzzCase = fuzzCase
    status = Array(repeating: .pending, count: fuzzCase.constraints.count)
    constants = fuzzCase.constraints.map(\.constant)
    strengths = fuzzCase.constraints.map(\.strength)
    shortfalls = fuzzCase.constraints.map(\.shortfall)
  }

  package mutating func apply(_ operation: FuzzOperation) {
    switch operation {
    case .add(let c):
      status[c] = .active
      activeCount += 1
    case .remove(let c):
      status[c] = .removed
      activeCount -= 1
    case .setConstant(let c, let constant):
      constants[c] = constant
    case .setConstants(let changes):
      for change in changes { constants[change.constraint] = change.constant }
    case .setStrength(let c, let strength, let shortfall):
      strengths[c] = strength
      shortfalls[c] = shortfall
    case .addEdit(let variable, let strength):
      edits.append(Edit(variable: variable, strength: strength, suggestion: 0))
    case .removeEdit(let variable):
      edits.removeAll { $0.variable == variable }
    case .suggest(let suggestions):
      for s in suggestions {
        if let i = edits.firstIndex(where: { $0.variable == s.variable }) {
          edits[i].suggestion = s.value
        }
      }
    case .checkpoint, .probe:
      break
    }
  }

  package func isActive(_ c: Int) -> Bool { status[c] == .active }

  package func isEdit(_ variable: Int) -> Bool { edits.contains { $0.variable == variable } }

  // MARK: - The witness

  /// Whether the witness satisfies constraint `c` at `constant`. Exact: the generator keeps
  /// every witness value and coefficient a multiple of a small power of two, so residuals
  /// are computed without rounding.
  package func witnessSatisfies(_ c: Int, constant: Double) -> Bool {
    fuzzCase.constraints[c].violation(fuzzCase.witness, constant: constant) == 0
  }

  /// The constant that makes constraint `c` tight at the witness. The witness satisfies a
  /// `>=` constraint at any constant above it, a `<=` one at any below, an `==` one only
  /// there.
  package func tightConstant(_ c: Int) -> Double {
    -fuzzCase.constraints[c].residual(fuzzCase.witness, constant: 0)
  }

  /// Every active required constraint the witness breaks: the generator's promise that the
  /// tests check (it should always be empty).
  package func requiredBrokenByWitness() -> [Int] {
    fuzzCase.constraints.indices.filter { c in
      isActive(c) && strengths[c].isRequired && !witnessSatisfies(c, constant: constants[c])
    }
  }

  // MARK: - Descriptions

  /// `c12: b5.x - b2.x >= 4 @required`, the constraint as it currently stands, in the
  /// syntax of a constraint script.
  package func scriptLine(_ c: Int) -> String {
    fuzzCase.scriptLine(
      c, constant: constants[c], strength: strengths[c], shortfall: shortfalls[c])
  }

  /// The script line plus what the constraint is for.
  package func describe(_ c: Int) -> String {
    let constraint = fuzzCase.constraints[c]
    return "\(scriptLine(c)) (\(constraint.role.rawValue) \(constraint.note))"
  }

  package func describe(_ operation: FuzzOperation) -> String {
    let names = fuzzCase.variableNames
    switch operation {
    case .add(let c): return "add \(describe(c))"
    case .remove(let c): return "remove \(describe(c))"
    case .setConstant(let c, let constant):
      return "setConstant \(format(constant)) of \(describe(c))"
    case .setConstants(let changes):
      let list = changes.map { "\(format($0.constant)) of \(describe($0.constraint))" }
      return "setConstants [\(list.joined(separator: "; "))]"
    case .setStrength(let c, let strength, let shortfall):
      if let shortfall {
        return "setStrengths \(format(strength))/\(format(shortfall)) of \(describe(c))"
      }
      return "setStrength \(format(strength)) of \(describe(c))"
    case .addEdit(let v, let strength):
      return "addEditVariable \(names[v]) @\(format(strength))"
    case .removeEdit(let v): return "removeEditVariable \(names[v])"
    case .suggest(let list):
      let text = list.map { "\(names[$0.variable]) \(format($0.value))" }
      return (list.count == 1 ? "suggestValue " : "suggestValues ") + text.joined(separator: ", ")
    case .checkpoint: return "checkpoint"
    case .probe(let probe): return describe(probe)
    }
  }

  /// `probe by setConstant: b3.x - b1.x <= -4 (from 8), which 1 * (c4 ...) + ... rule out
  /// (their sum is at least 0; the probe asks it below 0 by 3)`.
  package func describe(_ probe: FuzzProbe) -> String {
    let line = fuzzCase.probeLine(probe, constant: probe.infeasibleConstant)
    let from =
      probe.route == .add
      ? "" : " (from \(format(-probe.feasibleConstant)))"
    let companions =
      probe.companions.isEmpty
      ? ""
      : " with setConstants ["
        + probe.companions.map { "\(format($0.constant)) of \(describe($0.constraint))" }
        .joined(separator: "; ") + "]"
    let proof = probe.sources.map { "\(format($0.multiplier)) * (\(describe($0.constraint)))" }
    return "probe by \(probe.route.rawValue)\(companions): \(line)\(from), which "
      + proof.joined(separator: " + ")
      + " rule out (their sum is at least 0; the probe asks it below 0 by \(format(probe.gap)))"
  }
}
