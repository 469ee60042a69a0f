/// A JSON document as read from a scene file: objects keep their keys in file order, and
/// numbers are doubles (a number too large for one reads as infinity, which the scene
/// reader then refuses with its path). A parser of its own, so that a syntax error names
/// its line and column and a duplicate key is an error rather than a silent overwrite.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  /// Equal when their canonical texts are: scalar by scalar, as the hash is taken (Swift's
  /// `String ==` would call canonically equivalent spellings of a text equal, and equal
  /// values must hash alike).
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    lhs.canonicalText.unicodeScalars.elementsEqual(rhs.canonicalText.unicodeScalars)
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(canonicalText) }

  /// What kind of value this is, for error messages ("expected a number, found a string").
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The value written with sorted keys and no spaces: equal documents give equal text
  /// whatever their layout or key order (the scene's content hash is taken over it).
  public var canonicalText: String {
    var out = ""
    writeCanonical(into: &out)
    return out
  }

  /// The canonical text of this value (of a scalar: as any writer writes it).
  func writeCanonical(into out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += Self.numberText(n)
    case .string(let s): Self.writeString(s, into: &out)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        item.writeCanonical(into: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
        if i > 0 { out += "," }
        Self.writeString(member.key, into: &out)
        out += ":"
        member.value.writeCanonical(into: &out)
      }
      out += "}"
    }
  }

  /// Integers without a fraction, other numbers in Swift's shortest round-trip form.
  static func numberText(_ n: Double) -> String {
    if n.isFinite, n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return "\(n)"
  }

  static func writeString(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  /// The member `key` of an object (nil for absent keys and non-objects).
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }
}

/// A JSON syntax error, at a line and column (both from 1).
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public var reason: String

  public var description: String { "line \(line), column \(column): \(reason)" }
}

extension JSONValue {
  /// Nesting deeper than this is refused (a deep tree in a scene is a `repeat` of a
  /// template, not thousands of nested brackets), so parsing never exhausts the stack.
  public static let maximumDepth = 512

  /// Parses a whole document (one value, whitespace around it).
  /// - Throws: ``JSONSyntaxError`` naming the line and column of the first problem.
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    // A UTF-8 byte-order mark, as some editors write, is not part of the document.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    if parser.position < bytes.count { throw parser.error("unexpected text after the document") }
    return value
  }

  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try parse(Array(text.utf8))
  }
}

private struct JSONParser {
  let bytes: [UInt8]
  var position = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
    let end = min(offset ?? position, bytes.count)
    var line = 1
    var column = 1
    for byte in bytes[..<end] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1  // count characters, not UTF-8 continuation bytes
      }
    }
    return JSONSyntaxError(line: line, column: column, reason: reason)
  }

  mutating func skipSpace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  var found: String {
    guard position < bytes.count else { return "the end of the file" }
    let byte = bytes[position]
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
    return "byte 0x\(String(byte, radix: 16))"
  }

  mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard depth < JSONValue.maximumDepth else {
      throw error("nested deeper than \(JSONValue.maximumDepth) levels")
    }
    guard position < bytes.count else { throw error("expected a value, found the end of the file") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw error("expected a value, found \(found)")
    }
  }

  mutating func literal(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
    let utf8 = Array(word.utf8)
    guard position + utf8.count <= bytes.count,
      Array(bytes[position..<position + utf8.count]) == utf8
    else { throw error("expected a value, found \(found)") }
    position += utf8.count
    return value
  }

  mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
    skipSpace()
    guard position < bytes.count, bytes[position] == byte else {
      throw error("expected \(what), found \(found)")
    }
    position += 1
  }

  mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    position += 1
    var members: [(key: String, value: JSONValue)] = []
    var keys: Set<String> = []
    skipSpace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw error("expected a key in quotes, found \(found)")
      }
      let keyStart = position
      let key = try string()
      guard keys.insert(key).inserted else {
        throw error("duplicate key \"\(key)\"", at: keyStart)
      }
      try expect(UInt8(ascii: ":"), "':' after the key \"\(key)\"")
      skipSpace()
      members.append((key, try value(depth: depth + 1)))
      skipSpace()
      guard position < bytes.count else { throw error("expected ',' or '}', found \(found)") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      try expect(UInt8(ascii: "}"), "',' or '}'")
      return .object(members)
    }
  }

  mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    position += 1
    var items: [JSONValue] = []
    skipSpace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(items)
    }
    while true {
      skipSpace()
      items.append(try value(depth: depth + 1))
      skipSpace()
      guard position < bytes.count else { throw error("expected ',' or ']', found \(found)") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      try expect(UInt8(ascii: "]"), "',' or ']'")
      return .array(items)
    }
  }

  mutating func string() throws(JSONSyntaxError) -> String {
    let start = position
    position += 1
    var scalars = String.UnicodeScalarView()
    var runStart = position
    func flush(_ end: Int) throws(JSONSyntaxError) {
      guard runStart < end else { return }
      guard let text = String(validating: bytes[runStart..<end], as: UTF8.self) else {
        throw error("text that is not UTF-8", at: runStart)
      }
      scalars.append(contentsOf: text.unicodeScalars)
    }
    while true {
      guard position < bytes.count else {
        throw error("a string that never ends (opened here)", at: start)
      }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        try flush(position)
        position += 1
        return String(scalars)
      }
      if byte < 0x20 { throw error("a control character inside a string") }
      if byte != UInt8(ascii: "\\") {
        position += 1
        continue
      }
      try flush(position)
      position += 1
      guard position < bytes.count else { throw error("a string that never ends", at: start) }
      let escape = bytes[position]
      position += 1
      switch escape {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
          // A surrogate pair: the low half must follow.
          guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
            bytes[position + 1] == UInt8(ascii: "u")
          else { throw error("a lone surrogate \\u escape") }
          position += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate \\u escape") }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
        scalars.append(scalar)
      default:
        throw error("an unknown escape '\\\(Character(UnicodeScalar(escape)))'", at: position - 2)
      }
      runStart = position
    }
  }

  mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard position + 4 <= bytes.count else { throw error("\\u needs four hexadecimal digits") }
    var code: UInt32 = 0
    for byte in bytes[position..<position + 4] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error("\\u needs four hexadecimal digits")
      }
      code = code << 4 | UInt32(digit)
    }
    position += 4
    return code
  }

  mutating func number() throws(JSONSyntaxError) -> JSONValue {
    let start = position
    func digits() -> Int {
      let from = position
      while position < bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
      {
        position += 1
      }
      return position - from
    }
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    let whole = position
    guard digits() > 0 else { throw error("a '-' that starts no number", at: start) }
    if bytes[whole] == UInt8(ascii: "0"), position - whole > 1 {
      throw error("a number with a leading zero", at: start)
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard digits() > 0 else { throw error("a number with no digits after '.'", at: start) }
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard digits() > 0 else { throw error("a number with no digits in its exponent", at: start) }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    // Double parses every valid JSON number; one beyond its range gives infinity.
    return .number(Double(text) ?? .infinity)
  }
}
