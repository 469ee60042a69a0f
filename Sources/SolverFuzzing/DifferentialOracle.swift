import Cassowary

/// Replays a case on a solver of a given representation and judges it at every checkpoint:
/// the active required constraints must hold, and the weighted error must equal that of a
/// fresh canonical solver given only the active set (constraints at their current constants
/// and strengths, edit variables at their last suggestions). Any error an operation throws
/// is a failure too: every operation of a case is valid, and every required constraint
/// holds at the witness, so even a refusal is a solver bug.
///
/// Comparing weighted errors rather than values keeps the oracle sound when the optimum is
/// not unique; the tie-breakers make it unique almost always, which makes values a useful
/// hint in messages.
public struct DifferentialOracle {
  public let fuzzCase: FuzzCase
  /// The relative band within which weighted errors agree.
  public let errorTolerance: Double
  /// Whether to judge after every operation rather than at checkpoints only: a failure is
  /// then reported at the first operation that leaves a wrong solution (a fresh solve per
  /// operation, so for replaying one seed, not for a run).
  public var judgesEveryOperation = false
  /// Whether the replays share their constraint instances: the n-th addition of a
  /// constraint adds the same instance in every replay, and each replay's solver is kept
  /// until the oracle goes. A later replay then finds the instances an earlier solver still
  /// holds claimed by it, and keeps those in its identity table, while it claims those the
  /// earlier solver let go (`ConstraintIndex`): the lookups of a solver sharing constraint
  /// instances with another, at the sizes the fuzzer reaches.
  public var sharesConstraints = false
  /// With `sharesConstraints`: per constraint, its instances in the order of their additions.
  private var sharedInstances: [[Constraint]] = []
  /// With `sharesConstraints`: the solvers of the replays so far.
  private(set) var keptSolvers: [Solver] = []
  /// Fresh solves by checkpoint: the active set at a checkpoint is the same whatever the
  /// representation replayed, so each is solved once per case.
  private var references: [Int: Reference] = [:]

  package enum Reference {
    case solved([Double])
    /// The fresh solver threw: which operation and what.
    case refused(String)
  }

  public init(_ fuzzCase: FuzzCase, errorTolerance: Double = FuzzTolerance.weightedError) {
    self.fuzzCase = fuzzCase
    self.errorTolerance = errorTolerance
  }

  /// Replays every operation on a new solver; stops at the first failure, after which the
  /// solver's state means nothing.
  public mutating func replay(_ representation: Solver.Representation) -> FuzzFailure? {
    let solver = Solver(representation: representation)
    if sharesConstraints {
      keptSolvers.append(solver)
      if sharedInstances.isEmpty {
        sharedInstances = Array(repeating: [], count: fuzzCase.constraints.count)
      }
    }
    let variables = Self.makeVariables(solver, fuzzCase)
    var instances: [Constraint?] = Array(repeating: nil, count: fuzzCase.constraints.count)
    /// With `sharesConstraints`: how many times this replay has added each constraint.
    var additions = [Int](repeating: 0, count: sharesConstraints ? fuzzCase.constraints.count : 0)
    var model = FuzzModel(fuzzCase)
    var readOuts = 0
    for (index, operation) in fuzzCase.operations.enumerated() {
      func failure(_ message: String) -> FuzzFailure {
        FuzzFailure(
          seed: fuzzCase.seed, representation: representation, boxCount: fuzzCase.boxCount,
          operationIndex: index, operationCount: fuzzCase.operations.count,
          operation: model.describe(operation), message: message)
      }
      var adding: Constraint?
      if sharesConstraints, case .add(let c) = operation {
        // The same instance as the other replays' same addition (equal expressions: every
        // replay has the same model at the same operation).
        if additions[c] == sharedInstances[c].count {
          sharedInstances[c].append(Self.constraint(c, model, variables))
        }
        adding = sharedInstances[c][additions[c]]
        additions[c] += 1
      }
      if case .probe(let probe) = operation {
        if let problem = Self.probeProblem(probe, solver, variables, instances, model) {
          return failure(problem)
        }
      } else {
        do throws(SolverError) {
          try perform(operation, solver, variables, &instances, model, adding: adding)
        } catch {
          return failure("threw \(error)")
        }
      }
      model.apply(operation)
      switch operation {
      case .checkpoint, .probe: break  // judged: a refusal restores the solver, which can go wrong
      default: if !judgesEveryOperation { continue }
      }
      if let problem = bookkeepingProblem(solver, instances, model) { return failure(problem) }
      // Read-outs alternate between the plain one and the reporting one, whose readings
      // hold within round-off (`Tolerance.sameReading`): the judge sees both.
      readOuts &+= 1
      if readOuts % 2 == 0 {
        solver.updateVariables()
      } else if let problem = Self.reportingReadOutProblem(solver, variables) {
        return failure(problem)
      }
      let values = variables.map { solver.value(of: $0) }
      let reference = references[index] ?? Self.freshSolve(model)
      references[index] = reference
      if let problem = Self.judge(
        values, model: model, reference: reference, tolerance: errorTolerance)
      {
        return failure(problem)
      }
    }
    return nil
  }

