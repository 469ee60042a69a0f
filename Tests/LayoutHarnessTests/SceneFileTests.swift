import Foundation
import LayoutHarness
import LayoutModel
import Testing

/// The shipped example scenes (Scripts/examples/scenes), found from this file's path.
enum ExampleScenes {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scripts/examples/scenes")

  static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  static var all: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
      .filter { $0.hasSuffix(".json") }.sorted()
  }
}

func parseScene(_ text: String, file: String = "test.json") throws(SceneFileError) -> SceneFile {
  try SceneFile.parse(Array(text.utf8), file: file)
}

/// Runs a scenario in-process, briefly, frames verified every tick.
func quickRun(_ scenario: Scenario, strategies: [StrategyKind], ticks: Int = 6) throws
  -> [RunResult]
{
  let settings = RunSettings(
    strategies: strategies, ticks: ticks, warmupTicks: 2, minimumTicks: ticks, coldBuilds: 1)
  return try ScenarioRunner(settings: settings).run(scenario).results
}

@Suite("scene files: export and run round trips")
struct SceneExportRoundTripTests {
  static let cases: [(Shape, Int)] = [
    (.deep, 12), (.wide, 30), (.balanced, 40), (.feed, 3), (.random, 40), (.table, 40),
    (.grid, 7),
  ]

  /// The counters that describe the work of a run (time-free, deterministic).
  func work(_ results: [RunResult]) -> [String] {
    results.map { r in
      "\(r.strategy) views \(r.views) "
        + r.counters.sorted { $0.key < $1.key }.map {
          "\($0.key)=\($0.value)"
        }.joined(separator: " ")
    }
  }

  /// Every built-in shape under every mutation it takes: the exported file's run does the
  /// same work as the built-in scenario's (counters of all three strategies), and its
  /// frames after every tick are the built-in tree's.
  @Test(arguments: cases.map(\.0))
  func exportThenRunIsTheBuiltInScenario(shape: Shape) throws {
    let size = Self.cases.first { $0.0 == shape }!.1
    for mutation in MutationKind.builtIn where Scenario.supports(shape, mutation) {
      let builtIn = Scenario(shape: shape, size: size, mutation: mutation, perTick: 2, seed: 5)
      let text = try SceneFile.exporting(builtIn).prettyText
      let file = try parseScene(text, file: "\(shape).json")
      let fromFile = try Scenario(file: file)
      #expect(fromFile.description == "\(shape)\(size)/\(mutation)x2")

      let a = try quickRun(builtIn, strategies: StrategyKind.allCases)
      let b = try quickRun(fromFile, strategies: StrategyKind.allCases)
      #expect(work(a) == work(b), "\(builtIn)")
      #expect(b.allSatisfy { $0.scene?.hash == file.hash && $0.scene?.name == "\(shape)\(size)" })

      // Frame by frame, tick by tick, against the built-in tree.
      var (sceneA, ticksA) = try builtIn.makeWorkload()
      var (sceneB, ticksB) = try fromFile.makeWorkload()
      #expect(sceneA.viewCount == sceneB.viewCount)
      let treeA = try LayoutStrategy(.coalesced, scene: sceneA)
      let treeB = try LayoutStrategy(.coalesced, scene: sceneB)
      for tick in 0..<8 {
        try treeA.tick(ticksA.next())
        try treeB.tick(ticksB.next())
        let framesA = treeA.tree.frames().map(\.frame)
        let framesB = treeB.tree.frames().map(\.frame)
        #expect(framesA == framesB, "\(builtIn) tick \(tick)")
        if framesA != framesB { return }
      }
      sceneA = sceneB  // both scenes stay alive until the trees are compared
      _ = sceneA
    }
  }

  /// The document an export writes reads back to the same hash, whatever its layout: key
  /// order and spacing do not change it, a value does.
  @Test func hashIgnoresLayoutButNotValues() throws {
    let scenario = Scenario(shape: .feed, size: 2, mutation: .text)
    let document = try SceneFile.exporting(scenario)
    let pretty = try parseScene(document.prettyText)
    let compact = try parseScene(document.canonicalText)
    #expect(pretty.hash == compact.hash)
    let changed = try parseScene(
      document.prettyText.replacingOccurrences(of: "\"spacing\": 8", with: "\"spacing\": 9"))
    #expect(changed.hash != pretty.hash)
  }
}

