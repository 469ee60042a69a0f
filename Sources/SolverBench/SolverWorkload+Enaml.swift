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

  static func enaml(_ representation: Solver.Representation) -> SolverSystem {
    let system = enamlSystem
    let sizes = enamlSizes
    let s = Solver(representation: representation)
    var variables: [String: Variable] = [:]
    for name in system.variables { variables[name] = s.makeVariable(name) }
    // As kiwi's benchmark: the two strong edit variables, and no suggestion before the
    // constraints.
    for (name, strength) in system.edits {
      try! s.addEditVariable(variables[name]!, strength: strength)
    }
    for (form, relation, strength, shortfall) in system.constraints {
      var expression = Expression(constant: form.constant)
      for (name, c) in zip(form.names, form.coefficients) where c != 0 {
        expression.terms.append(Term(variables[name]!, c))
      }
      let constraint =
        if let shortfall {
          Constraint(expression, equalWithExcess: strength, shortfall: shortfall)
        } else {
          Constraint(expression, relation, strength: strength)
        }
      try! s.addConstraint(constraint)
    }
    let width = variables["width"]!
    let height = variables["height"]!
    return SolverSystem(solver: s) { t in
      let (w, h) = sizes[t % sizes.count]
      try! s.suggestValue(width, w)
      try! s.suggestValue(height, h)
    }
  }
}
