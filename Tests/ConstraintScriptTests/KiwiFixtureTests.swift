import ConstraintScript
import Foundation
import Testing

/// Runs every `Fixtures/kiwi/*.cass` and compares the printed blocks with the `.expected`
/// file next to it: kiwisolver's output for the same script (`Scripts/kiwi-crosscheck.sh
/// generate`), or a hand-derived one for the `hand-*` fixtures.
///
/// `Package.swift` excludes `Fixtures` from the target's sources, so the files are found
/// through `#filePath` and read at run time.
@Suite("Kiwi fixtures")
struct KiwiFixtureTests {
  typealias Block = [(name: String, value: Double)]

  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("Fixtures")
    .appendingPathComponent("kiwi")

  /// The fixture names (without `.cass`), sorted. Throws when the directory cannot be read.
  static func fixtureNames() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".cass") }
      .map { String($0.dropLast(".cass".count)) }
      .sorted()
  }

  struct MalformedExpected: Error, CustomStringConvertible {
    var description: String
  }

  /// Reads `name = value` blocks separated by `---` lines; blank lines are ignored.
  static func parseExpected(_ text: String) throws -> [Block] {
    var blocks: [Block] = []
    var current: Block = []
    // `\r\n` is a single Character, so split on newlines rather than on "\n".
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    for (index, raw) in lines.enumerated() {
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty { continue }
      if line == "---" {
        blocks.append(current)
        current = []
        continue
      }
      let parts = line.components(separatedBy: " = ")
      guard parts.count == 2, !parts[0].isEmpty, let value = Double(parts[1]), !value.isNaN else {
        throw MalformedExpected(description: "line \(index + 1) is not `name = number`: \(line)")
      }
      current.append((parts[0], value))
    }
    blocks.append(current)
    return blocks
  }

  /// Within 1e-6: absolute for |expected| <= 1e3, relative above.
  static func isClose(_ actual: Double, _ expected: Double) -> Bool {
    if actual == expected { return true }
    let tolerance = abs(expected) > 1e3 ? 1e-6 * abs(expected) : 1e-6
    return abs(actual - expected) <= tolerance
  }

  /// A description of the first difference between two outputs, or nil when they agree.
  static func firstDifference(expected: [Block], actual: [Block]) -> String? {
    guard expected.count == actual.count else {
      return "expected \(expected.count) print block(s), got \(actual.count)"
    }
    for (number, (want, got)) in zip(expected, actual).enumerated() {
      let block = "block \(number + 1)"
      for (i, (w, g)) in zip(want, got).enumerated() where w.name != g.name {
        return "\(block), variable #\(i + 1): expected \(w.name), got \(g.name)"
      }
      guard want.count == got.count else {
        let extra =
          want.count > got.count
          ? "missing \(want[got.count].name)" : "unexpected \(got[want.count].name)"
        return "\(block): expected \(want.count) variables, got \(got.count) (\(extra))"
      }
      for (w, g) in zip(want, got) where !isClose(g.value, w.value) {
        return "\(block): \(w.name) = \(formatValue(g.value)), expected \(formatValue(w.value))"
      }
    }
    return nil
  }

  // MARK: - The fixtures

  @Test func fixturesArePresentAndPaired() throws {
    let names = try Self.fixtureNames()
    #expect(!names.isEmpty, "no .cass fixtures in \(Self.directory.path)")
    for name in names {
      let expected = Self.directory.appendingPathComponent(name + ".expected").path
      #expect(FileManager.default.fileExists(atPath: expected), "\(name).cass has no .expected")
    }
  }

  @Test func everyFixtureMatchesKiwi() throws {
    let names = try Self.fixtureNames()
    try #require(!names.isEmpty, "no .cass fixtures in \(Self.directory.path)")
    var failed: [String] = []
    for name in names {
      let cass = Self.directory.appendingPathComponent(name + ".cass")
      let expectedURL = Self.directory.appendingPathComponent(name + ".expected")
      guard let expectedData = try? Data(contentsOf: expectedURL) else { continue }  // see above
      let problem: String?
      do {
        let expected = try Self.parseExpected(String(decoding: expectedData, as: UTF8.self))
        let bytes = Array(try Data(contentsOf: cass))
        let script = try Script(parsing: bytes, file: name + ".cass")
        let actual = try ScriptRunner.run(script, file: name + ".cass")
        problem = Self.firstDifference(expected: expected, actual: actual)
      } catch {
        problem = "\(error)"
      }
      if let problem {
        failed.append(name)
        Issue.record("fixture \(name): \(problem)")
      }
    }
    #expect(
      failed.isEmpty, "\(failed.count) of \(names.count) fixtures differ: \(failed.prefix(20))")
  }

  // MARK: - The comparison itself

  @Test func expectedFilesParse() throws {
    let blocks = try Self.parseExpected("a = 1\nb.c_2 = -0.5\n---\na = 1e+16\r\nb.c_2 = 3\n")
    #expect(blocks.map { $0.map(\.name) } == [["a", "b.c_2"], ["a", "b.c_2"]])
    #expect(blocks.map { $0.map(\.value) } == [[1, -0.5], [1e16, 3]])
    #expect(try Self.parseExpected("").map(\.count) == [0])
    #expect(throws: MalformedExpected.self) { try Self.parseExpected("a = one\n") }
    #expect(throws: MalformedExpected.self) { try Self.parseExpected("a == 1\n") }
    #expect(throws: MalformedExpected.self) { try Self.parseExpected("a = nan\n") }
  }

  @Test func comparisonNamesTheFirstDifference() {
    let base: [Block] = [[("a", 1), ("b", 2)], [("a", 1500), ("b", 2)]]
    #expect(Self.firstDifference(expected: base, actual: base) == nil)
    // Within tolerance: 1e-7 absolute below 1e3, 1e-7 relative above.
    let near: [Block] = [[("a", 1 + 1e-7), ("b", 2)], [("a", 1500 + 1e-4), ("b", 2)]]
    #expect(Self.firstDifference(expected: base, actual: near) == nil)
    let off: [Block] = [[("a", 1), ("b", 2.00001)], [("a", 1500), ("b", 2)]]
    #expect(Self.firstDifference(expected: base, actual: off)?.contains("block 1: b") == true)
    let swapped: [Block] = [[("a", 1), ("b", 2)], [("b", 2), ("a", 1500)]]
    #expect(
      Self.firstDifference(expected: base, actual: swapped)?.contains("expected a, got b") == true)
    let short: [Block] = [[("a", 1)], [("a", 1500), ("b", 2)]]
    #expect(Self.firstDifference(expected: base, actual: short)?.contains("missing b") == true)
    #expect(Self.firstDifference(expected: base, actual: [base[0]])?.contains("2 print") == true)
  }
}
