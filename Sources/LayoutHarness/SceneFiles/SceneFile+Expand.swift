import LayoutModel

extension SceneFile {
  /// The scene at `size`, ids from 1 in document order.
  func expand(size: Int?) throws(JSONProblem) -> Scene {
    var expander = SceneExpander(file: self, size: size, firstID: 1)
    try expander.node(root, parent: -1, depth: 1)
    return Scene(windowSize: windowSize, root: try expander.assemble(superview: nil))
  }

  /// A new instance of `template` for a tick that inserts it, ids from `firstID`; its
  /// constraints may name its own views and (as `superview`) the container it joins.
  func instance(of template: String, firstID: Int, superview: Int, size: Int?)
    throws(JSONProblem) -> Scene.Node
  {
    guard let field = templates[template] else {
      throw JSONProblem(.root.member("templates"), "no template \"\(template)\"")
    }
    var expander = SceneExpander(file: self, size: size, firstID: firstID)
    expander.active = [template]
    try expander.node(field, parent: -1, depth: 1)
    return try expander.assemble(superview: superview)
  }

  /// The views and declared constraints the scene has at `size`, counted from the JSON
  /// without building anything (capped at a billion).
  func weight(size: Int?) -> SceneExpander.Weight {
    var expander = SceneExpander(file: self, size: size ?? defaultSize, firstID: 1)
    var visiting: Set<String> = []
    return expander.weight(of: root.value, visiting: &visiting, depth: 1)
  }

  /// The template names, for messages.
  var templateNames: String { templates.keys.sorted().joined(separator: ", ") }
}

/// Turns a scene file's node objects into scene nodes: templates repeated, names given,
/// and constraints resolved from view names to ids once the whole tree exists.
struct SceneExpander {
  private struct Record {
    var id: Int
    var name: String
    var content: Scene.Content
    var parent: Int
    /// One past the last record of this node's subtree (records are in document order).
    var end: Int
    var priorities: Scene.ContentPriorities
    var constraints: [JSONField]
  }

  let file: SceneFile
  let size: Int?
  private var nextID: Int
  private var records: [Record] = []
  /// Templates being expanded, outermost first (a template inside itself is a cycle).
  var active: [String] = []
  /// Views and constraints per instance of each template counted so far.
  private var templateWeights: [String: Weight] = [:]
  /// Constraints declared by the records so far.
  private var constraintCount = 0

  init(file: SceneFile, size: Int?, firstID: Int) {
    self.file = file
    self.size = size
    nextID = firstID
  }

  private static let common = ["kind", "name", "constraints", "hugging", "compression"]

  /// Appends the records of one node object (a `repeat` only inside `children`), `depth`
  /// levels below the window.
  mutating func node(_ field: JSONField, parent: Int, depth: Int) throws(JSONProblem) {
    guard case .object = field.value else {
      throw JSONProblem(field.path, "expected a view object, found \(field.value.kind)")
    }
    let kindField = try field.object(allowed: Self.common + Self.allKeys).require("kind")
    let kind = try kindField.choice(["label", "image", "stack", "list", "view", "repeat"])
    if kind == "repeat" {
      guard parent >= 0 else {
        throw JSONProblem(kindField.path, "the root is one view: repeat views inside it")
      }
      try repeatTemplate(field, parent: parent, depth: depth)
      return
    }
    // Expansion recurses once per level: the limit keeps it well inside a thread's stack.
    guard depth <= SceneFile.maximumDepth else {
      throw JSONProblem(
        field.path, "the view tree is nested deeper than \(SceneFile.maximumDepth) levels")
    }
    var keys = Self.common
    switch kind {
    case "label": keys += ["text", "style"]
    case "image": keys += ["width", "height"]
    case "stack": keys += ["axis", "spacing", "alignment", "insets", "children"]
    default: keys += ["children"]
    }
    let object = try field.object(allowed: keys)
    guard records.count < SceneFile.maximumViews else {
      throw JSONProblem(field.path, "the scene expands beyond \(SceneFile.maximumViews) views")
    }
    let id = nextID
    nextID += 1
    // A default name that does not depend on the id: an instance a tick inserts later
    // (with other ids) must resolve its constraints' names exactly as when it was checked.
    let name = try object["name"]?.string() ?? kind
    let content: Scene.Content
    switch kind {
    case "label":
      content = .label(
        text: try object.require("text").string(), style: try Self.style(object["style"]))
    case "image":
      content = .image(
        Size(
          width: try object.require("width").number(in: 0...100_000),
          height: try object.require("height").number(in: 0...100_000)))
    case "stack":
      let axis = try object["axis"]?.choice(StackView.Axis.allCases.map(\.rawValue)) ?? "vertical"
      let alignment =
        try object["alignment"]?.choice(StackView.Alignment.allCases.map(\.rawValue)) ?? "leading"
      content = .stack(
        Scene.StackSpec(
          axis: StackView.Axis(rawValue: axis)!,
          spacing: try object["spacing"]?.number(in: 0...100_000) ?? 0,
          alignment: StackView.Alignment(rawValue: alignment)!,
          insets: try Self.insets(object["insets"])),
        children: [])
    case "list": content = .list(children: [])
    default: content = .view(children: [])
    }
    let index = records.count
    let constraints = try object["constraints"]?.array(maximum: 10_000) ?? []
    constraintCount += constraints.count
    guard constraintCount <= SceneFile.maximumConstraints else {
      throw JSONProblem(
        field.path,
        "the scene expands beyond \(SceneFile.maximumConstraints) declared constraints")
    }
    records.append(
      Record(
        id: id, name: name, content: content, parent: parent, end: index + 1,
        priorities: try Self.priorities(object["hugging"], object["compression"]),
        constraints: constraints))
    if let children = object["children"] {
      for child in try children.array() { try node(child, parent: index, depth: depth + 1) }
    }
    records[index].end = records.count
  }

