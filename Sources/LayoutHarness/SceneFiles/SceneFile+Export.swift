import LayoutModel

extension SceneFile {
  /// A scene built in Swift, as a scene file: written out as its JSON document and read
  /// back, so it has the same checks, content hash and key as the same scene in a file.
  /// - Parameters:
  ///   - name: keys its results (1 to 64 letters, digits, `.`, `_`, `-`).
  ///   - file: the path where `document(...).prettyText` of it is saved, if it is: results
  ///     record it, so that a live `compare` can read it again. Without one, results say it
  ///     was built in Swift (compare their report files instead).
  /// - Throws: ``SceneFileError`` for anything a file with the same content would be refused
  ///   for, and for a constraint whose anchors' names, read back from where it is
  ///   declared, would name other views than the ones it holds (give views unique names).
  public init(
    name: String, scene: Scene, workload: Workload, file: String? = nil
  ) throws(SceneFileError) {
    let document = Self.document(name: name, scene: scene, workload: workload)
    let origin = file ?? Self.builtInSwift(name)
    self = try Self.parse(Array(document.prettyText.utf8), file: origin)
    try Self.checkSameConstraints(scene, try self.scene(), file: origin)
  }

  /// What a scene built in Swift records as its file.
  static func builtInSwift(_ name: String) -> String { "(built in Swift: \(name))" }

  /// Names are how a file refers to views: a scene built in Swift whose names, resolved
  /// from where a constraint is declared, reach other views than its ids did would be
  /// measured with other constraints than it was built with.
  private static func checkSameConstraints(_ built: Scene, _ read: Scene, file: String)
    throws(SceneFileError)
  {
    var order: [Int: Int] = [:]
    var builtNodes: [Scene.Node] = []
    built.forEachNode { node in
      order[node.id] = builtNodes.count + 1  // read back, ids are document order from 1
      builtNodes.append(node)
    }
    var readNodes: [Scene.Node] = []
    read.forEachNode { readNodes.append($0) }
    for (a, b) in zip(builtNodes, readNodes) {
      for (c, d) in zip(a.constraints, b.constraints) {
        let same = order[c.first] == d.first && c.second.map { order[$0] } == d.second
        guard same else {
          throw SceneFileError(
            file: file, path: d.source ?? "$",
            reason: "constraint \(c.identifier) of \(a.name) names its views by name, and from "
              + "where it is declared a name reaches another view of that name: give the "
              + "views unique names")
        }
      }
    }
  }

  /// The built-in scenario's scene as a scene file (its ticks recorded as the built-in
  /// workload, with the random stream where generating the scene left it), so that running
  /// the file does exactly what running the scenario does. A scene file's scenario gives
  /// its own document back, expanded at the scenario's size.
  public static func exporting(_ scenario: Scenario) throws(SceneFileError) -> JSONValue {
    if let file = scenario.file {
      return document(
        name: file.name, scene: try file.scene(size: scenario.size), workload: file.workload)
    }
    let (scene, generator) = scenario.makeScene()
    return document(
      name: scenario.sceneName, scene: scene,
      workload: .builtin(
        mutation: scenario.mutation, perTick: scenario.perTick, seed: scenario.seed,
        size: scenario.size, stream: generator.rng.state),
      description:
        "layout-bench scene export --shape \(scenario.shape) --size \(scenario.size) "
        + "--mutation \(scenario.mutation) --per-tick \(scenario.perTick) --seed \(scenario.seed)")
  }

