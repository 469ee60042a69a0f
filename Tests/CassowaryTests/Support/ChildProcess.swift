import Testing

#if canImport(Glibc)
  import Glibc
#endif

// Helpers for the exit tests that guard against traps and hangs: the scenario runs in a child
// process, so that a precondition failure or an endless loop fails one test, not the run.

/// In the child: ends the process with a signal after `seconds`, turning a hang into a failure.
func armWatchdog(seconds: UInt32) {
  alarm(seconds)
}

/// In the child: writes `problems` to standard error and exits normally, so that the parent
/// gets them (a failed exit condition hands back no output); a trap or a hang still fails
/// the exit condition. The report is never empty: swift-testing 6.3.1 hands back stray bytes
/// for an empty standard error.
func exitReporting(_ problems: [String]) -> Never {
  let text = "problems: [" + problems.joined(separator: "; ") + "]"
  _ = text.withCString { write(2, $0, strlen($0)) }
  exit(0)
}

/// In the parent: the problems the child reported, or what it wrote instead of a report.
func childProblems(_ result: ExitTest.Result?) -> String? {
  guard let result else { return nil }
  let text = String(decoding: result.standardErrorContent, as: UTF8.self)
  return text == "problems: []" ? nil : text
}
