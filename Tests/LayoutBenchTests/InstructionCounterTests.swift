import Foundation
@testable import LayoutHarness
import Testing

@testable import layout_bench

/// `--instructions`: how a result is run under callgrind and how its count is read. A
/// stand-in for valgrind (a shell script) checks the arguments and the environment it is
/// given and writes one callgrind dump per tick, as `--dump-after` does: the cold build's,
/// which differs from one process to the next (it adds the process id, as addresses make a
/// real build's count vary), two warm-up ticks, then measured tick k counting 100 * k.
@Suite struct InstructionCounterTests {
  static let result = syntheticRunResult()

  static func syntheticRunResult() -> RunResult {
    let stats = TickStatistics(samples: [1000, 1100, 1200])
    return RunResult(
      strategy: .bottomUp, shape: .wide, size: 50, mutation: .resize, perTick: 2, seed: 9,
      views: 51, ticks: 3, warmupTicks: 1, tickNs: stats, overBudget: 0, missedFrames: 0,
      overrunNs: .init(p50: 0, p99: 0), hitchMsPerS: 0, budgets: [], phasesNs: [:],
      counters: [:], allocations: .init(countPerTick: 0, bytesPerTick: 0),
      samplesNs: [1000, 1100, 1200])
  }

  /// A stand-in for valgrind writing `extra` more measured ticks than it was asked for.
  static func fakeValgrind(log: String, extra: Int = 0) -> String {
    """
    #!/bin/sh
    echo "$@" >> \(log)
    [ "$SWIFT_DETERMINISTIC_HASHING" = 1 ] || exit 3
    out=""; ticks=""; previous=""
    for a in "$@"; do
      case "$a" in --callgrind-out-file=*) out="${a#--callgrind-out-file=}" ;; esac
      [ "$previous" = "--ticks" ] && ticks="$a"
      previous="$a"
    done
    printf 'events: Ir\\nsummary: %d\\n' $((7000000 + $$)) > "$out.1"
    printf 'events: Ir\\nsummary: 900\\n' > "$out.2"
    printf 'events: Ir\\nsummary: 800\\n' > "$out.3"
    k=1
    while [ $k -le $((ticks + \(extra))) ]; do
      printf 'events: Ir\\ntotals: %d\\n' $((100 * k)) > "$out.$((k + 3))"
      k=$((k + 1))
    done
    printf 'events: Ir\\nsummary: 0\\n' > "$out"
    """
  }

  @Test func perTickIsTheMeanOfTheLastOfTwiceTheMeasuredTicks() throws {
    try withTemporaryDirectory("fake-valgrind") { directory in
      let fake = directory.appendingPathComponent("valgrind").path
      let log = directory.appendingPathComponent("arguments.log").path
      try writeExecutable(Self.fakeValgrind(log: log), to: fake)

      let counter = try InstructionCounter.locate(searching: directory.path + ":/usr/bin")
      #expect(counter.valgrind == fake)
      // Ticks 11 to 20 of 20: 100 * 15.5 each on average, whatever the builds counted.
      #expect(try counter.perTick(Self.result) == 1550)
      #expect(try counter.perTick(Self.result) == 1550)
      let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
      #expect(calls.count == 2)
      let first = String(calls[0])
      #expect(first.contains("--toggle-collect=\(InstructionCounter.tickSymbol)"))
      #expect(first.contains("--dump-after=\(InstructionCounter.tickSymbol)"))
      #expect(first.contains("--separate-threads=no --combine-dumps=no"))
      for piece in [
        "run --shape wide --size 50 --mutation resize --per-tick 2 --seed 9 --strategy bottom-up",
        "--ticks 20 --warmup 2 --quiet --no-verify --cold-builds 1",
      ] {
        #expect(first.contains(piece), "\(first)")
      }
      // A scene file's result runs its file again (its size only when it has one), and
      // only while the file is the one measured.
      let path = directory.appendingPathComponent("chat.json").path
      let chat = """
        {"format": "layout-bench-scene", "version": 1, "name": "chat", "size": 3,
         "templates": {"m": {"kind": "label", "text": "hi"}},
         "root": {"kind": "list", "children": [
           {"kind": "repeat", "template": "m", "count": "size"}]}}
        """
      try chat.write(toFile: path, atomically: true, encoding: .utf8)
      var scene = Self.result
      scene.shape = .scene
      scene.mutation = .scripted
      scene.scene = SceneIdentity(try SceneFile.load(path: path))
      _ = try counter.perTick(scene)
      let third = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")[2]
      #expect(third.contains("run --scene \(path) --size 50 --strategy bottom-up"))
      #expect(!third.contains("--shape") && !third.contains("--mutation"))
      try chat.replacingOccurrences(of: "hi", with: "hello").write(
        toFile: path, atomically: true, encoding: .utf8)
      #expect(throws: (any Error).self) { try counter.perTick(scene) }
    }
  }