  /// The JSON document of a scene and its ticks.
  public static func document(
    name: String, scene: Scene, workload: Workload, description: String? = nil
  ) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("format", .string(formatName)), ("version", .number(Double(currentVersion))),
      ("name", .string(name)),
    ]
    if let description { members.append(("description", .string(description))) }
    members.append(("window", size(scene.windowSize)))
    members.append(("root", node(scene.root, in: scene)))
    members.append(("ticks", ticks(workload)))
    return .object(members)
  }

  private static func number(_ value: Double) -> JSONValue { .number(value) }

  private static func size(_ size: Size) -> JSONValue {
    .object([("width", .number(size.width)), ("height", .number(size.height))])
  }

  private static func node(_ node: Scene.Node, in scene: Scene) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = []
    func add(_ key: String, _ value: JSONValue) { members.append((key, value)) }
    switch node.content {
    case .label(let text, let style):
      add("kind", .string("label"))
      add("name", .string(node.name))
      add("text", .string(text))
      if style == .title {
        add("style", .string("title"))
      } else if style == .caption {
        add("style", .string("caption"))
      } else if style != .body {
        add(
          "style",
          .object([
            ("glyphAdvance", .number(style.glyphAdvance)),
            ("lineHeight", .number(style.lineHeight)),
          ]))
      }
    case .image(let size):
      add("kind", .string("image"))
      add("name", .string(node.name))
      add("width", .number(size.width))
      add("height", .number(size.height))
    case .stack(let spec, _):
      add("kind", .string("stack"))
      add("name", .string(node.name))
      add("axis", .string(spec.axis.rawValue))
      if spec.spacing != 0 { add("spacing", .number(spec.spacing)) }
      if spec.alignment != .leading { add("alignment", .string(spec.alignment.rawValue)) }
      let i = spec.insets
      if i != .zero {
        if i.top == i.left && i.left == i.bottom && i.bottom == i.right {
          add("insets", .number(i.top))
        } else {
          add(
            "insets",
            .object([
              ("top", .number(i.top)), ("left", .number(i.left)), ("bottom", .number(i.bottom)),
              ("right", .number(i.right)),
            ]))
        }
      }
    case .list:
      add("kind", .string("list"))
      add("name", .string(node.name))
    case .view:
      add("kind", .string("view"))
      add("name", .string(node.name))
    }
    let p = node.priorities
    if p.huggingHorizontal != nil || p.huggingVertical != nil {
      var axes: [(key: String, value: JSONValue)] = []
      if let v = p.huggingHorizontal { axes.append(("horizontal", .number(v))) }
      if let v = p.huggingVertical { axes.append(("vertical", .number(v))) }
      add("hugging", .object(axes))
    }
    if p.compressionHorizontal != nil || p.compressionVertical != nil {
      var axes: [(key: String, value: JSONValue)] = []
      if let v = p.compressionHorizontal { axes.append(("horizontal", .number(v))) }
      if let v = p.compressionVertical { axes.append(("vertical", .number(v))) }
      add("compression", .object(axes))
    }
    if !node.constraints.isEmpty {
      add("constraints", .array(node.constraints.map { constraint($0, of: node, in: scene) }))
    }
    switch node.content {
    case .stack, .list, .view:
      add("children", .array(node.content.children.map { self.node($0, in: scene) }))
    case .label, .image:
      break
    }
    return .object(members)
  }

  /// A constraint with its anchors named: `self`, or the view's name (which must then name
  /// it where the constraint is declared; the document is read back, so a name that does
  /// not is an error).
  private static func constraint(
    _ c: Scene.Constraint, of node: Scene.Node, in scene: Scene
  ) -> JSONValue {
    func anchor(_ id: Int, _ attribute: LayoutAttribute) -> JSONValue {
      if id == node.id { return .string("self.\(attribute.rawValue)") }
      return .string("\(scene.root.find(id: id)?.name ?? "#\(id)").\(attribute.rawValue)")
    }
    var members: [(key: String, value: JSONValue)] = [
      ("first", anchor(c.first, c.firstAttribute)), ("relation", .string(c.relation.rawValue)),
    ]
    if let second = c.second, let attribute = c.secondAttribute {
      members.append(("second", anchor(second, attribute)))
      if c.multiplier != 1 { members.append(("multiplier", .number(c.multiplier))) }
    }
    if c.constant != 0 { members.append(("constant", .number(c.constant))) }
    if c.priority != 1000 { members.append(("priority", .number(c.priority))) }
    if c.identifier != c.source { members.append(("id", .string(c.identifier))) }
    return .object(members)
  }

  private static func ticks(_ workload: Workload) -> JSONValue {
    switch workload {
    case .builtin(let mutation, let perTick, let seed, let size, let stream):
      return .object([
        ("builtin", .string(mutation.rawValue)), ("perTick", .number(Double(perTick))),
        ("seed", .string(String(seed))), ("size", .number(Double(size))),
        ("stream", .string(String(stream))),
      ])
    case .scripted(let seed, let steps):
      return .object([
        ("seed", .string(String(seed))), ("steps", .array(steps.map(step))),
      ])
    }
  }

  private static func step(_ step: TickStep) -> JSONValue {
    func position(_ at: TickStep.Position) -> JSONValue {
      switch at {
      case .start: .string("start")
      case .end: .string("end")
      case .index(let i): .number(Double(i))
      }
    }
    func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
    var members: [(key: String, value: JSONValue)] = []
    switch step.kind {
    case .text(let labels, let texts, let perTick):
      members = [("kind", .string("text"))]
      if let labels { members.append(("labels", strings(labels))) }
      if let texts { members.append(("texts", strings(texts))) }
      members.append(("perTick", .number(Double(perTick))))
    case .constant(let identifier, let values, let perTick):
      members = [
        ("kind", .string("constant")), ("constraint", .string(identifier)),
        ("values", .array(values.map { .number($0) })), ("perTick", .number(Double(perTick))),
      ]
    case .insert(let into, let template, let at, let perTick):
      members = [
        ("kind", .string("insert")), ("into", .string(into)), ("template", .string(template)),
        ("at", position(at)), ("perTick", .number(Double(perTick))),
      ]
    case .remove(let from, let at, let perTick):
      members = [
        ("kind", .string("remove")), ("from", .string(from)), ("at", position(at)),
        ("perTick", .number(Double(perTick))),
      ]
    case .resize(let sizes):
      members = [("kind", .string("resize")), ("sizes", .array(sizes.map(size)))]
    case .scroll(let list, let step, let limit):
      members = [
        ("kind", .string("scroll")), ("list", .string(list)), ("step", .number(step)),
        ("limit", .number(limit)),
      ]
    }
    return .object(members)
  }
}

