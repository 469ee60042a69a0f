import ArgumentParser
import Foundation
import Testing

@testable import layout_bench

/// `layout-bench run` and `sweep`: flags parsed in process; runs through the binary.
@Suite("layout-bench run")
struct RunCommandTests {
  @Test func noArgumentsIsTheDefaultMatrix() throws {
    let command = try LayoutBench.parseAsRoot([])
    let run = try #require(command as? Run)
    let plan = try run.plan()
    let scenarios = plan.scenarios
    // deep, wide, feed at two sizes, with text and resize, then three batches of changes and
    // a table scrolling: sixteen scenarios, all strategies.
    #expect(scenarios.count == 16)
    #expect(Set(scenarios.map(\.shape)) == [.deep, .wide, .feed, .table])
    #expect(Set(scenarios.map(\.mutation)) == [.text, .resize, .configure, .scroll])
    #expect(plan.entries.allSatisfy { $0.settings.strategies.count == 3 })
    let quick = try #require(try LayoutBench.parseAsRoot(["run", "--quick"]) as? Run).plan()
    #expect(quick.scenarios.map(\.size) == Array(repeating: 100, count: 9) + [1000])
  }

  @Test func aPresetNamesOneScenarioAndExcludesTheScenarioFlags() throws {
    let run = try #require(try LayoutBench.parseAsRoot(["run", "--preset", "wwdc-grid"]) as? Run)
    #expect(try run.plan().scenarios.map(\.description) == ["grid300/scrollx1"])
    #expect(throws: (any Error).self) {
      try LayoutBench.parseAsRoot(["run", "--preset", "wwdc-grid", "--size", "10"])
    }
    #expect(throws: (any Error).self) {
      try LayoutBench.parseAsRoot(["run", "--preset", "no-such-preset"])
    }
  }

  /// `ab` spells a preset out for the builds it runs (an old build may predate it).
  @Test func abSpellsOutAPresetForBothBuilds() {
    #expect(
      AB.expandingPreset(["--preset", "wwdc-grid", "--ticks", "30"])
        == [
          "--shape", "grid", "--size", "300", "--mutation", "scroll", "--per-tick", "1", "--ticks",
          "30",
        ])
    #expect(
      AB.expandingPreset(["--preset=taffy-wide"])
        == ["--shape", "wide", "--size", "100000", "--mutation", "resize", "--per-tick", "1"])
    #expect(AB.expandingPreset(["--shape", "feed"]) == ["--shape", "feed"])
    // An unknown name is left for `run` to refuse with its own message.
    #expect(AB.expandingPreset(["--preset", "nope"]) == ["--preset", "nope"])
  }

  @Test func flagsNameOneScenario() throws {
    let run = try Run.parse([
      "--shape", "feed", "--size", "200", "--mutation", "churn", "--per-tick", "3", "--ticks", "50",
      "--strategy", "bottom-up", "--hz", "120", "--seed", "42",
    ])
    let plan = try run.plan()
    #expect(plan.entries.count == 1)
    let (scenario, settings) = (plan.entries[0].scenario, plan.entries[0].settings)
    #expect(scenario.description == "feed200/churnx3" && scenario.seed == 42)
    #expect(settings.strategies == [.bottomUp] && settings.hz == 120 && plan.hz == 120)
    #expect(settings.ticks == 50 && settings.timeLimitNs == nil)
  }

  /// Rounds are merged only when they did the same work, so a run in rounds measures a
  /// fixed number of ticks even without --ticks (a time limit gave each round its own count,
  /// and `run --rounds 10` failed with "counters differ").
  @Test func roundsMeasureAFixedNumberOfTicks() throws {
    let single = try Run.parse(["--shape", "feed", "--size", "10"]).plan().entries[0].settings
    #expect(single.timeLimitNs != nil)
    let rounds = try Run.parse(["--shape", "feed", "--size", "10", "--rounds", "3"])
      .plan().entries[0].settings
    #expect(rounds.timeLimitNs == nil)
    #expect(rounds.ticks == 120 && rounds.minimumTicks == 120)
  }

  @Test(arguments: [
    (["--size", "0"], "--size of at least 1"),
    (["--ticks", "0"], "--ticks of at least 1"),
    (["--ticks=-3"], "--ticks of at least 1"),
    (["--per-tick", "0"], "--per-tick of at least 1"),
    (["--per-tick", "100000"], "--per-tick up to 10000"),
    (["--ticks", "1000000000"], "--ticks up to 1000000"),
    (["--warmup", "2000000"], "--warmup up to 1000000"),
    (["--hz", "0"], "--hz from 30 to 240"),
    (["--hz", "300"], "--hz from 30 to 240"),
    (["--shape", "circle"], "circle"),
    (["--mutation", "explode"], "explode"),
    (["--strategy", "lazy"], "lazy"),
    (["--shape", "deep", "--mutation", "scroll"], "--shape feed"),
    (["--json", "/nonexistent-dir/report.json"], "does not exist"),
    (["--html", "/"], "is a directory"),
    // A read-only file system: refused before the run even as root, whom permission bits
    // do not stop (the run used to go through and fail at the write).
    (["--json", "/proc/report.json"], "/proc is not writable"),
    (["--markdown", "/dev/null/report.md"], "/dev/null is not a directory"),
  ])
  func badFlagsAreRejectedWithAReason(arguments: [String], expected: String) {
    let error = #expect(throws: (any Error).self) { try Run.parse(arguments) }
    let message = error.map { Run.message(for: $0) } ?? ""
    #expect(message.contains(expected), "\(message)")
    #expect(error.map { Run.exitCode(for: $0) } != ExitCode.success)
  }

  @Test func usageErrorsExitOneAndTwoReportsNeedTwoFiles() throws {
    // ArgumentParser's usage errors exit 64; the README promises 1 for every bad input.
    let bad = try runBinary(["run", "--size", "0"])
    #expect(bad.status == 1 && bad.stderr.contains("--size of at least 1"), "\(bad.stderr)")
    let directory = FileManager.default.temporaryDirectory.path
    let same = try runBinary([
      "run", "--shape", "wide", "--size", "5", "--ticks", "3", "--json", directory + "/r.json",
      "--html",
      directory + "/./r.json",
    ])
    #expect(same.status == 1 && same.stderr.contains("name the same file"), "\(same.stderr)")
    // A baseline folder that cannot exist is refused before any round runs.
    let file = directory + "/not-a-folder-\(UUID().uuidString)"
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let blocked = try runBinary([
      "baseline", "save", "x", "--dir", file + "/sub", "--shape", "wide",
    ])
    #expect(
      blocked.status == 1 && blocked.stderr.contains("is not a directory"), "\(blocked.stderr)")
    // Nor one on a file system that takes no files, even for root.
    let readOnly = try runBinary(["baseline", "save", "x", "--dir", "/proc/baselines"])
    #expect(
      readOnly.status == 1 && readOnly.stderr.contains("/proc is not writable"),
      "\(readOnly.stderr)")
  }

  @Test func sweepRefusesSizeAndBadLadders() {
    #expect(throws: (any Error).self) { try Sweep.parse(["--size", "10"]) }
    let error = #expect(throws: (any Error).self) { try Sweep.parse(["--sizes", "10,x"]) }
    #expect((error.map { Sweep.message(for: $0) } ?? "").contains("'x'"))
    #expect((try? Sweep.parse(["--sizes", "300,10,100"]).parsedSizes()) == [10, 100, 300])
  }

  // MARK: - Through the binary

  /// Runs the built binary (through the solve tests' runner, with empty standard input).
  func runBinary(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let outcome = try SolveCommandTests().solve(arguments)
    return (outcome.status, outcome.stdout, outcome.stderr)
  }

  @Test func aSmallRunWritesTheJSONContractAtomically() throws {
    try withTemporaryDirectory("run-tests") { directory in
      let json = directory.appendingPathComponent("report.json").path
      let markdown = directory.appendingPathComponent("report.md").path
      let outcome = try runBinary([
        "run", "--shape", "feed", "--size", "5", "--mutation", "text", "--ticks", "5", "--warmup",
        "1",
        "--json", json, "--markdown", markdown, "--quiet",
      ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      #expect(outcome.stdout.contains("feed5/textx1") && outcome.stdout.contains("bottom-up"))
      let object = try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: json)))
      let report = try #require(object as? [String: Any])
      #expect(report["schemaVersion"] as? Int == 1)
      #expect(abs((report["budgetNs"] as? Double ?? 0) - 1e9 / 60) < 1e-6)
      let results = try #require(report["results"] as? [[String: Any]])
      #expect(results.count == 3)
      for result in results {
        for key in [
          "strategy", "shape", "size", "mutation", "ticks", "tickNs", "overBudget", "hitchMsPerS",
          "counters", "allocations", "samplesNs",
        ] {
          #expect(result[key] != nil, "missing \(key)")
        }
        let tick = try #require(result["tickNs"] as? [String: Double])
        #expect(Set(tick.keys) == ["min", "p50", "p90", "p99", "max", "mean"])
        #expect((result["samplesNs"] as? [Double])?.count == 5)
        let allocations = try #require(result["allocations"] as? [String: Any])
        #expect(allocations["countPerTick"] != nil && allocations["bytesPerTick"] != nil)
      }
      #expect(try String(contentsOfFile: markdown, encoding: .utf8).contains("| feed5/textx1 |"))
      // Nothing but the two reports is left in the directory (no temporary files).
      #expect(
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == [
          "report.json", "report.md",
        ])
    }
  }

  /// Through jemalloc's own counters: a build leaves live less than it allocated (it frees
  /// its temporaries), and more than nothing (the tree, its constraints, the engine).
  @Test func aColdBuildReportsTheMemoryItLeavesAndItsChurn() throws {
    try withTemporaryDirectory("run-tests") { directory in
      let json = directory.appendingPathComponent("report.json").path
      let outcome = try runBinary([
        "run", "--shape", "feed", "--size", "30", "--mutation", "text", "--ticks", "3",
        "--warmup", "0", "--json", json, "--quiet",
      ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      let object = try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: json)))
      let results = try #require((object as? [String: Any])?["results"] as? [[String: Any]])
      #expect(results.count == 3)
      for result in results {
        let cold = try #require(result["cold"] as? [String: Any])
        let churn = try #require(cold["bytesPerView"] as? Double)
        let live = try #require(cold["retainedBytesPerView"] as? Double)
        // A view object alone is over 100 bytes; no build here allocates a megabyte a view.
        #expect(live > 100 && live < churn && churn < 1_000_000, "\(result["strategy"]!)")
      }
    }
  }

  /// A sweep whose second size is refused at run time (a million-cell feed needs far more
  /// memory than any machine here has), after the first size was measured: the command
  /// fails, and the report from before is still there, whole, with no temporary beside it.
  @Test func aRunThatFailsMidwayLeavesAnExistingReportAlone() throws {
    try withTemporaryDirectory("run-tests") { directory in
      let json = directory.appendingPathComponent("report.json").path
      let html = directory.appendingPathComponent("report.html").path
      try Data("previous".utf8).write(to: URL(fileURLWithPath: json))
      let outcome = try runBinary([
        "sweep", "--shape", "feed", "--sizes", "3,1000000", "--ticks", "3", "--warmup", "1",
        "--strategy", "coalesced", "--json", json, "--html", html, "--quiet",
      ])
      #expect(outcome.status == 1, "\(outcome.stderr)")
      #expect(
        outcome.stderr.contains("feed1000000") && outcome.stderr.contains("GB"), "\(outcome.stderr)"
      )
      #expect(try String(contentsOfFile: json, encoding: .utf8) == "previous")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])
    }
  }

  /// A size the sweep could never run is refused before the first size runs.
  @Test func aSweepChecksEverySizeBeforeItStarts() throws {
    let outcome = try runBinary([
      "sweep", "--shape", "deep", "--mutation", "removal", "--sizes", "10,10000", "--quiet",
    ])
    #expect(outcome.status == 1)
    #expect(
      outcome.stderr.contains("deep10000/removalx1") && outcome.stderr.contains("every size"),
      "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty, "nothing was measured: \(outcome.stdout)")
  }

  /// A run killed while it measures never touched the report it was asked to replace.
  @Test func aKilledRunLeavesAnExistingReportAlone() throws {
    let binary = try #require(SolveCommandTests.binary, "no layout-bench next to the test runner")
    try withTemporaryDirectory("run-tests") { directory in
      let json = directory.appendingPathComponent("report.json").path
      try Data("previous".utf8).write(to: URL(fileURLWithPath: json))
      let process = Process()
      process.executableURL = binary
      process.arguments = [
        "run", "--shape", "feed", "--size", "50", "--ticks", "1000000", "--json", json, "--quiet",
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      Thread.sleep(forTimeInterval: 1.5)
      #expect(process.isRunning, "the run ended before it could be killed")
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal)
      #expect(try String(contentsOfFile: json, encoding: .utf8) == "previous")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])
    }
  }
}
