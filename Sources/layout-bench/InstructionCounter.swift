import LayoutHarness
internal import Foundation

/// Instructions per measured tick, counted by valgrind's callgrind: the deterministic time
/// metric. Wall-clock rounds on a shared machine need a 10% threshold and ten processes to
/// see a change; the instructions of a tick are the same on every run of the same code, so
/// `compare` judges them against a 1% threshold, exactly.
///
/// Each result is run again, alone, under callgrind, with counting switched on only inside
/// `RunLoop.tick` (the handlers and the update cycle, what a tick's wall time measures);
/// twice, with T and 2T measured ticks after the same warm-up, so that the difference over
/// T leaves out the build, the warm-up and the first layout. Swift's per-process hash seeds
/// are fixed (`SWIFT_DETERMINISTIC_HASHING`) so that dictionaries grow alike in every run.
struct InstructionCounter {
  /// The valgrind executable.
  let valgrind: String
  /// This executable, run again under valgrind.
  let binary: String
  /// T: the measured ticks of the shorter run.
  var ticks = 10

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

  /// Instructions per measured tick of one result's scenario and strategy.
  func perTick(_ result: RunResult) throws -> Double {
    let short = try count(result, ticks: ticks)
    let long = try count(result, ticks: 2 * ticks)
    return Double(long - short) / Double(ticks)
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

  /// The instructions counted inside `RunLoop.tick` for a run of `ticks` measured ticks.
  func count(_ result: RunResult, ticks: Int) throws -> Int {
    try RoundProcess.withDirectory { directory in try count(result, ticks: ticks, in: directory) }
  }

  private func count(_ result: RunResult, ticks: Int, in directory: URL) throws -> Int {
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
        "--toggle-collect=\(Self.tickSymbol)", binary, "run",
      ] + scenario + [
        "--strategy", result.strategy.rawValue, "--ticks", "\(ticks)", "--warmup", "2", "--quiet",
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
    let text = try String(contentsOfFile: output, encoding: .utf8)
    guard let total = Self.totalInstructions(inCallgrindOutput: text) else {
      throw CommandFailure("callgrind wrote no instruction total to \(output)")
    }
    return total
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
