import ArgumentParser
import Cassowary
import Dispatch
internal import Foundation
import SolverFuzzing

// The two ways to run: many seeds with a progress line and a summary, or one seed with its
// failures in full and optionally its script.

extension SolverFuzz {
  func runMany(_ runner: FuzzRunner) throws {
    let clock = ContinuousClock()
    let start = clock.now
    let tally = Tally()
    let seeds = (0..<UInt64(count)).map { seed &+ $0 }.filter { !skip.contains($0) }
    let total = seeds.count
    // Workers take the next seed as they finish one, so a slow large system does not hold
    // up the others.
    DispatchQueue.concurrentPerform(iterations: jobs) { _ in
      while let index = tally.take(total) {
        let found = runner.run(
          runner.fuzzer.makeCase(seed: seeds[index]), remaining: UInt64(total - index))
        let done = tally.record(found) { failure in
          printOutput("FAIL \(failure)")
          printOutput("  replay: \(runner.replayCommand(failure.seed, failure.representation))")
        }
        if done % 1000 == 0 && done < total {
          printError(
            "solver-fuzz: \(done)/\(total) systems, \(tally.failureCount) failures, "
              + "\(seconds(since: start, clock)) s")
        }
      }
    }
    let failures = tally.failures
    let perRepresentation = runner.representations.map { r in
      "\(r) \(failures.filter { $0.representation == r }.count)"
    }
    let seedCount = Set(failures.map(\.seed)).count
    let detail = " (\(seedCount) seeds; \(perRepresentation.joined(separator: ", ")))"
    printOutput(
      "solver-fuzz: \(total) systems (\(minBoxes)-\(maxBoxes) boxes), "
        + "\(runner.representations.count) representations, \(failures.count) failures"
        + (failures.isEmpty ? "" : detail) + ", \(seconds(since: start, clock)) s")
    if !failures.isEmpty { throw ExitCode.failure }
  }

  func runReplay(_ seed: UInt64, _ runner: FuzzRunner) throws {
    let fuzzCase = runner.fuzzer.makeCase(seed: seed)
    printOutput(
      "solver-fuzz: seed \(seed): \(fuzzCase.boxCount) boxes, "
        + "\(fuzzCase.variableNames.count) variables, \(fuzzCase.constraints.count) "
        + "constraints, \(fuzzCase.operations.count) operations")
    let failures = runner.run(fuzzCase, remaining: 1)
    for failure in failures { printOutput("FAIL \(failure)") }
    if let dump {
      let last = failures.map(\.operationIndex).max()
      let text = runner.fuzzer.script(
        seed: seed, through: last, notes: failures.map { "FAIL \($0)" })
      do {
        try text.write(toFile: dump, atomically: true, encoding: .utf8)
      } catch {
        throw ValidationError("Cannot write \(dump): \(error.localizedDescription)")
      }
      printOutput("solver-fuzz: wrote \(dump) (run it with layout-bench solve \(dump))")
      if let last, !fuzzCase.scriptIsExact(through: last) {
        printOutput(
          "solver-fuzz: the script writes in-place changes, suggestion batches or removed "
            + "edit variables as equivalents: it may not fail the same way")
      }
    }
    printOutput("solver-fuzz: seed \(seed), \(failures.count) failures")
    if !failures.isEmpty { throw ExitCode.failure }
  }
}

/// The seeds handed out and the failures found, shared by the workers.
final class Tally: @unchecked Sendable {
  // Every access to the fields below holds `lock`.
  private let lock = NSLock()
  private var next = 0
  private var done = 0
  private var found: [FuzzFailure] = []

  /// The index of the next seed to run, `nil` when all are taken.
  func take(_ total: Int) -> Int? {
    lock.withLock {
      guard next < total else { return nil }
      next += 1
      return next - 1
    }
  }

  /// Records a system's failures, reporting each while holding the lock (so that the lines
  /// of two failures never interleave), and returns how many systems are done.
  func record(_ failures: [FuzzFailure], report: (FuzzFailure) -> Void) -> Int {
    lock.withLock {
      failures.forEach(report)
      found += failures
      done += 1
      return done
    }
  }

  var failureCount: Int { lock.withLock { found.count } }

  /// In seed order, whatever order the workers finished in.
  var failures: [FuzzFailure] { lock.withLock { found.sorted { $0.seed < $1.seed } } }
}

func seconds(since start: ContinuousClock.Instant, _ clock: ContinuousClock) -> Int {
  Int((clock.now - start).components.seconds)
}
