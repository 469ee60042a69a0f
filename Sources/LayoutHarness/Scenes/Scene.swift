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

    public init(id: Int, name: String, content: Content) {
      self.id = id
      self.name = name
      self.content = content
    }
  }

  public enum Content: Hashable, Sendable {
    case label(text: String, style: TextStyle)
    case image(Size)
    case stack(StackSpec, children: [Node])
    /// A scrolling list of cells placed one below the other.
    case list(children: [Node])

    public var children: [Node] {
      switch self {
      case .stack(_, let children), .list(let children): children
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
    var count = 0
    forEachNode { _ in count += 1 }
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

  /// The largest id in use (new nodes take larger ones).
  public var maxID: Int {
    var result = 0
    forEachNode { result = max(result, $0.id) }
    return result
  }
}

extension Scene.Node {
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
    case .label, .image:
      break
    }
    return false
  }
}
