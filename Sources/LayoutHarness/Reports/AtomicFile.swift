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
  /// Why no file can be made in `directory` (an existing directory), or nil: a file is made
  /// there and removed. Permission bits say nothing to root, nor about a read-only file
  /// system (`/sys`, `/proc`, a read-only mount): a run as root passed that check for
  /// `/sys/r.json`, ran the whole matrix, and only then failed to write. The probe is opened
  /// with `O_EXCL` under a name of its own, so it never follows a link or replaces a file.
  public static func creationProblem(in directory: String) -> String? {
    let probe = directory + "/.layout-bench-check-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else { return String(cString: strerror(errno)) }
    close(descriptor)
    unlink(probe)
    return nil
  }

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
