import Cassowary

// What the oracle computes from a set of values and the model: which required constraint
// they break, and the weighted error they leave. Given values rather than a solver, so the
// tests can hand it a deliberately wrong answer.

extension FuzzModel {
  /// The first problem with `values` as a solution of the active required constraints:
  /// a non-finite value or a required constraint broken beyond ``FuzzTolerance/required``.
  package func requiredProblem(_ values: [Double]) -> String? {
    if let v = values.indices.first(where: { !values[$0].isFinite }) {
      return "\(fuzzCase.variableNames[v]) = \(values[v]) is not finite"
    }
    for c in fuzzCase.constraints.indices where isActive(c) && strengths[c].isRequired {
      let constraint = fuzzCase.constraints[c]
      let violation = constraint.violation(values, constant: constants[c])
      let allowed = FuzzTolerance.roundOff(constraint.scale(values, constant: constants[c]))
      if violation > allowed {
        return "required constraint \(describe(c)) is broken by \(violation) "
          + "(allowed \(allowed)) at \(variablesText(c, values))"
      }
    }
    return nil
  }

  /// The sum over active non-required constraints of strength times violation, plus each
  /// edit variable's strength times its distance from the last suggestion; a violation
  /// within round-off (see ``FuzzTolerance/roundOff(_:)``) counts as none.
  package func weightedError(_ values: [Double]) -> Double {
    errorTerms(values).reduce(0) { $0 + $1.error }
  }

  /// The weighted error term by term: constraints by index, then edit variables (as
  /// `-1 - variable`), so that two solutions can be compared term by term.
  package func errorTerms(_ values: [Double]) -> [(key: Int, error: Double)] {
    var terms: [(key: Int, error: Double)] = []
    for c in fuzzCase.constraints.indices where isActive(c) && !strengths[c].isRequired {
      let constraint = fuzzCase.constraints[c]
      let noise = FuzzTolerance.roundOff(constraint.scale(values, constant: constants[c]))
      terms.append(
        (
          c,
          constraint.weightedViolation(
            values, constant: constants[c], strength: strengths[c], shortfall: shortfalls[c],
            noise: noise)
        ))
    }
    for edit in edits {
      let value = values[edit.variable]
      let noise = FuzzTolerance.roundOff(abs(value) + abs(edit.suggestion))
      let miss = abs(value - edit.suggestion)
      terms.append((-1 - edit.variable, miss > noise ? edit.strength.value * miss : 0))
    }
    return terms
  }

  /// The terms of two solutions that differ most, for a message.
  package func largestDifferences(_ a: [Double], _ b: [Double], count: Int = 3) -> String {
    let differences = zip(errorTerms(a), errorTerms(b)).map { ($0.key, $0.error, $1.error) }
      .sorted { abs($0.1 - $0.2) > abs($1.1 - $1.2) }
      .prefix(count)
    return differences.map { key, first, second in
      let what: String
      if key >= 0 {
        what = "\(describe(key)) at \(variablesText(key, a)) vs \(variablesText(key, b))"
      } else {
        let v = -1 - key
        let edit = edits.first { $0.variable == v }
        what =
          "edit \(fuzzCase.variableNames[v]) @\(format(edit?.strength ?? .weak)) "
          + "suggested \(format(edit?.suggestion ?? 0)), \(a[v]) vs \(b[v])"
      }
      return "\(what): error \(first) vs \(second)"
    }.joined(separator: "; ")
  }

  /// `b5.x = 3, b2.x = 0`: the values of a constraint's variables.
  package func variablesText(_ c: Int, _ values: [Double]) -> String {
    fuzzCase.constraints[c].terms.map {
      "\(fuzzCase.variableNames[$0.variable]) = \(format(values[$0.variable]))"
    }.joined(separator: ", ")
  }
}
