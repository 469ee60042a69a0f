import Cassowary

extension Script {
  /// Parses a whole script. Every line is checked before anything runs, so a syntax error
  /// anywhere means no output at all.
  ///
  /// - Parameter file: the name used in error messages (`-` for standard input).
  /// - Throws: ``ScriptError`` naming the first bad line.
  public init(parsing bytes: some Collection<UInt8>, file: String) throws(ScriptError) {
    var statements: [Statement] = []
    // Labels are checked statically, so that a script naming an unknown or duplicate label
    // prints nothing.
    var liveLabels: Set<String> = []
    var lineNumber = 0
    var lineStart = bytes.startIndex
    while lineStart != bytes.endIndex || lineNumber == 0 {
      lineNumber += 1
      // Lines end in LF, CRLF or a lone CR (old Mac files: read as one line, a first-line
      // comment would have hidden the whole script).
      let lineEnd =
        bytes[lineStart...].firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        ?? bytes.endIndex
      var lineBytes = Array(bytes[lineStart..<lineEnd])
      if lineNumber == 1 && lineBytes.starts(with: [0xEF, 0xBB, 0xBF]) {
        lineBytes.removeFirst(3)  // a UTF-8 byte-order mark
      }
      guard let text = String(validating: lineBytes, as: UTF8.self) else {
        throw ScriptError(file: file, line: lineNumber, reason: "invalid UTF-8")
      }
      do throws(LineError) {
        var parser = try LineParser(text: text, line: lineNumber)
        if let statement = try parser.parseStatement() {
          switch statement.kind {
          case .constraint(let label?, _, _, _, _):
            guard liveLabels.insert(label).inserted else {
              throw LineError(reason: "duplicate label \(label)")
            }
          case .remove(let label):
            guard liveLabels.remove(label) != nil else {
              throw LineError(reason: "unknown label \(label)")
            }
          case .edit(let name, let strength) where strength.isRequired:
            throw LineError(reason: "edit variable \(name) cannot have required strength")
          default: break
          }
          statements.append(statement)
        }
      } catch {
        throw ScriptError(file: file, line: lineNumber, reason: error.reason)
      }
      if lineEnd == bytes.endIndex { break }
      lineStart = bytes.index(after: lineEnd)
      if bytes[lineEnd] == UInt8(ascii: "\r"), lineStart != bytes.endIndex,
        bytes[lineStart] == UInt8(ascii: "\n")
      {
        lineStart = bytes.index(after: lineStart)  // CRLF is one break
      }
    }
    self.init(statements: statements)
  }

  public init(parsing text: String, file: String) throws(ScriptError) {
    try self.init(parsing: Array(text.utf8), file: file)
  }
}

/// A syntax error on the current line; the caller adds the file and line.
struct LineError: Error {
  var reason: String
}

enum Token: Equatable {
  case number(Double, String)
  case name(String)
  case symbol(String)

  var text: String {
    switch self {
    case .number(_, let text), .name(let text), .symbol(let text): text
    }
  }
}

/// Parses one line: tokens first, then a statement by recursive descent.
struct LineParser {
  /// How deep parentheses may nest: recursive descent uses the stack, and 17,500 levels
  /// overflowed it.
  static let maximumNesting = 200

  var tokens: [Token] = []
  var position = 0
  var line: Int
  var mentioned: [String] = []
  var mentionedSet: Set<String> = []
  var nesting = 0

  init(text: String, line: Int) throws(LineError) {
    self.line = line
    var content = Substring(text)
    if let hash = content.firstIndex(of: "#") { content = content[..<hash] }
    tokens = try LineParser.tokenize(content)
  }

