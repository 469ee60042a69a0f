import LayoutModel

/// One step of a scene file's ticks: every step runs every tick, in file order.
public struct TickStep: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// `perTick` labels (of the given names; nil: any label) get a text from `texts`
    /// (nil: a generated sentence of 1 to 30 words).
    case text(labels: [String]?, texts: [String]?, perTick: Int)
    /// `perTick` of the constraints with this `id` (all when fewer) take the next constant
    /// of `values`, in turn.
    case constant(identifier: String, values: [Double], perTick: Int)
    /// `perTick` new instances of `template` join the container named `into`.
    case insert(into: String, template: String, at: Position, perTick: Int)
    /// `perTick` children of the container named `from` leave (none when it is empty).
    case remove(from: String, at: Position, perTick: Int)
    /// The window takes the next size of `sizes`, in turn.
    case resize(sizes: [Size])
    /// The list named `list` scrolls by `step` points a tick, down to `limit` and back.
    case scroll(list: String, step: Double, limit: Double)
  }

  public enum Position: Hashable, Sendable {
    case start, end
    case index(Int)
  }

  public var kind: Kind
  /// The step's JSON path in its file, for errors.
  public var path: String

  public init(_ kind: Kind, path: String) {
    self.kind = kind
    self.path = path
  }
}

extension SceneFile {
  /// The `ticks` object: `{"seed": S, "steps": [...]}` or a built-in workload.
  static func workload(_ field: JSONField) throws(JSONProblem) -> Workload {
    let object = try field.object(allowed: [
      "seed", "steps", "builtin", "perTick", "size", "stream",
    ])
    if let builtin = object["builtin"] {
      let names = MutationKind.builtIn.map(\.rawValue)
      let mutation = MutationKind(rawValue: try builtin.choice(names))!
      let perTick = try object["perTick"]?.integer(in: 1...RunReport.maximumPerTick) ?? 1
      let seed = try object["seed"]?.uint64() ?? 1
      let size = try object.require("size").integer(in: 1...1_000_000)
      let stream = try object["stream"]?.uint64() ?? seed
      if let steps = object["steps"] {
        throw JSONProblem(steps.path, "give either \"builtin\" or \"steps\", not both")
      }
      return .builtin(mutation: mutation, perTick: perTick, seed: seed, size: size, stream: stream)
    }
    for key in ["perTick", "size", "stream"] {
      if let extra = object[key] {
        throw JSONProblem(extra.path, "\"\(key)\" belongs to a \"builtin\" workload")
      }
    }
    let seed = try object["seed"]?.uint64() ?? 1
    var steps: [TickStep] = []
    for step in try object.require("steps").array(maximum: 1_000) {
      steps.append(try Self.step(step))
    }
    return .scripted(seed: seed, steps: steps)
  }

  private static func step(_ field: JSONField) throws(JSONProblem) -> TickStep {
    guard case .object = field.value else {
      throw JSONProblem(field.path, "expected a step object, found \(field.value.kind)")
    }
    let all = [
      "kind", "labels", "texts", "perTick", "constraint", "values", "into", "from", "template",
      "at", "sizes", "list", "step", "limit",
    ]
    let kind = try field.object(allowed: all).require("kind").choice([
      "text", "constant", "insert", "remove", "resize", "scroll",
    ])
    var keys = ["kind"]
    switch kind {
    case "text": keys += ["labels", "texts", "perTick"]
    case "constant": keys += ["constraint", "values", "perTick"]
    case "insert": keys += ["into", "template", "at", "perTick"]
    case "remove": keys += ["from", "at", "perTick"]
    case "resize": keys += ["sizes"]
    default: keys += ["list", "step", "limit"]
    }
    let object = try field.object(allowed: keys)
    func perTick() throws(JSONProblem) -> Int {
      try object["perTick"]?.integer(in: 1...RunReport.maximumPerTick) ?? 1
    }
    func strings(_ key: String) throws(JSONProblem) -> [String]? {
      guard let list = object[key] else { return nil }
      var result: [String] = []
      for item in try list.array(maximum: 100_000) { result.append(try item.string()) }
      guard !result.isEmpty else { throw JSONProblem(list.path, "an empty list") }
      return result
    }
    func position() throws(JSONProblem) -> TickStep.Position {
      guard let at = object["at"] else { return .end }
      if case .string = at.value {
        return try at.choice(["start", "end"]) == "start" ? .start : .end
      }
      return .index(try at.integer(in: 0...1_000_000))
    }
    let kindValue: TickStep.Kind
    switch kind {
    case "text":
      kindValue = .text(
        labels: try strings("labels"), texts: try strings("texts"), perTick: try perTick())
    case "constant":
      let values = try object.require("values")
      var numbers: [Double] = []
      for item in try values.array(maximum: 100_000) {
        numbers.append(try item.number(in: -1_000_000...1_000_000))
      }
      guard !numbers.isEmpty else { throw JSONProblem(values.path, "an empty list") }
      kindValue = .constant(
        identifier: try object.require("constraint").string(), values: numbers,
        perTick: try perTick())
    case "insert":
      kindValue = .insert(
        into: try object.require("into").string(),
        template: try object.require("template").string(),
        at: try position(), perTick: try perTick())
    case "remove":
      kindValue = .remove(
        from: try object.require("from").string(), at: try position(), perTick: try perTick())
    case "resize":
      let sizes = try object.require("sizes")
      var list: [Size] = []
      for item in try sizes.array(maximum: 10_000) {
        list.append(try Self.size(item, range: 1...100_000))
      }
      guard !list.isEmpty else { throw JSONProblem(sizes.path, "an empty list") }
      kindValue = .resize(sizes: list)
    default:
      kindValue = .scroll(
        list: try object.require("list").string(),
        step: try object["step"]?.number(in: 0...100_000) ?? 40,
        limit: try object["limit"]?.number(in: 0...10_000_000) ?? 2_000)
    }
    return TickStep(kindValue, path: field.path.text)
  }
}

