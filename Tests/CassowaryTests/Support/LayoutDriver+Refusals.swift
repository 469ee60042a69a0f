import Cassowary

/// Operations the solver must refuse, each checked to leave it exactly as it was.
extension LayoutDriver {
  /// A required constraint that contradicts active entry `i` by one unit.
  func contradiction(of i: Int) -> Constraint {
    let terms = entries[i].constraint.expression.terms
    let k = constants[i]
    switch entries[i].constraint.relation {
    case .greaterOrEqual: return Constraint(Expression(terms, constant: k + 1), .lessOrEqual)
    case .lessOrEqual: return Constraint(Expression(terms, constant: k - 1), .greaterOrEqual)
    case .equal: return Constraint(Expression(terms, constant: k + 1), .equal)
    }
  }

  /// Does one random operation that must be refused with a specific error; returns what
  /// went wrong (a wrong or missing error, or a changed solver), or `nil`.
  func randomRefusal() throws(SolverError) -> String? {
    let required = entries.indices.filter { active[$0] && strengths[$0].isRequired }
    let requiredInequalities = required.filter { entries[$0].constraint.relation != .equal }
    let liveEdits = system.edits.indices.filter { editActive[$0] }.map { system.edits[$0] }
    let nonEdits = system.variables.filter { !solver.hasEditVariable($0) }

    // Set-up that must succeed comes first, so that the snapshot includes it.
    typealias Refusal = (op: String, body: () throws(SolverError) -> Void, expected: SolverError?)
    var refusal: Refusal
    switch rng.int(0...9) {
    case 0 where !required.isEmpty:
      let c = contradiction(of: rng.element(of: required)!)
      refusal = (
        "add contradiction \(c)", { () throws(SolverError) in try self.solver.addConstraint(c) },
        .unsatisfiableConstraint(c)
      )
    case 1 where !requiredInequalities.isEmpty:
      // Bracket the entry from the other side (the witness stays feasible), then move its
      // bound past the bracket.
      let i = rng.element(of: requiredInequalities)!
      let terms = entries[i].constraint.expression.terms
      let w = entries[i].atWitness
      let newConstant: Double
      if entries[i].constraint.relation == .greaterOrEqual {
        try addEntry(Constraint(Expression(terms, constant: -w - 5), .lessOrEqual))
        newConstant = -w - 6 - rng.double(0...20)
      } else {
        try addEntry(Constraint(Expression(terms, constant: -w + 5), .greaterOrEqual))
        newConstant = -w + 6 + rng.double(0...20)
      }
      let c = entries[i].constraint
      refusal = (
        "setConstant \(newConstant) of \(i)",
        { () throws(SolverError) in try self.solver.setConstant(newConstant, of: c) },
        .unsatisfiableConstraint(c)
      )
    case 2 where !required.isEmpty:
      let index = try addEntry(contradiction(of: rng.element(of: required)!) | .strong)
      let c = entries[index].constraint
      refusal = (
        "setStrength required of \(index)",
        { () throws(SolverError) in try self.solver.setStrength(.required, of: c) },
        .unsatisfiableConstraint(c)
      )
    case 3:
      let i = rng.element(of: entries.indices)!
      let c = active[i] ? entries[i].constraint : entries[i].constraint | .weak
      if active[i] {
        refusal = (
          "duplicate \(i)", { () throws(SolverError) in try self.solver.addConstraint(c) },
          .duplicateConstraint(c)
        )
      } else {
        refusal = (
          "unknown \(c)",
          { () throws(SolverError) in
            switch self.rng.int(0...2) {
            case 0: try self.solver.removeConstraint(c)
            case 1: try self.solver.setConstant(1, of: c)
            default: try self.solver.setStrength(.strong, of: c)
            }
          }, .unknownConstraint(c)
        )
      }
    case 4 where !nonEdits.isEmpty:
      let v = rng.element(of: nonEdits)!
      refusal = (
        "unknown edit \(v.index)",
        { () throws(SolverError) in
          if self.rng.chanceOf(0.5) {
            try self.solver.suggestValue(v, 1)
          } else {
            try self.solver.removeEditVariable(v)
          }
        }, .unknownEditVariable(v)
      )
    case 5 where !liveEdits.isEmpty:
      let v = rng.element(of: liveEdits)!
      refusal = (
        "duplicate edit \(v.index)",
        { () throws(SolverError) in try self.solver.addEditVariable(v, strength: .medium) },
        .duplicateEditVariable(v)
      )
    case 6 where !nonEdits.isEmpty:
      let v = rng.element(of: nonEdits)!
      refusal = (
        "required edit \(v.index)",
        { () throws(SolverError) in try self.solver.addEditVariable(v, strength: .required) },
        .requiredEditStrength(v)
      )
    case 7 where !liveEdits.isEmpty:
      let v = rng.element(of: liveEdits)!
      refusal = (
        "suggest infinity",
        { () throws(SolverError) in
          try self.solver.suggestValues([(v, 10), (v, -.infinity)])
        }, .nonFiniteValue(-.infinity)
      )
    case 8:
      let v = rng.element(of: system.variables)!
      let c = (v * .infinity >= 1) | .strong
      refusal = (
        "non-finite \(c)", { () throws(SolverError) in try self.solver.addConstraint(c) },
        .nonFiniteConstraint(c)
      )
    default:
      let other = system.emptySolver()
      let foreign = (0...rng.int(0...3)).map { _ in other.makeVariable() }.last!
      let c = system.variables[0] + foreign <= 10
      refusal = (
        "foreign variable", { () throws(SolverError) in try self.solver.addConstraint(c) },
        .unknownVariable(foreign)
      )
    }

    log.append(refusal.op)
    let before = values
    do {
      try refusal.body()
      return "\(refusal.op) was accepted"
    } catch {
      if let expected = refusal.expected, error != expected {
        return "\(refusal.op) threw \(error), expected \(expected)"
      }
    }
    if let problem = firstMismatch(values, before, tolerance: 1e-7) {
      return "\(refusal.op) changed the values: \(problem)"
    }
    if let problem = modelMismatch() { return "\(refusal.op) changed the solver: \(problem)" }
    return nil
  }
}