  /// A tick after the measured ones (or one missing) would shift which ticks are summed: the
  /// count must match exactly, or the run fails saying so.
  @Test func aTickCountOtherThanTheRunsIsAnError() throws {
    try withTemporaryDirectory("fake-valgrind-extra") { directory in
      let fake = directory.appendingPathComponent("valgrind").path
      let log = directory.appendingPathComponent("arguments.log").path
      try writeExecutable(Self.fakeValgrind(log: log, extra: 1), to: fake)
      let counter = try InstructionCounter.locate(searching: directory.path)
      #expect {
        _ = try counter.perTick(Self.result)
      } throws: { error in
        "\(error)".contains("counted 24 ticks, expected 23")
      }
    }
  }

  /// Dumps are read in their numbering order (10 after 9, not after 1), and a gap is an error.
  @Test func dumpsAreReadInNumberOrderAndMustHaveNoGaps() throws {
    try withTemporaryDirectory("callgrind-dumps") { directory in
      for k in 1...11 {
        try "summary: \(k * 7)\n".write(
          to: directory.appendingPathComponent("callgrind.out.\(k)"), atomically: true,
          encoding: .utf8)
      }
      try "summary: 0\n".write(
        to: directory.appendingPathComponent("callgrind.out"), atomically: true, encoding: .utf8)
      try "noise".write(
        to: directory.appendingPathComponent("valgrind.log"), atomically: true, encoding: .utf8)
      #expect(
        try InstructionCounter.dumpTotals(in: directory, output: "callgrind.out")
          == (1...11).map { $0 * 7 })
      try FileManager.default.removeItem(at: directory.appendingPathComponent("callgrind.out.4"))
      #expect {
        _ = try InstructionCounter.dumpTotals(in: directory, output: "callgrind.out")
      } throws: { error in
        "\(error)".contains("not numbered 1 to 10")
      }
    }
  }

  @Test func withoutValgrindTheErrorSaysHowToInstallIt() {
    #expect {
      _ = try InstructionCounter.locate(searching: "/nonexistent-directory")
    } throws: { error in
      "\(error)".contains("apt-get install -y valgrind")
    }
  }

  @Test func theTotalIsReadFromTheSummaryOrTotalsLine() {
    #expect(
      InstructionCounter.totalInstructions(inCallgrindOutput: "events: Ir\nsummary: 123\n") == 123)
    #expect(InstructionCounter.totalInstructions(inCallgrindOutput: "totals: 45\n") == 45)
    #expect(InstructionCounter.totalInstructions(inCallgrindOutput: "events: Ir\n") == nil)
  }
}

/// Writes an executable script through a descriptor that no child process can inherit:
/// Foundation's writers leave theirs open across a fork, and a test running a process at
/// the same moment then holds the script open for writing until its exec, so running the
/// script failed with "Text file busy" (ETXTBSY) now and then under load.
func writeExecutable(_ text: String, to path: String) throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
  guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  defer { close(fd) }
  let bytes = Array(text.utf8)
  var written = 0
  while written < bytes.count {
    let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard n > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    written += n
  }
}