extension TickStep {
  /// Checks that what the step names exists in `scene` (the file's scene at `size`), and
  /// that a template it inserts expands on its own; returns the instance it inserts.
  func check(in scene: Scene, file: SceneFile, size: Int?) throws(JSONProblem) -> Scene? {
    let path = JSONPath(text: path)
    switch kind {
    case .text(let labels, _, _):
      let found = SceneLookup(scene).labels(named: labels)
      guard !found.isEmpty else {
        let what = labels.map { "named \($0.joined(separator: ", "))" } ?? "at all"
        throw JSONProblem(
          path.member(labels == nil ? "kind" : "labels"), "the scene has no label \(what)")
      }
      if let labels {
        let names = SceneLookup(scene).labelNames
        for (i, name) in labels.enumerated() where !names.contains(name) {
          throw JSONProblem(path.member("labels").index(i), "no label named \"\(name)\"")
        }
      }
    case .constant(let identifier, _, _):
      guard !SceneLookup(scene).constraints(identifier: identifier).isEmpty else {
        throw JSONProblem(path.member("constraint"), "no constraint has the id \"\(identifier)\"")
      }
    case .insert(let into, let template, _, _):
      let container = try SceneLookup(scene).container(named: into, at: path.member("into"))
      guard file.templates[template] != nil else {
        throw JSONProblem(path.member("template"), "no template \"\(template)\"")
      }
      let instance = try file.instance(
        of: template, firstID: scene.maxID + 1, superview: container.id, size: size)
      return Scene(windowSize: scene.windowSize, root: instance)
    case .remove(let from, _, _):
      _ = try SceneLookup(scene).container(named: from, at: path.member("from"))
    case .resize:
      break
    case .scroll(let list, _, _):
      let container = try SceneLookup(scene).container(named: list, at: path.member("list"))
      guard case .list = container.content else {
        throw JSONProblem(path.member("list"), "\"\(list)\" is not a list")
      }
    }
    return nil
  }
}

/// Finds a scene's nodes by name, for tick steps.
struct SceneLookup {
  let scene: Scene

  init(_ scene: Scene) { self.scene = scene }

  /// Labels of these names (every label when nil), in document order.
  func labels(named names: [String]?) -> [Int] {
    var result: [Int] = []
    let wanted = names.map(Set.init)
    scene.forEachNode { node in
      guard case .label = node.content else { return }
      if wanted?.contains(node.name) ?? true { result.append(node.id) }
    }
    return result
  }

  var labelNames: Set<String> {
    var result: Set<String> = []
    scene.forEachNode { if case .label = $0.content { result.insert($0.name) } }
    return result
  }

  /// The nodes that declare a constraint of this identifier.
  func constraints(identifier: String) -> [Int] {
    var result: [Int] = []
    scene.forEachNode { node in
      if node.constraints.contains(where: { $0.identifier == identifier }) {
        result.append(node.id)
      }
    }
    return result
  }

  /// The one container (stack, list or plain view) of this name.
  func container(named name: String, at path: JSONPath) throws(JSONProblem) -> Scene.Node {
    var found: [Scene.Node] = []
    scene.forEachNode { node in
      guard node.name == name else { return }
      switch node.content {
      case .stack, .list, .view: found.append(node)
      case .label, .image: break
      }
    }
    guard found.count <= 1 else {
      throw JSONProblem(path, "ambiguous: \(found.count) containers are named \"\(name)\"")
    }
    guard let node = found.first else { throw JSONProblem(path, "no container named \"\(name)\"") }
    return node
  }
}