extension JSONValue {
  /// The value as a person reads it: two-space indentation, an object or array of
  /// scalars only on one line, keys in the value's order; a final newline.
  public var prettyText: String {
    var out = ""
    writePretty(into: &out, indent: "")
    return out + "\n"
  }

  private var isScalar: Bool {
    switch self {
    case .array, .object: false
    default: true
    }
  }

  private func writePretty(into out: inout String, indent: String) {
    switch self {
    case .null, .bool, .number, .string: writeCanonical(into: &out)
    case .array(let items):
      if items.allSatisfy(\.isScalar) || items.isEmpty {
        out += "["
        for (i, item) in items.enumerated() {
          if i > 0 { out += ", " }
          item.writePretty(into: &out, indent: indent)
        }
        out += "]"
        return
      }
      let inner = indent + "  "
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += inner
        item.writePretty(into: &out, indent: inner)
        out += i + 1 < items.count ? ",\n" : "\n"
      }
      out += indent + "]"
    case .object(let members):
      if members.allSatisfy(\.value.isScalar) {
        out += "{"
        for (i, member) in members.enumerated() {
          if i > 0 { out += ", " }
          Self.writeString(member.key, into: &out)
          out += ": "
          member.value.writePretty(into: &out, indent: indent)
        }
        out += "}"
        return
      }
      let inner = indent + "  "
      out += "{\n"
      for (i, member) in members.enumerated() {
        out += inner
        Self.writeString(member.key, into: &out)
        out += ": "
        member.value.writePretty(into: &out, indent: inner)
        out += i + 1 < members.count ? ",\n" : "\n"
      }
      out += indent + "}"
    }
  }
}
