import ConstraintScript
import Testing

/// Every way a script can go wrong: a ``ScriptError`` with the file, the line and a readable
/// reason, never a crash. A crash here would take the whole test process down, so each case
/// running to its `#expect` is itself the "never crashes" check.
@Suite("Script errors")
struct ScriptErrorTests {
  /// A bad script, the line its error must point at and a fragment of the reason.
  struct Bad: Sendable, CustomTestStringConvertible {
    var text: String
    var line: Int
    var reason: String

    init(_ text: String, line: Int = 1, _ reason: String) {
      self.text = text
      self.line = line
      self.reason = reason
    }

    var testDescription: String { text.debugDescription }
  }

  static let file = "scripts/bad one.cass"

  /// Parses and runs `bytes`; returns the error, or nil when the script succeeded.
  static func failure(_ bytes: [UInt8]) -> ScriptError? {
    do {
      let script = try Script(parsing: bytes, file: file)
      _ = try ScriptRunner.run(script, file: file)
      return nil
    } catch {
      return error
    }
  }

  /// Checks the error of a case: file, line, reason, and that the reason reads as a message
  /// (one line, not a dump of a Swift value).
  func check(
    _ bad: Bad, bytes: [UInt8]? = nil, parseOnly: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let input = bytes ?? Array(bad.text.utf8)
    let error: ScriptError
    if parseOnly {
      // Syntax errors must be found by the parser, before anything runs or prints.
      let thrown = #expect(throws: ScriptError.self, sourceLocation: sourceLocation) {
        _ = try Script(parsing: input, file: Self.file)
      }
      error = try #require(thrown, sourceLocation: sourceLocation)
    } else {
      error = try #require(
        Self.failure(input), "\(bad.text.debugDescription) should fail",
        sourceLocation: sourceLocation)
    }
    #expect(error.file == Self.file, sourceLocation: sourceLocation)
    #expect(error.line == bad.line, "reason: \(error.reason)", sourceLocation: sourceLocation)
    #expect(
      error.reason.contains(bad.reason), "reason was \(error.reason.debugDescription)",
      sourceLocation: sourceLocation)
    #expect(!error.reason.isEmpty && !error.reason.contains("\n"), sourceLocation: sourceLocation)
    for debris in ["Error(", "Optional(", "Token.", "Symbol(", "LineError"] {
      #expect(!error.reason.contains(debris), "\(error.reason)", sourceLocation: sourceLocation)
    }
    #expect(
      error.description == "\(Self.file):\(bad.line): \(error.reason)",
      sourceLocation: sourceLocation)
  }

  // MARK: - Syntax

  static let syntax: [Bad] = [
    Bad("x == 1\ny == 2 3\n", line: 2, "unexpected token '3'"),
    Bad("* x == 2", "unexpected token '*'"),
    Bad("x * == 2", "unexpected token '=='"),
    Bad("x 1 == 2", "unexpected token '1'"),
    Bad("x == y z", "unexpected token 'z'"),
    Bad("x == 2x", "unexpected token 'x'"),
    Bad("x == 3 == 4", "unexpected token '=='"),
    Bad("x == 1 weak", "unexpected token 'weak'"),
    Bad("x == 1 @weak @strong", "unexpected token '@'"),
    // Two weights only for a non-required equality.
    Bad("x <= 1 @weak/strong", "only a non-required equality can weigh"),
    Bad("x == 1 @required/weak", "only a non-required equality can weigh"),
    Bad("x == 1 @weak/required", "only a non-required equality can weigh"),
    Bad("x == 1 @weak/", "expected a strength after '/'"),
    Bad("x == 1 @weak/strong/medium", "unexpected token '/'"),
    Bad("x == 1e5e", "unexpected token 'e'"),
    Bad("1.2.3 == x", "malformed number '1.2.3'"),
    Bad("print x", "unexpected token 'x'"),
    Bad("print\nprint print", line: 2, "unexpected token 'print'"),
    Bad("c1 c2: x == 1", "unexpected token 'c2'"),
    Bad("c1: c2: x == 1", "unexpected token ':'"),
    Bad(": x == 1", "unexpected token ':'"),
    Bad("x == 1 :", "unexpected token ':'"),
    // Missing relation or operand.
    Bad("# header\n\nx + 1\n", line: 3, "expected a relation"),
    Bad("left", "expected a relation"),
    Bad("x ==", "unexpected end of line"),
    Bad("x == 1 +", "unexpected end of line"),
    Bad("c1:", "unexpected end of line"),
    Bad("== 1", "unexpected token '=='"),
    // Relations are two characters.
    Bad("x = 1", "unexpected character '='"),
    Bad("x < 1", "unexpected character '<'"),
    Bad("x > 1", "unexpected character '>'"),
    Bad("x => 1", "unexpected character '='"),
    Bad("x === 1", "unexpected character '='"),
    // Unbalanced parentheses.
    Bad("x == (1 + 2", "missing ')'"),
    Bad("x == ((y)", "missing ')'"),
    Bad("x == 1 + 2)", "unexpected token ')'"),
    Bad("(x == 1)", "unexpected token '=='"),
    Bad("x == ()", "unexpected token ')'"),
    Bad("x == )(", "unexpected token ')'"),
    // Stray characters, ASCII or not.
    Bad("x == 1 $", "unexpected character '$'"),
    Bad("x == 1;", "unexpected character ';'"),
    Bad("x == 1,2", "unexpected character ','"),
    Bad("x == [1]", "unexpected character '['"),
    Bad("x == 'a'", "unexpected character '''"),
    Bad("x == 5%", "unexpected character '%'"),
    Bad("x & y == 1", "unexpected character '&'"),
    Bad("x ≥ 1", "unexpected character '≥'"),
    Bad("größe == 1", "unexpected character 'ö'"),
    Bad("x == 1\ny\u{A0}== 2", line: 2, "unexpected character"),
    // Statements with missing or extra parts.
    Bad("edit w", "expected a strength"),
    Bad("edit w strong", "unexpected token 'strong'"),
    Bad("edit w @strong extra", "unexpected token 'extra'"),
    Bad("edit 3 @strong", "unexpected token '3'"),
    Bad("suggest w", "expected a number"),
    Bad("suggest w x", "expected a number, found 'x'"),
    Bad("suggest w 1 2", "unexpected token '2'"),
    Bad("suggest w 2 * 3", "unexpected token '*'"),
    Bad("suggest w --3", "expected a number, found '-'"),
    Bad("remove c1 c2", "unexpected token 'c2'"),
    Bad("remove 3", "unexpected token '3'"),
  ]

  @Test(arguments: syntax)
  func syntaxErrors(_ bad: Bad) throws { try check(bad, parseOnly: true) }

  /// A syntax error on a late line rejects the whole script: nothing runs, nothing prints.
  @Test func syntaxErrorAfterPrintsRejectsTheWholeScript() throws {
    try check(Bad("x == 1\nprint\ny == 2\nprint\ny == * 3\n", line: 5, "'*'"), parseOnly: true)
  }

  // MARK: - Non-linear terms

  static let nonLinear: [Bad] = [
    Bad("x * y == 1", "non-linear"),
    Bad("x == 1\n2 / x == 1", line: 2, "non-linear"),
    Bad("x / y == 1", "non-linear"),
    Bad("x * x >= 0", "non-linear"),
    Bad("(x + 1) * (y - 2) == 0", "non-linear"),
    Bad("3 * x * y == 1", "non-linear"),
    Bad("x * (2 * y) == 1", "non-linear"),
    Bad("x / (y - 1) == 2", "non-linear"),
    Bad("w == 10\nh == w * w / 2 @weak", line: 2, "non-linear"),
  ]

  @Test(arguments: nonLinear)
  func nonLinearTerms(_ bad: Bad) throws { try check(bad, parseOnly: true) }

  // MARK: - Strengths

  static let strengths: [Bad] = [
    Bad("x == 1 @-3", "bad strength '-3'"),
    Bad("x == 1 @0", "bad strength '0'"),
    Bad("x == 1 @0.0", "bad strength '0.0'"),
    Bad("x == 1 @-0", "bad strength '-0'"),
    Bad("x == 1 @foo", "unknown strength 'foo'"),
    Bad("x == 1 @Strong", "unknown strength 'Strong'"),
    Bad("x == 1 @", "expected a strength"),
    Bad("x == 1 @(", "bad strength '('"),
    Bad("x == 1 @+3", "bad strength"),
    Bad("edit w @-3", "bad strength '-3'"),
    Bad("edit w @0", "bad strength '0'"),
    Bad("edit w @foo", "unknown strength 'foo'"),
    Bad("edit w @", "expected a strength"),
  ]

  @Test(arguments: strengths)
  func badStrengths(_ bad: Bad) throws { try check(bad, parseOnly: true) }

  // MARK: - Arithmetic

  static let arithmetic: [Bad] = [
    Bad("x / 0 == 1", "division by zero"),
    Bad("x == 1 / 0", "division by zero"),
    Bad("x / (2 - 2) == 1", "division by zero"),
    Bad("x / (y - y) == 1", "division by zero"),
    Bad("x / -0 == 1", "division by zero"),
    Bad("x == 1e400", "overflows to infinity"),
    Bad("x == 1e-400", "number '1e-400' underflows to zero"),
    Bad("x == 2.5E-999 * y", "number '2.5E-999' underflows to zero"),
    Bad("x == 1" + String(repeating: "0", count: 400), "overflows to infinity"),
    Bad("1e300 * 1e300 * x == 1", "overflows to infinity"),
    Bad("x * 1e300 * 1e300 == 1", "overflows to infinity"),
    Bad("1e308 * x + 1e308 * x == 0", "overflows to infinity"),
    Bad("1e308 * x == -1e308 * x", "overflows to infinity"),
    Bad("x / 1e-300 / 1e-300 == 1", "overflows to infinity"),
    Bad("x == 1e308 + 1e308", "overflows to infinity"),
    Bad("x == -1e308 - 1e308", "overflows to infinity"),
    Bad("x == 1 @1e999", "overflows to infinity"),
    Bad("edit w @strong\nsuggest w 1e400", line: 2, "overflows to infinity"),
  ]

  @Test(arguments: arithmetic)
  func divisionByZeroAndOverflow(_ bad: Bad) throws { try check(bad, parseOnly: true) }

  // MARK: - Encoding

  @Test(
    arguments: [
      ("line 2, a lone 0xFF", [0xFF], 2),
      ("line 2, truncated sequence", [0xC3], 2),
      ("line 2, overlong NUL", [0xC0, 0x80], 2),
      ("line 2, UTF-16 surrogate", [0xED, 0xA0, 0x80], 2),
    ] as [(String, [UInt8], Int)])
  func invalidUTF8(_ name: String, _ badBytes: [UInt8], _ line: Int) throws {
    let bytes = Array("x == 1\n".utf8) + Array("y == ".utf8) + badBytes + Array(" 2\nz == 3\n".utf8)
    try check(Bad(name, line: line, "invalid UTF-8"), bytes: bytes, parseOnly: true)
  }

  @Test func invalidUTF8InACommentAfterCRLFLines() throws {
    let bytes = Array("x == 1\r\n\r\n# caf".utf8) + [0xE9] + Array("\r\nprint\r\n".utf8)
    try check(Bad("comment", line: 3, "invalid UTF-8"), bytes: bytes, parseOnly: true)
  }

  // MARK: - Run-time errors

  static let runtime: [Bad] = [
    Bad("x == 1\nremove c9", line: 2, "unknown label c9"),
    Bad("c1: x == 1\nremove c1\nremove c1", line: 3, "unknown label c1"),
    Bad("C1: x == 1\nremove c1", line: 2, "unknown label c1"),
    Bad("c1: x == 1\nprint\nc1: y == 2", line: 3, "duplicate label c1"),
    Bad("c1: x == 1 @weak\nc1: x == 1 @weak", line: 2, "duplicate label c1"),
    Bad("x == 1\nx == 2", line: 2, "unsatisfiable required constraint"),
    Bad("x >= 10\n# comment\nx <= 5", line: 3, "unsatisfiable required constraint"),
    Bad("0 == 1", "unsatisfiable required constraint"),
    Bad("x - x == 1", "unsatisfiable required constraint"),
    Bad("a + b == 10\na >= 6\nb >= 6 @required", line: 3, "unsatisfiable required constraint"),
    Bad("x == 1\nsuggest x 5", line: 2, "x is not an edit variable"),
    Bad("suggest y 1", "y is not an edit variable"),
    Bad("edit w @required", "required"),
    Bad("edit w @1e12", "required"),
    Bad("edit w @strong\nedit w @weak", line: 2, "duplicate edit variable w"),
    Bad("edit w @strong\nsuggest w 1\nedit w @strong", line: 3, "duplicate edit variable w"),
  ]

  @Test(arguments: runtime)
  func runtimeErrors(_ bad: Bad) throws { try check(bad) }

  @Test func failedRunEmitsExactlyTheEarlierBlocks() throws {
    let script = try Script(
      parsing: "x == 1\nprint\ny == x + 1\nprint\nx == 3\nprint\n", file: Self.file)
    var runner = ScriptRunner(file: Self.file)
    var blocks: [ScriptRunner.Block] = []
    let thrown = #expect(throws: ScriptError.self) {
      try runner.run(script) { blocks.append($0) }
    }
    let error = try #require(thrown)
    #expect(
      error
        == ScriptError(
          file: Self.file, line: 5,
          reason: "unsatisfiable required constraint (conflicts with line 1)"))
    try #require(blocks.count == 2)
    #expect(blocks[0].map(\.name) == ["x"])
    #expect(blocks[1].map(\.name) == ["x", "y"])
    #expect(abs(blocks[0][0].value - 1) < 1e-9)
    #expect(abs(blocks[1][0].value - 1) < 1e-9 && abs(blocks[1][1].value - 2) < 1e-9)
  }

  @Test func errorBeforeAnyPrintEmitsNothing() throws {
    let script = try Script(parsing: "x == 1\nx == 2\nprint\n", file: Self.file)
    var runner = ScriptRunner(file: Self.file)
    var count = 0
    #expect(
      throws: ScriptError(
        file: Self.file, line: 2,
        reason: "unsatisfiable required constraint (conflicts with line 1)")
    ) {
      try runner.run(script) { _ in count += 1 }
    }
    // In particular the final-state block of a print-less run is not emitted either.
    #expect(count == 0)
  }

  // MARK: - Robustness

  /// Mangled variants of a valid script (every prefix, every single byte dropped or
  /// replaced) either run or fail with a ScriptError on a line that exists.
  @Test func mangledScriptsFailCleanly() {
    let good = Array(
      """
      left >= 0
      right <= width
      right == left + 200 @medium
      c1: left == 10 @weak  # note
      edit width @strong
      suggest width -800.5e0
      print
      remove c1
      (left + right) / 2 == mid * 1
      print

      """.utf8)
    var variants: [[UInt8]] = []
    for i in good.indices {
      variants.append(Array(good[..<i]))
      var dropped = good
      dropped.remove(at: i)
      variants.append(dropped)
      for replacement in Array("*/@:()-=.e9x\n#".utf8) + [0, 0x80, 0xFF] {
        var replaced = good
        replaced[i] = replacement
        variants.append(replaced)
      }
    }
    var failures = 0
    for bytes in variants {
      guard let error = Self.failure(bytes) else { continue }
      failures += 1
      let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      #expect((1...lines.count).contains(error.line), "\(error)")
      #expect(!error.reason.isEmpty)
    }
    #expect(failures > 0)
  }
}
