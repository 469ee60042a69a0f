import BenchSupport
import Foundation
import LayoutHarness
import LayoutModel
import Testing

/// A minimal valid document around `root` (a view object) and optional extra members.
func sceneDocument(root: String, extra: String = "") -> String {
  """
  {"format": "layout-bench-scene", "version": 1, "name": "t", \(extra)
   "root": \(root)}
  """
}

/// The error a document is refused with, read as `screen.json` (nil: accepted).
func failure(_ text: String) -> SceneFileError? {
  do {
    _ = try parseScene(text, file: "screen.json")
    return nil
  } catch {
    return error
  }
}

@Suite("scene files: errors name the file, the JSON path and the reason")
struct SceneFileErrorTests {
  /// `(document, path, a phrase of the reason)`.
  static let cases: [(String, String, String)] = [
    ("{\"format\": ", "line 1, column 12", "expected a value"),
    (
      "{\"format\": \"layout-bench-scene\",\n \"version\": 1,\n \"name\": \"t\" \"root\"}",
      "line 3, column 14", "expected ',' or '}', found '\""
    ),
    ("[]", "$", "expected an object"),
    (
      "{\"format\": \"x\", \"version\": 1, \"name\": \"t\", \"root\": {}}", "format",
      "layout-bench-scene"
    ),
    (
      "{\"format\": \"layout-bench-scene\", \"version\": 2, \"name\": \"t\", \"root\": {}}",
      "version", "version 1"
    ),
    (
      sceneDocument(root: "{\"kind\": \"label\", \"text\": \"a\"}", extra: "\"name\": \"u\","),
      "line 1, column 61", "duplicate key \"name\""
    ),
    (sceneDocument(root: "{\"kind\": \"label\"}"), "root", "missing key \"text\""),
    (
      sceneDocument(root: "{\"kind\": \"label\", \"text\": 3}"), "root.text",
      "expected a string, found a number"
    ),
    (sceneDocument(root: "{\"kind\": \"sprite\"}"), "root.kind", "\"sprite\" is not one of"),
    (
      sceneDocument(root: "{\"kind\": \"label\", \"text\": \"a\", \"colour\": 1}"), "root.colour",
      "unknown key"
    ),
    (
      sceneDocument(root: "{\"kind\": \"image\", \"width\": 1e999, \"height\": 1}"), "root.width",
      "too large to be finite"
    ),
    (
      sceneDocument(root: "{\"kind\": \"image\", \"width\": -1, \"height\": 1}"), "root.width",
      "out of range"
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"stack\", \"children\": [{\"kind\": \"repeat\", \"template\": \"row\", \"count\": 2}]}"
      ), "root.children[0].template", "no template \"row\""
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"stack\", \"children\": [{\"kind\": \"repeat\", \"template\": \"a\", \"count\": 2}]}",
        extra:
          "\"templates\": {\"a\": {\"kind\": \"stack\", \"children\": [{\"kind\": \"repeat\", \"template\": \"b\", \"count\": 1}]}, \"b\": {\"kind\": \"stack\", \"children\": [{\"kind\": \"repeat\", \"template\": \"a\", \"count\": 1}]}},"
      ), "templates.b.children[0].template", "a cycle in the tree: template a > b > a"
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"stack\", \"children\": [{\"kind\": \"repeat\", \"template\": \"a\", \"count\": \"size\"}]}",
        extra: "\"templates\": {\"a\": {\"kind\": \"label\", \"text\": \"x\"}},"),
      "root.children[0].count", "top-level \"size\""
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"stack\", \"children\": [{\"kind\": \"repeat\", \"template\": \"a\", \"count\": 1000000}]}",
        extra:
          "\"templates\": {\"a\": {\"kind\": \"stack\", \"children\": [{\"kind\": \"repeat\", \"template\": \"b\", \"count\": 1000}]}, \"b\": {\"kind\": \"label\", \"text\": \"x\"}},"
      ), "root.children[0].count", "expands to more than a billion views, beyond the 2000000"
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"view\", \"children\": [{\"kind\": \"label\", \"name\": \"a\", \"text\": \"x\"}], \"constraints\": [{\"first\": \"a.top\", \"second\": \"avatar.top\"}]}"
      ), "root.constraints[0].second", "unknown view \"avatar\""
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"view\", \"children\": [{\"kind\": \"label\", \"name\": \"a\", \"text\": \"x\"}], \"constraints\": [{\"first\": \"a.top\", \"second\": \"self.width\"}]}"
      ), "root.constraints[0].second",
      "anchor of the wrong axis: top (vertical) against width (size)"
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"view\", \"children\": [{\"kind\": \"label\", \"name\": \"a\", \"text\": \"x\"}], \"constraints\": [{\"first\": \"a.top\", \"second\": \"self.top\", \"priority\": 1001}]}"
      ), "root.constraints[0].priority", "out of range 1...1000"
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"view\", \"children\": [{\"kind\": \"label\", \"name\": \"a\", \"text\": \"x\"}], \"constraints\": [{\"first\": \"a.top\"}]}"
      ), "root.constraints[0].first", "needs a \"second\" anchor"
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"view\", \"children\": [{\"kind\": \"label\", \"name\": \"a\", \"text\": \"x\"}], \"constraints\": [{\"first\": \"a.tops\", \"second\": \"self.top\"}]}"
      ), "root.constraints[0].first", "unknown attribute \"tops\""
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"view\", \"children\": [{\"kind\": \"label\", \"name\": \"a\", \"text\": \"x\"}, {\"kind\": \"label\", \"name\": \"a\", \"text\": \"y\"}], \"constraints\": [{\"first\": \"a.top\", \"second\": \"self.top\"}]}"
      ), "root.constraints[0].first", "ambiguous view \"a\": 2 views"
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"view\", \"constraints\": [{\"first\": \"self.top\", \"second\": \"superview.top\"}]}"
      ), "root.constraints[0].second", "the root's superview is the window"
    ),
    (
      sceneDocument(
        root:
          "{\"kind\": \"view\", \"children\": [{\"kind\": \"label\", \"name\": \"a\", \"text\": \"x\"}], \"constraints\": [{\"first\": \"a.width\", \"constant\": 100}, {\"first\": \"a.width\", \"constant\": 200, \"id\": \"wide\"}]}"
      ), "root.constraints[1]", "unsatisfiable required constraint [wide]"
    ),
    // An implicit constraint refused (the image's own width), at the declared one it
    // conflicts with: the error named the image's width at `$` before stop 74.
    (
      sceneDocument(
        root:
          "{\"kind\": \"view\", \"children\": [{\"kind\": \"image\", \"name\": \"avatar\", \"width\": 64, \"height\": 64}], \"constraints\": [{\"first\": \"avatar.width\", \"constant\": 10, \"id\": \"narrow\"}]}"
      ), "root.constraints[0]", "(conflicts with [narrow] ImageView 'avatar'.width == 10)"
    ),
    (
      sceneDocument(
        root: "{\"kind\": \"label\", \"text\": \"x\", \"hugging\": {\"horizontal\": 1000}}"),
      "root.hugging.horizontal", "out of range 1...999"
    ),
    (
      sceneDocument(
        root: "{\"kind\": \"label\", \"text\": \"x\"}",
        extra: "\"ticks\": {\"steps\": [{\"kind\": \"text\", \"labels\": [\"title\"]}]},"),
      "ticks.steps[0].labels", "no label named title"
    ),
    (
      sceneDocument(
        root: "{\"kind\": \"label\", \"text\": \"x\"}",
        extra: "\"ticks\": {\"steps\": [{\"kind\": \"scroll\", \"list\": \"feed\"}]},"),
      "ticks.steps[0].list", "no container named \"feed\""
    ),
    (
      sceneDocument(
        root: "{\"kind\": \"label\", \"text\": \"x\"}",
        extra:
          "\"ticks\": {\"steps\": [{\"kind\": \"constant\", \"constraint\": \"k\", \"values\": [1]}]},"
      ), "ticks.steps[0].constraint", "no constraint has the id \"k\""
    ),
    (
      sceneDocument(
        root: "{\"kind\": \"label\", \"text\": \"x\"}",
        extra: "\"ticks\": {\"builtin\": \"wobble\", \"size\": 1},"), "ticks.builtin",
      "\"wobble\" is not one of"
    ),
    (
      sceneDocument(
        root: "{\"kind\": \"list\", \"children\": [{\"kind\": \"label\", \"text\": \"x\"}]}",
        extra:
          "\"ticks\": {\"steps\": [{\"kind\": \"insert\", \"into\": \"list\", \"template\": \"t\"}]},"
      ), "ticks.steps[0].template", "no template \"t\""
    ),
  ]

  @Test func everyErrorNamesFilePathAndReason() {
    for (document, path, reason) in Self.cases {
      let error = failure(document)
      #expect(error?.file == "screen.json", "\(document)")
      #expect(error?.path == path, "\(document): \(error?.description ?? "accepted")")
      #expect(
        error?.reason.contains(reason) == true, "\(error?.reason ?? "accepted") lacks \(reason)")
    }
  }

  @Test func badNameIsRefused() {
    let error = failure(
      "{\"format\": \"layout-bench-scene\", \"version\": 1, \"name\": \"a b\", \"root\": {\"kind\": \"view\"}}"
    )
    #expect(error?.path == "name")
    #expect(error?.reason.contains("letters, digits") == true)
  }

  /// Nesting: as deep as the reader allows parses and runs; deeper is an error, not a
  /// crash of the stack.
  @Test func deepNestingReadsUpToTheLimitAndNoFurther() throws {
    // 249 nested stacks and a label are 250 levels of views, 500 of JSON (a view and its
    // children array each).
    var root = "{\"kind\": \"label\", \"text\": \"leaf\"}"
    for _ in 0..<249 { root = "{\"kind\": \"stack\", \"spacing\": 1, \"children\": [\(root)]}" }
    let file = try parseScene(sceneDocument(root: root))
    #expect(file.viewCount(size: nil) == 250)
    let deeper = sceneDocument(root: "{\"kind\": \"stack\", \"children\": [\(root)]}")
    #expect(failure(deeper)?.reason.contains("nested deeper than 250 levels") == true)
    _ = try quickRun(try Scenario(file: file), strategies: StrategyKind.allCases, ticks: 2)
    var brackets = "0"
    for _ in 0..<100_000 { brackets = "[" + brackets + "]" }
    let error = failure(sceneDocument(root: brackets))
    #expect(
      error?.reason.contains("nested deeper than 512 levels") == true,
      "\(String(describing: error))")
  }

  /// A few lines that would expand to billions of views are refused before building any.
  @Test func exponentialTemplatesAreRefusedBeforeExpansion() {
    var templates: [String] = []
    for i in 0..<12 {
      templates.append(
        "\"t\(i)\": {\"kind\": \"stack\", \"children\": [{\"kind\": \"repeat\", \"template\": \"t\(i + 1)\", \"count\": 100}]}"
      )
    }
    templates.append("\"t12\": {\"kind\": \"label\", \"text\": \"x\"}")
    let document = sceneDocument(
      root:
        "{\"kind\": \"stack\", \"children\": [{\"kind\": \"repeat\", \"template\": \"t0\", \"count\": 100}]}",
      extra: "\"templates\": {\(templates.joined(separator: ", "))},")
    let error = failure(document)
    #expect(error?.path == "root.children[0].count")
    #expect(error?.reason.contains("more than a billion") == true)
  }

  @Test func missingFileIsAnError() {
    #expect(throws: SceneFileError(file: "/no/such/scene.json", path: "$", reason: "no such file"))
    {
      try SceneFile.load(path: "/no/such/scene.json")
    }
  }
}

