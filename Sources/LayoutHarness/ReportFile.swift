internal import Foundation

/// A report that cannot be used, with the file and the reason.
public struct ReportFileError: Error, Equatable, CustomStringConvertible {
  public var path: String
  public var reason: String

  public var description: String { "\(path): \(reason)" }
}

/// Reading and writing JSON reports: decoded strictly (a truncated, corrupt or
/// wrong-schema file is an error naming the file and what is wrong), written atomically.
public enum ReportFile {
  /// The report as JSON text (keys sorted, so equal reports give equal files).
  public static func encode(_ report: RunReport) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
  }

  public static func load(_ path: String) throws(ReportFileError) -> RunReport {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ReportFileError(path: path, reason: "cannot read: \(error.localizedDescription)")
    }
    return try decode(data, path: path)
  }

  /// Decodes report text (`path` names it in errors).
  public static func decode(_ text: String, path: String) throws(ReportFileError) -> RunReport {
    try decode(Data(text.utf8), path: path)
  }

  static func decode(_ data: Data, path: String) throws(ReportFileError) -> RunReport {
    guard !data.isEmpty else { throw ReportFileError(path: path, reason: "empty file") }
    // The version first, so an old or future report says so instead of a missing key.
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw ReportFileError(path: path, reason: "not valid JSON (truncated or corrupt): \(error.localizedDescription)")
    }
    guard let top = object as? [String: Any] else {
      throw ReportFileError(path: path, reason: "not a report: the top level is not a JSON object")
    }
    guard let version = top["schemaVersion"] as? Int else {
      throw ReportFileError(path: path, reason: "not a report: no integer schemaVersion")
    }
    guard version == RunReport.currentSchemaVersion else {
      throw ReportFileError(
        path: path,
        reason: "schema version \(version), this layout-bench reads \(RunReport.currentSchemaVersion)")
    }
    return try decodeJSON(RunReport.self, from: data, path: path, what: "a report")
  }

  /// Decodes JSON, naming the file and the JSON path of what is missing or wrong.
  static func decodeJSON<T: Decodable>(
    _ type: T.Type, from data: Data, path: String, what: String
  ) throws(ReportFileError) -> T {
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch let DecodingError.keyNotFound(key, context) {
      throw ReportFileError(path: path, reason: "missing \(describe(context.codingPath + [key]))")
    } catch let DecodingError.typeMismatch(_, context) {
      throw ReportFileError(path: path, reason: "wrong type at \(describe(context.codingPath))")
    } catch let DecodingError.valueNotFound(_, context) {
      throw ReportFileError(path: path, reason: "null at \(describe(context.codingPath))")
    } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
      throw ReportFileError(path: path, reason: "invalid value at \(describe(context.codingPath))")
    } catch {
      throw ReportFileError(path: path, reason: "not \(what): \(error)")
    }
  }

  private static func describe(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
    }
    return text.isEmpty ? "the top level" : text
  }

  /// Writes to a temporary file in the same directory, then renames it over `path`: the
  /// old file stays whole until the new one is complete.
  public static func writeAtomically(_ text: String, to path: String) throws(ReportFileError) {
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw ReportFileError(path: path, reason: "cannot write: \(error.localizedDescription)")
    }
  }
}

/// Named baselines: full reports (with per-tick samples) in a directory, default
/// `.layout-bench/baselines/`.
public struct BaselineStore {
  public var directory: String

  public static let defaultDirectory = ".layout-bench/baselines"

  public init(directory: String = BaselineStore.defaultDirectory) {
    self.directory = directory
  }

  /// Names are file-name safe: letters, digits, `.`, `_`, `-`, not starting with `.`.
  public static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && name.count <= 100 && !name.hasPrefix(".")
      && name.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "." || $0 == "_" || $0 == "-"
      }
  }

  public func path(of name: String) -> String { directory + "/" + name + ".json" }

  public func save(_ report: RunReport, as name: String) throws(ReportFileError) {
    guard Self.isValidName(name) else {
      throw ReportFileError(path: name, reason: "invalid baseline name (use letters, digits, . _ -)")
    }
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw ReportFileError(path: directory, reason: "cannot create: \(error.localizedDescription)")
    }
    let data: String
    do { data = try ReportFile.encode(report) } catch {
      throw ReportFileError(path: path(of: name), reason: "cannot encode: \(error)")
    }
    try ReportFile.writeAtomically(data, to: path(of: name))
  }

  public func load(_ name: String) throws(ReportFileError) -> RunReport {
    guard exists(name) else {
      throw ReportFileError(path: path(of: name), reason: "no baseline named '\(name)'")
    }
    return try ReportFile.load(path(of: name))
  }

  public func exists(_ name: String) -> Bool {
    Self.isValidName(name) && FileManager.default.fileExists(atPath: path(of: name))
  }

  /// Baseline names, sorted.
  public func list() -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
      .filter(Self.isValidName).sorted()
  }

  public func delete(_ name: String) throws(ReportFileError) {
    guard exists(name) else {
      throw ReportFileError(path: path(of: name), reason: "no baseline named '\(name)'")
    }
    do { try FileManager.default.removeItem(atPath: path(of: name)) } catch {
      throw ReportFileError(path: path(of: name), reason: "cannot delete: \(error.localizedDescription)")
    }
  }
}
