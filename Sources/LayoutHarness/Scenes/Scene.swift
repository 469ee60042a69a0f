import LayoutModel

/// A view tree as a value: containers and leaves with content, each with a stable id. The
/// same scene is materialised as an Auto Layout tree or a frame-layout tree (``SceneTree``),
/// so every strategy starts from the same layout, and mutations (``SceneMutation``) apply to
/// the value as well as to live trees.
public struct Scene: Hashable, Sendable {
  public var windowSize: Size
  public var root: Node

  public init(windowSize: Size, root: Node) {
    self.windowSize = windowSize
    self.root = root
  }

  /// One view of the scene.
  public struct Node: Hashable, Sendable {
    /// Unique within the scene; mutations name nodes by it.
    public var id: Int
    public var name: String
    public var content: Content
    /// Auto Layout constraints this node declares (between its own anchors, its subtree's
    /// and its ancestors'); they leave the scene with the node. Frame layout has none.
    public var constraints: [Constraint]
    /// Content hugging and compression resistance, where they differ from the view's own.
    public var priorities: ContentPriorities

    public init(
      id: Int, name: String, content: Content, constraints: [Constraint] = [],
      priorities: ContentPriorities = ContentPriorities()
    ) {
      self.id = id
      self.name = name
      self.content = content
      self.constraints = constraints
      self.priorities = priorities
    }
  }

  /// `first relation multiplier * second + constant` at a priority, between nodes' anchors
  /// (named by node id), as ``LayoutModel/LayoutConstraint``.
  public struct Constraint: Hashable, Sendable {
    public var first: Int
    public var firstAttribute: LayoutAttribute
    public var relation: LayoutRelation
    /// nil: `first` is compared with the constant alone (a dimension only).
    public var second: Int?
    public var secondAttribute: LayoutAttribute?
    public var multiplier: Double
    public var constant: Double
    public var priority: Double
    /// Names the constraint in errors and for constant changes (a scene file gives its
    /// own `id`, or the constraint's JSON path).
    public var identifier: String
    /// Where the constraint was declared (a scene file's JSON path), for errors.
    public var source: String?

    public init(
      first: Int, _ firstAttribute: LayoutAttribute, _ relation: LayoutRelation,
      second: Int? = nil, _ secondAttribute: LayoutAttribute? = nil, multiplier: Double = 1,
      constant: Double = 0, priority: Double = 1000, identifier: String, source: String? = nil
    ) {
      self.source = source
      self.first = first
      self.firstAttribute = firstAttribute
      self.relation = relation
      self.second = second
      self.secondAttribute = secondAttribute
      self.multiplier = multiplier
      self.constant = constant
      self.priority = priority
      self.identifier = identifier
    }
  }

  /// A view's content hugging and compression resistance per axis; nil keeps the view's
  /// default (250 / 750; a label's and an image's own).
  public struct ContentPriorities: Hashable, Sendable {
    public var huggingHorizontal: Double?
    public var huggingVertical: Double?
    public var compressionHorizontal: Double?
    public var compressionVertical: Double?

    public init(
      huggingHorizontal: Double? = nil, huggingVertical: Double? = nil,
      compressionHorizontal: Double? = nil, compressionVertical: Double? = nil
    ) {
      self.huggingHorizontal = huggingHorizontal
      self.huggingVertical = huggingVertical
      self.compressionHorizontal = compressionHorizontal
      self.compressionVertical = compressionVertical
    }

    public var isEmpty: Bool { self == ContentPriorities() }
  }

  public enum Content: Hashable, Sendable {
    case label(text: String, style: TextStyle)
    case image(Size)
    case stack(StackSpec, children: [Node])
    /// A scrolling list of cells placed one below the other.
    case list(children: [Node])
    /// A plain view: its children are placed by the constraints the scene declares (Auto
    /// Layout only; bottom-up sizing has no constraints).
    case view(children: [Node])

    public var children: [Node] {
      switch self {
      case .stack(_, let children), .list(let children), .view(let children): children
      case .label, .image: []
      }
    }
  }

