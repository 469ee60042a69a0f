#if canImport(Glibc)
  @preconcurrency import Glibc
#endif
import ArgumentParser
import Cassowary
import ConstraintScript
internal import Foundation

/// `layout-bench solve FILE`: runs a constraint script and prints its `print` blocks.
struct Solve: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Solve a constraint script and print the values of its variables.",
    discussion: """
      A script holds one statement per line: constraints (`[label:] expr op expr [@strength]` \
      with op ==, <= or >=), `edit NAME @strength`, `suggest NAME VALUE`, `remove LABEL` and \
      `print`. Each `print` writes `name = value` for every variable seen so far; blocks are \
      separated by `---`. Errors are reported as FILE:LINE: reason, with exit status 1.
      """
  )

  @Argument(help: "The script to solve, or - for standard input.")
  var file: String

  @Flag(help: "Print the blocks as JSON: {\"blocks\": [{\"name\": value, ...}, ...]}.")
  var json = false

  @Option(help: "The solver's tableau: adaptive (the default), lazy or canonical (kiwi's).")
  var representation: RepresentationOption = .adaptive

  func run() throws {
    let bytes = try readInput(file)
    let script: Script
    do {
      script = try Script(parsing: bytes, file: file)
    } catch {
      throw CommandFailure.diagnostic(error.description)
    }
    var runner = ScriptRunner(file: file, representation: representation.value)
    if json {
      var blocks: [ScriptRunner.Block] = []
      do {
        try runner.run(script) { blocks.append($0) }
      } catch {
        throw CommandFailure.diagnostic(error.description)
      }
      print(jsonReport(blocks))
    } else {
      var first = true
      do {
        try runner.run(script) { block in
          if !first { print("---") }
          first = false
          for (name, value) in block { print("\(name) = \(formatValue(value))") }
        }
      } catch {
        throw CommandFailure.diagnostic(error.description)
      }
    }
  }
}

enum RepresentationOption: String, ExpressibleByArgument, CaseIterable {
  case adaptive, lazy, canonical

  var value: Solver.Representation {
    switch self {
    case .adaptive: .adaptive
    case .lazy: .lazy
    case .canonical: .canonical
    }
  }
}

/// Reads a file, or standard input for `-`, failing with a message that names the file.
/// Plain reads, so pipes, FIFOs and process substitutions work as well as regular files.
func readInput(_ path: String) throws -> [UInt8] {
  let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else {
    let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
    throw CommandFailure.diagnostic("\(path): \(reason)")
  }
  defer { if fd != 0 { close(fd) } }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n == 0 { return bytes }
    if n < 0 {
      if errno == EINTR { continue }
      let reason =
        errno == EBADF && fd == 0 ? "standard input is closed" : String(cString: strerror(errno))
      throw CommandFailure.diagnostic("\(path): cannot read: \(reason)")
    }
    bytes += chunk[0..<n]
  }
}

func jsonReport(_ blocks: [ScriptRunner.Block]) -> String {
  let rendered = blocks.map { block in
    "{"
      + block.map { "\(jsonString($0.name)): \(formatValue($0.value))" }
      .joined(separator: ", ") + "}"
  }
  return "{\"blocks\": [" + rendered.joined(separator: ", ") + "]}"
}

func jsonString(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}
