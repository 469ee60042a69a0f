import LayoutModel

/// A scene materialised as live views in a window, with the view of every scene id.
public final class SceneTree {
  public let window: Window
  // The tables below are written a view at a time while a scene is built, only by this
  // class and never while an access is open: their accesses are not checked at run time.
  /// The view of each scene node id. (A view's own id is its `tag` minus one.)
  @exclusivity(unchecked) public private(set) var views = ViewTable()
  /// The constraints each node declared, by node id (scenes without constraints: empty).
  @exclusivity(unchecked) private(set) var constraints: [Int: [LayoutConstraint]] = [:]
  /// Constraints the nodes declared, not activated yet: activated once their whole subtree
  /// is made (a constraint may name a view made later, or, in an inserted subtree, an
  /// ancestor), in tree order.
  @exclusivity(unchecked) private var pending: [(id: Int, Scene.Constraint)] = []

  /// Builds the views of `scene` in a new window laid out by `mode`. Nothing is laid out
  /// yet: the views are flagged, and the first update cycle lays them out.
  /// - Throws: ``LayoutError`` for invalid sizes in the scene.
  public init(scene: Scene, mode: Window.LayoutMode) throws(LayoutError) {
    window = try Window(size: scene.windowSize, layoutMode: mode)
    // The root joins the window before its children are made, so every view joins the
    // window as it is made, while its lines are in cache. (The finished tree attached at the
    // end was walked once more, a cache miss per view: 8-12% of the cold build of a
    // bottom-up feed of 3,000 to 100,000 cells.)
    _ = try makeView(scene.root, joining: window)
    try activatePending()
  }

  /// Activates the constraints of the views made since the last call (their subtree is in
  /// the window now).
  /// - Throws: ``LayoutError`` for frame layout (it has no constraints), an invalid
  ///   constraint, or a required one that conflicts (named by its identifier).
  func activatePending() throws(LayoutError) {
    guard !pending.isEmpty else { return }
    defer { pending.removeAll() }
    if window.layoutMode == .frames {
      throw .invalidConstraint(
        constraint: pending[0].1.identifier,
        reason: "frame layout (bottom-up sizing) has no constraints")
    }
    for (id, spec) in pending {
      guard let first = views[spec.first] else {
        throw .invalidConstraint(constraint: spec.identifier, reason: "no view #\(spec.first)")
      }
      var second: View?
      if let id = spec.second {
        guard let view = views[id] else {
          throw .invalidConstraint(constraint: spec.identifier, reason: "no view #\(id)")
        }
        second = view
      }
      let constraint = try LayoutConstraint(
        first, spec.firstAttribute, spec.relation, second, spec.secondAttribute,
        multiplier: spec.multiplier, constant: spec.constant,
        priority: LayoutPriority(spec.priority))
      constraint.identifier = spec.identifier
      try constraint.activate()
      constraints[id, default: []].append(constraint)
    }
  }

  /// The live constraint `identifier` that node `id` declared.
  func constraint(node id: Int, identifier: String) -> LayoutConstraint? {
    constraints[id]?.first { $0.identifier == identifier }
  }

