import LayoutModel

/// The ids of a scene by what can be done to them.
public struct SceneIndex {
  public private(set) var labels: [Int] = []
  public private(set) var images: [Int] = []
  public private(set) var stacks: [Int] = []
  public private(set) var lists: [Int] = []
  /// Containers that take insertions without squeezing anyone (vertical and overlay
  /// stacks, lists), with their child counts.
  public private(set) var growable: [(id: Int, children: Int)] = []
  /// Every node but the root.
  public private(set) var removable: [Int] = []

  public init(_ scene: Scene) {
    scene.forEachNode { node in
      if node.id != scene.root.id { removable.append(node.id) }
      switch node.content {
      case .label: labels.append(node.id)
      case .image: images.append(node.id)
      case .stack(let spec, let children):
        stacks.append(node.id)
        if spec.axis != .horizontal { growable.append((node.id, children.count)) }
      case .list(let children):
        lists.append(node.id)
        growable.append((node.id, children.count))
      case .view: break
      }
    }
  }
}

extension SceneGenerator {
  /// A random mutation of `scene` of any kind (text, insertion, removal, window resize
  /// between 300 and 600 points wide, spacing, insets, image size, scroll), kept within the
  /// ranges the generators use so that no flexible width goes negative.
  public mutating func randomMutation(of scene: Scene) -> SceneMutation {
    let index = SceneIndex(scene)
    while true {
      switch rng.int(in: 0...8) {
      case 0, 1:
        guard !index.labels.isEmpty else { continue }
        return .setText(id: rng.pick(index.labels), text: text(words: rng.int(in: 0...16)))
      case 2:
        guard !index.growable.isEmpty else { continue }
        let (parent, count) = rng.pick(index.growable)
        var budget = rng.int(in: 1...6)
        let node = randomNode(depth: 4, maxDepth: 5, width: 150, budget: &budget)
        return .insert(parent: parent, index: rng.int(in: 0...count), node: node)
      case 3:
        guard !index.removable.isEmpty else { continue }
        return .remove(id: rng.pick(index.removable))
      case 4:
        let width = Double(rng.int(in: 300...600))
        return .resizeWindow(Size(width: width, height: Double(rng.int(in: 400...900))))
      case 5:
        guard !index.stacks.isEmpty else { continue }
        return .setSpacing(id: rng.pick(index.stacks), spacing: Double(rng.int(in: 0...8)))
      case 6:
        guard !index.stacks.isEmpty else { continue }
        let insets = EdgeInsets(
          top: Double(rng.int(in: 0...6)), left: Double(rng.int(in: 0...6)),
          bottom: Double(rng.int(in: 0...6)), right: Double(rng.int(in: 0...6)))
        return .setInsets(id: rng.pick(index.stacks), insets: insets)
      case 7:
        guard !index.images.isEmpty else { continue }
        let size = Size(width: Double(rng.int(in: 8...40)), height: Double(rng.int(in: 8...40)))
        return .setImageSize(id: rng.pick(index.images), size: size)
      default:
        guard !index.lists.isEmpty else { continue }
        return .scroll(id: rng.pick(index.lists), offset: Double(rng.int(in: 0...2000)))
      }
    }
  }
}