/// Malformed scene files, made by corrupting the shipped examples at random: the reader
/// never crashes, and every error names the file, a JSON path (or a line and column) and a
/// reason; a corruption that still reads runs a few ticks without crashing.
/// `SCENE_FUZZ_CASES` sets the number of cases (default 1,000; `Scripts/scene-fuzz.sh`
/// runs a long campaign).
@Suite("scene files: malformed-file fuzz")
struct SceneFileFuzzTests {
  static let cases =
    ProcessInfo.processInfo.environment["SCENE_FUZZ_CASES"].flatMap(Int.init) ?? 1_000

  @Test func corruptedFilesFailCleanly() throws {
    let sources = try ExampleScenes.all.map {
      Array(try String(contentsOfFile: ExampleScenes.path($0), encoding: .utf8).utf8)
    }
    let seed = ProcessInfo.processInfo.environment["SCENE_FUZZ_SEED"].flatMap(UInt64.init) ?? 2026
    var rng = SplitMix64(seed: seed)
    let replacements: [String] = [
      "1e999", "-1e999", "-0", "null", "true", "\"\"", "[]", "{}", "\"size\"", "1000001",
      "0.5", "\"\\u0000\"", "\"avatar.width\"", "\"self.top\"", "99999999999999999999",
      "{\"kind\": \"repeat\", \"template\": \"message\", \"count\": 1000000}", "\"message\"",
      "{\"kind\": \"repeat\", \"template\": \"row\", \"count\": 0}", "\"repeat\"", "\"view\"",
      "-5", "1", "2", "\"superview.width\"", "\"body\"", "\"thread\"",
    ]
    var accepted = 0
    var refused = 0
    for n in 0..<Self.cases {
      var bytes = sources[n % sources.count]
      switch rng.int(in: 0...4) {
      case 0:  // truncated
        bytes = Array(bytes.prefix(rng.int(in: 0..<bytes.count)))
      case 1:  // a byte flipped
        let i = rng.int(in: 0..<bytes.count)
        bytes[i] = UInt8(rng.int(in: 0...255))
      case 2:  // a value replaced by another of any type
        let values = valueRanges(bytes)
        guard let range = values.isEmpty ? nil : rng.pick(values) else { continue }
        bytes.replaceSubrange(range, with: Array(rng.pick(replacements).utf8))
      case 3:  // a name dangling: every occurrence of one string value changed
        let values = valueRanges(bytes).filter { bytes[$0.lowerBound] == UInt8(ascii: "\"") }
        guard let range = values.isEmpty ? nil : rng.pick(values) else { continue }
        let old = Array(bytes[range])
        bytes = replacingAll(old, with: Array("\"ghost\"".utf8), in: bytes)
      default:  // a member deleted
        let values = valueRanges(bytes)
        guard let range = values.isEmpty ? nil : rng.pick(values) else { continue }
        bytes.replaceSubrange(range, with: [])
      }
      do {
        let file = try SceneFile.parse(bytes, file: "fuzz\(n).json")
        accepted += 1
        // What still reads must run: a few ticks under every strategy that can lay it
        // out, at its size and (when it has one) another, no crash; an error names why.
        guard file.viewCount(size: nil) < 3_000 else { continue }
        var sizes: [Int?] = [nil]
        if let size = file.defaultSize { sizes.append(size == 1 ? 2 : size / 2) }
        for size in sizes {
          let scenario: Scenario
          do { scenario = try Scenario(file: file, size: size) } catch { continue }
          let strategies = StrategyKind.allCases.filter {
            $0 != .bottomUp || file.frameLayoutProblem == nil
          }
          do {
            _ = try quickRun(scenario, strategies: strategies, ticks: 3)
          } catch let error as RunError {
            #expect(!error.description.isEmpty)
          }
        }
      } catch let error as SceneFileError {
        refused += 1
        #expect(error.file == "fuzz\(n).json")
        #expect(!error.path.isEmpty && !error.reason.isEmpty, "\(error)")
        #expect(
          error.path == "$" || error.path.hasPrefix("line ") || error.path.hasPrefix("$[")
            || error.path.first!.isLetter || error.path.first!.isNumber
            || error.path.first == "_", "\(error)")
      }
    }
    #expect(accepted + refused >= Self.cases * 9 / 10)
    #expect(refused > Self.cases / 3)
  }

  /// Byte ranges of scalar values (strings, numbers, literals) after a ':' or in arrays.
  func valueRanges(_ bytes: [UInt8]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      if byte == UInt8(ascii: "\"") {
        var j = i + 1
        while j < bytes.count, bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == 92 ? 2 : 1 }
        let end = min(j + 1, bytes.count)
        // A value, not a key: the next non-space byte is not ':'.
        var k = end
        while k < bytes.count, bytes[k] == 32 { k += 1 }
        if k >= bytes.count || bytes[k] != UInt8(ascii: ":") { result.append(i..<end) }
        i = end
      } else if byte == UInt8(ascii: "-") || (48...57).contains(byte) {
        var j = i + 1
        while j < bytes.count, "0123456789.eE+-".utf8.contains(bytes[j]) { j += 1 }
        result.append(i..<j)
        i = j
      } else {
        i += 1
      }
    }
    return result
  }

  func replacingAll(_ old: [UInt8], with new: [UInt8], in bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var i = 0
    while i < bytes.count {
      if i + old.count <= bytes.count, Array(bytes[i..<i + old.count]) == old {
        result += new
        i += old.count
      } else {
        result.append(bytes[i])
        i += 1
      }
    }
    return result
  }
}

