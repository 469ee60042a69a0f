import Cassowary
import Dispatch
internal import Foundation
import SolverFuzzing

/// What one system's run needs from the command line, as a value that worker threads share.
struct FuzzRunner: Sendable {
  let fuzzer: DifferentialFuzzer
  let representations: [Solver.Representation]
  /// The `--representation` argument, for the commands printed.
  let representationName: String
  let verbose: Bool
  let timeout: Double
  /// `--judge-every-operation`.
  var judgesEveryOperation = false

  /// How to run `seed` alone and dump its script, as printed with a failure.
  func replayCommand(_ seed: UInt64, _ representation: Solver.Representation? = nil) -> String {
    let only = representation.map { " --representation \($0)" } ?? ""
    return "solver-fuzz --replay \(seed) \(boxOptions)\(only) --dump seed-\(seed).cass"
  }

  var boxOptions: String {
    var text = "--min-boxes \(fuzzer.boxes.lowerBound) --max-boxes \(fuzzer.boxes.upperBound)"
    if fuzzer.errorTolerance != FuzzTolerance.weightedError {
      text += " --error-tolerance \(fuzzer.errorTolerance)"
    }
    if !fuzzer.splits { text += " --no-splits" }
    if !fuzzer.drags { text += " --no-drags" }
    if !fuzzer.probes { text += " --no-probes" }
    if fuzzer.sharesConstraints { text += " --share-constraints" }
    return text
  }

  /// Replays a case on each representation, sharing the fresh reference solves.
  func run(_ fuzzCase: FuzzCase, remaining: UInt64) -> [FuzzFailure] {
    var oracle = DifferentialOracle(fuzzCase, errorTolerance: fuzzer.errorTolerance)
    oracle.judgesEveryOperation = judgesEveryOperation
    oracle.sharesConstraints = fuzzer.sharesConstraints
    return representations.compactMap { representation in
      if verbose { printError("solver-fuzz: seed \(fuzzCase.seed) (\(representation))") }
      return guarded(fuzzCase.seed, representation, remaining: remaining) {
        oracle.replay(representation)
      }
    }
  }

  /// Runs `body`, ending the process with status 3 and the seed named if it takes longer
  /// than the timeout: a hang inside the solver cannot be interrupted, only reported, with
  /// the command that carries on past it.
  func guarded<T>(
    _ seed: UInt64, _ representation: Solver.Representation, remaining: UInt64,
    _ body: () -> T
  ) -> T {
    guard timeout > 0 else { return body() }
    let message = """
      solver-fuzz: seed \(seed) (\(representation)) still running after \(timeout) s (a hang?)
        replay: \(replayCommand(seed, representation))
        carry on: solver-fuzz --seed \(seed) --count \(remaining) --skip \(seed) \
      \(boxOptions) --representation \(representationName)
      """
    let alarm = DispatchWorkItem {
      printError(message)
      Foundation.exit(3)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: alarm)
    defer { alarm.cancel() }
    return body()
  }
}

// Both streams are written unbuffered, so that failures, progress and a hang report come out
// in order, and nothing printed is lost when the watchdog ends the process.
func printOutput(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
