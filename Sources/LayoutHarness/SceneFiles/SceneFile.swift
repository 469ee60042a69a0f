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
  /// Declared constraints a file may expand to.
  public static let maximumConstraints = 4_000_000
  /// Levels of views a file may nest (reading recurses once per level; a UI is rarely a
  /// tenth as deep).
  public static let maximumDepth = 250

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

  /// Expands the file's scene at its default size and checks its ticks against it
  /// (``checkTicks(in:size:)``). Returns why frame layout cannot lay the scene out, or nil.
  private func check() throws(JSONProblem) -> String? {
    try checkTicks(in: try expand(size: defaultSize), size: defaultSize)
  }

  /// Ticks to try on a scene with constraints before a run (`constant` steps cycle through
  /// their values; most files have a handful).
  static let trialTicks = 8

  /// Checks `scene` (the file's scene at `size`) against the ticks: what the steps name
  /// exists (once), the templates they insert expand at this size, a built-in workload's
  /// mutations apply; a scene with constraints (or inserting them) is also built and laid
  /// out under Auto Layout and given ``trialTicks`` ticks, so that conflicting required
  /// constraints are named (with their path, and the step that made them conflict) here
  /// rather than in the middle of a run. Returns why frame layout cannot lay the scene or
  /// an instance its ticks insert out, or nil.
  func checkTicks(in scene: Scene, size: Int?) throws(JSONProblem) -> String? {
    var frameProblem = scene.frameLayoutProblem
    var constrained = false
    scene.forEachNode { if !$0.constraints.isEmpty { constrained = true } }
    let ticks = JSONPath.root.member("ticks")
    var needed = scene.minimumWidth
    func roomy(_ width: Double, _ path: JSONPath) throws(JSONProblem) {
      guard width + 1e-9 < needed else { return }
      throw JSONProblem(
        path,
        "a window \(JSONValue.numberText(width)) points wide is narrower than the scene needs "
          + "(\(JSONValue.numberText(needed)): its stacks' insets and spacings and its images' "
          + "widths); views would get negative widths, which the strategies resolve differently")
    }
    switch workload {
    case .scripted(_, let steps):
      for step in steps {
        guard let instance = try step.check(in: scene, file: self, size: size) else { continue }
        frameProblem =
          frameProblem
          ?? instance.frameLayoutProblem.map {
            "\($0) (inserted by \(step.path))"
          }
        needed = max(needed, instance.minimumWidth)
        instance.forEachNode { if !$0.constraints.isEmpty { constrained = true } }
      }
      try roomy(windowSize.width, .root.member("window").member("width"))
      for step in steps {
        guard case .resize(let sizes) = step.kind else { continue }
        for (i, size) in sizes.enumerated() {
          try roomy(
            size.width, JSONPath(text: step.path).member("sizes").index(i).member("width"))
        }
      }
    case .builtin(let mutation, _, _, _, _):
      if constrained, [.churn, .reparent, .removal].contains(mutation) {
        throw JSONProblem(
          ticks.member("builtin"),
          "the built-in \(mutation) workload moves or rebuilds views, which would drop the "
            + "constraints this scene declares: use steps")
      }
      // Its mutations are generated from the scene's structure: a few ticks must apply.
      var copy = scene
      var (_, generated) = Self.builtinWorkload(self, scene: scene, size: size)
      for tick in 0..<4 {
        for mutation in generated.next() {
          do throws(SceneMutationError) { try copy.apply(mutation) } catch {
            throw JSONProblem(
              ticks.member("builtin"),
              "the built-in \(mutation) workload does not fit this scene (tick \(tick): \(error)); "
                + "it is for scenes `scene export` wrote")
          }
        }
      }
    }
    guard constrained else { return frameProblem }
    try trialRun(scene, size: size)
    return frameProblem
  }

  /// The built-in workload of a file that records one, over `scene`.
  static func builtinWorkload(_ file: SceneFile, scene: Scene, size: Int?) -> (
    Scenario, MutationWorkload
  ) {
    guard
      case .builtin(let mutation, let perTick, let seed, let builtinSize, let stream) =
        file.workload
    else { preconditionFailure("a built-in workload") }
    // Its random stream where generating the scene left it: the exported scene's ticks are
    // the built-in scenario's.
    var generator = SceneGenerator(seed: stream, windowSize: file.windowSize)
    generator.continueIDs(after: scene)
    let scenario = Scenario(
      shape: .scene, size: builtinSize, mutation: mutation, perTick: perTick, seed: seed)
    return (scenario, MutationWorkload(scenario: scenario, scene: scene, generator: generator))
  }

  /// Builds `scene` under Auto Layout, lays it out, and runs ``trialTicks`` ticks of the
  /// file's steps; the first error is thrown at the path of the constraint it names, or of
  /// the step whose change failed.
  private func trialRun(_ scene: Scene, size: Int?) throws(JSONProblem) {
    let tree: SceneTree
    do throws(LayoutError) {
      tree = try SceneTree(scene: scene, mode: .autoLayout)
      try tree.window.runUpdateCycle()
    } catch {
      throw JSONProblem(constraintPath(in: error.description, scene: scene), error.description)
    }
    guard case .scripted(let seed, let steps) = workload, !steps.isEmpty else { return }
    var shadow = scene
    var ticks = ScriptedWorkload(file: self, seed: seed, steps: steps, scene: scene, size: size)
    for tick in 0..<Self.trialTicks {
      let mutations = ticks.next()
      if let failure = ticks.failure { throw JSONProblem(.root.member("ticks"), failure) }
      for (mutation, origin) in zip(mutations, ticks.origins) {
        do throws(HandlerError) {
          try tree.apply(mutation)
          try? shadow.apply(mutation)
          do throws(LayoutError) { try tree.window.runUpdateCycle() } catch {
            throw .layout(error)
          }
        } catch {
          // The constraint refused, if declared; an implicit one is the step's doing.
          let at = constraintPath(in: error.description, scene: shadow, refusedOnly: true)
          throw JSONProblem(
            at.text == "$" ? JSONPath(text: origin) : at,
            "at tick \(tick), after \(origin): \(error.description)")
        }
      }
    }
  }

  /// The JSON path of the declared constraint an error names first (a constraint's
  /// identifier is its `id` or its path), or `$`. The constraint refused comes first in
  /// the message, then those it conflicts with: a refused implicit constraint (an image's
  /// size) is reported at the declared constraint it conflicts with, unless `refusedOnly`
  /// (a tick's step caused it: then `$`, and the caller names the step).
  private func constraintPath(
    in message: String, scene: Scene, refusedOnly: Bool = false
  ) -> JSONPath {
    let message =
      refusedOnly
      ? String(message[..<(message.range(of: " (conflicts with ")?.lowerBound ?? message.endIndex)])
      : message
    var found: (at: String.Index, source: String?)?
    scene.forEachNode { node in
      for constraint in node.constraints {
        guard let range = message.range(of: "[\(constraint.identifier)]") else { continue }
        if found.map({ range.lowerBound < $0.at }) ?? true {
          found = (range.lowerBound, constraint.source)
        }
      }
    }
    return JSONPath(text: found?.source ?? "$")
  }

  /// ``checkTicks(in:size:)`` with the file's name on its errors.
  func checkedTicks(in scene: Scene, size: Int?) throws(SceneFileError) -> String? {
    do throws(JSONProblem) { return try checkTicks(in: scene, size: size) } catch {
      throw SceneFileError(file: file, path: error.path.text, reason: error.reason)
    }
  }

  /// The scene at `size` (the default size when nil; a file without one ignores it).
  /// - Throws: ``SceneFileError`` as ``load(path:)``.
  public func scene(size: Int? = nil) throws(SceneFileError) -> Scene {
    do throws(JSONProblem) { return try expand(size: size ?? defaultSize) } catch {
      throw SceneFileError(file: file, path: error.path.text, reason: error.reason)
    }
  }

  /// The views the scene has at `size` (its default size when nil), counted from the file
  /// without building anything (capped at a billion).
  public func viewCount(size: Int?) -> Int { weight(size: size).views }

  /// Why the scene cannot be expanded at `size`, counted without building it, or nil.
  public func sizeProblem(_ size: Int) -> String? {
    guard (1...1_000_000).contains(size) else {
      return "size must be from 1 to 1000000 (got \(size))"
    }
    let weight = weight(size: size)
    if weight.tooDeep {
      return "the view tree is nested deeper than \(Self.maximumDepth) levels"
    }
    if weight.views > Self.maximumViews {
      return "at size \(size) the scene has \(weight.views) views, beyond the "
        + "\(Self.maximumViews) a scene may have"
    }
    if weight.constraints > Self.maximumConstraints {
      return "at size \(size) the scene declares \(weight.constraints) constraints, beyond the "
        + "\(Self.maximumConstraints) a scene may have"
    }
    return nil
  }
}
