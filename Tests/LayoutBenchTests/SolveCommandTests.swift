import ArgumentParser
import Foundation
import Testing

@testable import layout_bench

/// `layout-bench solve FILE [--json]`: argument parsing in process, everything else by
/// running the built binary the way a user would.
@Suite("layout-bench solve")
struct SolveCommandTests {
  // MARK: - Argument validation

  @Test func parsesFileAndFlag() throws {
    let plain = try Solve.parse(["window.cass"])
    #expect(plain.file == "window.cass")
    #expect(!plain.json)
    #expect(try Solve.parse(["window.cass", "--json"]).json)
    #expect(try Solve.parse(["--json", "window.cass"]).json)
    #expect(try Solve.parse(["-"]).file == "-")
  }

  @Test func solveIsASubcommandOfTheRoot() throws {
    let command = try LayoutBench.parseAsRoot(["solve", "a.cass", "--json"])
    let solve = try #require(command as? Solve)
    #expect(solve.file == "a.cass" && solve.json)
  }

  @Test(arguments: [[], ["--json"]])
  func missingFileArgumentIsRejected(_ arguments: [String]) {
    let error = #expect(throws: (any Error).self) { try Solve.parse(arguments) }
    let message = error.map { Solve.message(for: $0) } ?? ""
    #expect(message.contains("Missing expected argument '<file>'"), "\(message)")
    #expect(error.map { Solve.exitCode(for: $0) } == ExitCode.validationFailure)
  }

  @Test(arguments: [["a.cass", "b.cass"], ["a.cass", "--jsn"], ["a.cass", "--json=yes"]])
  func extraOrUnknownArgumentsAreRejected(_ arguments: [String]) {
    #expect(throws: (any Error).self) { try Solve.parse(arguments) }
  }

  // MARK: - Running the binary

  struct Outcome {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The built `layout-bench`, found in the products directory of whatever `--scratch-path`
  /// is in use: the test runner is `<products>/layout-benchPackageTests.xctest` on Linux, and
  /// a bundle with the executable three levels inside `<products>` on macOS.
  static let binary: URL? = {
    let runner =
      Bundle.main.executableURL
      ?? URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
    var directory = runner.resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<4 where directory.path != "/" {
      let candidate = directory.appendingPathComponent("layout-bench")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }()

  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let window = repository.appendingPathComponent("Scripts/examples/window.cass").path

  /// Runs `layout-bench ARGS` with `input` on standard input.
  func solve(_ arguments: [String], input: String = "") throws -> Outcome {
    let binary = try #require(Self.binary, "no layout-bench next to the test runner")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    // Outputs are small, far below a pipe's buffer, so reading one after the other is safe.
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  /// Writes `text` to a temporary `.cass` file, hands its path to `body`, then deletes it.
  func withScript(_ text: String, _ body: (String) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("solve-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("script.cass")
    try Data(text.utf8).write(to: file)
    try body(file.path)
  }

  /// Width 800: nothing conflicts, so left keeps its weak 10 and right = left + 200 = 210.
  /// Width 150 without c1: right <= 150 and left >= 0 cap the gap at 150, so the medium
  /// `right == left + 200` is missed by 50 at best, reached only at left = 0, right = 150;
  /// the strong edit keeps width at 150 (a medium error costs far less than a strong one).
  static let windowOutput = """
    left = 10
    right = 210
    width = 800
    ---
    left = 0
    right = 150
    width = 150

    """

  @Test func windowExampleTextOutput() throws {
    let outcome = try solve(["solve", Self.window])
    #expect(outcome.status == 0)
    #expect(outcome.stderr == "")
    #expect(outcome.stdout == Self.windowOutput)
  }

  @Test func windowExampleJSONOutput() throws {
    let outcome = try solve(["solve", Self.window, "--json"])
    #expect(outcome.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
    let top = try #require(object as? [String: Any])
    let blocks = try #require(top["blocks"] as? [[String: Any]])
    let expected: [[String: Double]] = [
      ["left": 10, "right": 210, "width": 800], ["left": 0, "right": 150, "width": 150],
    ]
    try #require(blocks.count == expected.count)
    for (block, want) in zip(blocks, expected) {
      #expect(Set(block.keys) == Set(want.keys))
      for (name, value) in want {
        let got = try #require((block[name] as? NSNumber)?.doubleValue, "\(name)")
        #expect(abs(got - value) < 1e-9, "\(name) = \(got)")
      }
    }
    // JSON objects are unordered, so check the order of first appearance in the text.
    let positions = ["\"left\"", "\"right\"", "\"width\""].map {
      outcome.stdout.range(of: $0)?.lowerBound
    }
    #expect(positions.allSatisfy { $0 != nil } && positions == positions.sorted { $0! < $1! })
  }

  @Test func dashReadsStandardInput() throws {
    let text = try String(contentsOfFile: Self.window, encoding: .utf8)
    let outcome = try solve(["solve", "-"], input: text)
    #expect(outcome.status == 0)
    #expect(outcome.stdout == Self.windowOutput)
    // Errors in standard input are reported against the name `-`.
    let bad = try solve(["solve", "-"], input: "x == 1\nx == (2\n")
    #expect(bad.status == 1)
    #expect(bad.stderr == "-:2: missing ')'\n")
  }

  @Test func scriptWithoutPrintPrintsOnceWithoutSeparator() throws {
    try withScript("a == 1.5\nb == a * 2 - 7\n") { path in
      let outcome = try solve(["solve", path])
      #expect(outcome.status == 0)
      #expect(outcome.stdout == "a = 1.5\nb = -4\n")
    }
  }

  @Test func emptyScript() throws {
    try withScript("# nothing\n") { path in
      let text = try solve(["solve", path])
      #expect(text.status == 0 && text.stdout == "")
      let json = try solve(["solve", path, "--json"])
      #expect(json.status == 0)
      let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
      #expect(((object as? [String: Any])?["blocks"] as? [[String: Any]])?.map(\.count) == [0])
    }
  }

  @Test func missingFileNamesTheFile() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("no-such-dir-\(UUID().uuidString)/missing.cass").path
    let outcome = try solve(["solve", path])
    #expect(outcome.status == 1)
    #expect(outcome.stdout == "")
    #expect(outcome.stderr.contains(path), "\(outcome.stderr)")
    // A path that exists but cannot be read as a file fails the same way.
    let directory = FileManager.default.temporaryDirectory.path
    let unreadable = try solve(["solve", directory])
    #expect(unreadable.status == 1)
    #expect(unreadable.stdout == "")
    #expect(unreadable.stderr.contains(directory), "\(unreadable.stderr)")
  }

  /// Runs `layout-bench ARGS` with standard output on `/dev/full` (every write fails).
  func toFullDisk(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
    let binary = try #require(Self.binary, "no layout-bench next to the test runner")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let stderr = Pipe()
    process.standardError = stderr
    try process.run()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: err, as: UTF8.self))
  }

