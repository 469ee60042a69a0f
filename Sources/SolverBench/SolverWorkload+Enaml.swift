import Cassowary
import ConstraintScript

// kiwi's enaml benchmark system (benchmarks/enaml_like_benchmark.cpp in nucleic/kiwi) lives in
// `enaml.cass`, a constraint script that Scripts/kiwi_bench.py reads too, so that both solvers
// get the system from one copy. SwiftPM embeds the file in the module as
// `PackageResources.enaml_cass`: no file is looked up at run time.

/// A system read from a constraint script: what a workload builds and what its ticks suggest.
package struct ScriptedSystem: Sendable {
  /// Variable names in creation order: the order of first mention in the script.
  package var variables: [String] = []
  /// The edit variables, in the order they are added.
  package var edits: [(name: String, strength: Strength)] = []
  /// The constraints the script adds and never removes, in order (`shortfall`: a split
  /// equality's second weight, `@excess/shortfall`).
  package var constraints:
    [(form: LinearForm, relation: Relation, strength: Strength, shortfall: Strength?)] = []
  /// The values each tick suggests: the `suggest` statements before each `print`.
  package var ticks: [[(name: String, value: Double)]] = []
  /// Each constraint's non-zero terms with their variables as positions in ``variables``:
  /// a build then creates the variables in an array and reads them by position, as kiwi's
  /// benchmark holds its variables in locals. (Looked up by name in a dictionary, the
  /// strings were hashed and compared again at every build, 6% of its instructions, work
  /// that kiwi's benchmark does not do.)
  package var terms: [[(variable: Int, coefficient: Double)]] = []

  /// Reads the statements of `script`. Labelled constraints that a `remove` takes back are
  /// left out: they are how a script fixes the variable order before anything else.
  package init(_ script: Script) {
    var seen: Set<String> = []
    var removed: Set<String> = []
    var pending: [(name: String, value: Double)] = []
    for statement in script.statements {
      for name in statement.mentioned where seen.insert(name).inserted { variables.append(name) }
      if case .remove(let label) = statement.kind { removed.insert(label) }
    }
    for statement in script.statements {
      switch statement.kind {
      case .constraint(let label, let form, let relation, let strength, let shortfall):
        if let label, removed.contains(label) { continue }
        constraints.append((form, relation, strength, shortfall))
      case .edit(let name, let strength): edits.append((name, strength))
      case .suggest(let name, let value): pending.append((name, value))
      case .print:
        ticks.append(pending)
        pending = []
      case .remove: break
      }
    }
    var position: [String: Int] = [:]
    for (i, name) in variables.enumerated() { position[name] = i }
    terms = constraints.map { constraint in
      zip(constraint.form.names, constraint.form.coefficients).compactMap { name, c in
        c == 0 ? nil : (position[name]!, c)
      }
    }
  }
}

extension ScriptedSystem {
  /// Where `name` is in ``variables`` (a precondition: the script mentions it).
  package func position(of name: String) -> Int {
    guard let i = variables.firstIndex(of: name) else {
      preconditionFailure("enaml.cass: no variable \(name)")
    }
    return i
  }
}

extension SolverWorkload {
  /// The enaml system, read once, so that building it does not time the parser.
  package static let enamlSystem: ScriptedSystem = {
    do {
      return ScriptedSystem(try Script(parsing: PackageResources.enaml_cass, file: "enaml.cass"))
    } catch {
      preconditionFailure("enaml.cass: \(error)")
    }
  }()

  /// The window sizes the ticks cycle through, as suggested to `width` and `height`.
  static let enamlSizes: [(Double, Double)] = enamlSystem.ticks.map { tick in
    precondition(tick.map(\.name) == ["width", "height"], "enaml.cass: a tick is a window size")
    return (tick[0].value, tick[1].value)
  }

  /// The positions in ``ScriptedSystem/variables`` of the edit variables and of the two
  /// the ticks suggest, found once.
  static let enamlPositions = (
    edits: enamlSystem.edits.map { enamlSystem.position(of: $0.name) },
    width: enamlSystem.position(of: "width"), height: enamlSystem.position(of: "height")
  )

  // Not inlined: instruction counts of a build toggle on this function
  // (`Scripts/callgrind-build.sh --enaml`).
  @inline(never)
  static func enaml(_ representation: Solver.Representation) -> SolverSystem {
    let sizes = enamlSizes
    let positions = enamlPositions
    let s = Solver(representation: representation)
    let variables = addEnaml(to: s)
    let width = variables[positions.width]
    let height = variables[positions.height]
    return SolverSystem(solver: s) { t in
      let (w, h) = sizes[t % sizes.count]
      try! s.suggestValue(width, w)
      try! s.suggestValue(height, h)
    }
  }

  /// Makes the enaml system's variables in `s` and adds its edit variables and constraints,
  /// in kiwi's order; returns the variables in the script's order.
  package static func addEnaml(to s: Solver) -> [Variable] {
    let system = enamlSystem
    let positions = enamlPositions
    var variables: [Variable] = []
    variables.reserveCapacity(system.variables.count)
    for name in system.variables { variables.append(s.makeVariable(name)) }
    // As kiwi's benchmark: the two strong edit variables, and no suggestion before the
    // constraints.
    for (edit, position) in zip(system.edits, positions.edits) {
      try! s.addEditVariable(variables[position], strength: edit.strength)
    }
    for ((form, relation, strength, shortfall), terms) in zip(system.constraints, system.terms) {
      var expression = Expression(constant: form.constant)
      expression.terms.reserveCapacity(terms.count)
      for (v, c) in terms { expression.terms.append(Term(variables[v], c)) }
      let constraint =
        if let shortfall {
          Constraint(expression, equalWithExcess: strength, shortfall: shortfall)
        } else {
          Constraint(expression, relation, strength: strength)
        }
      try! s.addConstraint(constraint)
    }
    return variables
  }
}
