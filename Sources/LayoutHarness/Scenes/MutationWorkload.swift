import LayoutModel

/// The mutations of each tick of a scenario, generated ahead of the tick (never timed) and
/// deterministic for a seed.
public struct MutationWorkload {
  public let scenario: Scenario
  private var generator: SceneGenerator
  private var tick = 0
  private let labels: [Int]
  /// The container whose top inset `animate` moves.
  private let animated: (id: Int, insets: EdgeInsets)?
  private let list: Int?
  /// The parts of each feed cell `configure` changes (empty for scenes without cells).
  private let cells: [CellParts]
  /// The reuse of a table's cells when it scrolls (nil for other scenes).
  private var table: TableScroller?
  /// The scene as the generated mutations leave it, for the kinds that choose from its
  /// current structure (`reparent`, `removal`); nil for the others.
  private var shadow: Scene?
  /// The subtree `removal` took out, to insert back on the next tick.
  private var removed: (parent: Int, index: Int, node: Scene.Node)?
  /// Slots `churn` replaces: a parent, a position, and the id there now.
  private var slots: [(parent: Int, index: Int, id: Int, cell: Bool)] = []
  /// A scene file's own tick steps (`scripted`).
  private var scripted: ScriptedWorkload?

  /// Why a scene file's steps cannot go on (``next()`` then generates nothing), or nil:
  /// the runner stops with it.
  public var failure: String? { scripted?.failure }

  /// The step (JSON path) each mutation of the last tick of a scene file came from.
  var origins: [String] { scripted?.origins ?? [] }

  init(scenario: Scenario, scripted: ScriptedWorkload) {
    self.scenario = scenario
    self.scripted = scripted
    generator = SceneGenerator(seed: scenario.seed)
    labels = []
    animated = nil
    list = nil
    cells = []
  }

  /// Window sizes `resize` cycles through: portrait widths, then a rotation.
  static let windowSizes = [
    Size(width: 390, height: 844), Size(width: 430, height: 932), Size(width: 375, height: 812),
    Size(width: 844, height: 390), Size(width: 360, height: 780),
  ]

  public init(scenario: Scenario, scene: Scene, generator: SceneGenerator) {
    self.scenario = scenario
    self.generator = generator
    let index = SceneIndex(scene)
    labels = index.labels
    list = index.lists.first
    cells = CellParts.find(in: scene)
    table = TableScroller(scene: scene, rows: scenario.size, seed: scenario.seed)
    if scenario.mutation == .reparent || scenario.mutation == .removal { shadow = scene }
    var firstStack: (Int, EdgeInsets)?
    scene.forEachNode { node in
      guard firstStack == nil, case .stack(let spec, _) = node.content else { return }
      firstStack = (node.id, spec.insets)
    }
    animated = firstStack
    // Churn replaces children of the container with the most of them (the list, the wide
    // stack), or, in trees of small containers, leaves anywhere.
    var widest: (id: Int, children: [Scene.Node], isList: Bool)?
    var leaves: [(Int, Int, Int)] = []
    scene.forEachNode { node in
      let children = node.content.children
      if children.count > (widest?.children.count ?? 0) {
        // Cells are replaced by cells: in a list, or in a table's content.
        var isList = children.first?.name.hasPrefix("cell") == true
        if case .list = node.content { isList = true }
        widest = (node.id, children, isList)
      }
      if case .stack(let spec, _) = node.content, spec.axis != .horizontal {
        for (i, child) in children.enumerated() where child.content.children.isEmpty {
          if case .label = child.content { leaves.append((node.id, i, child.id)) }
        }
      }
    }
    if let widest, widest.children.count >= 8 {
      slots = widest.children.enumerated().map {
        (widest.id, $0.offset, $0.element.id, widest.isList)
      }
    } else {
      slots = leaves.map { ($0.0, $0.1, $0.2, false) }
    }
  }