  /// A full disk or a broken output used to end in exit 0 having written nothing (`solve`,
  /// the run table) or in a trap (`run --json -`).
  @Test(arguments: [
    ["solve", window], ["solve", window, "--json"],
    ["run", "--shape", "wide", "--size", "5", "--ticks", "3", "--quiet"],
    ["run", "--shape", "wide", "--size", "5", "--ticks", "3", "--quiet", "--json", "-"],
  ])
  func aFullStandardOutputIsAnError(arguments: [String]) throws {
    let outcome = try toFullDisk(arguments)
    #expect(outcome.status == 1, "\(outcome.stderr)")
    #expect(
      outcome.stderr.contains("cannot write to standard output: No space left on device"),
      "\(outcome.stderr)")
  }

  @Test func pipesAndDevicesAreReadLikeFiles() throws {
    // /dev/null is an empty script: nothing to print, exit 0 (was "cannot read file").
    let empty = try solve(["solve", "/dev/null"])
    #expect(empty.status == 0 && empty.stdout == "" && empty.stderr == "", "\(empty.stderr)")
    let directory = FileManager.default.temporaryDirectory.path
    let outcome = try solve(["solve", directory])
    #expect(outcome.stderr.contains("Is a directory"), "\(outcome.stderr)")
  }

  @Test func missingArgumentIsAUsageError() throws {
    let outcome = try solve(["solve"])
    #expect(outcome.status == 1)
    #expect(outcome.stdout == "")
    #expect(outcome.stderr.contains("<file>"))
  }

  @Test func parseErrorPrintsNothingButTheLocation() throws {
    // Line 4 is bad; the prints before it must not run.
    try withScript("x == 1\nprint\n\ny == * 3\nprint\n") { path in
      for arguments in [["solve", path], ["solve", path, "--json"]] {
        let outcome = try solve(arguments)
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "\(path):4: unexpected token '*'\n")
      }
    }
  }

  @Test func runtimeErrorKeepsEarlierBlocks() throws {
    try withScript("x == 1\nprint\ny == 2\nprint\nx == 3\nprint\n") { path in
      let outcome = try solve(["solve", path])
      #expect(outcome.status == 1)
      #expect(outcome.stdout == "x = 1\n---\nx = 1\ny = 2\n")
      #expect(
        outcome.stderr == "\(path):5: unsatisfiable required constraint (conflicts with line 1)\n")
    }
    // Labels are checked before anything runs: an unknown one prints nothing at all.
    try withScript("x == 1\nprint\nremove c9\nprint\n") { path in
      let outcome = try solve(["solve", path])
      #expect(outcome.status == 1)
      #expect(outcome.stdout == "")
      #expect(outcome.stderr == "\(path):3: unknown label c9\n")
    }
    try withScript("a >= 10\na <= 5\n") { path in
      let outcome = try solve(["solve", path])
      #expect(outcome.status == 1)
      #expect(outcome.stdout == "")
      #expect(
        outcome.stderr == "\(path):2: unsatisfiable required constraint (conflicts with line 1)\n")
    }
  }

  /// Found while testing: a value that overflows while solving is printed as `inf`, which
  /// `--json` writes verbatim, so the output is not JSON. Exit status 0 must mean valid JSON.
  @Test func jsonOutputIsValidJSONWheneverItSucceeds() throws {
    try withScript("edit w @strong\nsuggest w 1e308\nx == 10 * w\n") { path in
      let outcome = try solve(["solve", path, "--json"])
      if outcome.status == 0 {
        let parsed = try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
        #expect(parsed != nil, "not JSON: \(outcome.stdout)")
      } else {
        #expect(outcome.stderr.hasPrefix("\(path):"))
      }
    }
  }
}
