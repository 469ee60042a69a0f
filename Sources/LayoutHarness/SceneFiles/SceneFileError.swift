/// What is wrong with a scene file: the file, where in it (a JSON path such as
/// `root.children[3].constraints[1].second`, or a line and column for a syntax error) and
/// why.
public struct SceneFileError: Error, Equatable, CustomStringConvertible {
  public var file: String
  /// The JSON path of the offending value (`$` for the document itself), or
  /// `line L, column C` for a syntax error.
  public var path: String
  public var reason: String

  public init(file: String, path: String, reason: String) {
    self.file = file
    self.path = path
    self.reason = reason
  }

  public var description: String { "\(file): \(path): \(reason)" }
}

/// A position in a JSON document, for error messages: `root.children[2].text`.
struct JSONPath: CustomStringConvertible {
  var text: String

  static let root = JSONPath(text: "$")

  func member(_ key: String) -> JSONPath {
    let plain = key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !key.isEmpty
    let step = plain ? key : "[\"\(key)\"]"
    if text == "$" { return JSONPath(text: plain ? step : "$" + step) }
    return JSONPath(text: plain ? text + "." + step : text + step)
  }

  func index(_ i: Int) -> JSONPath { JSONPath(text: text + "[\(i)]") }

  var description: String { text }
}
