#if canImport(Glibc)
  @preconcurrency import Glibc
#endif
import ArgumentParser
import CJemallocConfig
import LayoutHarness
internal import Foundation

@main
struct LayoutBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layout-bench",
    abstract: "Measure what constraint-based UI layout costs per frame.",
    version: "0.4.0",
    subcommands: [
      Run.self, Sweep.self, BaselineCommand.self, Compare.self, AB.self, Calibrate.self,
      SceneCommand.self, Solve.self, SolverBenchCommand.self,
    ],
    defaultSubcommand: Run.self
  )

  /// Runs the command; every way out goes through here. A ``CommandFailure`` is printed
  /// (as `Error: ...`, or as is for a `FILE:LINE: reason` diagnostic) and exits
  /// ``ExitStatus/failure``; usage errors exit the same (ArgumentParser's default is 64);
  /// help, version and `ExitCode`s thrown by commands exit as ArgumentParser says. Standard
  /// output is checked first: a full disk or a closed pipe must not end in exit 0 with
  /// nothing written.
  static func main() {
    // jemalloc's start-up options (`CJemallocConfig`): named here so that no linker drops
    // the definition jemalloc looks up.
    _ = cjemalloc_config()
    var outcome: (any Error)?
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      outcome = error
    }
    if fflush(stdout) != 0 || ferror(stdout) != 0 {
      fputs("Error: cannot write to standard output: \(String(cString: strerror(errno)))\n", stderr)
      Foundation.exit(ExitStatus.failure.rawValue)
    }
    if let failure = outcome as? CommandFailure {
      fputs((failure.isDiagnostic ? "" : "Error: ") + failure.description + "\n", stderr)
      Foundation.exit(ExitStatus.failure.rawValue)
    }
    if let outcome, exitCode(for: outcome) == .validationFailure {
      fputs(fullMessage(for: outcome) + "\n", stderr)
      Foundation.exit(ExitStatus.failure.rawValue)
    }
    exit(withError: outcome)
  }
}
