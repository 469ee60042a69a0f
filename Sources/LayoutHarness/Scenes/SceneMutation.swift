import LayoutModel

/// A change to a scene, applied alike to the scene value and to every strategy's live tree.
public enum SceneMutation: Hashable, Sendable, CustomStringConvertible {
  /// A label's text changes (its height may change with it).
  case setText(id: Int, text: String)
  /// A new subtree joins a container at `index`.
  case insert(parent: Int, index: Int, node: Scene.Node)
  /// A view and its subtree leave the scene.
  case remove(id: Int)
  /// A view moves among its siblings to `index` (counted after it left its place): a table
  /// view reusing a cell. It keeps its views, and under Auto Layout their constraints.
  case move(id: Int, to: Int)
  /// A view and its subtree move to another container at `index`, keeping their views and
  /// the constraints inside the subtree (a moving tree).
  case reparent(id: Int, parent: Int, index: Int)
  /// The window changes size (rotation, live resize).
  case resizeWindow(Size)
  /// A stack's spacing or insets change: constraint constants under Auto Layout.
  case setSpacing(id: Int, spacing: Double)
  case setInsets(id: Int, insets: EdgeInsets)
  /// An image changes size.
  case setImageSize(id: Int, size: Size)
  /// A list scrolls.
  case scroll(id: Int, offset: Double)
  /// The constant of constraint `identifier`, declared by node `id`, changes (in place,
  /// through the solver's fast path).
  case setConstant(id: Int, identifier: String, constant: Double)

  public var description: String {
    switch self {
    case .setText(let id, let text): "setText(#\(id), \(text.count) chars)"
    case .insert(let parent, let index, let node): "insert(#\(node.id) into #\(parent) at \(index))"
    case .remove(let id): "remove(#\(id))"
    case .move(let id, let index): "move(#\(id) to \(index))"
    case .reparent(let id, let parent, let index): "reparent(#\(id) into #\(parent) at \(index))"
    case .resizeWindow(let size): "resizeWindow(\(size))"
    case .setSpacing(let id, let spacing): "setSpacing(#\(id), \(spacing))"
    case .setInsets(let id, let insets): "setInsets(#\(id), \(insets))"
    case .setImageSize(let id, let size): "setImageSize(#\(id), \(size))"
    case .scroll(let id, let offset): "scroll(#\(id), \(offset))"
    case .setConstant(let id, let identifier, let constant):
      "setConstant(#\(id) \(identifier), \(constant))"
    }
  }
}

/// A mutation that names something the scene does not have.
public struct SceneMutationError: Error, Equatable, CustomStringConvertible {
  public var mutation: SceneMutation
  public var reason: String

  public var description: String { "cannot apply \(mutation): \(reason)" }
}

