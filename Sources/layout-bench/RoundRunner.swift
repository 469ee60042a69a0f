import ArgumentParser
import LayoutHarness
internal import Foundation

/// Options shared by the commands that measure in rounds.
struct RoundOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      """
      Rounds: separate processes, each with its own trees and warm-up; time verdicts are \
      judged on rounds.
      """,
      valueName: "n"))
  var rounds: Int = 1

  /// Set by a parent process on each round it starts: measure once and write the report here.
  @Option(help: .hidden)
  var roundOutput: String?

  init() {}

  /// For commands whose default round count differs (they declare `--rounds` themselves).
  init(rounds: Int, roundOutput: String?) {
    self.rounds = rounds
    self.roundOutput = roundOutput
  }

  func validateRounds() throws {
    guard (1...1000).contains(rounds) else {
      throw ValidationError("Please specify --rounds from 1 to 1000 (got \(rounds)).")
    }
  }

  /// Runs this command's measurement `rounds` times, each in a fresh process of this
  /// executable (the same arguments plus `--round-output FILE`), and merges the reports.
  func runRounds(progress: Progress, extraArguments: [String] = []) throws -> RunReport {
    var arguments = Array(CommandLine.arguments.dropFirst()) + extraArguments
    if !arguments.contains("--quiet") { arguments.append("--quiet") }
    let rounds = try RoundProcess.withDirectory { directory in
      try (0..<self.rounds).map { round in
        progress.update("round \(round + 1)/\(self.rounds)")
        return try RoundProcess.run(
          RoundProcess.currentExecutable, arguments, in: directory, name: "round-\(round)",
          label: "round \(round + 1) of \(self.rounds)")
      }
    }
    do { return try RunReport.mergingRounds(rounds) } catch {
      throw CommandFailure(error.description)
    }
  }

  /// In a round's process: writes its report for the parent.
  func writeRound(_ report: RunReport, to path: String) throws {
    do { try ReportFile.writeAtomically(try ReportFile.encode(report), to: path) } catch {
      throw CommandFailure("\(error)")
    }
  }
}

/// One round in a child process.
enum RoundProcess {
  static var currentExecutable: String {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
  }

  /// Runs `body` with a fresh temporary directory, removed afterwards.
  static func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent(
        "layout-bench-rounds-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
  }

  /// Runs `executable arguments --round-output FILE` and reads the report it wrote.
  static func run(
    _ executable: String, _ arguments: [String], in directory: URL, name: String, label: String
  ) throws -> RunReport {
    let output = directory.appendingPathComponent(name + ".json").path
    let errors = directory.appendingPathComponent(name + ".err")
    guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
      throw CommandFailure("\(label): cannot create \(errors.path)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments + ["--round-output", output]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: errors)
    do { try process.run() } catch {
      throw CommandFailure("\(label): cannot start \(executable): \(error)")
    }
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
      throw CommandFailure(
        "\(label) failed (\(executable), status \(process.terminationStatus)): "
          + text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    do { return try ReportFile.load(output) } catch { throw CommandFailure(error.description) }
  }
}