  /// Creates the view of `node` and its subtree, added last to the subviews of `parent` if
  /// one is given before its children are made. Built top-down: each view joins its parent
  /// before its own children are made, so attaching costs O(1) per view (adding a finished
  /// subtree walks all of it, which would make a deep tree quadratic to build).
  func makeView(_ node: Scene.Node, joining parent: View? = nil) throws(LayoutError) -> View {
    let (view, children) = try withUnsafePointer(to: node) { (node) throws(LayoutError) in
      try makeSingleView(node)
    }
    if let parent { try parent.addSubview(view) }
    // Children arrays are stacked, not nodes, and each child node is read in place through
    // a pointer into its array's buffer (the root through a pointer to the argument): a node
    // passed by value was copied out of the buffer, its name, content and constraints
    // retained and released (13% of a cold bottom-up build of a feed before the arrays
    // were queued, 7% after).
    // Depth first, in tree order: a view's subtree is made before its next sibling, so
    // that a cell's views are made (and allocated) together. Made a level at a time, a
    // list's cells came first and their subviews long after, apart in memory from them:
    // every later pass that reads a parent and its children (measuring, placing) then
    // took a cache miss for each, in a large tree.
    // The children being made are in locals; the levels above wait on a stack, each with
    // the index of its next child (read through the stack, every node cost three retains).
    var nodes = children
    var parent = view
    var next = 0
    var above: [(nodes: [Scene.Node], parent: View, next: Int)] = []
    while true {
      guard next < nodes.count else {
        guard let level = above.popLast() else { break }
        (nodes, parent, next) = level
        continue
      }
      if next == 0 { parent.reserveSubviewCapacity(nodes.count) }
      let (childView, grandchildren) = try nodes.withUnsafeBufferPointer {
        [next] (nodes) throws(LayoutError) in
        try makeSingleView(nodes.baseAddress.unsafelyUnwrapped + next)
      }
      next += 1
      try parent.addSubview(childView)
      if !grandchildren.isEmpty {
        above.append((nodes, parent, next))
        (nodes, parent, next) = (grandchildren, childView, 0)
      }
    }
    return view
  }

  /// The view of one node, read in place, and the node's children (the caller makes their
  /// views). (The children read apart, through `Content.children`, copied every node's
  /// content: a label's text retained and released, a cache miss each in a large scene.)
  private func makeSingleView(
    _ node: UnsafePointer<Scene.Node>
  ) throws(LayoutError) -> (View, [Scene.Node]) {
    let view: View
    var children: [Scene.Node] = []
    let name = node.pointee.name
    switch node.pointee.content {
    case .label(let text, let style):
      // A valid style goes to the initialiser (the text is measured once); `setStyle` names
      // an invalid one in its error. (Decided here, not by reading `label.style` back: read
      // from this module, the label's property was an access checked at run time, 76
      // instructions a label.)
      let valid = style.isValid
      let label = Label(text: text, style: valid ? style : .body, name: name)
      if !valid { try label.setStyle(style) }
      view = label
    case .image(let size):
      view = try ImageView(size: size, name: name)
    case .stack(let spec, let nodes):
      view = try StackView(
        axis: spec.axis, spacing: spec.spacing, alignment: spec.alignment, insets: spec.insets,
        name: name)
      children = nodes
    case .list(let nodes):
      view = ListView(name: name)
      children = nodes
    case .view(let nodes):
      view = View(name: name)
      children = nodes
    }
    let p = node.pointee.priorities
    if !p.isEmpty {
      if let v = p.huggingHorizontal {
        try view.setContentHuggingPriority(LayoutPriority(v), for: .horizontal)
      }
      if let v = p.huggingVertical {
        try view.setContentHuggingPriority(LayoutPriority(v), for: .vertical)
      }
      if let v = p.compressionHorizontal {
        try view.setContentCompressionResistancePriority(LayoutPriority(v), for: .horizontal)
      }
      if let v = p.compressionVertical {
        try view.setContentCompressionResistancePriority(LayoutPriority(v), for: .vertical)
      }
    }
    let id = node.pointee.id
    for constraint in node.pointee.constraints { pending.append((id, constraint)) }
    views[id] = view
    // The id + 1: 0 (the default) then marks a view outside the scene (`FrameCheck`), and
    // `id(of:)` reads it back.
    view.tag = id &+ 1
    return (view, children)
  }

  /// The scene id of a view of this tree.
  public func id(of view: View) -> Int? {
    let id = view.tag &- 1
    return id >= 0 && views[id] === view ? id : nil
  }

  /// Drops the ids of a subtree that left the scene.
  func forget(_ view: View) {
    try? view.forEachInSubtree { sub in
      if let id = id(of: sub) {
        views[id] = nil
        sub.tag = 0
        if !constraints.isEmpty { constraints[id] = nil }
      }
    }
  }

  /// Every scene view's frame, parents before children (the window not included).
  public func frames() -> [(view: View, frame: Rect)] {
    var result: [(View, Rect)] = []
    result.reserveCapacity(views.count)
    for root in window.subviews {
      try? root.forEachInSubtree { result.append(($0, $0.frame)) }
    }
    return result
  }
}