  public struct StackSpec: Hashable, Sendable {
    public var axis: StackView.Axis
    public var spacing: Double
    public var alignment: StackView.Alignment
    public var insets: EdgeInsets

    public init(
      axis: StackView.Axis, spacing: Double = 0, alignment: StackView.Alignment = .leading,
      insets: EdgeInsets = .zero
    ) {
      self.axis = axis
      self.spacing = spacing
      self.alignment = alignment
      self.insets = insets
    }
  }

  /// Number of views (the window not included).
  public var viewCount: Int {
    // Over the children arrays, without copying a node: the copies (a name, the content,
    // the constraints) made counting a large scene cost a tenth of building it. Nodes are
    // read through the buffer, in place: an array's subscript hands out a copy.
    var count = 1
    var pending: [[Node]] = [root.content.children]
    while let nodes = pending.popLast() {
      count += nodes.count
      nodes.withUnsafeBufferPointer { nodes in
        for i in nodes.indices {
          let children = nodes[i].content.children
          if !children.isEmpty { pending.append(children) }
        }
      }
    }
    return count
  }

  /// Visits every node, parents before children, in subview order.
  public func forEachNode(_ body: (Node) -> Void) {
    var stack = [root]
    while let node = stack.popLast() {
      body(node)
      stack.append(contentsOf: node.content.children.reversed())
    }
  }

  /// Why frame layout (bottom-up sizing) cannot lay this scene out, or nil: it sizes views
  /// from their children and has no constraints, plain views or priorities.
  public var frameLayoutProblem: String? {
    var problem: String?
    forEachNode { node in
      guard problem == nil else { return }
      if let constraint = node.constraints.first {
        problem =
          "\(node.name) declares constraints (\(constraint.identifier)): bottom-up sizing "
          + "lays views out from stacks and content sizes, without constraints"
      } else if case .view = node.content {
        problem =
          "\(node.name) is a plain view, placed by constraints: bottom-up sizing "
          + "needs stacks, lists, labels and images"
      } else if !node.priorities.isEmpty {
        problem =
          "\(node.name) sets content hugging or compression priorities: bottom-up "
          + "sizing has no priorities"
      }
    }
    return problem
  }

  /// The narrowest window that gives every view room: stacks' insets and spacings and
  /// images' widths along horizontal stacks (labels wrap to any width; a plain view's
  /// constraints are not counted). Narrower, views get negative widths, and Auto Layout
  /// (which breaks a constraint) and bottom-up sizing (which clamps) lay out the impossible
  /// differently.
  public var minimumWidth: Double { root.minimumWidth }

  /// The largest id in use (new nodes take larger ones).
  public var maxID: Int {
    var result = 0
    forEachNode { result = max(result, $0.id) }
    return result
  }
}

extension Scene.Node {
  /// See ``Scene/minimumWidth``.
  public var minimumWidth: Double {
    switch content {
    case .label, .view: return 0
    case .image(let size): return size.width
    case .list(let children): return children.map(\.minimumWidth).max() ?? 0
    case .stack(let spec, let children):
      let widths = children.map(\.minimumWidth)
      let inner =
        spec.axis == .horizontal
        ? widths.reduce(0, +) + spec.spacing * Double(max(children.count - 1, 0))
        : widths.max() ?? 0
      return inner + spec.insets.left + spec.insets.right
    }
  }

  /// Finds the node with `id` and lets `body` change it in place. Returns false when absent.
  @discardableResult
  mutating func update(id target: Int, _ body: (inout Scene.Node) -> Void) -> Bool {
    if id == target {
      body(&self)
      return true
    }
    switch content {
    case .stack(let spec, var children):
      for i in children.indices {
        guard children[i].update(id: target, body) else { continue }
        content = .stack(spec, children: children)
        return true
      }
    case .list(var children):
      for i in children.indices {
        guard children[i].update(id: target, body) else { continue }
        content = .list(children: children)
        return true
      }
    case .view(var children):
      for i in children.indices {
        guard children[i].update(id: target, body) else { continue }
        content = .view(children: children)
        return true
      }
    case .label, .image:
      break
    }
    return false
  }
}
