internal import Foundation

/// The one way this package writes JSON: keys sorted (equal values give equal files),
/// slashes unescaped, and a final newline; `pretty` for files a person reads (comparisons,
/// calibrations).
public enum JSONText {
  public static func encode<T: Encodable>(_ value: T, pretty: Bool = false) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
    return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
  }
}