  private static let allKeys = [
    "text", "style", "width", "height", "axis", "spacing", "alignment", "insets", "children",
    "template", "count",
  ]

  private mutating func repeatTemplate(_ field: JSONField, parent: Int, depth: Int)
    throws(JSONProblem)
  {
    let object = try field.object(allowed: ["kind", "template", "count"])
    let templateField = try object.require("template")
    let template = try templateField.string()
    guard let body = file.templates[template] else {
      let known = file.templateNames
      throw JSONProblem(
        templateField.path,
        "no template \"\(template)\""
          + (known.isEmpty ? " (the file has none)" : " (known: \(known))"))
    }
    if case .string("repeat")? = body.value["kind"] {
      throw JSONProblem(
        body.path.member("kind"), "a template is one view: put the repeat inside its children")
    }
    if active.contains(template) {
      throw JSONProblem(
        templateField.path,
        "a cycle in the tree: template \((active + [template]).joined(separator: " > "))")
    }
    let countField = try object.require("count")
    let count: Int
    if case .string = countField.value {
      _ = try countField.choice(["size"])
      guard let size else {
        throw JSONProblem(
          countField.path, "\"size\" needs a top-level \"size\" (the default count)")
      }
      count = size
    } else {
      count = try countField.integer(in: 0...1_000_000)
    }
    // Counted before anything is built: templates of repeats multiply, and a few lines
    // of JSON must not allocate millions of views before the limit is noticed.
    var counting: Set<String> = []
    let one = weight(of: template, visiting: &counting, depth: depth)
    if one.tooDeep {
      throw JSONProblem(
        templateField.path,
        "the view tree is nested deeper than \(SceneFile.maximumDepth) levels through "
          + "template \"\(template)\"")
    }
    let views = Self.saturating(count, one.views)
    let constraints = Self.saturating(count, one.constraints)
    if records.count + views > SceneFile.maximumViews {
      throw JSONProblem(
        countField.path,
        "the repeat expands to \(Self.amount(views)) views, beyond the "
          + "\(SceneFile.maximumViews) a scene may have")
    }
    if constraintCount + constraints > SceneFile.maximumConstraints {
      throw JSONProblem(
        countField.path,
        "the repeat expands to \(Self.amount(constraints)) declared constraints, beyond the "
          + "\(SceneFile.maximumConstraints) a scene may have")
    }
    active.append(template)
    for _ in 0..<count { try node(body, parent: parent, depth: depth) }
    active.removeLast()
  }

  private static func amount(_ n: Int) -> String { n >= huge ? "more than a billion" : "\(n)" }

  private static let huge = 1_000_000_000

  /// `a * b`, capped at a billion (no overflow, however the repeats nest).
  private static func saturating(_ a: Int, _ b: Int) -> Int {
    guard a > 0, b > 0 else { return 0 }
    return a > huge / b ? huge : min(a * b, huge)
  }

  /// The views and declared constraints one instance of `template` expands to, counted
  /// from the JSON alone (malformed parts count as nothing: expanding them reports them;
  /// a cycle counts nothing, and is reported when expanded). `depth` is the view level of
  /// the template's root below where the count started: a count that goes deeper than a
  /// scene may nest stops there and says so (`tooDeep`), so that the walk's own recursion
  /// stays bounded however templates chain.
  private mutating func weight(
    of template: String, visiting: inout Set<String>, depth: Int
  ) -> Weight {
    if let known = templateWeights[template] { return known }
    guard let body = file.templates[template], visiting.insert(template).inserted else {
      return Weight()
    }
    let weight = weight(of: body.value, visiting: &visiting, depth: depth)
    visiting.remove(template)
    // A cut-short count depends on where it started: only a complete one is reused.
    if !weight.tooDeep { templateWeights[template] = weight }
    return weight
  }

