import BenchSupport
import LayoutModel

/// The mutations of a scene file's tick steps, generated ahead of each tick from the
/// file's seed (deterministic), against a copy of the scene that follows them. A step that
/// cannot go on (its container gone or doubled by inserts, the scene grown past its limit)
/// sets ``failure`` and generates nothing more: the runner stops with it.
struct ScriptedWorkload {
  let file: SceneFile
  let steps: [TickStep]
  let size: Int?
  private var generator: SceneGenerator
  private var shadow: Scene
  private var views: Int
  private var tick = 0
  /// Ids each step chooses from, recomputed after an insert or remove changed the tree.
  private var pools: [Int: [Int]] = [:]
  /// Why the steps cannot go on (with the step's JSON path), or nil.
  private(set) var failure: String?
  /// The step (JSON path) each mutation of the last tick came from.
  private(set) var origins: [String] = []

  init(file: SceneFile, seed: UInt64, steps: [TickStep], scene: Scene, size: Int?) {
    self.file = file
    self.steps = steps
    self.size = size
    generator = SceneGenerator(seed: seed)
    generator.continueIDs(after: scene)
    shadow = scene
    views = scene.viewCount
  }

  mutating func next() -> [SceneMutation] {
    defer { tick += 1 }
    var result: [SceneMutation] = []
    origins.removeAll(keepingCapacity: true)
    guard failure == nil else { return [] }
    for (s, step) in steps.enumerated() {
      let made = mutations(step, index: s)
      if let failure {
        self.failure = "\(step.path): \(failure)"
        return []
      }
      // Inserts were applied one by one as they were made (each sees the one before).
      if case .insert = step.kind {} else { follow(made, step) }
      result += made
      origins += Array(repeating: step.path, count: made.count)
    }
    return failure == nil ? result : []
  }

  private mutating func follow(_ mutations: [SceneMutation], _ step: TickStep) {
    for mutation in mutations where failure == nil {
      do throws(SceneMutationError) { try shadow.apply(mutation) } catch {
        failure = "\(step.path): \(error)"
      }
    }
  }

  private mutating func pool(_ s: Int, _ make: (SceneLookup) -> [Int]) -> [Int] {
    if let cached = pools[s] { return cached }
    let made = make(SceneLookup(shadow))
    pools[s] = made
    return made
  }

  /// `count` distinct picks from `items` (all of them when there are fewer).
  private mutating func choose(_ count: Int, from items: [Int]) -> [Int] {
    guard count < items.count else { return items }
    var picked: [Int] = []
    var taken: Set<Int> = []
    while picked.count < count {
      let item = generator.rng.pick(items)
      if taken.insert(item).inserted { picked.append(item) }
    }
    return picked
  }

  /// The one container of this name now, or nil with ``failure`` set.
  private mutating func container(_ name: String) -> Scene.Node? {
    do throws(JSONProblem) {
      return try SceneLookup(shadow).container(named: name, at: .root)
    } catch {
      failure = "at tick \(tick): \(error.reason)"
      return nil
    }
  }

  private mutating func mutations(_ step: TickStep, index s: Int) -> [SceneMutation] {
    switch step.kind {
    case .text(let labels, let texts, let perTick):
      let ids = pool(s) { $0.labels(named: labels) }
      guard !ids.isEmpty else { return [] }
      return (0..<perTick).map { _ in
        let id = generator.rng.pick(ids)
        let text =
          texts.map { generator.rng.pick($0) }
          ?? generator.text(words: generator.rng.int(in: 1...30))
        return .setText(id: id, text: text)
      }
    case .constant(let identifier, let values, let perTick):
      let ids = pool(s) { $0.constraints(identifier: identifier) }
      let value = values[tick % values.count]
      return choose(perTick, from: ids).map {
        .setConstant(id: $0, identifier: identifier, constant: value)
      }
    case .insert(let into, let template, let at, let perTick):
      var result: [SceneMutation] = []
      for _ in 0..<perTick {
        guard let container = container(into) else { return [] }
        let count = container.content.children.count
        let index: Int
        switch at {
        case .start: index = 0
        case .end: index = count
        case .index(let i): index = min(i, count)
        }
        let node: Scene.Node
        do throws(JSONProblem) {
          node = try file.instance(
            of: template, firstID: shadow.maxID + 1, superview: container.id, size: size)
        } catch {
          failure = "at tick \(tick), template \(template): \(error.path): \(error.reason)"
          return []
        }
        let added = Scene(windowSize: shadow.windowSize, root: node).viewCount
        // Every instance of a template has as many views: the whole step is checked at its
        // first instance, before thousands are built and placed.
        let coming = result.isEmpty ? added * perTick : added
        guard views + coming <= SceneFile.maximumViews else {
          let what =
            result.isEmpty && perTick > 1
            ? "\(perTick) instances of template \(template) (\(added) views each)"
            : "an instance of template \(template) (\(added) views)"
          failure =
            "at tick \(tick), \(what) would grow the scene from \(views) views beyond the "
            + "\(SceneFile.maximumViews) a scene may have (a step removing what it inserts "
            + "keeps it bounded)"
          return []
        }
        views += added
        let mutation = SceneMutation.insert(parent: container.id, index: index, node: node)
        follow([mutation], step)
        result.append(mutation)
      }
      pools.removeAll()
      return result
    case .remove(let from, let at, let perTick):
      guard let container = container(from) else { return [] }
      var children = container.content.children
      var result: [SceneMutation] = []
      for _ in 0..<perTick where !children.isEmpty {
        let index: Int
        switch at {
        case .start: index = 0
        case .end: index = children.count - 1
        case .index(let i): index = min(i, children.count - 1)
        }
        let removed = children.remove(at: index)
        views -= Scene(windowSize: shadow.windowSize, root: removed).viewCount
        result.append(.remove(id: removed.id))
      }
      if !result.isEmpty { pools.removeAll() }
      return result
    case .resize(let sizes):
      return [.resizeWindow(sizes[tick % sizes.count])]
    case .scroll(let list, let step, let limit):
      let ids = pool(s) { lookup in
        (try? lookup.container(named: list, at: .root)).map { [$0.id] } ?? []
      }
      guard let id = ids.first else {
        _ = container(list)  // sets the failure: gone, or doubled by inserts
        return []
      }
      // A triangle wave: down to the limit, then back up.
      let period = 2 * limit
      var offset =
        period > 0 ? (Double(tick + 1) * step).truncatingRemainder(dividingBy: period) : 0
      if offset > limit { offset = period - offset }
      return [.scroll(id: id, offset: offset)]
    }
  }
}