  /// Reads `solver` out with the reporting `updateVariables(_:)`; the problem when it
  /// reported a variable that did not move beyond round-off, reported one twice, or moved
  /// one it did not report (a held reading must stay as it was).
  static func reportingReadOutProblem(_ solver: Solver, _ variables: [Variable]) -> String? {
    let before = variables.map { solver.value(of: $0) }
    var reported: [Int32: Int] = [:]
    solver.updateVariables { variable, _ in reported[variable.index, default: 0] += 1 }
    for (i, variable) in variables.enumerated() {
      let now = solver.value(of: variable)
      let name = solver.name(of: variable)
      switch reported[variable.index] ?? 0 {
      case 0:
        if now.bitPattern != before[i].bitPattern {
          return "the reporting read-out moved \(name) from \(before[i]) to \(now) unreported"
        }
      case 1:
        if Tolerance.sameReading(before[i], now) {
          return
            "the reporting read-out reported \(name) moving by round-off, \(before[i]) -> \(now)"
        }
      default:
        return "the reporting read-out reported \(name) more than once"
      }
    }
    return nil
  }

  /// The solver's variables, indexed like the case's, created in the order a dumped
  /// script creates them.
  static func makeVariables(_ solver: Solver, _ fuzzCase: FuzzCase) -> [Variable] {
    var variables = Array(repeating: Variable?.none, count: fuzzCase.variableNames.count)
    for v in fuzzCase.variablesInScriptOrder() {
      variables[v] = solver.makeVariable(fuzzCase.variableNames[v])
    }
    return variables.map { $0! }
  }

  /// The constraint of index `c` as it currently stands in `model`.
  static func constraint(_ c: Int, _ model: FuzzModel, _ variables: [Variable]) -> Constraint {
    let spec = model.fuzzCase.constraints[c]
    let expression = Self.expression(c, model, variables)
    if let shortfall = model.shortfalls[c] {
      return Constraint(expression, equalWithExcess: model.strengths[c], shortfall: shortfall)
    }
    return Constraint(expression, spec.relation, strength: model.strengths[c])
  }

  /// The expression of constraint `c` at its current constant in `model`.
  static func expression(_ c: Int, _ model: FuzzModel, _ variables: [Variable]) -> Expression {
    let terms = model.fuzzCase.constraints[c].terms.map {
      Term(variables[$0.variable], $0.coefficient)
    }
    return Expression(terms, constant: model.constants[c])
  }

  /// The constraints the fresh reference solve is given for constraint `c`: a split
  /// equality as the pair of inequalities it stands for (`<=` at the excess weight, `>=` at
  /// the shortfall's), so that the reference reaches the optimum another way and a
  /// solver that weighed a split equality's directions wrongly disagrees with it.
  static func referenceConstraints(
    _ c: Int, _ model: FuzzModel, _ variables: [Variable]
  ) -> [Constraint] {
    guard let shortfall = model.shortfalls[c] else { return [constraint(c, model, variables)] }
    let expression = Self.expression(c, model, variables)
    return [
      Constraint(expression, .lessOrEqual, strength: model.strengths[c]),
      Constraint(expression, .greaterOrEqual, strength: shortfall),
    ]
  }