  /// The views and constraints `value` (a view or a repeat) expands to, capped at a billion.
  mutating func weight(of value: JSONValue, visiting: inout Set<String>, depth: Int) -> Weight {
    guard case .string(let kind)? = value["kind"] else { return Weight() }
    if kind == "repeat" {
      guard case .string(let template)? = value["template"] else { return Weight() }
      let count: Int
      switch value["count"] {
      case .number(let n)? where n.isFinite && n >= 0:
        count = n >= Double(Self.huge) ? Self.huge : Int(n)
      case .string("size")?: count = size ?? 0
      default: count = 0
      }
      let one = weight(of: template, visiting: &visiting, depth: depth)
      return Weight(
        views: Self.saturating(count, one.views),
        constraints: Self.saturating(count, one.constraints), tooDeep: one.tooDeep)
    }
    guard depth <= SceneFile.maximumDepth else { return Weight(tooDeep: true) }
    var total = Weight(views: 1, constraints: 0)
    if case .array(let constraints)? = value["constraints"] {
      total.constraints = constraints.count
    }
    if case .array(let children)? = value["children"] {
      for child in children {
        let more = weight(of: child, visiting: &visiting, depth: depth + 1)
        total.views = min(total.views + more.views, Self.huge)
        total.constraints = min(total.constraints + more.constraints, Self.huge)
        if more.tooDeep {
          total.tooDeep = true
          break
        }
      }
    }
    return total
  }

  struct Weight {
    var views = 0
    var constraints = 0
    /// The count stopped at the nesting limit (the views are then a lower bound).
    var tooDeep = false
  }

  // MARK: - Values

  private static func style(_ field: JSONField?) throws(JSONProblem) -> TextStyle {
    guard let field else { return .body }
    if case .string = field.value {
      switch try field.choice(["body", "title", "caption"]) {
      case "title": return .title
      case "caption": return .caption
      default: return .body
      }
    }
    let object = try field.object(allowed: ["glyphAdvance", "lineHeight"])
    return TextStyle(
      glyphAdvance: try object.require("glyphAdvance").number(in: 0.01...1_000),
      lineHeight: try object.require("lineHeight").number(in: 0...10_000))
  }

  private static func insets(_ field: JSONField?) throws(JSONProblem) -> EdgeInsets {
    guard let field else { return .zero }
    if case .number = field.value { return EdgeInsets(all: try field.number(in: 0...100_000)) }
    let object = try field.object(allowed: ["top", "left", "bottom", "right"])
    return EdgeInsets(
      top: try object["top"]?.number(in: 0...100_000) ?? 0,
      left: try object["left"]?.number(in: 0...100_000) ?? 0,
      bottom: try object["bottom"]?.number(in: 0...100_000) ?? 0,
      right: try object["right"]?.number(in: 0...100_000) ?? 0)
  }

  private static func priorities(_ hugging: JSONField?, _ compression: JSONField?)
    throws(JSONProblem) -> Scene.ContentPriorities
  {
    var result = Scene.ContentPriorities()
    if let hugging {
      let object = try hugging.object(allowed: ["horizontal", "vertical"])
      result.huggingHorizontal = try object["horizontal"]?.number(in: 1...999)
      result.huggingVertical = try object["vertical"]?.number(in: 1...999)
    }
    if let compression {
      let object = try compression.object(allowed: ["horizontal", "vertical"])
      result.compressionHorizontal = try object["horizontal"]?.number(in: 1...999)
      result.compressionVertical = try object["vertical"]?.number(in: 1...999)
    }
    return result
  }

  // MARK: - Assembly

  /// The tree of the records, constraints resolved. `superview` is the id the root's
  /// `superview` stands for (a container an instance joins), nil for a whole scene.
  func assemble(superview: Int?) throws(JSONProblem) -> Scene.Node {
    var byName: [String: [Int]] = [:]
    for (i, record) in records.enumerated() { byName[record.name, default: []].append(i) }
    var children = [[Scene.Node]](repeating: [], count: records.count)
    var root: Scene.Node?
    for i in records.indices.reversed() {
      let record = records[i]
      var constraints: [Scene.Constraint] = []
      for field in record.constraints {
        constraints.append(try constraint(field, at: i, byName: byName, superview: superview))
      }
      var content = record.content
      let own = Array(children[i].reversed())
      switch content {
      case .stack(let spec, _): content = .stack(spec, children: own)
      case .list: content = .list(children: own)
      case .view: content = .view(children: own)
      case .label, .image: break
      }
      let node = Scene.Node(
        id: record.id, name: record.name, content: content, constraints: constraints,
        priorities: record.priorities)
      if record.parent >= 0 { children[record.parent].append(node) } else { root = node }
    }
    return root!
  }