extension Scene {
  /// Applies a mutation to the value.
  /// - Throws: ``SceneMutationError`` for an unknown id, a node of the wrong kind, or an
  ///   index out of range (the scene is then unchanged).
  public mutating func apply(_ mutation: SceneMutation) throws(SceneMutationError) {
    func fail(_ reason: String) -> SceneMutationError {
      SceneMutationError(mutation: mutation, reason: reason)
    }
    var failure: String?
    var found = true
    switch mutation {
    case .resizeWindow(let size):
      windowSize = size
      return
    case .remove(let id):
      guard id != root.id else { throw fail("the root cannot be removed") }
      found = root.removeChild(id: id)
    case .move(let id, let index):
      guard id != root.id else { throw fail("the root has no siblings") }
      switch root.moveChild(id: id, to: index) {
      case nil: found = false
      case false?: failure = "index \(index) out of range"
      case true?: break
      }
    case .reparent(let id, let parent, let index):
      guard id != root.id, let node = root.find(id: id) else { throw fail("no node has this id") }
      guard node.find(id: parent) == nil else { throw fail("#\(parent) lies inside #\(id)") }
      var moved = self
      _ = moved.root.removeChild(id: id)
      do throws(SceneMutationError) {
        try moved.apply(.insert(parent: parent, index: index, node: node))
      } catch {
        throw fail(error.reason)
      }
      self = moved
      return
    case .insert(let parent, let index, let node):
      found = root.update(id: parent) { target in
        switch target.content {
        case .stack(let spec, var children) where (0...children.count).contains(index):
          children.insert(node, at: index)
          target.content = .stack(spec, children: children)
        case .list(var children) where (0...children.count).contains(index):
          children.insert(node, at: index)
          target.content = .list(children: children)
        case .view(var children) where (0...children.count).contains(index):
          children.insert(node, at: index)
          target.content = .view(children: children)
        case .stack, .list, .view: failure = "index \(index) out of range"
        default: failure = "#\(parent) is not a container"
        }
      }
    case .setText(let id, let text):
      found = root.update(id: id) { target in
        guard case .label(_, let style) = target.content else {
          failure = "#\(id) is not a label"
          return
        }
        target.content = .label(text: text, style: style)
      }
    case .setSpacing(let id, let spacing):
      found = root.update(id: id) { target in
        guard case .stack(var spec, let children) = target.content else {
          failure = "#\(id) is not a stack"
          return
        }
        spec.spacing = spacing
        target.content = .stack(spec, children: children)
      }
    case .setInsets(let id, let insets):
      found = root.update(id: id) { target in
        guard case .stack(var spec, let children) = target.content else {
          failure = "#\(id) is not a stack"
          return
        }
        spec.insets = insets
        target.content = .stack(spec, children: children)
      }
    case .setImageSize(let id, let size):
      found = root.update(id: id) { target in
        guard case .image = target.content else {
          failure = "#\(id) is not an image"
          return
        }
        target.content = .image(size)
      }
    case .scroll(let id, _):
      found = root.update(id: id) { target in
        guard case .list = target.content else {
          failure = "#\(id) is not a list"
          return
        }
      }
    case .setConstant(let id, let identifier, let constant):
      found = root.update(id: id) { target in
        guard let i = target.constraints.firstIndex(where: { $0.identifier == identifier }) else {
          failure = "#\(id) declares no constraint \(identifier)"
          return
        }
        target.constraints[i].constant = constant
      }
    }
    if let failure { throw fail(failure) }
    if !found { throw fail("no node has this id") }
  }
}

extension Scene.Node {
  /// This node or the descendant with `id`.
  func find(id target: Int) -> Scene.Node? {
    if id == target { return self }
    for child in content.children {
      if let found = child.find(id: target) { return found }
    }
    return nil
  }

  /// Moves the descendant with `id` to `index` among its siblings. Returns nil when absent,
  /// false (changing nothing) when `index` is out of range.
  mutating func moveChild(id target: Int, to index: Int) -> Bool? {
    var children = content.children
    if let old = children.firstIndex(where: { $0.id == target }) {
      guard (0..<children.count).contains(index) else { return false }
      let moved = children.remove(at: old)
      children.insert(moved, at: index)
    } else {
      var outcome: Bool?
      for i in children.indices where outcome == nil {
        outcome = children[i].moveChild(id: target, to: index)
      }
      guard outcome == true else { return outcome }
    }
    switch content {
    case .stack(let spec, _): content = .stack(spec, children: children)
    case .list: content = .list(children: children)
    case .view: content = .view(children: children)
    case .label, .image: return nil
    }
    return true
  }

  /// Removes the descendant with `id`. Returns false when absent.
  mutating func removeChild(id target: Int) -> Bool {
    var children = content.children
    if let index = children.firstIndex(where: { $0.id == target }) {
      children.remove(at: index)
    } else {
      var removed = false
      for i in children.indices where !removed { removed = children[i].removeChild(id: target) }
      guard removed else { return false }
    }
    switch content {
    case .stack(let spec, _): content = .stack(spec, children: children)
    case .list: content = .list(children: children)
    case .view: content = .view(children: children)
    case .label, .image: return false
    }
    return true
  }
}