  static func tokenize(_ text: Substring) throws(LineError) -> [Token] {
    var tokens: [Token] = []
    let chars = Array(text.unicodeScalars)
    var i = 0
    func isNameStart(_ c: Unicode.Scalar) -> Bool {
      c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }
    func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
    while i < chars.count {
      let c = chars[i]
      if c == " " || c == "\t" {
        i += 1
      } else if isNameStart(c) {
        var j = i + 1
        while j < chars.count && (isNameStart(chars[j]) || isDigit(chars[j]) || chars[j] == ".") {
          j += 1
        }
        tokens.append(.name(String(String.UnicodeScalarView(chars[i..<j]))))
        i = j
      } else if isDigit(c) || (c == "." && i + 1 < chars.count && isDigit(chars[i + 1])) {
        var j = i
        while j < chars.count && (isDigit(chars[j]) || chars[j] == ".") { j += 1 }
        if j < chars.count && (chars[j] == "e" || chars[j] == "E") {
          var k = j + 1
          if k < chars.count && (chars[k] == "+" || chars[k] == "-") { k += 1 }
          if k < chars.count && isDigit(chars[k]) {
            while k < chars.count && isDigit(chars[k]) { k += 1 }
            j = k
          }
        }
        let literal = String(String.UnicodeScalarView(chars[i..<j]))
        guard let value = Double(literal) else {
          throw LineError(reason: "malformed number '\(literal)'")
        }
        guard value.isFinite else {
          throw LineError(reason: "number '\(literal)' overflows to infinity")
        }
        // A literal with a non-zero digit that reads as 0 (1e-400) underflowed.
        let mantissa = literal.prefix { $0 != "e" && $0 != "E" }
        guard value != 0 || !mantissa.contains(where: { ("1"..."9").contains($0) }) else {
          throw LineError(reason: "number '\(literal)' underflows to zero")
        }
        tokens.append(.number(value, literal))
        i = j
      } else if "=<>".unicodeScalars.contains(c) {
        guard i + 1 < chars.count && chars[i + 1] == "=" else {
          throw LineError(
            reason: "unexpected character '\(printable(c))' (relations are ==, <= and >=)")
        }
        tokens.append(.symbol(String(c) + "="))
        i += 2
      } else if "+-*/()@:".unicodeScalars.contains(c) {
        tokens.append(.symbol(String(c)))
        i += 1
      } else {
        throw LineError(reason: "unexpected character '\(printable(c))'")
      }
    }
    return tokens
  }
}

