import Cassowary

// A case as a constraint script for `layout-bench solve` (the format the README documents), so that
// a failure found here can be replayed, bisected and kept as a regression file without this
// module.

/// A number as a script writes it: integers without a decimal point, anything else in
/// Swift's shortest form that reads back to the same `Double` (the script parser accepts
/// exponents such as `1e-05`).
package func format(_ value: Double) -> String {
  if value == 0 { return "0" }
  if abs(value) < 1e15 && value == Double(Int64(value)) { return String(Int64(value)) }
  return value.description
}

/// A strength as a script writes it after `@`: a level's name, else the raw number.
package func format(_ strength: Strength) -> String {
  switch strength {
  case .required: "required"
  case .strong: "strong"
  case .medium: "medium"
  case .weak: "weak"
  default: format(strength.value)
  }
}

extension FuzzCase {
  /// `label: a * u + v >= k @strength`: the terms on the left, the constant moved to the
  /// right (negating is exact, so the script's constraint is the same to the bit). Required
  /// is the script's default and is left out.
  package func scriptLine(
    _ c: Int, constant: Double, strength: Strength, shortfall: Strength? = nil
  ) -> String {
    let constraint = constraints[c]
    var text = termsText(constraint.terms)
    text = "\(constraint.label): \(text) \(constraint.relation.rawValue) \(format(-constant))"
    if let shortfall { return "\(text) @\(format(strength))/\(format(shortfall))" }
    return strength.isRequired ? text : "\(text) @\(format(strength))"
  }

  /// `probe: terms relation k` for a probe at `constant` (as ``scriptLine(_:constant:strength:shortfall:)``,
  /// labelled `probe`).
  package func probeLine(_ probe: FuzzProbe, constant: Double) -> String {
    "probe: \(termsText(probe.terms)) \(probe.relation.rawValue) \(format(-constant))"
  }

  /// `a * u + v - w`, or `0` without terms.
  func termsText(_ terms: [FuzzTerm]) -> String {
    var text = ""
    for term in terms {
      let name = variableNames[term.variable]
      let magnitude = abs(term.coefficient)
      let factor = magnitude == 1 ? name : "\(format(magnitude)) * \(name)"
      if text.isEmpty {
        text = term.coefficient < 0 ? "-\(factor)" : factor
      } else {
        text += term.coefficient < 0 ? " - \(factor)" : " + \(factor)"
      }
    }
    return text.isEmpty ? "0" : text
  }