extension SceneTree {
  /// Applies a mutation to the live views, as an event handler would.
  /// - Throws: ``HandlerError/mutation(_:)`` when the tree has no such view (nothing
  ///   changes), ``HandlerError/layout(_:)`` for an error of the view tree.
  public func apply(_ mutation: SceneMutation) throws(HandlerError) {
    func missing(_ reason: String) -> HandlerError {
      .mutation(SceneMutationError(mutation: mutation, reason: reason))
    }
    func layout(_ body: () throws(LayoutError) -> Void) throws(HandlerError) {
      do throws(LayoutError) { try body() } catch { throw .layout(error) }
    }
    switch mutation {
    case .resizeWindow(let size):
      try layout { () throws(LayoutError) in
        try window.setFrame(Rect(origin: .zero, size: size))
      }
    case .setText(let id, let text):
      guard let label = views[id] as? Label else { throw missing("no label #\(id)") }
      label.setText(text)
    case .remove(let id):
      guard let view = views[id], view.superview !== window else {
        throw missing("no removable view #\(id)")
      }
      view.removeFromSuperview()
      forget(view)
    case .move(let id, let index):
      guard let view = views[id], let container = view.superview, container !== window else {
        throw missing("no movable view #\(id)")
      }
      guard (0..<container.subviews.count).contains(index) else {
        throw missing("index \(index) out of range")
      }
      try layout { () throws(LayoutError) in try container.insertSubview(view, at: index) }
    case .reparent(let id, let parent, let index):
      guard let view = views[id], view.superview !== window else {
        throw missing("no movable view #\(id)")
      }
      guard let container = views[parent] as? StackView else {
        throw missing("no container #\(parent)")
      }
      guard !container.isDescendant(of: view) else {
        throw missing("#\(parent) lies inside #\(id)")
      }
      let count = container.subviews.count - (view.superview === container ? 1 : 0)
      guard (0...count).contains(index) else { throw missing("index \(index) out of range") }
      try layout { () throws(LayoutError) in try container.insertSubview(view, at: index) }
    case .insert(let parent, let index, let node):
      guard let container = views[parent],
        container is StackView || type(of: container) == View.self
      else {
        throw missing("no container #\(parent)")
      }
      guard (0...container.subviews.count).contains(index) else {
        throw missing("index \(index) out of range")
      }
      try layout { () throws(LayoutError) in
        try container.insertSubview(try makeView(node), at: index)
        try activatePending()
      }
    case .setSpacing(let id, let spacing):
      guard let stack = views[id] as? StackView else { throw missing("no stack #\(id)") }
      try layout { () throws(LayoutError) in try stack.setSpacing(spacing) }
    case .setInsets(let id, let insets):
      guard let stack = views[id] as? StackView else { throw missing("no stack #\(id)") }
      try layout { () throws(LayoutError) in try stack.setInsets(insets) }
    case .setImageSize(let id, let size):
      guard let image = views[id] as? ImageView else { throw missing("no image #\(id)") }
      try layout { () throws(LayoutError) in try image.setImageSize(size) }
    case .scroll(let id, let offset):
      guard let list = views[id] as? ListView else { throw missing("no list #\(id)") }
      try layout { () throws(LayoutError) in try list.setContentOffset(offset) }
    case .setConstant(let id, let identifier, let constant):
      guard let constraint = constraint(node: id, identifier: identifier) else {
        throw missing("no constraint \(identifier) on #\(id)")
      }
      try layout { () throws(LayoutError) in try constraint.setConstant(constant) }
    }
  }
}

/// What an event handler can fail with.
public enum HandlerError: Error, Equatable, CustomStringConvertible {
  case layout(LayoutError)
  case mutation(SceneMutationError)

  public var description: String {
    switch self {
    case .layout(let error): error.description
    case .mutation(let error): error.description
    }
  }
}
