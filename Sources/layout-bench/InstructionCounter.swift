import LayoutHarness
internal import Foundation

/// Instructions per measured tick, counted by valgrind's callgrind: the deterministic time
/// metric. Wall-clock rounds on a shared machine need a 10% threshold and ten processes to
/// see a change; the instructions of a tick are the same on every run of the same code, so
/// `compare` judges them against a 1% threshold, exactly.
///
/// Each result is run again, alone, under callgrind, with counting switched on only inside
/// `RunLoop.tick` (the handlers and the update cycle, what a tick's wall time measures) and
/// the counts written out after every tick (`--dump-after`): a run of 2T measured ticks
/// after the warm-up, of which the last T are summed. Those are the ticks an earlier
/// version measured as the difference of a T-tick and a 2T-tick run, so baselines it wrote
/// still compare; but that difference also held the difference of the two runs' cold
/// builds, which on large trees is not the same from one process to the next (a feed of
/// 10,000 cells: 1.1 million instructions apart in four processes, up to 8% of a tick once
/// divided by T), while the ticks after the build varied by a few instructions at most (24
/// processes: 9 instructions apart over 10 ticks). Swift's per-process hash
/// seeds are fixed (`SWIFT_DETERMINISTIC_HASHING`) so that dictionaries grow alike in every
/// run.
struct InstructionCounter {
  /// The valgrind executable.
  let valgrind: String
  /// This executable, run again under valgrind.
  let binary: String
  /// T: the ticks summed, the last of the 2T measured.
  var ticks = 10
  /// Warm-up ticks before the measured ones.
  static let warmup = 2

  /// The mangled name of `RunLoop.tick()`, the only function whose instructions count.
  static let tickSymbol = "$s11LayoutModel7RunLoopC4tickyyKF"

  /// Finds valgrind on the PATH, or says how to install it.
  static func locate(
    searching path: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  ) throws -> InstructionCounter {
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/valgrind"
      if FileManager.default.isExecutableFile(atPath: candidate) {
        return InstructionCounter(valgrind: candidate, binary: RoundProcess.currentExecutable)
      }
    }
    throw CommandFailure(
      "--instructions counts with valgrind, which is not installed here: "
        + "sudo apt-get install -y valgrind (or bash Scripts/bootstrap.sh --with-valgrind)")
  }

  /// Instructions per measured tick of one result's scenario and strategy: the mean of the
  /// last T of 2T measured ticks.
  func perTick(_ result: RunResult) throws -> Double {
    let counts = try tickCounts(result, ticks: 2 * ticks)
    // The cold build's tick, the warm-up's, the measured ones, and none after them: any
    // other number means the ticks summed might not be the measured ones.
    let expected = 1 + Self.warmup + 2 * ticks
    guard counts.count == expected else {
      throw CommandFailure(
        "counting instructions of \(result.key): callgrind counted \(counts.count) ticks, "
          + "expected \(expected) (the cold build, \(Self.warmup) warm-up, \(2 * ticks) measured)")
    }
    return Double(counts.suffix(ticks).reduce(0, +)) / Double(ticks)
  }

  /// Every result of a report with its instructions per tick.
  func measuring(_ report: RunReport, progress: Progress) throws -> RunReport {
    var report = report
    for i in report.results.indices {
      progress.update("instructions \(i + 1)/\(report.results.count): \(report.results[i].key)")
      report.results[i].instructionsPerTick = try perTick(report.results[i])
    }
    return report
  }

  /// The instructions counted inside each call of `RunLoop.tick`, in order, for a run of
  /// `ticks` measured ticks: the cold build's first layout, the warm-up, the measured ticks.
  func tickCounts(_ result: RunResult, ticks: Int) throws -> [Int] {
    try RoundProcess.withDirectory { directory in
      try tickCounts(result, ticks: ticks, in: directory)
    }
  }

  private func tickCounts(_ result: RunResult, ticks: Int, in directory: URL) throws -> [Int] {
    let output = directory.appendingPathComponent("callgrind.out").path
    let log = directory.appendingPathComponent("valgrind.log")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    // A scene file's result runs its file again (its seed and ticks are the file's), if
    // the file is still the one measured.
    if let scene = result.scene {
      let file: SceneFile
      do { file = try SceneFile.load(path: scene.file) } catch {
        throw CommandFailure("counting instructions of \(result.key): \(error.description)")
      }
      guard file.hash == scene.hash else {
        throw CommandFailure(
          "counting instructions of \(result.key): \(scene.file) changed since it was measured "
            + "(hash \(scene.hash), now \(file.hash))")
      }
    }
    let scenario =
      result.scene.map { scene in
        ["--scene", scene.file] + (scene.sized ? ["--size", "\(result.size)"] : [])
      } ?? [
        "--shape", result.shape.rawValue, "--size", "\(result.size)", "--mutation",
        result.mutation.rawValue, "--per-tick", "\(result.perTick)", "--seed", "\(result.seed)",
      ]
    process.arguments =
      [
        "--tool=callgrind", "--callgrind-out-file=\(output)",
        "--toggle-collect=\(Self.tickSymbol)", "--dump-after=\(Self.tickSymbol)",
        // One file per dump, whatever VALGRIND_OPTS says: `dumpTotals` reads them so.
        "--separate-threads=no", "--combine-dumps=no", binary, "run",
      ] + scenario + [
        "--strategy", result.strategy.rawValue, "--ticks", "\(ticks)", "--warmup", "\(Self.warmup)",
        "--quiet",
        "--no-verify", "--cold-builds", "1",
      ]
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    process.environment = environment
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let logHandle = try FileHandle(forWritingTo: log)
    defer { try? logHandle.close() }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = logHandle
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      throw CommandFailure(
        "counting instructions of \(result.key) under valgrind failed (exit "
          + "\(process.terminationStatus)): \(text.suffix(500))")
    }
    return try Self.dumpTotals(in: directory, output: "callgrind.out")
  }

  /// The totals of the dumps `output.1`, `output.2`, ... in `directory`, in dump order.
  static func dumpTotals(in directory: URL, output: String) throws -> [Int] {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    var dumps: [(number: Int, name: String)] = []
    for name in names where name.hasPrefix(output + ".") {
      if let number = Int(name.dropFirst(output.count + 1)) { dumps.append((number, name)) }
    }
    dumps.sort { $0.number < $1.number }
    guard dumps.enumerated().allSatisfy({ $0.offset + 1 == $0.element.number }) else {
      throw CommandFailure(
        "callgrind's dumps in \(directory.path) are not numbered 1 to \(dumps.count): "
          + dumps.map { $0.name }.joined(separator: ", "))
    }
    return try dumps.map { dump in
      let path = directory.appendingPathComponent(dump.name).path
      let text = try String(contentsOfFile: path, encoding: .utf8)
      guard let total = totalInstructions(inCallgrindOutput: text) else {
        throw CommandFailure("callgrind wrote no instruction total to \(path)")
      }
      return total
    }
  }

  /// The `summary:` (or `totals:`) line of a callgrind output file: instructions counted.
  static func totalInstructions(inCallgrindOutput text: String) -> Int? {
    for line in text.split(separator: "\n")
    where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
      let fields = line.split(separator: " ")
      if fields.count >= 2, let value = Int(fields[1]) { return value }
    }
    return nil
  }
}