  private func perform(
    _ operation: FuzzOperation, _ solver: Solver, _ variables: [Variable],
    _ instances: inout [Constraint?], _ model: FuzzModel, adding: Constraint?
  ) throws(SolverError) {
    switch operation {
    case .add(let c):
      let constraint = adding ?? Self.constraint(c, model, variables)
      try solver.addConstraint(constraint)
      instances[c] = constraint
    case .remove(let c):
      try solver.removeConstraint(instances[c]!)
    case .setConstant(let c, let constant):
      try solver.setConstant(constant, of: instances[c]!)
    case .setConstants(let changes):
      try solver.setConstants(changes.map { (instances[$0.constraint]!, $0.constant) })
    case .setStrength(let c, let strength, let shortfall?):
      try solver.setStrengths(excess: strength, shortfall: shortfall, of: instances[c]!)
    case .setStrength(let c, let strength, nil):
      try solver.setStrength(strength, of: instances[c]!)
    case .addEdit(let v, let strength):
      try solver.addEditVariable(variables[v], strength: strength)
    case .removeEdit(let v):
      try solver.removeEditVariable(variables[v])
    case .suggest(let list) where list.count == 1:
      try solver.suggestValue(variables[list[0].variable], list[0].value)
    case .suggest(let list):
      try solver.suggestValues(list.map { (variables[$0.variable], $0.value) })
    case .checkpoint, .probe:
      break
    }
  }

  /// Offers `probe` to `solver` by its route; the problem when the solver accepts it,
  /// refuses it wrongly (another error, another constraint, no conflicts although the probe
  /// alone is satisfiable), refuses the feasible constant it is first added at, or does not
  /// go back to the constant it held. The solver must end holding what it held before (the
  /// caller then checks its bookkeeping and judges its values).
  static func probeProblem(
    _ probe: FuzzProbe, _ solver: Solver, _ variables: [Variable], _ instances: [Constraint?],
    _ model: FuzzModel
  ) -> String? {
    func constraint(_ constant: Double) -> Constraint {
      let terms = probe.terms.map { Term(variables[$0.variable], $0.coefficient) }
      return Constraint(Expression(terms, constant: constant), probe.relation, strength: .required)
    }
    /// The problem with how the solver refused, nil when it refused as it must.
    func refusalProblem(_ outcome: SolverError?, naming expected: [Constraint]) -> String? {
      guard let outcome else { return "accepted \(model.describe(probe))" }
      guard case .unsatisfiableConstraint(let named) = outcome,
        expected.contains(where: { $0 === named })
      else { return "threw \(outcome) for \(model.describe(probe))" }
      let conflicts = solver.conflictingConstraints
      if !probe.terms.isEmpty && conflicts.isEmpty {
        return "refused \(model.describe(probe)) naming no conflicting constraint"
      }
      if let stray = conflicts.first(where: { solver.strength(of: $0) != .required }) {
        return "refused \(model.describe(probe)) naming a conflicting constraint it does not "
          + "hold as required: \(stray)"
      }
      return nil
    }
    func attempt(_ body: () throws(SolverError) -> Void) -> SolverError? {
      do throws(SolverError) {
        try body()
        return nil
      } catch {
        return error
      }
    }
    if probe.route == .add {
      let infeasible = constraint(probe.infeasibleConstant)
      return refusalProblem(
        attempt { () throws(SolverError) in try solver.addConstraint(infeasible) },
        naming: [infeasible])
    }
    let held = constraint(probe.feasibleConstant)
    if let error = attempt({ () throws(SolverError) in try solver.addConstraint(held) }) {
      return "threw \(error) adding the probe at \(format(-probe.feasibleConstant)), which the "
        + "witness satisfies, for \(model.describe(probe))"
    }
    let outcome: SolverError?
    var named = [held]
    if probe.route == .setConstant {
      outcome = attempt { () throws(SolverError) in
        try solver.setConstant(probe.infeasibleConstant, of: held)
      }
    } else {
      var changes: [(Constraint, Double)] = []
      for change in probe.companions {
        guard let instance = instances[change.constraint] else {
          return "no instance of companion \(model.describe(change.constraint))"
        }
        changes.append((instance, change.constant))
        if model.strengths[change.constraint].isRequired { named.append(instance) }
      }
      changes.append((held, probe.infeasibleConstant))
      outcome = attempt { () throws(SolverError) in try solver.setConstants(changes) }
    }
    if let problem = refusalProblem(outcome, naming: named) { return problem }
    if solver.constant(of: held) != probe.feasibleConstant {
      return "after refusing \(model.describe(probe)), the probe's constant is "
        + "\(String(describing: solver.constant(of: held))), not \(format(probe.feasibleConstant))"
    }
    if let error = attempt({ () throws(SolverError) in try solver.removeConstraint(held) }) {
      return "threw \(error) removing the probe after refusing \(model.describe(probe))"
    }
    return nil
  }

