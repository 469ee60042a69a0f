/// A closed set of names written in reports (strategies, shapes, mutations). Decoding a name
/// outside the set fails with the names allowed, so a report edited by hand or written by a
/// newer version says what is wrong at its JSON path instead of "invalid String value".
public protocol ReportName: CaseIterable, Codable, RawRepresentable<String>,
  CustomStringConvertible
{}

extension ReportName {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let value = Self(rawValue: name) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(name)' is not one of \(Self.names)")
    }
    self = value
  }

  /// The report's spelling, so that interpolation writes `bottom-up`, not `bottomUp`.
  public var description: String { rawValue }

  /// Every name, comma-separated, for help texts and errors.
  public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