  /// The case as a script, up to and including operation `last` (all of it by default).
  ///
  /// The operations the format cannot say are written as equivalents: a constant or
  /// strength change as `remove` and a re-add of the changed constraint, and an edit
  /// variable that is later removed as a labelled constraint `name == value @strength`,
  /// removed and re-added at each suggestion (the optimum is the same; the solver's edit
  /// path is not exercised for that variable).
  package func script(through last: Int? = nil, header: [String] = []) -> String {
    let end = min(last ?? operations.count - 1, operations.count - 1)
    var lines = header.map { "# \($0)" }
    lines.append(
      "# seed \(seed): \(boxCount) boxes\(vertical ? " (x and y)" : ""), "
        + "\(constraints.count) constraints, operations 0...\(end) of \(operations.count)")
    var model = FuzzModel(self)
    let emulated = editsRemovedLater(through: end)
    // The label of each emulated edit variable while it is in.
    var editLabels: [Int: String] = [:]
    func editLine(_ label: String, _ v: Int, _ value: Double, _ strength: Strength) -> String {
      "\(label): \(variableNames[v]) == \(format(value)) @\(format(strength))"
    }
    for (index, operation) in operations.prefix(end + 1).enumerated() {
      var block: [String] = []
      var note = ""
      model.apply(operation)
      switch operation {
      case .add(let c):
        block.append(model.scriptLine(c))
        note = ": \(constraints[c].role.rawValue) \(constraints[c].note)"
      case .remove(let c):
        block.append("remove \(constraints[c].label)")
      case .setConstant(let c, _), .setStrength(let c, _, _):
        block += ["remove \(constraints[c].label)", model.scriptLine(c)]
      case .setConstants(let changes):
        for change in changes.map(\.constraint) {
          block += ["remove \(constraints[change].label)", model.scriptLine(change)]
        }
      case .addEdit(let v, let strength):
        if emulated.contains(index) {
          let label = "e\(index)"
          editLabels[v] = label
          block.append(editLine(label, v, 0, strength))
        } else {
          block.append("edit \(variableNames[v]) @\(format(strength))")
        }
      case .removeEdit(let v):
        if let label = editLabels.removeValue(forKey: v) { block.append("remove \(label)") }
      case .suggest(let suggestions):
        for s in suggestions {
          if let label = editLabels[s.variable],
            let edit = model.edits.first(where: { $0.variable == s.variable })
          {
            block += ["remove \(label)", editLine(label, s.variable, s.value, edit.strength)]
          } else {
            block.append("suggest \(variableNames[s.variable]) \(format(s.value))")
          }
        }
      case .checkpoint:
        block.append("print")
      case .probe(let probe) where index == end:
        // The failing operation: the solver calls it makes (a refusal ends the script with
        // an error, which is what a sound solver does here).
        block.append("# \(model.describe(probe))")
        if probe.route != .add {
          block += [probeLine(probe, constant: probe.feasibleConstant), "remove probe"]
        }
        block += [probeLine(probe, constant: probe.infeasibleConstant), "print"]
      case .probe(let probe):
        // Refused as it must be: the solver is as before, and a script cannot go on after a
        // refusal, so the probe stays a comment.
        block.append("# refused: \(model.describe(probe))")
      }
      if !block.isEmpty { block[0] += "  # op \(index)\(note)" }
      lines += block
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Whether the script up to operation `last` makes the very same solver calls as the
  /// oracle (no in-place change, batch of suggestions or removed edit variable before it),
  /// so that it reproduces a failure to the bit rather than an equivalent system.
  public func scriptIsExact(through last: Int) -> Bool {
    operations.prefix(last + 1).allSatisfy { operation in
      switch operation {
      case .setConstant, .setConstants, .setStrength, .removeEdit, .probe: false
      case .suggest(let list): list.count == 1
      default: true
      }
    }
  }

  /// The variables in order of first mention by the operations, then the unmentioned ones:
  /// the order in which a script creates them. A solver's pivots depend on that order, so
  /// the oracle creates its variables in it too, and a dumped script replays the very
  /// same solver calls (except a batch of suggestions, which a script makes one by one,
  /// and the changes it writes as remove and re-add).
  package func variablesInScriptOrder() -> [Int] {
    var seen = Array(repeating: false, count: variableNames.count)
    var order: [Int] = []
    func mention(_ v: Int) {
      if !seen[v] {
        seen[v] = true
        order.append(v)
      }
    }
    for operation in operations {
      switch operation {
      case .add(let c), .setConstant(let c, _), .setStrength(let c, _, _):
        constraints[c].terms.forEach { mention($0.variable) }
      case .setConstants(let changes):
        for change in changes {
          constraints[change.constraint].terms.forEach { mention($0.variable) }
        }
      case .addEdit(let v, _), .removeEdit(let v):
        mention(v)
      case .suggest(let suggestions):
        suggestions.forEach { mention($0.variable) }
      case .probe(let probe):
        probe.terms.forEach { mention($0.variable) }
      case .remove, .checkpoint:
        break
      }
    }
    return order + variableNames.indices.filter { !seen[$0] }
  }

  /// The indices of the `addEdit` operations whose variable is removed again by `last`.
  private func editsRemovedLater(through last: Int) -> Set<Int> {
    var open: [Int: Int] = [:]
    var result: Set<Int> = []
    for (index, operation) in operations.prefix(last + 1).enumerated() {
      switch operation {
      case .addEdit(let v, _): open[v] = index
      case .removeEdit(let v): if let start = open.removeValue(forKey: v) { result.insert(start) }
      default: break
      }
    }
    return result
  }
}
