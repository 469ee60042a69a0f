internal import Foundation
import LayoutModel

/// A scene read from a JSON file (the format is in the README, "Scene files"): the view
/// tree, with templates repeated N times, constraints between named views, and what each
/// tick changes. Results of a scene file are keyed by its ``name`` and checked against its
/// content ``hash``, so a baseline of an older version of the file is never compared
/// silently with a run of the new one.
public struct SceneFile: Sendable, Hashable, CustomStringConvertible {
  public static let formatName = "layout-bench-scene"
  public static let currentVersion = 1
  /// Views a file may expand to (a `repeat` beyond it is refused before anything is built).
  public static let maximumViews = 2_000_000

  /// The path the file was read from (as given), for errors and to read it again.
  public let file: String
  public let name: String
  /// FNV-1a (64 bits) of the document's canonical text: key order and spacing do not
  /// change it, any value does.
  public let hash: String
  /// The `size` the file's `"count": "size"` repeats take by default; nil when no repeat
  /// takes the size (the scene has one size).
  public let defaultSize: Int?
  public let windowSize: Size
  public let workload: Workload
  /// Why bottom-up sizing cannot lay the scene out (``Scene/frameLayoutProblem``), or nil.
  public private(set) var frameLayoutProblem: String?
  let templates: [String: JSONField]
  let root: JSONField

  /// What each tick changes.
  public enum Workload: Hashable, Sendable {
    /// The file's own tick steps, every step every tick, drawn from `seed`.
    case scripted(seed: UInt64, steps: [TickStep])
    /// A built-in mutation workload (``MutationKind``) as `scene export` writes it: `size`
    /// is the built-in scenario's, `stream` the position of its random stream once the
    /// scene was generated, so the file's ticks are the built-in scenario's exactly.
    case builtin(mutation: MutationKind, perTick: Int, seed: UInt64, size: Int, stream: UInt64)
  }

  public static func == (a: SceneFile, b: SceneFile) -> Bool {
    a.file == b.file && a.hash == b.hash
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(file)
    hasher.combine(hash)
  }

  public var description: String { "\(name) (\(file), \(hash))" }

  /// Reads and checks a scene file: its syntax, every value and name, and (at its default
  /// size) that it expands to a scene whose constraints are satisfiable.
  /// - Throws: ``SceneFileError`` naming the file, the JSON path and the reason.
  public static func load(path: String) throws(SceneFileError) -> SceneFile {
    guard let data = FileManager.default.contents(atPath: path) else {
      let exists = FileManager.default.fileExists(atPath: path)
      throw SceneFileError(
        file: path, path: "$", reason: exists ? "cannot read the file" : "no such file")
    }
    return try parse([UInt8](data), file: path)
  }

  /// Parses and checks a scene document; `file` names it in errors.
  public static func parse(_ bytes: [UInt8], file: String) throws(SceneFileError)
    -> SceneFile
  {
    let document: JSONValue
    do throws(JSONSyntaxError) { document = try JSONValue.parse(bytes) } catch {
      throw SceneFileError(
        file: file, path: "line \(error.line), column \(error.column)", reason: error.reason)
    }
    do throws(JSONProblem) {
      var scene = try SceneFile(document: document, file: file)
      scene.frameLayoutProblem = try scene.check()
      return scene
    } catch {
      throw SceneFileError(file: file, path: error.path.text, reason: error.reason)
    }
  }

  private init(document: JSONValue, file: String) throws(JSONProblem) {
    self.file = file
    let top = try JSONField(value: document, path: .root).object(allowed: [
      "format", "version", "name", "description", "window", "size", "templates", "root",
      "ticks",
    ])
    let format = try top.require("format")
    guard try format.string() == Self.formatName else {
      throw JSONProblem(format.path, "expected \"\(Self.formatName)\"")
    }
    let version = try top.require("version")
    guard try version.integer(in: 0...1_000_000) == Self.currentVersion else {
      throw JSONProblem(
        version.path, "this layout-bench reads version \(Self.currentVersion) scene files")
    }
    let nameField = try top.require("name")
    name = try nameField.string()
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    guard (1...64).contains(name.count), name.allSatisfy(allowed.contains) else {
      throw JSONProblem(
        nameField.path, "a name is 1 to 64 letters, digits, '.', '_' or '-' (it keys results)")
    }
    if let description = top["description"] { _ = try description.string() }
    if let window = top["window"] {
      windowSize = try Self.size(window, range: 1...100_000)
    } else {
      windowSize = SceneGenerator.defaultWindowSize
    }
    defaultSize = try top["size"]?.integer(in: 1...1_000_000)
    var templates: [String: JSONField] = [:]
    if let field = top["templates"] {
      for member in try field.anyObject().members {
        templates[member.key] = JSONField(value: member.value, path: field.path.member(member.key))
      }
    }
    self.templates = templates
    root = try top.require("root")
    if let ticks = top["ticks"] {
      workload = try Self.workload(ticks)
    } else {
      workload = .scripted(seed: 1, steps: [])
    }
    hash = Self.fnv1a(document.canonicalText)
  }

  /// A `{"width": W, "height": H}` object.
  static func size(_ field: JSONField, range: ClosedRange<Double>) throws(JSONProblem) -> Size {
    let object = try field.object(allowed: ["width", "height"])
    return Size(
      width: try object.require("width").number(in: range),
      height: try object.require("height").number(in: range))
  }

  static func fnv1a(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Expands the file's scene at its default size and checks the tick steps against it;
  /// a scene with constraints is also built and laid out once under Auto Layout, so that
  /// conflicting required constraints are named here rather than in the middle of a run.
  /// Returns why frame layout cannot lay the scene out, or nil.
  private func check() throws(JSONProblem) -> String? {
    let scene = try expand(size: defaultSize)
    if case .scripted(_, let steps) = workload {
      for step in steps { try step.check(in: scene, file: self) }
    }
    var constrained = false
    scene.forEachNode { if !$0.constraints.isEmpty { constrained = true } }
    guard constrained else { return scene.frameLayoutProblem }
    do throws(LayoutError) {
      let tree = try SceneTree(scene: scene, mode: .autoLayout)
      try tree.window.runUpdateCycle()
    } catch {
      throw JSONProblem(constraintPath(in: error.description, scene: scene), error.description)
    }
    return scene.frameLayoutProblem
  }

  /// The JSON path of the first constraint an error names (a constraint's identifier is
  /// its `id` or its path), or `$`.
  private func constraintPath(in message: String, scene: Scene) -> JSONPath {
    var found: String?
    scene.forEachNode { node in
      for constraint in node.constraints where found == nil {
        if message.contains("[\(constraint.identifier)]") { found = constraint.source }
      }
    }
    return JSONPath(text: found ?? "$")
  }

  /// The scene at `size` (the default size when nil; a file without one ignores it).
  /// - Throws: ``SceneFileError`` as ``load(path:)``.
  public func scene(size: Int? = nil) throws(SceneFileError) -> Scene {
    do throws(JSONProblem) { return try expand(size: size ?? defaultSize) } catch {
      throw SceneFileError(file: file, path: error.path.text, reason: error.reason)
    }
  }

  /// The views the scene has at `size`, counted without building it.
  public func viewCount(size: Int?) -> Int {
    (try? expand(size: size ?? defaultSize).viewCount) ?? 0
  }
}
