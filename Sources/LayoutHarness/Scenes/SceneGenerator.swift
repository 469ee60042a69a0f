import BenchSupport
import LayoutModel

/// Builds the scenario shapes, seeded and deterministic. Every generator keeps flexible
/// widths positive (a width budget goes down the tree), so a scene never asks a layout to
/// squeeze a view below zero: the three strategies then must agree exactly.
public struct SceneGenerator {
  public var rng: SplitMix64
  private(set) var nextID = 1
  public var windowSize: Size

  /// An iPhone's portrait window.
  public static let defaultWindowSize = Size(width: 390, height: 844)

  public init(seed: UInt64, windowSize: Size = defaultWindowSize) {
    rng = SplitMix64(seed: seed)
    self.windowSize = windowSize
  }

  /// Continues numbering after the scene's largest id (for nodes inserted later).
  public mutating func continueIDs(after scene: Scene) {
    nextID = max(nextID, scene.maxID + 1)
  }

  mutating func node(_ name: String, _ content: Scene.Content) -> Scene.Node {
    defer { nextID += 1 }
    return Scene.Node(id: nextID, name: name, content: content)
  }

  // MARK: - Text

  private static let words = [
    "layout", "frame", "budget", "view", "stack", "cell", "solver", "tick", "pixel", "swift",
    "window", "label", "image", "wrap", "constraint", "anchor", "scroll", "feed", "update",
    "cycle", "draw", "measure", "fit", "size", "edit", "pivot", "row", "column", "inset", "a",
    "of", "in", "on", "the", "with", "for", "mimic", "WWDC", "illicit", "millimetre",
  ]

  /// A sentence of `count` words.
  public mutating func text(words count: Int) -> String {
    var result: [String] = []
    for _ in 0..<count { result.append(rng.pick(Self.words)) }
    return result.joined(separator: " ")
  }

  // MARK: - Shapes

  /// A chain of `depth` nested vertical stacks, each with a one-line label above the next
  /// level; the innermost holds a wrapping label. 2 * depth + 1 views.
  public mutating func deep(depth: Int) -> Scene {
    // Indent while the width allows it, then stack straight down.
    let indent = Double(depth) * 2 <= windowSize.width / 2 ? 1.0 : 0.0
    var inner = node("leaf", .label(text: text(words: 12), style: .body))
    for level in stride(from: depth - 1, through: 0, by: -1) {
      let caption = node("level\(level).caption", .label(text: "level \(level)", style: .caption))
      inner = node(
        "level\(level)",
        .stack(
          .init(
            axis: .vertical, spacing: 2,
            insets: EdgeInsets(top: 1, left: indent, bottom: 1, right: indent)),
          children: [caption, inner]))
    }
    return Scene(windowSize: windowSize, root: inner)
  }

  /// One vertical stack with `count` one-to-two-line labels, placed one after another.
  public mutating func wide(count: Int) -> Scene {
    var children: [Scene.Node] = []
    children.reserveCapacity(count)
    for i in 0..<count {
      children.append(node("item\(i)", .label(text: text(words: rng.int(in: 1...8)), style: .body)))
    }
    let root = node(
      "stack",
      .stack(.init(axis: .vertical, spacing: 4, insets: EdgeInsets(all: 8)), children: children))
    return Scene(windowSize: windowSize, root: root)
  }

  /// `branching`-ary vertical and horizontal stacks alternating, `depth` levels, labels as
  /// leaves.
  public mutating func balanced(branching: Int, depth: Int) -> Scene {
    Scene(
      windowSize: windowSize, root: balancedLevel(depth, branching, "n", width: windowSize.width))
  }

  private mutating func balancedLevel(
    _ remaining: Int, _ branching: Int, _ path: String, width: Double
  )
    -> Scene.Node
  {
    if remaining == 0 || width < 60 {
      return node(path, .label(text: text(words: rng.int(in: 1...5)), style: .body))
    }
    let horizontal = remaining % 2 == 0 && width / Double(branching) >= 80
    let childWidth = horizontal ? (width - 4 * Double(branching)) / Double(branching) : width - 4
    let id = nextID
    nextID += 1
    var children: [Scene.Node] = []
    for i in 0..<branching {
      children.append(balancedLevel(remaining - 1, branching, "\(path).\(i)", width: childWidth))
    }
    let spec = Scene.StackSpec(
      axis: horizontal ? .horizontal : .vertical, spacing: 2,
      insets: EdgeInsets(top: 1, left: 2, bottom: 1, right: 2))
    return Scene.Node(id: id, name: path, content: .stack(spec, children: children))
  }

  /// The texts of a feed cell: a title of 2 to 5 words, a subtitle of 1 to 3, a body of 4
  /// to 40 (drawn in that order).
  public mutating func cellTexts() -> (title: String, subtitle: String, body: String) {
    let title = text(words: rng.int(in: 2...5))
    let subtitle = text(words: rng.int(in: 1...3))
    let body = text(words: rng.int(in: 4...40))
    return (title, subtitle, body)
  }

  /// A realistic feed cell: avatar beside title and subtitle, a multi-line body, an action
  /// bar of icons. 11 views.
  public mutating func feedCell(_ index: Int) -> Scene.Node {
    let texts = cellTexts()
    return feedCell(
      index,
      content: RowContent(
        title: texts.title, subtitle: texts.subtitle, body: texts.body,
        avatar: Size(width: 40, height: 40)))
  }