  private enum AnchorAxis: String { case horizontal, vertical, size }

  private static func axis(_ attribute: LayoutAttribute) -> AnchorAxis {
    switch attribute {
    case .leading, .trailing, .centerX: .horizontal
    case .top, .bottom, .centerY: .vertical
    case .width, .height: .size
    }
  }

  private func constraint(
    _ field: JSONField, at index: Int, byName: [String: [Int]], superview: Int?
  ) throws(JSONProblem) -> Scene.Constraint {
    let object = try field.object(allowed: [
      "first", "relation", "second", "multiplier", "constant", "priority", "id",
    ])
    let firstField = try object.require("first")
    let (first, firstAttribute) = try anchor(
      firstField, from: index, byName: byName, superview: superview)
    let relation = LayoutRelation(
      rawValue: try object["relation"]?.choice(["==", "<=", ">="]) ?? "==")!
    var second: Int?
    var secondAttribute: LayoutAttribute?
    if let secondField = object["second"] {
      let (view, attribute) = try anchor(
        secondField, from: index, byName: byName, superview: superview)
      guard Self.axis(attribute) == Self.axis(firstAttribute) else {
        throw JSONProblem(
          secondField.path,
          "anchor of the wrong axis: \(firstAttribute.rawValue) "
            + "(\(Self.axis(firstAttribute).rawValue)) against \(attribute.rawValue) "
            + "(\(Self.axis(attribute).rawValue))")
      }
      second = view
      secondAttribute = attribute
    } else if Self.axis(firstAttribute) != .size {
      throw JSONProblem(
        firstField.path,
        "\(firstAttribute.rawValue) is a position: it needs a \"second\" anchor "
          + "(only width and height compare with a constant alone)")
    }
    let multiplier = try object["multiplier"]?.number(in: -1_000_000...1_000_000) ?? 1
    if second != nil, multiplier == 0 {
      throw JSONProblem(object["multiplier"]!.path, "a multiplier of 0 drops the second anchor")
    }
    return Scene.Constraint(
      first: first, firstAttribute, relation, second: second, secondAttribute,
      multiplier: multiplier,
      constant: try object["constant"]?.number(in: -1_000_000...1_000_000) ?? 0,
      priority: try object["priority"]?.number(in: 1...1000) ?? 1000,
      identifier: try object["id"]?.string() ?? field.path.text, source: field.path.text)
  }

  /// `"VIEW.ATTRIBUTE"`: VIEW is `self`, `superview`, or a name looked up in the declaring
  /// view's subtree, then its parent's, and so on up: the first level with that name wins,
  /// and two views of that name at one level are ambiguous.
  private func anchor(
    _ field: JSONField, from index: Int, byName: [String: [Int]], superview: Int?
  ) throws(JSONProblem) -> (Int, LayoutAttribute) {
    let text = try field.string()
    let attributes = LayoutAttribute.allCases.map(\.rawValue)
    guard let dot = text.lastIndex(of: "."), dot != text.startIndex else {
      throw JSONProblem(
        field.path, "expected VIEW.ATTRIBUTE, as \"avatar.width\" (got \"\(text)\")")
    }
    let name = String(text[..<dot])
    let attributeText = String(text[text.index(after: dot)...])
    guard let attribute = LayoutAttribute(rawValue: attributeText) else {
      throw JSONProblem(
        field.path,
        "unknown attribute \"\(attributeText)\" (one of \(attributes.joined(separator: ", ")))")
    }
    switch name {
    case "self": return (records[index].id, attribute)
    case "superview":
      let parent = records[index].parent
      if parent >= 0 { return (records[parent].id, attribute) }
      if let superview { return (superview, attribute) }
      throw JSONProblem(
        field.path, "the root's superview is the window, which constraints cannot name")
    default: break
    }
    guard let candidates = byName[name] else {
      throw JSONProblem(field.path, "unknown view \"\(name)\"")
    }
    var level = index
    while level >= 0 {
      let low = lowerBound(candidates, level)
      let high = lowerBound(candidates, records[level].end)
      if high - low == 1 { return (records[candidates[low]].id, attribute) }
      if high - low > 1 {
        throw JSONProblem(
          field.path,
          "ambiguous view \"\(name)\": \(high - low) views of that name inside "
            + "\(records[level].name)")
      }
      level = records[level].parent
    }
    throw JSONProblem(
      field.path,
      "unknown view \"\(name)\": no view of that name in this view's subtree or an ancestor's")
  }

  private func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
      let mid = (low + high) / 2
      if sorted[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
