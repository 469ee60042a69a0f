#if canImport(Glibc)
  @preconcurrency import Glibc
#endif
internal import Foundation
import JemallocProbe
import LayoutHarness

/// Report files: checked before a run, written atomically after it.
enum OutputFile {
  /// Why `path` cannot be written, or nil.
  static func problem(writing path: String) -> String? {
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      return "\(path): is a directory"
    }
    let directory = url.deletingLastPathComponent().path
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
      return "\(path): directory \(directory) does not exist"
    }
    guard isDirectory.boolValue else {
      return "\(path): \(directory) is not a directory"
    }
    // A file is made there and removed, as the report's temporary file will be.
    if let reason = AtomicFile.creationProblem(in: directory) {
      return "\(path): directory \(directory) is not writable (\(reason))"
    }
    return nil
  }

  /// Writes `text` to a temporary file next to `path`, then renames it over `path`
  /// (``AtomicFile``): a reader never sees half a report, and a failure leaves the old file
  /// as it was. `-` is standard output, through the same buffer as `print`, whose errors
  /// `LayoutBench.main` checks before exiting.
  static func write(_ text: String, to path: String) throws {
    if path == "-" {
      fputs(text, stdout)
      return
    }
    do throws(AtomicFile.Failure) { try AtomicFile.write(text, to: path) } catch {
      throw CommandFailure(error.description)
    }
  }

  /// Two report flags naming one file would keep only the last report written.
  static func duplicate(among paths: [String]) -> String? {
    var seen: [String: String] = [:]
    for path in paths where path != "-" {
      let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
      if let other = seen[resolved] { return "\(other) and \(path) name the same file" }
      seen[resolved] = path
    }
    return nil
  }
}

/// A progress line on standard error, shown only on a terminal, only after the first
/// second, and never with --quiet.
final class Progress: @unchecked Sendable {
  private let enabled: Bool
  private let start = Date()
  private var shown = false
  private var last = Date.distantPast

  init(quiet: Bool) {
    enabled = !quiet && isatty(STDERR_FILENO) == 1
  }

  func update(_ text: String) {
    guard enabled else { return }
    let now = Date()
    guard now.timeIntervalSince(start) > 1, now.timeIntervalSince(last) > 0.1 else { return }
    last = now
    shown = true
    FileHandle.standardError.write(Data("\r\u{1B}[2K\(text)".utf8))
  }

  func finish() {
    guard shown else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
  }
}

/// A failure after the flags were accepted: printed as `Error: ...` (or as is, for a
/// diagnostic that names its file and line), exit status 1 (``ExitStatus/failure``).
struct CommandFailure: Error, CustomStringConvertible {
  var description: String
  /// `FILE:LINE: reason`, printed without the `Error: ` prefix, as compilers do.
  var isDiagnostic = false

  init(_ description: String) { self.description = description }

  static func diagnostic(_ text: String) -> CommandFailure {
    var failure = CommandFailure(text)
    failure.isDiagnostic = true
    return failure
  }
}

/// Carries a closure and its result to another thread.
private final class ThreadBox<T>: @unchecked Sendable {
  var result: Result<T, any Error>?
  let body: () throws -> T
  init(_ body: @escaping () throws -> T) { self.body = body }
}

/// Runs `body` on a thread with a 1 GiB stack: frame layout measures recursively, and a
/// `deep` tree of 100,000 levels needs far more than the main thread's 8 MiB.
func onLargeStack<T>(_ body: @escaping () throws -> T) throws -> T {
  let box = ThreadBox(body)
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    box.result = Result { try box.body() }
    done.signal()
  }
  thread.stackSize = 1 << 30
  thread.start()
  done.wait()
  return try box.result!.get()
}

/// What the report says about the machine.
func environmentInfo() -> [String: String] {
  var info: [String: String] = [:]
  info["host"] = ProcessInfo.processInfo.hostName
  info["cpus"] = String(ProcessInfo.processInfo.activeProcessorCount)
  info["os"] = ProcessInfo.processInfo.operatingSystemVersionString
  #if DEBUG
    info["build"] = "debug"
  #else
    info["build"] = "release"
  #endif
  info["date"] = ISO8601DateFormatter().string(from: Date())
  info["cpuModel"] = cpuModel() ?? "unknown"
  info["swift"] = swiftVersion
  info["allocator"] = JemallocProbe.version.map { "jemalloc \($0)" } ?? "system"
  // A tick of a large tree takes about a fifth longer without huge pages
  // (`CJemallocConfig`), so `compare` holds a change of this setting against two reports.
  // Read from jemalloc itself, after MALLOC_CONF had its say; absent without jemalloc.
  info["hugePages"] = JemallocProbe.hugePages
  info["tool"] = "layout-bench \(LayoutBench.configuration.version)"
  return info
}

/// The processor's model name from /proc/cpuinfo (Linux), `nil` elsewhere.
func cpuModel() -> String? {
  guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
    return nil
  }
  for line in text.split(separator: "\n") where line.hasPrefix("model name") {
    if let colon = line.firstIndex(of: ":") {
      return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
  }
  return nil
}

/// The Swift language mode of the compiler that built the tool (major.minor).
let swiftVersion: String = {
  #if compiler(>=6.5)
    return ">=6.5"
  #elseif compiler(>=6.4)
    return "6.4"
  #elseif compiler(>=6.3)
    return "6.3"
  #elseif compiler(>=6.2)
    return "6.2"
  #else
    return "<6.2"
  #endif
}()
