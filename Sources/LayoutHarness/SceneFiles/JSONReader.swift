/// A problem at a JSON path, before the file's name is attached (``SceneFileError``).
struct JSONProblem: Error {
  var path: JSONPath
  var reason: String

  init(_ path: JSONPath, _ reason: String) {
    self.path = path
    self.reason = reason
  }
}

/// A JSON value and where it is, with typed accessors whose errors name the path.
struct JSONField {
  let value: JSONValue
  let path: JSONPath

  /// The members of an object.
  func object(allowed: [String]) throws(JSONProblem) -> JSONObject {
    guard case .object(let members) = value else {
      throw JSONProblem(path, "expected an object, found \(value.kind)")
    }
    for member in members where !allowed.contains(member.key) {
      throw JSONProblem(
        path.member(member.key),
        "unknown key \"\(member.key)\" (known here: \(allowed.joined(separator: ", ")))")
    }
    return JSONObject(members: members, path: path)
  }

  /// The members of an object whose keys are names the file chooses (templates).
  func anyObject() throws(JSONProblem) -> JSONObject {
    guard case .object(let members) = value else {
      throw JSONProblem(path, "expected an object, found \(value.kind)")
    }
    return JSONObject(members: members, path: path)
  }

  func array(maximum: Int = 1_000_000) throws(JSONProblem) -> [JSONField] {
    guard case .array(let items) = value else {
      throw JSONProblem(path, "expected an array, found \(value.kind)")
    }
    guard items.count <= maximum else {
      throw JSONProblem(path, "\(items.count) items; at most \(maximum)")
    }
    return items.enumerated().map { JSONField(value: $0.element, path: path.index($0.offset)) }
  }

  func string() throws(JSONProblem) -> String {
    guard case .string(let text) = value else {
      throw JSONProblem(path, "expected a string, found \(value.kind)")
    }
    return text
  }

  /// A string out of `choices`.
  func choice(_ choices: [String]) throws(JSONProblem) -> String {
    let text = try string()
    guard choices.contains(text) else {
      throw JSONProblem(
        path, "\"\(text)\" is not one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))")
    }
    return text
  }

  /// A finite number in `range`.
  func number(in range: ClosedRange<Double>) throws(JSONProblem) -> Double {
    guard case .number(let n) = value else {
      throw JSONProblem(path, "expected a number, found \(value.kind)")
    }
    guard n.isFinite else { throw JSONProblem(path, "the number is too large to be finite") }
    guard range.contains(n) else {
      throw JSONProblem(
        path,
        "\(JSONValue.numberText(n)) is out of range "
          + "\(JSONValue.numberText(range.lowerBound))...\(JSONValue.numberText(range.upperBound))")
    }
    return n
  }

  /// A whole number in `range`.
  func integer(in range: ClosedRange<Int>) throws(JSONProblem) -> Int {
    let n = try number(in: Double(range.lowerBound)...Double(range.upperBound))
    guard n == n.rounded() else {
      throw JSONProblem(path, "\(JSONValue.numberText(n)) is not a whole number")
    }
    return Int(n)
  }

  /// A 64-bit unsigned integer: a whole number up to 2^53, or a string of decimal digits
  /// (JSON numbers lose precision beyond 2^53).
  func uint64() throws(JSONProblem) -> UInt64 {
    if case .string(let text) = value {
      guard let n = UInt64(text) else {
        throw JSONProblem(path, "\"\(text)\" is not an unsigned 64-bit integer")
      }
      return n
    }
    return UInt64(try integer(in: 0...(1 << 53)))
  }
}

/// An object's members, each looked up with its path.
struct JSONObject {
  let members: [(key: String, value: JSONValue)]
  let path: JSONPath

  subscript(key: String) -> JSONField? {
    members.first { $0.key == key }.map { JSONField(value: $0.value, path: path.member(key)) }
  }

  func require(_ key: String) throws(JSONProblem) -> JSONField {
    guard let field = self[key] else { throw JSONProblem(path, "missing key \"\(key)\"") }
    return field
  }
}

extension JSONValue {
  /// "a number", "an object": what was found instead of what was expected.
  var kind: String { kindName }
}