  /// What the solver says it holds must be what it was given.
  private func bookkeepingProblem(
    _ solver: Solver, _ instances: [Constraint?], _ model: FuzzModel
  ) -> String? {
    if solver.constraintCount != model.activeCount {
      return "the solver holds \(solver.constraintCount) constraints, not \(model.activeCount)"
    }
    for c in fuzzCase.constraints.indices where model.isActive(c) {
      guard let instance = instances[c] else { continue }
      if solver.constant(of: instance) != model.constants[c]
        || solver.strength(of: instance) != model.strengths[c]
        || solver.shortfallStrength(of: instance) != model.shortfalls[c] ?? model.strengths[c]
      {
        return "the solver reports \(String(describing: solver.constant(of: instance))) "
          + "@\(String(describing: solver.strength(of: instance)))"
          + "/\(String(describing: solver.shortfallStrength(of: instance))) "
          + "for \(model.describe(c))"
      }
    }
    return nil
  }

  // MARK: - The reference

  /// A fresh canonical solver given the model's active set, constraints in index order
  /// (unlike the shuffled build), then the edit variables and their suggestions.
  package static func freshSolve(_ model: FuzzModel) -> Reference {
    let solver = Solver(representation: .canonical)
    let variables = makeVariables(solver, model.fuzzCase)
    var step = ""
    do throws(SolverError) {
      for c in model.fuzzCase.constraints.indices where model.isActive(c) {
        step = "add \(model.describe(c))"
        for reference in referenceConstraints(c, model, variables) {
          try solver.addConstraint(reference)
        }
      }
      for edit in model.edits {
        let name = model.fuzzCase.variableNames[edit.variable]
        step = "addEditVariable \(name) @\(format(edit.strength))"
        try solver.addEditVariable(variables[edit.variable], strength: edit.strength)
        step = "suggestValue \(name) \(format(edit.suggestion))"
        try solver.suggestValue(variables[edit.variable], edit.suggestion)
      }
    } catch {
      return .refused("\(step) threw \(error)")
    }
    solver.updateVariables()
    return .solved(variables.map { solver.value(of: $0) })
  }

  /// The verdict on the values of a checkpoint, `nil` when they pass. The tests call it with
  /// deliberately wrong values to check that the oracle notices.
  package static func judge(
    _ values: [Double], model: FuzzModel, reference: Reference,
    tolerance: Double = FuzzTolerance.weightedError
  ) -> String? {
    if let problem = model.requiredProblem(values) { return problem }
    switch reference {
    case .refused(let why):
      return "a fresh canonical solve of the active set failed: \(why)"
    case .solved(let fresh):
      if let problem = model.requiredProblem(fresh) {
        return "a fresh canonical solve of the active set is wrong: \(problem)"
      }
      let (mine, theirs) = (model.weightedError(values), model.weightedError(fresh))
      let allowed = tolerance * max(1, mine, theirs)
      guard abs(mine - theirs) > allowed else { return nil }
      return "weighted error \(mine), but a fresh canonical solve of the active set reaches "
        + "\(theirs) (difference \(abs(mine - theirs)), allowed \(allowed)); largest "
        + "differences: \(model.largestDifferences(values, fresh))"
    }
  }
}