  /// The mutations of the next tick.
  public mutating func next() -> [SceneMutation] {
    defer { tick += 1 }
    let k = scenario.perTick
    switch scenario.mutation {
    case .idle:
      return []
    case .text:
      guard !labels.isEmpty else { return [] }
      return (0..<k).map { _ in
        .setText(
          id: generator.rng.pick(labels), text: generator.text(words: generator.rng.int(in: 1...30))
        )
      }
    case .resize:
      let sizes = Self.windowSizes
      return [.resizeWindow(sizes[(tick + 1) % sizes.count])]
    case .animate:
      guard let animated else { return [] }
      // A triangle wave of 0...24 points over 24 ticks, like a spring pulling a header.
      let phase = Double(tick % 24)
      var insets = animated.insets
      insets.top += phase < 12 ? phase * 2 : (24 - phase) * 2
      return [.setInsets(id: animated.id, insets: insets)]
    case .churn:
      guard !slots.isEmpty else { return [] }
      var result: [SceneMutation] = []
      for _ in 0..<k {
        let s = generator.rng.int(in: 0..<slots.count)
        let slot = slots[s]
        let node: Scene.Node
        if slot.cell {
          node = generator.feedCell(tick)
        } else {
          node = generator.node(
            "churn\(tick)",
            .label(text: generator.text(words: generator.rng.int(in: 1...12)), style: .body))
        }
        result.append(.remove(id: slot.id))
        result.append(.insert(parent: slot.parent, index: slot.index, node: node))
        slots[s].id = node.id
      }
      return result
    case .scroll:
      if table != nil { return table!.next() }
      guard let list else { return [] }
      return [.scroll(id: list, offset: Double(tick * 40 % 20_000))]
    case .configure:
      return (0..<k).flatMap { _ in configureNext() }
    case .reparent:
      return (0..<k).compactMap { _ in reparentNext() }
    case .removal:
      return removalNext()
    case .scripted:
      return scripted?.next() ?? []
    }
  }

  /// Applies generated mutations to the shadow scene (they are valid by construction; one
  /// that is not would make the shadow differ from the live trees).
  private mutating func follow(_ mutations: [SceneMutation]) {
    for mutation in mutations {
      do throws(SceneMutationError) { try shadow?.apply(mutation) } catch {
        preconditionFailure("a generated mutation does not apply to its scene: \(error)")
      }
    }
  }

  /// One label moved from its container to another vertical container (never into a
  /// horizontal stack, whose children would share a narrower width).
  private mutating func reparentNext() -> SceneMutation? {
    guard let scene = shadow else { return nil }
    var labels: [(id: Int, parent: Int)] = []
    var targets: [(id: Int, children: Int)] = []
    var stack = [scene.root]
    while let node = stack.popLast() {
      let children = node.content.children
      var vertical = false
      switch node.content {
      case .stack(let spec, _): vertical = spec.axis != .horizontal
      case .list: vertical = true
      case .label, .image, .view: break
      }
      if vertical { targets.append((node.id, children.count)) }
      for child in children {
        if case .label = child.content { labels.append((child.id, node.id)) }
        stack.append(child)
      }
    }
    guard !labels.isEmpty, !targets.isEmpty else { return nil }
    let label = generator.rng.pick(labels)
    // Another container when there is one; in a scene of one container (wide), a move to
    // another place in it.
    var target = generator.rng.pick(targets)
    while target.id == label.parent && targets.count > 1 { target = generator.rng.pick(targets) }
    let room = target.id == label.parent ? target.children - 1 : target.children
    let mutation = SceneMutation.reparent(
      id: label.id, parent: target.id, index: generator.rng.int(in: 0...room))
    follow([mutation])
    return mutation
  }

