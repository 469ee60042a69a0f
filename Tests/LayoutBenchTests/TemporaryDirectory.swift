import Foundation

/// Runs `body` with a fresh directory under the system's temporary one, removed afterwards
/// whatever `body` does.
func withTemporaryDirectory<T>(_ prefix: String, _ body: (URL) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}
