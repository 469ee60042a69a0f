internal import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes files so that a reader sees the old content or the new, never a part: the bytes go
/// to `.NAME.tmp-PID` beside the target, are flushed to the disk, and the temporary is
/// renamed over the target. The one writer behind every report, baseline and output file.
///
/// A process killed while writing leaves its temporary behind (nothing can run on SIGKILL);
/// ``removeStaleTemporaries(in:)`` deletes those whose process is gone, and the baseline store
/// calls it before it writes.
public enum AtomicFile {
  public struct Failure: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): cannot write: \(reason)" }
  }

  static let marker = ".tmp-"

  public static func write(_ text: String, to path: String) throws(Failure) {
    try write(Array(text.utf8), to: path)
  }

  public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
    let (directory, name) = split(path)
    let temporary = directory + "/." + name + marker + String(getpid())
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw Failure(path: path, reason: lastError()) }
    var written = 0
    var failure: String?
    bytes.withUnsafeBytes { buffer in
      while written < buffer.count {
        let n = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
        if n < 0 {
          if errno == EINTR { continue }
          failure = lastError()
          return
        }
        written += n
      }
    }
    if failure == nil && fsync(fd) != 0 { failure = lastError() }
    if close(fd) != 0 && failure == nil { failure = lastError() }
    if failure == nil && rename(temporary, path) != 0 { failure = lastError() }
    if let failure {
      unlink(temporary)
      throw Failure(path: path, reason: failure)
    }
  }

  /// Deletes temporaries in `directory` left by processes that no longer run.
  public static func removeStaleTemporaries(in directory: String) {
    guard let dir = opendir(directory) else { return }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name.hasPrefix("."), let range = name.range(of: marker, options: .backwards),
        let pid = Int32(name[range.upperBound...]), pid > 0
      else { continue }
      // Signal 0 checks that the process exists; ESRCH: it is gone, its file is garbage.
      if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
    }
  }

  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  static func lastError() -> String { String(cString: strerror(errno)) }
}