  /// A feed cell showing `content`.
  mutating func feedCell(_ index: Int, content: RowContent) -> Scene.Node {
    let avatar = node("cell\(index).avatar", .image(content.avatar))
    let title = node("cell\(index).title", .label(text: content.title, style: .title))
    let subtitle = node("cell\(index).subtitle", .label(text: content.subtitle, style: .caption))
    let names = node(
      "cell\(index).names", .stack(.init(axis: .vertical, spacing: 2), children: [title, subtitle]))
    let header = node(
      "cell\(index).header",
      .stack(.init(axis: .horizontal, spacing: 8, alignment: .center), children: [avatar, names]))
    let body = node("cell\(index).body", .label(text: content.body, style: .body))
    var actions: [Scene.Node] = []
    for a in 0..<3 {
      actions.append(node("cell\(index).action\(a)", .image(Size(width: 24, height: 24))))
    }
    let bar = node(
      "cell\(index).actions", .stack(.init(axis: .horizontal, spacing: 16), children: actions))
    return node(
      "cell\(index)",
      .stack(
        .init(
          axis: .vertical, spacing: 8,
          insets: EdgeInsets(top: 12, left: 16, bottom: 12, right: 16)),
        children: [header, body, bar]))
  }

  /// A scrolling list of `cells` feed cells.
  public mutating func feed(cells: Int) -> Scene {
    var children: [Scene.Node] = []
    children.reserveCapacity(cells)
    for i in 0..<cells { children.append(feedCell(i)) }
    return Scene(windowSize: windowSize, root: node("feed", .list(children: children)))
  }

  /// A collection view of `items` items in rows of three: each item a vertical stack of a
  /// 96-point image, a title of 1 to 4 words and a price.
  public mutating func grid(items: Int) -> Scene {
    var rows: [Scene.Node] = []
    var item = 0
    while item < items {
      var cells: [Scene.Node] = []
      for _ in 0..<min(3, items - item) {
        let image = node("item\(item).image", .image(Size(width: 96, height: 96)))
        let title = node(
          "item\(item).title", .label(text: text(words: rng.int(in: 1...4)), style: .body))
        let price = node(
          "item\(item).price", .label(text: "$\(rng.int(in: 1...999)).99", style: .caption))
        cells.append(
          node(
            "item\(item)",
            .stack(.init(axis: .vertical, spacing: 4), children: [image, title, price])))
        item += 1
      }
      rows.append(
        node(
          "row\(rows.count)",
          .stack(
            .init(
              axis: .horizontal, spacing: 8,
              insets: EdgeInsets(top: 4, left: 8, bottom: 4, right: 8)),
            children: cells)))
    }
    return Scene(windowSize: windowSize, root: node("grid", .list(children: rows)))
  }

  /// A random tree of about `views` views: mixed stacks (vertical, horizontal, overlay, with
  /// random spacing, insets and alignment), labels and images, at most `maxDepth` deep.
  public mutating func random(views: Int, maxDepth: Int = 5) -> Scene {
    var budget = max(1, views - 1)
    var children: [Scene.Node] = []
    while budget > 0 {
      children.append(
        randomNode(depth: 1, maxDepth: maxDepth, width: windowSize.width, budget: &budget))
    }
    let root = node(
      "root",
      .stack(.init(axis: .vertical, spacing: 4, insets: EdgeInsets(all: 4)), children: children))
    return Scene(windowSize: windowSize, root: root)
  }

  /// A random subtree that fits `width` (flexible children never get less than 40 points).
  public mutating func randomNode(depth: Int, maxDepth: Int, width: Double, budget: inout Int)
    -> Scene.Node
  {
    budget -= 1
    let canNest = depth < maxDepth && budget > 2 && width >= 120
    if !canNest || rng.chance(0.45) {
      if rng.chance(0.25) {
        let side = Double(rng.int(in: 8...40))
        let size = Size(width: side, height: Double(rng.int(in: 8...40)))
        return node("image\(nextID)", .image(size))
      }
      let style = rng.pick([TextStyle.body, .title, .caption])
      return node("label\(nextID)", .label(text: text(words: rng.int(in: 0...14)), style: style))
    }
    let id = nextID
    nextID += 1
    let axis = rng.pick(StackView.Axis.allCases)
    let insets = EdgeInsets(
      top: Double(rng.int(in: 0...6)), left: Double(rng.int(in: 0...6)),
      bottom: Double(rng.int(in: 0...6)), right: Double(rng.int(in: 0...6)))
    let spacing = Double(rng.int(in: 0...8))
    let count = min(budget, rng.int(in: 1...(axis == .horizontal ? 3 : 5)))
    let inner = width - insets.horizontal
    var children: [Scene.Node] = []
    for _ in 0..<max(1, count) where budget > 0 {
      // Horizontal children share the width; each is offered an equal part.
      let share =
        axis == .horizontal ? (inner - spacing * Double(count - 1)) / Double(count) : inner
      children.append(
        randomNode(depth: depth + 1, maxDepth: maxDepth, width: max(0, share - 48), budget: &budget)
      )
    }
    let spec = Scene.StackSpec(
      axis: axis, spacing: spacing, alignment: rng.pick(StackView.Alignment.allCases),
      insets: insets)
    return Scene.Node(id: id, name: "stack\(id)", content: .stack(spec, children: children))
  }
}
