import Cassowary
import ConstraintScript
import Foundation
import Testing

/// The reproducers of solver defects (`Fixtures/repro`, from crashes, hangs, wrong refusals
/// and broken required constraints found by fuzzing), replayed in every representation.
///
/// Each must end as its table entry says: solved, or refused at a given line with a given
/// reason. Whatever it prints must satisfy every required constraint in force at that
/// `print`, judged by the script's own text, not by the solver.
@Suite struct ReproducerTests {
  enum Outcome {
    case solves
    case refused(line: Int, reason: String)
  }

  /// What each reproducer must do, worked out from the script, not from the solver.
  static let expected: [String: Outcome] = [
    // A coefficient of 1e9 is beyond the solver's precision (values came out breaking the
    // required x >= 0): refused where it appears.
    "broken-required-1": .refused(
      line: 3, reason: "coefficient 1000000000 is out of the solver's range"),
    // The 1e4 and 1e-3 coefficients here once left line 4 off by 0.89 (canonical, kiwi's
    // 1e-8 cell threshold) and line 8 off by 9e-5 (lazy); the check at read-out now
    // rebuilds the tableau until every required constraint holds.
    "broken-required-2": .solves,
    // A constant of -1e308 is beyond the solver's precision: refused where it appears.
    "crash-remove-1": .refused(line: 2, reason: "value 1e+308 is out of the solver's range"),
    // `2e8 * x == 2` put the marker's cell (5e-9) under the zero threshold: refused.
    "crash-remove-2": .refused(
      line: 1, reason: "coefficient 200000000 is out of the solver's range"),
    "hang-1": .solves,
    // Satisfiable (canonical and kiwi solve it); the lazy tableau once refused line 103.
    "solver-refusal-1": .solves,
    // A coefficient of 1e-9 was silently treated as zero: refused.
    "tiny-coefficient-dropped": .refused(
      line: 2, reason: "coefficient -1e-09 is out of the solver's range"),
    "large-suggestion-small-result": .solves,
    // x >= 1, y >= 1 and x + y <= 1 cannot hold together.
    "conflict-named": .refused(
      line: 7, reason: "unsatisfiable required constraint (conflicts with lines 3, 6)"),
  ]

  /// Values fixed by the required constraints alone.
  static let pinned: [String: [String: Double]] = [
    "large-suggestion-small-result": ["x": -1, "y": 1]
  ]

  /// Reproducers whose defect is not fixed yet, with the representations where it shows:
  /// their broken constraints are recorded as a known issue (the test then fails if they
  /// stop being broken, and the entry must go).
  static let knownBroken: [String: Set<Solver.Representation>] = [:]

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/repro")

  static var names: [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".cass") }.map { String($0.dropLast(5)) }.sorted()
  }

  @Test func everyReproducerHasAnExpectedOutcome() {
    #expect(Set(Self.names) == Set(Self.expected.keys))
  }

  @Test(arguments: names)
  func reproducerEndsAsExpected(_ name: String) throws {
    let url = Self.directory.appendingPathComponent(name + ".cass")
    let text = try String(contentsOf: url, encoding: .utf8)
    let script = try Script(parsing: text, file: name)
    let outcome = try #require(Self.expected[name])
    for representation in [Solver.Representation.adaptive, .lazy, .canonical] {
      var runner = ScriptRunner(file: name, representation: representation)
      var blocks: [(line: Int, block: ScriptRunner.Block)] = []
      var printLines = script.statements.filter {
        if case .print = $0.kind { true } else { false }
      }.map(\.line)
      if printLines.isEmpty { printLines = [script.statements.last?.line ?? 1] }
      var failure: ScriptError?
      do {
        try runner.run(script) { blocks.append((printLines[blocks.count], $0)) }
      } catch {
        failure = error
      }
      switch outcome {
      case .solves:
        #expect(failure == nil, "\(name) (\(representation)): \(failure.map(\.description) ?? "")")
      case .refused(let line, let reason):
        #expect(failure?.line == line, "\(name) (\(representation))")
        #expect(
          failure?.reason.hasPrefix(reason) == true,
          "\(name) (\(representation)): \(failure?.reason ?? "no error")")
      }
      for (line, block) in blocks {
        let values = Dictionary(block.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        let problems = Self.brokenRequired(script, before: line, values: values)
        if Self.knownBroken[name]?.contains(representation) == true {
          withKnownIssue("\(name): a required constraint is broken (issue 11)") {
            #expect(problems.isEmpty, "\(problems)")
          }
        } else {
          for problem in problems {
            Issue.record("\(name) (\(representation)), print on line \(line): \(problem)")
          }
        }
        for (variable, value) in Self.pinned[name] ?? [:] {
          let got = try #require(values[variable])
          #expect(
            abs(got - value) <= 1e-9 * max(1, abs(value)),
            "\(name) (\(representation)): \(variable) = \(got), expected \(value)")
        }
      }
    }
  }

  /// The required constraints added before `line` (and not removed) that `values` break by
  /// more than 1e-9 of the magnitudes of their terms.
  static func brokenRequired(
    _ script: Script, before line: Int, values: [String: Double]
  ) -> [String] {
    var active: [(line: Int, label: String?, form: LinearForm, relation: Relation)] = []
    for statement in script.statements where statement.line < line {
      switch statement.kind {
      case .constraint(let label, let form, let relation, let strength, _) where strength.isRequired:
        active.append((statement.line, label, form, relation))
      case .remove(let label):
        active.removeAll { $0.label == label }
      default:
        break
      }
    }
    var problems: [String] = []
    for c in active {
      var residual = c.form.constant
      var magnitude = abs(c.form.constant)
      for (name, coefficient) in zip(c.form.names, c.form.coefficients) {
        let term = coefficient * (values[name] ?? 0)
        residual += term
        magnitude += abs(term)
      }
      let tolerance = 1e-9 * magnitude + 1e-9
      let broken =
        switch c.relation {
        case .equal: abs(residual) > tolerance
        case .lessOrEqual: residual > tolerance
        case .greaterOrEqual: residual < -tolerance
        }
      if broken { problems.append("required constraint on line \(c.line) misses by \(residual)") }
    }
    return problems
  }
}
