/// Every number a report shows, formatted one way for the terminal, Markdown and HTML: a
/// figure reads the same in all three. Fixed digits without Foundation's formatters (the
/// same text on every platform); never "nan", "inf" or "-0.00" (a dash for a value that
/// cannot be shown, so a broken sample cannot leak into a table or an SVG coordinate).
public enum NumberFormat {
  /// What a value that is not finite shows as.
  public static let missing = "\u{2013}"

  /// `value` with `digits` decimals, rounded half away from zero.
  public static func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return missing }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return (value < 0 ? "-" : "") + "\(abs(value))" }
    let whole = Int(scaled / scale)
    // Rounding a tiny negative value to zero must not read as a real negative.
    var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if digits > 0 {
      let fraction = String(Int(scaled - Double(whole) * scale))
      text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return text
  }

  /// Milliseconds from nanoseconds, with enough decimals to tell sub-millisecond ticks
  /// apart: 123.4, 12.34, 1.23, 0.123, 0.0123.
  public static func ms(_ ns: Double) -> String {
    let size = abs(ns / 1e6)
    return fixed(ns / 1e6, size >= 100 ? 1 : size >= 1 || size == 0 ? 2 : size >= 0.1 ? 3 : 4)
  }

  /// A share: 42%, 4.2%, 0.42%; `<0.01%` for a positive share too small to show.
  public static func percent(_ ratio: Double) -> String {
    let value = ratio * 100
    guard value.isFinite else { return missing }
    if value > 0 && value < 0.01 { return "<0.01%" }
    return fixed(value, value >= 10 ? 0 : value >= 1 ? 1 : 2) + "%"
  }

  /// A relative change with its sign and one decimal: +12.5%, -3.0%.
  public static func change(_ ratio: Double) -> String {
    guard ratio.isFinite else { return missing }
    return (ratio >= 0 ? "+" : "") + fixed(ratio * 100, 1) + "%"
  }

  /// A short duration in the unit that keeps it readable: 850 ns, 12.50 µs, 3.20 ms, 1.50 s.
  public static func duration(_ ns: Double) -> String {
    let size = abs(ns)
    if size < 1_000 { return "\(fixed(ns, 0)) ns" }
    if size < 1_000_000 { return "\(fixed(ns / 1e3, 2)) \u{B5}s" }
    if size < 1e9 { return "\(ms(ns)) ms" }
    return "\(fixed(ns / 1e9, 2)) s"
  }

  /// A counter or a byte count: whole numbers without decimals, others with one.
  public static func count(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? fixed(value, 0) : fixed(value, 1)
  }
}