/// Files that read but could not run: each is refused when read (or at the size that breaks
/// it) with its path, instead of crashing, hanging or disagreeing in the middle of a run.
@Suite("scene files: refused before the run")
struct SceneFileRunnabilityTests {
  /// A template with constraints inserted every tick: its names resolve the same in every
  /// instance (default names do not depend on ids), and bottom-up is refused because of it.
  @Test func insertedTemplatesWithConstraintsRunAndRefuseBottomUp() throws {
    let text = sceneDocument(
      root: "{\"kind\": \"list\", \"name\": \"feed\", \"children\": []}",
      extra: """
        "templates": {"card": {"kind": "view", "children": [
          {"kind": "label", "name": "label10", "text": "a"}, {"kind": "label", "text": "b"}],
          "constraints": [{"first": "label10.leading", "second": "self.leading"},
                          {"first": "label10.top", "second": "self.top"},
                          {"first": "self.height", "constant": 40},
                          {"first": "label10.trailing", "relation": "<=", "second": "self.trailing"}]}},
        "ticks": {"steps": [{"kind": "insert", "into": "feed", "template": "card"}]},
        """)
    let file = try parseScene(text)
    #expect(file.frameLayoutProblem?.contains("inserted by ticks.steps[0]") == true)
    let results = try quickRun(
      try Scenario(file: file), strategies: [.coalesced, .eager], ticks: 12)
    #expect(results.count == 2)
    #expect(throws: RunError.self) {
      _ = try quickRun(try Scenario(file: file), strategies: [.bottomUp])
    }
  }

  @Test func templateChainsDeeperThanTheLimitAreRefused() {
    func nest(_ inner: String, _ levels: Int) -> String {
      var view = inner
      for _ in 0..<levels { view = "{\"kind\": \"stack\", \"children\": [\(view)]}" }
      return view
    }
    let text = sceneDocument(
      root: nest("{\"kind\": \"repeat\", \"template\": \"t\", \"count\": 1}", 200),
      extra: "\"templates\": {\"t\": \(nest("{\"kind\": \"label\", \"text\": \"x\"}", 100))},")
    let error = failure(text)
    #expect(
      error?.reason.contains("nested deeper than 250 levels") == true,
      "\(String(describing: error))")
  }

  /// Many templates, each nested nearly to the limit and repeating the next: the count
  /// made before expansion must stop at the limit too, not recurse through every template
  /// (60 x 240 levels overflowed the stack before it did).
  @Test func longChainsOfDeepTemplatesAreRefusedWithoutACrash() {
    func nest(_ inner: String, _ levels: Int) -> String {
      var view = inner
      for _ in 0..<levels { view = "{\"kind\": \"stack\", \"children\": [\(view)]}" }
      return view
    }
    var templates: [String] = []
    for i in 0..<60 {
      let inner =
        i == 59
        ? "{\"kind\": \"label\", \"text\": \"x\"}"
        : "{\"kind\": \"repeat\", \"template\": \"t\(i + 1)\", \"count\": 1}"
      templates.append("\"t\(i)\": \(nest(inner, 240))")
    }
    let text = sceneDocument(
      root: "{\"kind\": \"stack\", \"children\": "
        + "[{\"kind\": \"repeat\", \"template\": \"t0\", \"count\": 1}]}",
      extra: "\"templates\": {\(templates.joined(separator: ", "))},")
    let error = failure(text)
    #expect(error?.path == "root.children[0].template", "\(String(describing: error))")
    #expect(
      error?.reason.contains("deeper than 250 levels") == true, "\(String(describing: error))")
  }

  /// A step that inserts more than the view limit in one tick is refused at its first
  /// instance, naming the step, before thousands are built (it took minutes before).
  @Test func insertsBeyondTheViewLimitAreRefusedAtTheFirstInstance() throws {
    let text = sceneDocument(
      root: "{\"kind\": \"stack\", \"name\": \"list\"}",
      extra: """
        "templates": {"t": {"kind": "stack", "children": [
          {"kind": "repeat", "template": "l", "count": 1000}]},
          "l": {"kind": "label", "text": "x"}},
        "ticks": {"steps": [{"kind": "insert", "into": "list", "template": "t",
                             "perTick": 10000}]},
        """)
    let file = try parseScene(text)
    do {
      _ = try quickRun(try Scenario(file: file), strategies: [.coalesced], ticks: 2)
      Issue.record("a tick of 10 million new views ran")
    } catch {
      let message = "\(error)"
      #expect(message.contains("ticks.steps[0]"), "\(message)")
      #expect(
        message.contains(
          "at tick 0, 10000 instances of template t (1001 views each) would grow the scene "
            + "from 1 views beyond the 2000000"), "\(message)")
    }
  }

  @Test func aTemplateIsOneView() {
    let text = sceneDocument(
      root:
        "{\"kind\": \"list\", \"children\": [{\"kind\": \"repeat\", \"template\": \"a\", \"count\": 1000000}]}",
      extra:
        "\"templates\": {\"a\": {\"kind\": \"repeat\", \"template\": \"b\", \"count\": 0}, \"b\": {\"kind\": \"label\", \"text\": \"x\"}},"
    )
    let error = failure(text)
    #expect(error?.path == "templates.a.kind")
    #expect(error?.reason.contains("a template is one view") == true)
  }

  @Test func constraintsCountAgainstTheirOwnLimit() {
    let constraints = Array(
      repeating: "{\"first\": \"self.width\", \"relation\": \">=\", \"constant\": 1}", count: 1000
    ).joined(separator: ", ")
    let text = sceneDocument(
      root:
        "{\"kind\": \"list\", \"children\": [{\"kind\": \"repeat\", \"template\": \"a\", \"count\": 10000}]}",
      extra: "\"templates\": {\"a\": {\"kind\": \"view\", \"constraints\": [\(constraints)]}},")
    let error = failure(text)
    #expect(error?.path == "root.children[0].count")
    #expect(
      error?.reason.contains("10000000 declared constraints") == true,
      "\(String(describing: error))")
  }

  @Test func sizesOutOfRangeAreErrors() throws {
    let file = try SceneFile.load(path: ExampleScenes.path("chat-thread.json"))
    for size in [-5, 0, 1_000_001, 400_000] {
      #expect(throws: SceneFileError.self) { try Scenario(file: file, size: size) }
    }
  }

  @Test func aWindowNarrowerThanTheSceneNeedsIsRefused() {
    let text = sceneDocument(
      root:
        "{\"kind\": \"stack\", \"insets\": 20, \"children\": [{\"kind\": \"label\", \"text\": \"x\"}]}",
      extra:
        "\"ticks\": {\"steps\": [{\"kind\": \"resize\", \"sizes\": [{\"width\": 390, \"height\": 844}, {\"width\": 39, \"height\": 844}]}]},"
    )
    let error = failure(text)
    #expect(error?.path == "ticks.steps[0].sizes[1].width")
    #expect(error?.reason.contains("narrower than the scene needs (40") == true)
  }

  @Test func aConstantThatBreaksARequiredConstraintIsNamedWhenRead() {
    let text = sceneDocument(
      root: """
        {"kind": "view", "children": [{"kind": "label", "name": "a", "text": "x"}],
         "constraints": [{"first": "a.width", "relation": "<=", "constant": 100},
                         {"first": "a.width", "constant": 50, "id": "w"}]}
        """,
      extra:
        "\"ticks\": {\"steps\": [{\"kind\": \"constant\", \"constraint\": \"w\", \"values\": [50, 60, 150]}]},"
    )
    let error = failure(text)
    #expect(error?.path == "root.constraints[1]" || error?.path == "root.constraints[0]")
    #expect(
      error?.reason.contains("at tick 2, after ticks.steps[0]") == true,
      "\(String(describing: error))")
  }

  @Test func aBuiltInWorkloadMustFitTheScene() {
    let text = sceneDocument(
      root:
        "{\"kind\": \"stack\", \"children\": [{\"kind\": \"image\", \"width\": 1, \"height\": 1}]}",
      extra: "\"ticks\": {\"builtin\": \"scroll\", \"size\": 3},")
    let accepted = failure(text) == nil  // nothing to scroll: no mutations, nothing wrong
    #expect(accepted)
    let constrained = sceneDocument(
      root:
        "{\"kind\": \"view\", \"children\": [{\"kind\": \"label\", \"name\": \"a\", \"text\": \"x\"}], \"constraints\": [{\"first\": \"a.top\", \"second\": \"self.top\"}]}",
      extra: "\"ticks\": {\"builtin\": \"removal\", \"size\": 3},")
    #expect(failure(constrained)?.path == "ticks.builtin")
  }

  /// A container inside a sized repeat is one at the default size and several at another:
  /// the steps are checked again at the size that runs.
  @Test func stepsAreCheckedAtTheSizeThatRuns() throws {
    let text = sceneDocument(
      root:
        "{\"kind\": \"stack\", \"children\": [{\"kind\": \"repeat\", \"template\": \"box\", \"count\": \"size\"}]}",
      extra: """
        "size": 1,
        "templates": {"box": {"kind": "stack", "name": "box", "children": [], "spacing": 1},
                      "item": {"kind": "label", "text": "x"}},
        "ticks": {"steps": [{"kind": "insert", "into": "box", "template": "item"},
                            {"kind": "remove", "from": "box", "at": "start"}]},
        """)
    let file = try parseScene(text)
    _ = try quickRun(try Scenario(file: file), strategies: StrategyKind.allCases)
    #expect(throws: RunError.self) { try Scenario(file: file, size: 3).makeWorkload() }
  }

  @Test func jsonEscapesAreStrictAndAByteOrderMarkIsSkipped() throws {
    let plus = sceneDocument(root: "{\"kind\": \"label\", \"text\": \"\\u+041\"}")
    #expect(failure(plus)?.reason.contains("four hexadecimal digits") == true)
    let bom =
      [UInt8]([0xEF, 0xBB, 0xBF])
      + Array(sceneDocument(root: "{\"kind\": \"label\", \"text\": \"x\"}").utf8)
    #expect(throws: Never.self) { _ = try SceneFile.parse(bom, file: "bom.json") }
    #expect(JSONValue.string("e\u{301}") != JSONValue.string("\u{e9}"))
  }

  /// Names are how a file refers to views: a Swift scene whose names would reach other
  /// views when read back is refused.
  @Test func aSwiftSceneWhoseNamesWouldMoveIsRefused() {
    let inner = Scene.Node(id: 4, name: "a", content: .label(text: "y", style: .body))
    let d = Scene.Node(
      id: 3, name: "d", content: .view(children: [inner]),
      constraints: [.init(first: 3, .width, .equal, second: 2, .width, identifier: "k")])
    let x = Scene.Node(id: 2, name: "a", content: .label(text: "x", style: .body))
    let root = Scene.Node(id: 1, name: "root", content: .view(children: [x, d]))
    #expect(throws: SceneFileError.self) {
      try SceneFile(
        name: "moved", scene: Scene(windowSize: Size(width: 390, height: 844), root: root),
        workload: .scripted(seed: 1, steps: []))
    }
  }

  @Test func measuringOnlyBottomUpOnAConstrainedSceneIsAnError() throws {
    let file = try SceneFile.load(path: ExampleScenes.path("profile-card.json"))
    #expect(throws: RunError.self) {
      _ = try file.measure(settings: RunSettings(strategies: [.bottomUp], ticks: 2))
    }
  }
}
