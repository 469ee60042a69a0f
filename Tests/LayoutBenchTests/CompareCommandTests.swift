import Foundation
import Testing

@testable import layout_bench

/// `layout-bench baseline` and `compare`, through the binary: exit codes are the contract.
@Suite("layout-bench compare")
struct CompareCommandTests {
  let runner = RunCommandTests()

  func withDirectory(_ body: (String) throws -> Void) throws {
    try withTemporaryDirectory("compare") { try body($0.path) }
  }

  /// A real run's report, then the same report with every time value scaled.
  func scaled(_ json: String, by factor: Double) throws -> String {
    var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    var results = object["results"] as! [[String: Any]]
    for i in results.indices {
      results[i]["samplesNs"] = (results[i]["samplesNs"] as! [Double]).map { $0 * factor }
      results[i]["tickNs"] = (results[i]["tickNs"] as! [String: Double]).mapValues { $0 * factor }
      results[i]["rounds"] = (results[i]["rounds"] as! [[String: Double]]).map { round in
        // The code got slower or faster, not the machine: the speed reference stays.
        round.mapValues { $0 * factor }.merging(
          round.filter { ["ticks", "referenceNs"].contains($0.key) }
        ) { _, kept in kept }
      }
    }
    object["results"] = results
    return String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
      as: UTF8.self)
  }

  /// The report with every round set to the rounds' median, field by field: the verdicts
  /// below are about exit codes, and a real run on a loaded machine can spread its rounds
  /// so far (148% between round medians, seen in CI beside a soak) that a 2x change is
  /// rightly not significant.
  func steadied(_ json: String) throws -> String {
    var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    var results = object["results"] as! [[String: Any]]
    for i in results.indices {
      let rounds = results[i]["rounds"] as! [[String: Double]]
      var median: [String: Double] = [:]
      for key in rounds.first.map({ Array($0.keys) }) ?? [] {
        let values = rounds.compactMap { $0[key] }.sorted()
        median[key] = values[values.count / 2]
      }
      results[i]["rounds"] = rounds.map { _ in median }
    }
    object["results"] = results
    return String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
      as: UTF8.self)
  }

  @Test func exitCodesFollowTheVerdict() throws {
    try withDirectory { dir in
      let base = dir + "/base.json"
      let run = try runner.runBinary([
        "run", "--shape", "wide", "--size", "50", "--mutation", "resize", "--ticks", "60", "--json",
        base, "--quiet",
        "--rounds", "5",
      ])
      #expect(run.status == 0, "\(run.stderr)")
      let text = try steadied(try String(contentsOfFile: base, encoding: .utf8))
      try text.write(toFile: base, atomically: true, encoding: .utf8)
      try scaled(text, by: 0.5).write(toFile: dir + "/half.json", atomically: true, encoding: .utf8)
      try scaled(text, by: 2).write(toFile: dir + "/double.json", atomically: true, encoding: .utf8)

      let same = try runner.runBinary(["compare", base, base, "--run-spread", "0.02"])
      #expect(same.status == 0 && same.stdout.contains("no significant change"), "\(same.stdout)")
      // Two files are two time windows: times are judged only with a run-to-run spread.
      let unjudged = try runner.runBinary(["compare", dir + "/half.json", base])
      #expect(unjudged.status == 0 && unjudged.stdout.contains("not judged"), "\(unjudged.stdout)")
      let slower = try runner.runBinary([
        "compare", dir + "/half.json", base, "--run-spread", "0.02",
      ])
      #expect(slower.status == 2 && slower.stdout.contains("REGRESSION"), "\(slower.stdout)")
      let faster = try runner.runBinary([
        "compare", dir + "/double.json", base, "--markdown", dir + "/c.md", "--run-spread", "0.02",
      ])
      #expect(faster.status == 4, "\(faster.stdout)")
      #expect(
        try String(contentsOfFile: dir + "/c.md", encoding: .utf8).contains("improvements only"))

      // A report from another CPU is not compared (exit 1) unless that is allowed; a live
      // comparison against it is refused before any round runs.
      var object = try #require(
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      var environment = try #require(object["environment"] as? [String: String])
      #expect(environment["cpuModel"] != nil && environment["allocator"] != nil)
      environment["cpuModel"] = "Another CPU"
      object["environment"] = environment
      let other = dir + "/other.json"
      try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: other))
      let refused = try runner.runBinary(["compare", other, base])
      #expect(refused.status == 1 && refused.stdout.contains("NOT COMPARABLE"), "\(refused.stdout)")
      #expect(refused.stdout.contains("cpuModel: Another CPU (base)"))
      let forced = try runner.runBinary(["compare", other, base, "--allow-environment-mismatch"])
      #expect(forced.status == 0, "\(forced.stdout)")
      let live = try runner.runBinary(["compare", "other", "--dir", dir, "--rounds", "5"])
      #expect(
        live.status == 1 && live.stderr.contains("another machine or build"), "\(live.stderr)")

      // One round a side cannot be judged: exit 1, never a silent pass.
      let single = dir + "/single.json"
      let one = try runner.runBinary([
        "run", "--shape", "wide", "--size", "50", "--mutation", "resize", "--ticks", "60", "--json",
        single, "--quiet",
      ])
      #expect(one.status == 0, "\(one.stderr)")
      let undecided = try runner.runBinary(["compare", single, single, "--run-spread", "0.02"])
      #expect(
        undecided.status == 1 && undecided.stdout.contains("INSUFFICIENT DATA"),
        "\(undecided.stdout)")
    }
  }

  @Test func abMeasuresTwoBuildsInAlternatingRounds() throws {
    let binary = try #require(SolveCommandTests.binary).path
    let outcome = try runner.runBinary([
      "ab", binary, binary, "--rounds", "5", "--quiet", "--",
      "--shape", "wide", "--size", "30", "--mutation", "resize", "--ticks", "20",
    ])
    // The same build on both sides: judged on 5 rounds each, whatever the verdict.
    #expect([0, 2, 4].contains(outcome.status), "\(outcome.stderr)")
    #expect(outcome.stdout.contains("Holm-adjusted over the 6 time metrics"), "\(outcome.stdout)")
    let missing = try runner.runBinary(["ab", "/no/such/layout-bench", binary])
    #expect(
      missing.status != 0 && missing.stderr.contains("is not an executable file"),
      "\(missing.stderr)")
    let clash = try runner.runBinary(["ab", binary, binary, "--", "--json", "x.json"])
    #expect(clash.status != 0 && clash.stderr.contains("cannot include --json"), "\(clash.stderr)")
  }

  @Test func badInputExitsOneAndTouchesNothing() throws {
    try withDirectory { dir in
      let corrupt = dir + "/corrupt.json"
      try "{\"schemaVersion\": 1, \"results\": [".write(
        toFile: corrupt, atomically: true, encoding: .utf8)
      let out = dir + "/comparison.json"
      let outcome = try runner.runBinary(["compare", corrupt, corrupt, "--json", out])
      #expect(outcome.status == 1)
      #expect(
        outcome.stderr.contains(corrupt) && outcome.stderr.contains("not valid JSON"),
        "\(outcome.stderr)")
      // No comparison was made, so none is written.
      #expect(!FileManager.default.fileExists(atPath: out))
      let missing = try runner.runBinary(["compare", "no-such-baseline", "--dir", dir])
      #expect(
        missing.status == 1 && missing.stderr.contains("no baseline named 'no-such-baseline'"))
      // A missing report file is named as a file (it was a baseline `old.json.json`).
      let file = try runner.runBinary(["compare", "old.json", corrupt, "--dir", dir])
      #expect(
        file.status == 1 && file.stderr.contains("old.json: no such report file"),
        "\(file.stderr)")
    }
  }

  @Test func baselinesAreSavedListedDeletedAndNeverReplacedByAFailedRun() throws {
    try withDirectory { dir in
      let save = try runner.runBinary([
        "baseline", "save", "main", "--dir", dir, "--shape", "feed", "--size", "5", "--mutation",
        "text",
        "--ticks", "5", "--warmup", "1", "--quiet",
      ])
      #expect(save.status == 0, "\(save.stderr)")
      let stored = try String(contentsOfFile: dir + "/main.json", encoding: .utf8)
      let list = try runner.runBinary(["baseline", "list", "--dir", dir])
      #expect(list.stdout.hasPrefix("main\t3 results"))
      // A run that fails after it started (a million-cell feed is refused for memory when
      // it comes to be built) leaves the good baseline as it was.
      let failed = try runner.runBinary([
        "baseline", "save", "main", "--dir", dir, "--shape", "feed", "--size", "1000000",
        "--rounds", "1", "--strategy", "coalesced", "--quiet",
      ])
      #expect(failed.status == 1 && failed.stderr.contains("GB"), "\(failed.stderr)")
      #expect(try String(contentsOfFile: dir + "/main.json", encoding: .utf8) == stored)
      // So does storing a corrupt report over it.
      try "not json".write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
      let corrupt = try runner.runBinary([
        "baseline", "save", "main", "--dir", dir, "--from", dir + "/bad.json",
      ])
      #expect(corrupt.status == 1)
      #expect(try String(contentsOfFile: dir + "/main.json", encoding: .utf8) == stored)
      let delete = try runner.runBinary(["baseline", "delete", "main", "--dir", dir])
      #expect(delete.status == 0 && !FileManager.default.fileExists(atPath: dir + "/main.json"))
      #expect(try runner.runBinary(["baseline", "delete", "main", "--dir", dir]).status == 1)
    }
  }
}
