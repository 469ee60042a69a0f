import BenchSupport
import Cassowary

/// Drives a solver through random operations on a ``LayoutSystem`` while keeping a model of
/// what the solver should hold: which constraints are in it, with which constant and
/// strength, and which edit variables with which suggestion. The model is only updated
/// after an operation succeeds.
final class LayoutDriver {
  let system: LayoutSystem
  let solver: Solver
  var rng: SplitMix64
  /// The system's entries, plus any the tests add (brackets, soft copies of conflicts).
  var entries: [LayoutSystem.Entry]
  var active: [Bool]
  var constants: [Double]
  var strengths: [Strength]
  var editActive: [Bool]
  var suggestions: [Double]
  /// The operations done so far, for failure messages.
  var log: [String] = []

  /// Builds the system's initial solver with `representation`. `stream` picks the
  /// operations' random sequence.
  init(
    _ system: LayoutSystem, _ representation: Solver.Representation, stream: UInt64 = 1,
    configure: (Solver) -> Void = { _ in }
  ) throws(SolverError) {
    self.system = system
    solver = system.emptySolver(representation)
    configure(solver)
    rng = SplitMix64(seed: system.seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
    entries = system.entries
    active = system.initiallyActive
    constants = entries.map { $0.constraint.expression.constant }
    strengths = entries.map { $0.constraint.strength }
    editActive = system.edits.map { _ in true }
    suggestions = system.firstSuggestions
    for (i, entry) in entries.enumerated() where active[i] {
      try solver.addConstraint(entry.constraint)
    }
    for v in system.edits { try solver.addEditVariable(v, strength: .strong) }
    try solver.suggestValues(Array(zip(system.edits, suggestions)))
  }

  /// The solution, after `updateVariables()`.
  var values: [Double] {
    solver.updateVariables()
    return system.variables.map { solver.value(of: $0) }
  }

  /// The last few operations, for failure messages.
  var recent: String { log.suffix(6).joined(separator: "; ") }

  // MARK: - Checks

  /// Another representation than this driver's solver uses, for cross-checks.
  var otherRepresentation: Solver.Representation {
    switch solver.representation {
    case .adaptive: .lazy
    case .lazy: .canonical
    case .canonical: .adaptive
    }
  }

  /// A new solver with the model's constraints, constants, strengths and suggestions, in the
  /// other representation, so that comparing with it also compares the two.
  func freshSolver() throws(SolverError) -> Solver {
    let fresh = system.emptySolver(otherRepresentation)
    for i in entries.indices where active[i] {
      try fresh.addConstraint(
        rebuilt(entries[i].constraint, constant: constants[i], strength: strengths[i]))
    }
    for (k, v) in system.edits.enumerated() where editActive[k] {
      try fresh.addEditVariable(v, strength: .strong)
      try fresh.suggestValue(v, suggestions[k])
    }
    return fresh
  }

  /// The values of a fresh solve of the model.
  func freshValues() throws(SolverError) -> [Double] {
    let fresh = try freshSolver()
    fresh.updateVariables()
    return system.variables.map { fresh.value(of: $0) }
  }

  /// A required constraint of the model that the current values break, described.
  func violatedRequired(tolerance: Double = 1e-6) -> String? {
    solver.updateVariables()
    for i in entries.indices where active[i] && strengths[i].isRequired {
      let c = entries[i].constraint
      if !holds(c, constant: constants[i], in: solver, tolerance: tolerance) {
        let value = evaluate(Expression(c.expression.terms, constant: constants[i]), in: solver)
        return "required entry \(i) (\(c), constant \(constants[i])) is at \(value)"
      }
    }
    return nil
  }

  /// Where the solver's answers differ from the model, described.
  func modelMismatch() -> String? {
    for (i, entry) in entries.enumerated() {
      let c = entry.constraint
      if solver.hasConstraint(c) != active[i] { return "hasConstraint of entry \(i)" }
      guard active[i] else { continue }
      if solver.constant(of: c) != constants[i] { return "constant(of:) of entry \(i)" }
      if solver.strength(of: c) != strengths[i] { return "strength(of:) of entry \(i)" }
    }
    for (k, v) in system.edits.enumerated() where solver.hasEditVariable(v) != editActive[k] {
      return "hasEditVariable of edit \(k)"
    }
    if solver.constraintCount != active.filter({ $0 }).count { return "constraintCount" }
    return nil
  }

  // MARK: - Operations that must succeed

  /// A constant for entry `i` that keeps the witness feasible if the entry is required.
  /// `nil` for a required equality, whose constant is fixed by the witness.
  func randomConstant(for i: Int) -> Double? {
    guard strengths[i].isRequired else { return constants[i] + rng.double(-80...80) }
    let w = entries[i].atWitness
    switch entries[i].constraint.relation {
    case .equal: return nil
    case .greaterOrEqual: return -w + rng.double(0...40)
    case .lessOrEqual: return -w - rng.double(0...40)
    }
  }

  /// Adds a new entry to the model and the solver.
  @discardableResult
  func addEntry(_ c: Constraint) throws(SolverError) -> Int {
    try solver.addConstraint(c)
    let w = c.expression.terms.reduce(0) {
      $0 + $1.coefficient * system.witness[Int($1.variable.index)]
    }
    entries.append(LayoutSystem.Entry(constraint: c, atWitness: w, isTieBreaker: false))
    active.append(true)
    constants.append(c.expression.constant)
    strengths.append(c.strength)
    return entries.count - 1
  }

  /// One random operation that must succeed on a satisfiable model; returns what it did.
  @discardableResult
  func randomOperation() throws(SolverError) -> String {
    let liveEdits = system.edits.indices.filter { editActive[$0] }
    let removable = entries.indices.filter { active[$0] && !entries[$0].isTieBreaker }
    let inactive = entries.indices.filter { !active[$0] }
    let roll = rng.double(0...1)
    let op: String
    if roll < 0.3, !liveEdits.isEmpty {
      let chosen = liveEdits.filter { _ in rng.chanceOf(0.6) }
      let batch = chosen.isEmpty ? [rng.element(of: liveEdits)!] : chosen
      let values = batch.map {
        LayoutSystem.randomSuggestion(for: system.edits[$0], widths: system.widths, &rng)
      }
      try solver.suggestValues(zip(batch, values).map { (system.edits[$0], $1) })
      for (k, value) in zip(batch, values) { suggestions[k] = value }
      op = "suggest \(zip(batch, values).map { "e\($0)=\($1)" })"
    } else if roll < 0.45, let i = rng.element(of: removable) {
      try solver.removeConstraint(entries[i].constraint)
      active[i] = false
      op = "remove \(i)"
    } else if roll < 0.6, let i = rng.element(of: inactive) {
      try solver.addConstraint(entries[i].constraint)
      active[i] = true
      constants[i] = entries[i].constraint.expression.constant
      strengths[i] = entries[i].constraint.strength
      op = "add \(i)"
    } else if roll < 0.8, let i = rng.element(of: entries.indices.filter { active[$0] }),
      let k = randomConstant(for: i)
    {
      try solver.setConstant(k, of: entries[i].constraint)
      constants[i] = k
      op = "setConstant \(k) of \(i)"
    } else if roll < 0.9, let i = rng.element(of: removable) {
      var s = rng.element(of: [Strength.weak, .medium, .strong, .required])!
      if strengths[i].isRequired && s.isRequired { s = .medium }
      if s.isRequired && !system.holdsAtWitness(entries[i], constant: constants[i]) { s = .strong }
      try solver.setStrength(s, of: entries[i].constraint)
      strengths[i] = s
      op = "setStrength \(s) of \(i)"
    } else if let k = rng.element(of: system.edits.indices) {
      let v = system.edits[k]
      if editActive[k] {
        try solver.removeEditVariable(v)
        op = "removeEdit \(k)"
      } else {
        try solver.addEditVariable(v, strength: .strong)
        suggestions[k] = 0
        op = "addEdit \(k)"
      }
      editActive[k].toggle()
    } else {
      op = "nothing"
    }
    log.append(op)
    return op
  }
}
