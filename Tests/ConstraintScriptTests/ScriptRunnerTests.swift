import ConstraintScript
import Testing

/// What running a script means: which blocks `print` emits and the values in them. Every
/// expected value below is worked out by hand in the comment next to it.
@Suite("Script runner")
struct ScriptRunnerTests {
  // MARK: - Helpers

  func run(_ text: String) throws(ScriptError) -> [ScriptRunner.Block] {
    try ScriptRunner.run(Script(parsing: text, file: "run.cass"), file: "run.cass")
  }

  /// Checks a block against `expected` name/value pairs: names exactly, in order; values to
  /// 1e-9 (relative beyond 1).
  func expectBlock(
    _ block: ScriptRunner.Block, _ expected: KeyValuePairs<String, Double>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      block.map(\.name) == expected.map(\.key), "names", sourceLocation: sourceLocation)
    for ((name, got), (_, want)) in zip(block, expected) {
      #expect(
        abs(got - want) <= 1e-9 * max(1, abs(want)), "\(name) = \(got), expected \(want)",
        sourceLocation: sourceLocation)
    }
  }

  // MARK: - Split equalities

  @Test func anEqualityWeighsAnExcessAndAShortfallApart() throws {
    // x == 10 with a weak excess and a strong shortfall, against medium pulls: up to 20
    // wins (an excess of 10 costs 10), down to 0 does not (a shortfall of 10 costs 1e7).
    let blocks = try run(
      """
      c: x == 10 @weak/strong
      up: x == 20 @medium
      print
      remove up
      x == 0 @medium
      print
      """)
    #expect(blocks.count == 2)
    expectBlock(blocks[0], ["x": 20])
    expectBlock(blocks[1], ["x": 10])
  }

  // MARK: - Blocks

  @Test func printListsEveryVariableSeenSoFarInOrder() throws {
    let blocks = try run(
      """
      print
      b == 2
      print
      a + b == c   # a and c are new, in that order
      c == 7
      print
      edit d @weak
      print
      """)
    try #require(blocks.count == 4)
    #expect(blocks[0].isEmpty)
    expectBlock(blocks[1], ["b": 2])
    // b = 2 and c = 7 are required, so a = c - b = 5.
    expectBlock(blocks[2], ["b": 2, "a": 5, "c": 7])
    // d is an edit variable with no suggestion and nothing else on it: kiwi leaves it at 0.
    expectBlock(blocks[3], ["b": 2, "a": 5, "c": 7, "d": 0])
  }

  @Test func variablesAreNotForgottenWhenTheirConstraintGoes() throws {
    // z only ever appears in c; once c is removed z is free, and a free variable reads 0.
    let blocks = try run("c: z == 5\nprint\nremove c\nprint\n")
    try #require(blocks.count == 2)
    expectBlock(blocks[0], ["z": 5])
    expectBlock(blocks[1], ["z": 0])
  }

  @Test func cancelledVariableIsStillPrinted() throws {
    // `x - x == 0` holds for any x and says nothing about it: x stays 0.
    let blocks = try run("x - x == 0\ny == 1")
    try #require(blocks.count == 1)
    expectBlock(blocks[0], ["x": 0, "y": 1])
  }

  @Test func scriptWithoutPrintPrintsTheFinalStateOnce() throws {
    let blocks = try run(
      """
      x == 1
      edit w @weak
      suggest w 4
      y == w     # y follows w once it is defined: 4
      suggest w 6
      """)
    try #require(blocks.count == 1)
    expectBlock(blocks[0], ["x": 1, "w": 6, "y": 6])
  }

  @Test func emptyScriptPrintsOneEmptyBlock() throws {
    #expect(try run("").map(\.count) == [0])
    #expect(try run("# only a comment\n\n").map(\.count) == [0])
  }

  @Test func blocksCarryNoSeparators() throws {
    // `---` between blocks is written by the CLI; the runner hands over plain blocks.
    let blocks = try run("x == 1\nprint\nprint\n")
    #expect(blocks.count == 2)
    #expect(blocks.allSatisfy { $0.map(\.name) == ["x"] })
  }

  @Test func emitHandsOverEachBlockAsSoonAsItIsReady() throws {
    let script = try Script(parsing: "x == 1\nprint\ny == 2\nprint\n", file: "e.cass")
    var runner = ScriptRunner(file: "e.cass")
    var sizes: [Int] = []
    try runner.run(script) { sizes.append($0.count) }
    #expect(sizes == [1, 2])
  }

  // MARK: - Hand-solved values

  @Test func requiredEqualities() throws {
    // x = 10; y = x + 5 = 15; z = 2y - x = 20; m = (x + z) / 2 = 15; t: 3t = 1.
    let blocks = try run(
      "x == 10\ny == x + 5\nz == 2 * y - x\nm == (x + z) / 2\n3 * t == 1\n")
    expectBlock(blocks[0], ["x": 10, "y": 15, "z": 20, "m": 15, "t": 1.0 / 3])
  }

  @Test func inequalitiesAgainstWeakPreferences() throws {
    // x wants 0 (weak) but must be >= 10: 10. y wants 200 but is capped at 100: 100.
    // u wants 50 and 10 <= u <= 90 allows it: 50.
    let blocks = try run(
      """
      x >= 10
      x == 0 @weak
      y <= 100
      y == 200 @weak
      u >= 10
      u <= 90
      u == 50 @weak
      """)
    expectBlock(blocks[0], ["x": 10, "y": 100, "u": 50])
  }

  @Test(arguments: [
    // (first, second, winner): x == 10 @first and x == 20 @second conflict; the stronger wins.
    ("strong", "weak", 10.0), ("weak", "medium", 20.0), ("medium", "strong", 20.0),
    ("2000", "medium", 10.0), ("500", "medium", 20.0), ("3", "weak", 10.0),
    ("required", "strong", 10.0),
  ])
  func strongerPreferenceWins(_ first: String, _ second: String, _ winner: Double) throws {
    let blocks = try run("x == 10 @\(first)\nx == 20 @\(second)\n")
    expectBlock(blocks[0], ["x": winner])
  }

  @Test func editVariablesFollowSuggestions() throws {
    // x is half of w; negative suggestions are fine since nothing bounds w.
    let blocks = try run(
      """
      edit w @strong
      x == w / 2
      suggest w 300
      print
      suggest w -40
      print
      suggest w 0.5
      print
      """)
    try #require(blocks.count == 3)
    expectBlock(blocks[0], ["w": 300, "x": 150])
    expectBlock(blocks[1], ["w": -40, "x": -20])
    expectBlock(blocks[2], ["w": 0.5, "x": 0.25])
  }

  @Test func removingALabelRestoresTheWeakerPreference() throws {
    // c pins x to 5; once removed, the weak preference for 7 takes over. The label can then
    // be used again for a new constraint.
    let blocks = try run(
      """
      c: x == 5
      x == 7 @weak
      print
      remove c
      print
      c: x >= 9
      print
      """)
    try #require(blocks.count == 3)
    expectBlock(blocks[0], ["x": 5])
    expectBlock(blocks[1], ["x": 7])
    expectBlock(blocks[2], ["x": 9])
  }

  @Test func twoBoxChainAbsorbsTheWindowWidth() throws {
    // x0 = 8, x1 = x0 + w0 + 8 and x1 + w1 + 8 = W, so w0 + w1 = W - 24, both >= 10.
    // w1 prefers 50 at medium strength, w0 prefers 50 only weakly, so w1 gets 50 first.
    //   W = 200: w0 + w1 = 176 -> w1 = 50, w0 = 126, x1 = 142.
    //   W = 100: w0 + w1 = 76  -> w1 = 50, w0 = 26,  x1 = 42.
    //   W = 50:  w0 + w1 = 26  -> w0 at its minimum 10, w1 = 16, x1 = 26.
    let blocks = try run(
      """
      edit W @strong
      x0 == 8
      x1 == x0 + w0 + 8
      x1 + w1 + 8 == W
      w0 >= 10
      w1 >= 10
      w0 == 50 @weak
      w1 == 50 @medium
      suggest W 200
      print
      suggest W 100
      print
      suggest W 50
      print
      """)
    try #require(blocks.count == 3)
    expectBlock(blocks[0], ["W": 200, "x0": 8, "x1": 142, "w0": 126, "w1": 50])
    expectBlock(blocks[1], ["W": 100, "x0": 8, "x1": 42, "w0": 26, "w1": 50])
    expectBlock(blocks[2], ["W": 50, "x0": 8, "x1": 26, "w0": 10, "w1": 16])
  }

  @Test func windowExample() throws {
    // Scripts/examples/window.cass. Width 800: left keeps its weak 10, right = left + 200.
    // After removing c1 with width 150: the strong width wins, right <= 150 and left >= 0
    // leave right - left <= 150, so the medium gap of 200 is missed by 50 at best, which
    // only left = 0, right = 150 achieves.
    let blocks = try run(
      """
      left >= 0
      right <= width
      right == left + 200 @medium
      c1: left == 10 @weak
      edit width @strong
      suggest width 800
      print
      remove c1
      suggest width 150
      print
      """)
    try #require(blocks.count == 2)
    expectBlock(blocks[0], ["left": 10, "right": 210, "width": 800])
    expectBlock(blocks[1], ["left": 0, "right": 150, "width": 150])
  }

  @Test func weightedPreferencesTradeOff() throws {
    // x == 0 at weight 1 against x == 10 at weight 3: the cost |x| + 3|x - 10| is least at 10.
    // y: 2y == 10 (medium) against y == 0 (weak): medium wins, y = 5.
    let blocks = try run("x == 0 @1\nx == 10 @3\n2 * y == 10 @medium\ny == 0 @weak\n")
    expectBlock(blocks[0], ["x": 10, "y": 5])
  }

  /// Found while testing: finite input can print a non-finite value. Here x = 10 * w with
  /// w = 1e308 overflows; `print` shows `x = inf` (and `--json` writes invalid JSON) instead
  /// of an error. Either an error or finite values would honour the contract.
  @Test func finiteScriptsNeverPrintNonFiniteValues() throws {
    for text in [
      "edit w @strong\nsuggest w 1e308\nx == 10 * w\n",
      // A suggestion is applied as a delta from the previous one: -1e308 then 1e308 makes
      // w infinite although both suggestions are finite.
      "edit w @strong\nsuggest w -1e308\nsuggest w 1e308\n",
    ] {
      do {
        let blocks = try run(text)
        let allFinite = blocks.allSatisfy { $0.allSatisfy { $0.value.isFinite } }
        #expect(allFinite, "\(text.debugDescription) printed \(blocks)")
      } catch {
        #expect(error.line >= 1)
      }
    }
  }

  // MARK: - formatValue

  @Test(
    arguments: [
      (0.0, "0"), (-0.0, "0"), (42, "42"), (-7, "-7"), (1, "1"), (800, "800"),
      (0.5, "0.5"), (-2.25, "-2.25"), (123_456_789.5, "123456789.5"),
      (999_999_999_999_999, "999999999999999"), (-999_999_999_999_999, "-999999999999999"),
      (0.1 + 0.2, "0.30000000000000004"), (1.0 / 3, "0.3333333333333333"),
      // From 1e15 on, integral values keep the `.0` or go to exponent form, exactly like
      // Python's repr, which wrote the kiwi fixtures' expected output.
      (1e15, "1000000000000000.0"), (-4e15, "-4000000000000000.0"), (1e16, "1e+16"),
    ] as [(Double, String)])
  func formatValueKnownCases(_ value: Double, _ text: String) {
    #expect(formatValue(value) == text)
  }

  @Test(
    arguments: [
      1e16, -1e16, 1.5e20, 1e300, 2e-9, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
    ] as [Double])
  func formatValueLargeAndTinyValuesReadBack(_ value: Double) {
    let text = formatValue(value)
    #expect(Double(text) == value, "\(text)")
    // Values this large or small print in exponent form rather than as long digit strings.
    #expect(text.contains("e"), "\(text)")
  }

  @Test func formatValueReadsBackExactly() {
    var x: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<2000 {
      // xorshift64: a fixed sequence of bit patterns, filtered to finite doubles.
      x ^= x << 13
      x ^= x >> 7
      x ^= x << 17
      let value = Double(bitPattern: x)
      guard value.isFinite else { continue }
      let text = formatValue(value)
      #expect(Double(text) == value, "\(value) formatted as \(text)")
      if abs(value) < 1e15 { #expect(!text.hasSuffix(".0"), "\(text)") }
    }
  }
}
