#if canImport(Glibc)
  @preconcurrency import Glibc
#endif
import ArgumentParser
internal import Foundation

@main
struct LayoutBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layout-bench",
    abstract: "Measure what constraint-based UI layout costs per frame.",
    version: "0.4.0",
    subcommands: [
      Run.self, Sweep.self, BaselineCommand.self, Compare.self, AB.self, Calibrate.self, Solve.self,
      SolverBenchCommand.self,
    ],
    defaultSubcommand: Run.self
  )

  /// Runs the command, then makes sure standard output really took what was printed: a
  /// full disk or a closed pipe must not end in exit 0 with nothing written.
  static func main() {
    var outcome: (any Error)?
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      outcome = error
    }
    if fflush(stdout) != 0 || ferror(stdout) != 0 {
      fputs("Error: cannot write to standard output: \(String(cString: strerror(errno)))\n", stderr)
      Foundation.exit(1)
    }
    // Usage errors exit 1 like every other bad input (ArgumentParser's default is 64).
    if let outcome, exitCode(for: outcome) == .validationFailure {
      fputs(fullMessage(for: outcome) + "\n", stderr)
      Foundation.exit(1)
    }
    exit(withError: outcome)
  }
}