  /// Even ticks remove the largest subtree of at most half the scene; odd ticks insert it
  /// back where it was.
  private mutating func removalNext() -> [SceneMutation] {
    if let back = removed {
      removed = nil
      let mutation = SceneMutation.insert(parent: back.parent, index: back.index, node: back.node)
      follow([mutation])
      return [mutation]
    }
    guard let scene = shadow else { return [] }
    let half = scene.viewCount / 2
    // Parents before children, then subtree sizes from the leaves up (no recursion: a deep
    // scene is thousands of levels).
    var order: [(node: Scene.Node, parent: Int, index: Int)] = [(scene.root, -1, 0)]
    var next = 0
    while next < order.count {
      for (i, child) in order[next].node.content.children.enumerated() {
        order.append((child, next, i))
      }
      next += 1
    }
    var views = [Int](repeating: 1, count: order.count)
    var best: (parent: Int, index: Int, node: Scene.Node, views: Int)?
    for k in stride(from: order.count - 1, through: 1, by: -1) {
      let parent = order[k].parent
      views[parent] += views[k]
      if views[k] <= half, views[k] > (best?.views ?? 0) {
        best = (order[parent].node.id, order[k].index, order[k].node, views[k])
      }
    }
    guard let best else { return [] }
    removed = (best.parent, best.index, best.node)
    let mutation = SceneMutation.remove(id: best.node.id)
    follow([mutation])
    return [mutation]
  }

  /// One cell's (or group's) configuration: six changes that one handler would make.
  private mutating func configureNext() -> [SceneMutation] {
    if !cells.isEmpty {
      let cell = generator.rng.pick(cells)
      // Alternate sizes, so every configuration changes what it touches.
      let large = tick % 2 == 0
      return [
        .setText(id: cell.title, text: generator.text(words: generator.rng.int(in: 2...5))),
        .setText(id: cell.subtitle, text: generator.text(words: generator.rng.int(in: 1...3))),
        .setText(id: cell.body, text: generator.text(words: generator.rng.int(in: 4...40))),
        .setImageSize(
          id: cell.avatar, size: large ? Size(width: 48, height: 48) : Size(width: 40, height: 40)),
        .setImageSize(
          id: cell.action, size: large ? Size(width: 28, height: 28) : Size(width: 24, height: 24)),
        .setSpacing(id: cell.header, spacing: large ? 12 : 8),
      ]
    }
    guard !labels.isEmpty else { return [] }
    let first = generator.rng.int(in: 0..<labels.count)
    return (0..<min(6, labels.count)).map { offset in
      .setText(
        id: labels[(first + offset) % labels.count],
        text: generator.text(words: generator.rng.int(in: 1...30)))
    }
  }
}

/// The views of a feed cell that configuring it changes, found by the names the feed
/// generator gives them (`cellN.title`, ...).
struct CellParts {
  /// The cell itself (`cellN`).
  var cell: Int
  var title: Int
  var subtitle: Int
  var body: Int
  var avatar: Int
  var action: Int
  var header: Int

  static func find(in scene: Scene) -> [CellParts] {
    var parts: [String: [String: Int]] = [:]
    var order: [String] = []
    scene.forEachNode { node in
      guard node.name.hasPrefix("cell") else { return }
      // `cellN` itself (the key "") or one of its parts, `cellN.part`.
      let dot = node.name.firstIndex(of: ".") ?? node.name.endIndex
      let cell = String(node.name[..<dot])
      if parts[cell] == nil { order.append(cell) }
      let part = dot == node.name.endIndex ? "" : String(node.name[node.name.index(after: dot)...])
      parts[cell, default: [:]][part] = node.id
    }
    return order.compactMap { cell in
      let p = parts[cell]!
      guard let root = p[""], let title = p["title"], let subtitle = p["subtitle"],
        let body = p["body"], let avatar = p["avatar"], let action = p["action0"],
        let header = p["header"]
      else { return nil }
      return CellParts(
        cell: root, title: title, subtitle: subtitle, body: body, avatar: avatar,
        action: action, header: header)
    }
  }
}
