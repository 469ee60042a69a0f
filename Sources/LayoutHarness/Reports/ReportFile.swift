internal import Foundation
import BenchSupport

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
    try JSONText.encode(report)
  }

  public static func load(_ path: String) throws(ReportFileError) -> RunReport {
    try decode(try readRegularFile(path), path: path)
  }

  /// The bytes of a regular file, or an error that says what the path is instead (a
  /// directory was "NSCocoaErrorDomain error 256", a FIFO would block).
  static func readRegularFile(_ path: String) throws(ReportFileError) -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw ReportFileError(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw ReportFileError(path: path, reason: "is a directory, not a report file")
    }
    let type =
      (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    guard type == .typeRegular || type == .typeSymbolicLink else {
      throw ReportFileError(path: path, reason: "is not a regular file (a device, FIFO or socket)")
    }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ReportFileError(path: path, reason: "cannot read: \(error.localizedDescription)")
    }
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
      throw ReportFileError(
        path: path, reason: "not valid JSON (truncated or corrupt): \(error.localizedDescription)")
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
        reason:
          "schema version \(version), this layout-bench reads \(RunReport.currentSchemaVersion)")
    }
    // Foundation reports a negative or fractional integer only as "not valid JSON", with
    // no path: check the integer fields first, by name.
    if let problem = integerProblem(top) { throw ReportFileError(path: path, reason: problem) }
    let report = try decodeJSON(RunReport.self, from: data, path: path, what: "a report")
    if let problem = report.problem() { throw ReportFileError(path: path, reason: problem) }
    return report
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
      // e.g. "Parsed JSON number <-1> does not fit in UInt64." for a negative seed.
      throw ReportFileError(
        path: path,
        reason: "invalid value at \(describe(context.codingPath)): \(context.debugDescription)")
    } catch {
      throw ReportFileError(path: path, reason: "not \(what): \(error)")
    }
  }

  /// The first integer field of a report's JSON that is not a whole number in range.
  static func integerProblem(_ top: [String: Any]) -> String? {
    func check(_ object: [String: Any], _ key: String, _ path: String, minimum: Double) -> String? {
      guard let value = object[key] else { return nil }  // missing keys: the decoder says so
      guard let number = value as? NSNumber else { return "\(path) is not a number" }
      let double = number.doubleValue
      guard double.rounded() == double, double >= minimum, double <= 1.8e19 else {
        return "\(path) is \(number), not a whole number of at least \(Int(minimum))"
      }
      return nil
    }
    if let p = check(top, "hz", "hz", minimum: 1) { return p }
    guard let results = top["results"] as? [Any] else { return nil }
    let fields: [(String, Double)] = [
      ("seed", 0), ("size", 1), ("perTick", 1), ("views", 0), ("ticks", 1), ("warmupTicks", 0),
      ("overBudget", 0), ("missedFrames", 0),
    ]
    for (i, item) in results.enumerated() {
      guard let result = item as? [String: Any] else { return "results[\(i)] is not an object" }
      for (key, minimum) in fields {
        if let p = check(result, key, "results[\(i)].\(key)", minimum: minimum) { return p }
      }
      for (k, round) in (result["rounds"] as? [Any] ?? []).enumerated() {
        guard let round = round as? [String: Any] else {
          return "results[\(i)].rounds[\(k)] is not an object"
        }
        if let p = check(round, "ticks", "results[\(i)].rounds[\(k)].ticks", minimum: 1) {
          return p
        }
      }
    }
    return nil
  }

  private static func describe(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text.isEmpty ? "the top level" : text
  }

  /// Writes to a temporary file in the same directory, then renames it over `path`: the
  /// old file stays whole until the new one is complete.
  public static func writeAtomically(_ text: String, to path: String) throws(ReportFileError) {
    do throws(AtomicFile.Failure) { try AtomicFile.write(text, to: path) } catch {
      throw ReportFileError(path: path, reason: "cannot write: \(error.reason)")
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

  /// Why a baseline could not be saved here (checked before a run), or nil: the directory,
  /// or the nearest existing folder above it, must be a writable directory.
  public func problemWriting() -> String? {
    var path = URL(fileURLWithPath: directory).standardizedFileURL.path
    while true {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else { return "\(directory): \(path) is not a directory" }
        if let reason = AtomicFile.creationProblem(in: path) {
          return "\(directory): \(path) is not writable (\(reason))"
        }
        return nil
      }
      let parent = (path as NSString).deletingLastPathComponent
      if parent == path || parent.isEmpty { return "\(directory): no existing parent folder" }
      path = parent
    }
  }

  public func save(_ report: RunReport, as name: String) throws(ReportFileError) {
    guard Self.isValidName(name) else {
      throw ReportFileError(
        path: name, reason: "invalid baseline name (use letters, digits, . _ -)")
    }
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw ReportFileError(path: directory, reason: "cannot create: \(error.localizedDescription)")
    }
    AtomicFile.removeStaleTemporaries(in: directory)
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
      throw ReportFileError(
        path: path(of: name), reason: "cannot delete: \(error.localizedDescription)")
    }
  }
}