/// A character as it can be shown in a one-line message: control and other invisible
/// characters become `U+XXXX`.
func printable(_ c: Unicode.Scalar) -> String {
  if c.properties.generalCategory == .control || c.properties.generalCategory == .format
    || c.value == 0xFFFD
  {
    let hex = String(c.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
  return String(c)
}

extension LineParser {
  // MARK: - Statements

  mutating func parseStatement() throws(LineError) -> Statement? {
    guard let first = tokens.first else { return nil }
    let kind: Statement.Kind
    switch (first, tokens.count > 1 ? tokens[1] : nil) {
    case (.name("print"), nil):
      position = 1
      kind = .print
    case (.name("edit"), .name(let name)?):
      position = 2
      mention(name)
      kind = .edit(name: name, strength: try parseStrength(required: true))
    case (.name("suggest"), .name(let name)?):
      position = 2
      mention(name)
      kind = .suggest(name: name, value: try parseSignedNumber())
    case (.name("remove"), .name(let label)?):
      position = 2
      kind = .remove(label: label)
    case (.name(let keyword), nil) where ["edit", "suggest", "remove"].contains(keyword):
      throw LineError(
        reason: "expected a \(keyword == "remove" ? "label" : "variable name") after \(keyword)")
    default:
      kind = try parseConstraint()
    }
    if position < tokens.count {
      throw LineError(reason: "unexpected token '\(tokens[position].text)'")
    }
    return Statement(kind: kind, line: line, mentioned: mentioned)
  }

  mutating func parseConstraint() throws(LineError) -> Statement.Kind {
    var label: String?
    if tokens.count >= 2, case .name(let name) = tokens[0], tokens[1] == .symbol(":") {
      label = name
      position = 2
    }
    let lhs = try parseExpression()
    guard let next = peek(), case .symbol(let op) = next, let relation = Relation(rawValue: op)
    else {
      if let next = peek() { throw LineError(reason: "unexpected token '\(next.text)'") }
      throw LineError(reason: "expected a relation (==, <= or >=)")
    }
    position += 1
    let rhs = try parseExpression()
    let form = lhs.adding(rhs, times: -1)
    try checkFinite(form)
    let strength: Strength = peek() == nil ? .required : try parseStrength(required: false)
    var shortfall: Strength?
    if peek() == .symbol("/") {
      // `@excess/shortfall`: two non-required weights of an equality.
      position += 1
      guard peek() != nil else { throw LineError(reason: "expected a strength after '/'") }
      let second = try parseStrengthName()
      guard relation == .equal, !strength.isRequired, !second.isRequired else {
        throw LineError(
          reason: "only a non-required equality can weigh an excess and a shortfall apart"
            + " (@excess/shortfall)")
      }
      shortfall = second
    }
    return .constraint(
      label: label, form: form, relation: relation, strength: strength, shortfall: shortfall)
  }

  /// `@required`, `@strong`, `@medium`, `@weak` or `@NUMBER` (a positive raw strength).
  mutating func parseStrength(required: Bool) throws(LineError) -> Strength {
    guard peek() == .symbol("@") else {
      if let next = peek() { throw LineError(reason: "unexpected token '\(next.text)'") }
      throw LineError(reason: "expected a strength (@strong, @medium, @weak or @NUMBER)")
    }
    position += 1
    return try parseStrengthName()
  }

  /// A strength after its `@` (or after the `/` of `@excess/shortfall`).
  mutating func parseStrengthName() throws(LineError) -> Strength {
    switch peek() {
    case .name("required"):
      position += 1
      return .required
    case .name("strong"):
      position += 1
      return .strong
    case .name("medium"):
      position += 1
      return .medium
    case .name("weak"):
      position += 1
      return .weak
    case .name(let other): throw LineError(reason: "unknown strength '\(other)'")
    case .number(let value, let text):
      position += 1
      guard value > 0 else { throw LineError(reason: "bad strength '\(text)': must be positive") }
      return Strength(value)
    case .symbol("-"):
      let text = position + 1 < tokens.count ? "-" + tokens[position + 1].text : "-"
      throw LineError(reason: "bad strength '\(text)': must be positive")
    case let token?: throw LineError(reason: "bad strength '\(token.text)'")
    case nil: throw LineError(reason: "expected a strength after '@'")
    }
  }

  mutating func parseSignedNumber() throws(LineError) -> Double {
    var sign = 1.0
    if peek() == .symbol("-") {
      sign = -1
      position += 1
    } else if peek() == .symbol("+") {
      position += 1
    }
    guard case .number(let value, _)? = peek() else {
      if let next = peek() { throw LineError(reason: "expected a number, found '\(next.text)'") }
      throw LineError(reason: "expected a number")
    }
    position += 1
    return sign * value
  }

  // MARK: - Expressions

  func peek() -> Token? { position < tokens.count ? tokens[position] : nil }

  mutating func mention(_ name: String) {
    if mentionedSet.insert(name).inserted { mentioned.append(name) }
  }

  func checkFinite(_ form: LinearForm) throws(LineError) {
    guard form.isFinite else { throw LineError(reason: "value overflows to infinity") }
  }

  /// expression := term (('+' | '-') term)*
  mutating func parseExpression() throws(LineError) -> LinearForm {
    var form = try parseTerm()
    while let token = peek(), token == .symbol("+") || token == .symbol("-") {
      position += 1
      let rhs = try parseTerm()
      form.add(rhs, times: token == .symbol("+") ? 1 : -1)
      try checkFinite(form)
    }
    return form
  }

  /// term := unary (('*' | '/') unary)*, where one side of `*` and the right of `/` must be
  /// a constant: the format is linear.
  mutating func parseTerm() throws(LineError) -> LinearForm {
    var form = try parseUnary()
    while let token = peek(), token == .symbol("*") || token == .symbol("/") {
      position += 1
      let rhs = try parseUnary()
      if token == .symbol("*") {
        if form.isConstant {
          form = rhs.scaled(by: form.constant)
        } else if rhs.isConstant {
          form = form.scaled(by: rhs.constant)
        } else {
          throw LineError(reason: "non-linear term: a product of variables")
        }
      } else {
        guard rhs.isConstant else {
          throw LineError(reason: "non-linear term: division by a variable")
        }
        guard rhs.constant != 0 else { throw LineError(reason: "division by zero") }
        form = form.divided(by: rhs.constant)
      }
      try checkFinite(form)
    }
    return form
  }

  /// unary := ('-' | '+')* primary (a loop: a long run of signs must not recurse)
  mutating func parseUnary() throws(LineError) -> LinearForm {
    var negative = false
    while let token = peek(), token == .symbol("-") || token == .symbol("+") {
      if token == .symbol("-") { negative.toggle() }
      position += 1
    }
    let form = try parsePrimary()
    return negative ? form.scaled(by: -1) : form
  }

  /// primary := NUMBER | NAME | '(' expression ')'
  mutating func parsePrimary() throws(LineError) -> LinearForm {
    switch peek() {
    case .number(let value, _)?:
      position += 1
      return LinearForm(constant: value)
    case .name(let name)?:
      position += 1
      mention(name)
      return LinearForm(variable: name)
    case .symbol("(")?:
      position += 1
      nesting += 1
      defer { nesting -= 1 }
      guard nesting <= Self.maximumNesting else {
        throw LineError(reason: "parentheses nested deeper than \(Self.maximumNesting) levels")
      }
      let inner = try parseExpression()
      guard peek() == .symbol(")") else {
        if let next = peek() { throw LineError(reason: "unexpected token '\(next.text)'") }
        throw LineError(reason: "missing ')'")
      }
      position += 1
      return inner
    case let token?:
      throw LineError(reason: "unexpected token '\(token.text)'")
    case nil:
      throw LineError(reason: "unexpected end of line: expected an expression")
    }
  }
}
