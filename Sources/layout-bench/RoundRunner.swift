import ArgumentParser
import LayoutHarness
internal import Foundation

/// Options shared by the commands that measure in rounds.
struct RoundOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Rounds: separate processes, each with its own trees and warm-up; time verdicts are judged on rounds.",
      valueName: "n"))
  var rounds: Int = 1

  /// Set by a parent process on each round it starts: measure once and write the report here.
  @Option(help: .hidden)
  var roundOutput: String?

  func validateRounds() throws {
    guard (1...1000).contains(rounds) else {
      throw ValidationError("Please specify --rounds from 1 to 1000 (got \(rounds)).")
    }
  }

  /// Runs this command's measurement `rounds` times, each in a fresh process of this
  /// executable (the same arguments plus `--round-output FILE`), and merges the reports.
  func runRounds(progress: Progress) throws -> RunReport {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var arguments = Array(CommandLine.arguments.dropFirst())
    if !arguments.contains("--quiet") { arguments.append("--quiet") }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("layout-bench-rounds-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var reports: [RunReport] = []
    for round in 0..<rounds {
      progress.update("round \(round + 1)/\(rounds)")
      let output = directory.appendingPathComponent("round-\(round).json").path
      let errors = directory.appendingPathComponent("round-\(round).err")
      FileManager.default.createFile(atPath: errors.path, contents: nil)
      let process = Process()
      process.executableURL = executable
      process.arguments = arguments + ["--round-output", output]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = try FileHandle(forWritingTo: errors)
      try process.run()
      process.waitUntilExit()
      guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        throw CommandFailure(
          "round \(round + 1) of \(rounds) failed (status \(process.terminationStatus)): "
            + text.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      do { reports.append(try ReportFile.load(output)) } catch { throw CommandFailure(error.description) }
    }
    do { return try RunReport.mergingRounds(reports) } catch { throw CommandFailure(error.description) }
  }

  /// In a round's process: writes its report for the parent.
  func writeRound(_ report: RunReport, to path: String) throws {
    do { try ReportFile.writeAtomically(try ReportFile.encode(report), to: path) } catch {
      throw CommandFailure("\(error)")
    }
  }
}
