import Cassowary

/// Runs a ``Script`` on a fresh ``Solver``, producing one block of values per `print`.
public struct ScriptRunner {
  /// One `print`: every variable seen so far with its value, in order of first mention.
  public typealias Block = [(name: String, value: Double)]

  public let solver: Solver
  var variables: [String: Variable] = [:]
  var order: [Variable] = []
  var labels: [String: Constraint] = [:]
  /// The line that added each constraint in the solver, to name a refusal's conflicts.
  var lines: [ObjectIdentifier: Int] = [:]
  var file: String

  public init(file: String, representation: Solver.Representation = .adaptive) {
    self.file = file
    solver = Solver(representation: representation)
  }

  /// Runs every statement, handing each printed block to `emit` as soon as it is ready. A
  /// script without `print` emits the final state once.
  /// - Throws: ``ScriptError`` for the first statement that fails; blocks emitted before it
  ///   stay emitted, nothing is emitted for it.
  public mutating func run(_ script: Script, emit: (Block) -> Void) throws(ScriptError) {
    var printed = false
    for statement in script.statements {
      do {
        try execute(statement, emit: emit)
      } catch {
        throw ScriptError(file: file, line: statement.line, reason: error.reason)
      }
      if case .print = statement.kind { printed = true }
    }
    if !printed {
      do {
        emit(try finiteBlock())
      } catch {
        throw ScriptError(file: file, line: script.statements.last?.line ?? 1, reason: error.reason)
      }
    }
  }

  /// Runs a whole script and returns its blocks.
  public static func run(
    _ script: Script, file: String, representation: Solver.Representation = .adaptive
  ) throws(ScriptError) -> [Block] {
    var runner = ScriptRunner(file: file, representation: representation)
    var blocks: [Block] = []
    try runner.run(script) { blocks.append($0) }
    return blocks
  }

  mutating func execute(_ statement: Statement, emit: (Block) -> Void) throws(LineError) {
    for name in statement.mentioned { _ = variable(name) }
    switch statement.kind {
    case .constraint(let label, let form, let relation, let strength, let shortfall):
      if let label, labels[label] != nil { throw LineError(reason: "duplicate label \(label)") }
      var expression = Expression(constant: form.constant)
      for (name, c) in zip(form.names, form.coefficients) where c != 0 {
        expression.terms.append(Term(variable(name), c))
      }
      let constraint =
        if let shortfall {
          Constraint(expression, equalWithExcess: strength, shortfall: shortfall)
        } else {
          Constraint(expression, relation, strength: strength)
        }
      try solve { () throws(SolverError) in try solver.addConstraint(constraint) }
      if let label { labels[label] = constraint }
      lines[ObjectIdentifier(constraint)] = statement.line
    case .edit(let name, let strength):
      try solve { () throws(SolverError) in
        try solver.addEditVariable(variable(name), strength: strength)
      }
    case .suggest(let name, let value):
      try solve { () throws(SolverError) in try solver.suggestValue(variable(name), value) }
    case .remove(let label):
      guard let constraint = labels.removeValue(forKey: label) else {
        throw LineError(reason: "unknown label \(label)")
      }
      try solve { () throws(SolverError) in try solver.removeConstraint(constraint) }
      lines[ObjectIdentifier(constraint)] = nil
    case .print:
      emit(try finiteBlock())
    }
  }

  /// The current block, or an error naming the first variable whose value overflowed.
  func finiteBlock() throws(LineError) -> Block {
    let values = block()
    if let bad = values.first(where: { !$0.value.isFinite }) {
      throw LineError(reason: "the value of \(bad.name) overflows to infinity")
    }
    return values
  }

  mutating func variable(_ name: String) -> Variable {
    if let v = variables[name] { return v }
    let v = solver.makeVariable(name)
    variables[name] = v
    order.append(v)
    return v
  }

  func block() -> Block {
    solver.updateVariables()
    return order.map { (solver.name(of: $0), solver.value(of: $0)) }
  }

  /// Runs a solver call, phrasing its error for a script reader.
  func solve(_ body: () throws(SolverError) -> Void) throws(LineError) {
    do {
      try body()
    } catch {
      let reason: String
      switch error {
      case .unsatisfiableConstraint:
        let conflicts = solver.conflictingConstraints.compactMap { lines[ObjectIdentifier($0)] }
        reason =
          conflicts.isEmpty
          ? "unsatisfiable required constraint"
          : "unsatisfiable required constraint (conflicts with line"
            + (conflicts.count == 1 ? " " : "s ")
            + conflicts.sorted().map(String.init).joined(separator: ", ") + ")"
      case .duplicateConstraint: reason = "duplicate constraint"
      case .unknownConstraint: reason = "unknown constraint"
      case .duplicateEditVariable(let v): reason = "duplicate edit variable \(solver.name(of: v))"
      case .unknownEditVariable(let v): reason = "\(solver.name(of: v)) is not an edit variable"
      case .requiredEditStrength(let v):
        reason = "edit variable \(solver.name(of: v)) cannot have required strength"
      case .requiredSplitStrength:
        reason = "only a non-required equality can weigh an excess and a shortfall apart"
      case .nonFiniteConstraint: reason = "non-finite coefficient or constant"
      case .nonFiniteValue(let x): reason = "non-finite value \(x)"
      case .coefficientOutOfRange(_, let x):
        reason =
          "coefficient \(formatValue(x)) is out of the solver's range"
          + " (non-zero magnitudes \(Limits.text(Limits.smallestCoefficient)) to"
          + " \(Limits.text(Limits.largestCoefficient)))"
      case .constantOutOfRange(_, let x), .valueOutOfRange(let x):
        reason =
          "value \(formatValue(x)) is out of the solver's range"
          + " (magnitudes up to \(Limits.text(Limits.largestConstant)))"
      case .unknownVariable: reason = "unknown variable"
      }
      throw LineError(reason: reason)
    }
  }
}

/// Formats a value the way `print` does: integers without a decimal point (and no `-0`),
/// anything else in the shortest form that reads back to the same `Double`.
public func formatValue(_ value: Double) -> String {
  if value == 0 { return "0" }
  if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
  return value.description
}