@Suite("scene files: the shipped examples")
struct ExampleSceneTests {
  @Test func theExamplesAreShipped() {
    #expect(
      Set(ExampleScenes.all).isSuperset(of: [
        "chat-thread.json", "settings-form.json", "product-grid.json", "profile-card.json",
      ]))
  }

  /// Every example runs; the stack-only ones under all three strategies with identical
  /// frames after every tick (the runner stops on the first difference); the one with
  /// constraints under the two Auto Layout strategies, bottom-up refused with its reason.
  @Test(arguments: ExampleScenes.all)
  func exampleRunsWithIdenticalFrames(name: String) throws {
    let file = try SceneFile.load(path: ExampleScenes.path(name))
    let scenario = try Scenario(file: file)
    if let problem = file.frameLayoutProblem {
      #expect(problem.contains("constraints"))
      #expect(throws: RunError.self) {
        _ = try quickRun(scenario, strategies: StrategyKind.allCases)
      }
      let results = try quickRun(scenario, strategies: [.coalesced, .eager], ticks: 12)
      #expect(results.count == 2)
    } else {
      let results = try quickRun(scenario, strategies: StrategyKind.allCases, ticks: 12)
      #expect(results.count == 3)
      #expect(results.allSatisfy { ($0.counters["framesChanged"] ?? 0) > 0 })
    }
  }

  /// A sized scene grows with its size (the repeats of "count": "size").
  @Test func sizeSetsTheRepeatCount() throws {
    let file = try SceneFile.load(path: ExampleScenes.path("chat-thread.json"))
    #expect(file.defaultSize == 40)
    #expect(try file.scene(size: 10).viewCount == 1 + 10 * 6)
    #expect(try file.scene().viewCount == 1 + 40 * 6)
    #expect(try Scenario(file: file, size: 10).description == "chat-thread10/scriptedx1")
    let card = try SceneFile.load(path: ExampleScenes.path("profile-card.json"))
    #expect(throws: SceneFileError.self) { try Scenario(file: card, size: 10) }
  }

  /// The chat's ticks: a message arrives at the end, the oldest leaves, and a body text
  /// changes; the thread keeps its length.
  @Test func chatTicksInsertRemoveAndEdit() throws {
    let file = try SceneFile.load(path: ExampleScenes.path("chat-thread.json"))
    var (scene, workload) = try Scenario(file: file, size: 5).makeWorkload()
    let first = scene.root.content.children.map(\.id)
    for _ in 0..<3 {
      let mutations = workload.next()
      #expect(mutations.count == 3)
      for mutation in mutations { try scene.apply(mutation) }
    }
    let now = scene.root.content.children.map(\.id)
    #expect(now.count == 5)
    #expect(Array(now.prefix(2)) == Array(first.suffix(2)))
    #expect(Set(now.suffix(3)).isDisjoint(with: first))
  }

  /// Constant steps go through the constraint's in-place change and move the view.
  @Test func constantStepMovesTheConstrainedView() throws {
    let file = try SceneFile.load(path: ExampleScenes.path("profile-card.json"))
    let (scene, _) = try Scenario(file: file).makeWorkload()
    let strategy = try LayoutStrategy(.coalesced, scene: scene)
    try strategy.tick([])
    let avatar = try #require(strategy.tree.views.values.first { $0.name == "avatar" })
    #expect(avatar.frame.origin.y == 16)
    let card = scene.root.id
    try strategy.tick([.setConstant(id: card, identifier: "avatarTop", constant: 40)])
    #expect(avatar.frame.origin.y == 40)
    #expect(avatar.frame.origin.x == 16)
  }
}

@Suite("scene files: a scene built in Swift")
struct SwiftSceneTests {
  /// A plain view with a label pinned by constraints, built in Swift and run through the
  /// same runner: a report every writer and `compare` accept.
  @Test func swiftSceneRunsThroughTheRunner() throws {
    let title = Scene.Node(id: 2, name: "title", content: .label(text: "Hello", style: .title))
    let card = Scene.Node(
      id: 1, name: "card", content: .view(children: [title]),
      constraints: [
        .init(first: 2, .leading, .equal, second: 1, .leading, constant: 20, identifier: "inset"),
        .init(first: 2, .top, .equal, second: 1, .top, constant: 30, identifier: "top"),
        .init(first: 2, .trailing, .lessThanOrEqual, second: 1, .trailing, identifier: "edge"),
      ])
    let file = try SceneFile(
      name: "swift-card", scene: Scene(windowSize: Size(width: 390, height: 844), root: card),
      workload: .scripted(
        seed: 1,
        steps: [
          TickStep(.text(labels: ["title"], texts: nil, perTick: 1), path: "ticks.steps[0]"),
          TickStep(.constant(identifier: "top", values: [30, 40], perTick: 1), path: "x"),
        ]))
    #expect(file.frameLayoutProblem != nil)
    let results = try quickRun(try Scenario(file: file), strategies: [.coalesced, .eager])
    let report = RunReport(hz: 60, measurementOverheadNs: 0, environment: [:], results: results)
    #expect(ReportTable.render(report, style: .terminal).contains("swift-card/scriptedx1"))
    let comparison = Comparison.compare(base: report, new: report)
    #expect(comparison.unmatched.isEmpty)
    #expect(Comparison.sceneChanges(base: report, new: report).isEmpty)
  }

  /// A result of a changed file is not matched with the old one, and says why.
  @Test func changedSceneIsNotComparedSilently() throws {
    let base = try SceneFile.load(path: ExampleScenes.path("product-grid.json"))
    let text = try String(contentsOfFile: ExampleScenes.path("product-grid.json"), encoding: .utf8)
    let edited = try parseScene(
      text.replacingOccurrences(of: "\"spacing\": 8", with: "\"spacing\": 10"),
      file: ExampleScenes.path("product-grid.json"))
    let a = try quickRun(try Scenario(file: base, size: 3), strategies: [.bottomUp])
    let b = try quickRun(try Scenario(file: edited, size: 3), strategies: [.bottomUp])
    let old = RunReport(hz: 60, measurementOverheadNs: 0, environment: [:], results: a)
    let new = RunReport(hz: 60, measurementOverheadNs: 0, environment: [:], results: b)
    let comparison = Comparison.compare(base: old, new: new)
    #expect(comparison.rows.isEmpty)
    #expect(comparison.unmatched.count == 2)
    let reasons = Comparison.sceneChanges(base: old, new: new)
    #expect(reasons.count == 1 && reasons[0].contains("changed since the baseline"))
  }
}
