/// A deterministic synthetic text metric: every character has a fixed advance, lines wrap
/// greedily at spaces, and a word wider than the line is broken across lines. It stands in
/// for a font so that a label's height depends on its width, as real text does, and every
/// machine measures the same.
public struct TextStyle: Hashable, Sendable {
  /// Advance of an ordinary character, in points.
  public var glyphAdvance: Double
  public var lineHeight: Double

  public init(glyphAdvance: Double = 7, lineHeight: Double = 17) {
    self.glyphAdvance = glyphAdvance
    self.lineHeight = lineHeight
  }

  public static let body = TextStyle()
  public static let title = TextStyle(glyphAdvance: 9, lineHeight: 22)
  public static let caption = TextStyle(glyphAdvance: 6, lineHeight: 14)

  public var isValid: Bool {
    glyphAdvance.isFinite && glyphAdvance > 0 && lineHeight.isFinite && lineHeight >= 0
  }

  /// The advance of one character: narrow punctuation and `i l j t f` half, `m w` and
  /// capitals of the same shapes one and a half, everything else one glyph advance.
  func advance(of scalar: Unicode.Scalar) -> Double {
    switch scalar {
    case "i", "l", "j", "t", "f", "I", ".", ",", ";", ":", "'", "!", "|", " ": glyphAdvance * 0.5
    case "m", "w", "M", "W", "@": glyphAdvance * 1.5
    default: glyphAdvance
    }
  }
}

/// A text broken into words with their widths, so wrapping at a width costs O(words).
struct TextMetrics {
  private(set) var wordWidths: [Double] = []
  private(set) var spaceWidth: Double = 0
  /// Width of the text on one line.
  private(set) var naturalWidth: Double = 0

  init(text: String, style: TextStyle) {
    // Room for a label's usual texts (the text workloads set 1 to 30 words): a new text
    // then never reallocates; a longer one grows the buffer once.
    wordWidths.reserveCapacity(32)
    measure(text, style: style)
  }

  /// Measures a new text in place, reusing the word buffer (a label's text changes every
  /// tick in the text workloads: a new buffer each time was an allocation per tick).
  mutating func measure(_ text: String, style: TextStyle) {
    spaceWidth = style.advance(of: " ")
    var words: [Double] = []
    swap(&words, &wordWidths)
    // A new label's buffer is empty: `removeAll(keepingCapacity:)` on it still went through
    // the generic range replacement, 53 instructions a label.
    if !words.isEmpty { words.removeAll(keepingCapacity: true) }
    var text = text
    text.withUTF8 { Self.measureWords(utf8: $0, style: style, into: &words) }
    swap(&words, &wordWidths)
    naturalWidth = wordWidths.reduce(0, +) + Double(max(0, wordWidths.count - 1)) * spaceWidth
  }

  /// Appends the width of each word of a UTF-8 text: the glyph advance times the sum of its
  /// characters' factors (`TextStyle.advance(of:)` over the glyph advance: 0.5, 1 or 1.5),
  /// a sum that is exact, rounded once. Over the bytes, with a table of every byte; a
  /// scalar beyond ASCII has factor 1, once, at its first byte; separators (space, newline,
  /// tab) end a word. (Decoding every scalar and matching it against the special characters
  /// cost 2,000 instructions per label, a tenth of a cold bottom-up build.)
  ///
  /// The sum is kept in half-advances, an integer: one addition per character, where a
  /// floating-point sum waited for the previous addition at every character (and rounded at
  /// each, for a glyph advance that is not a multiple of a power of two). Only a separator
  /// branches: a branch per class mispredicted on every change of class, and one for the
  /// bytes beyond ASCII cost two instructions a byte.
  ///
  /// The widths go to a batch on the stack and join `words` a batch at a time: appended one
  /// by one, each paid the array's uniqueness and capacity checks, 36 instructions a word
  /// (a third of the measure of a feed cell's texts).
  private static func measureWords(
    utf8: UnsafeBufferPointer<UInt8>, style: TextStyle, into words: inout [Double]
  ) {
    let halfAdvance = style.glyphAdvance * 0.5
    // Every character adds at least one half-advance (a scalar beyond ASCII at its first
    // byte): a word is under way while this is positive.
    var halves = 0
    withUnsafeTemporaryAllocation(of: Double.self, capacity: batchSize) { batch in
      let batch = batch.baseAddress.unsafelyUnwrapped
      var count = 0
      byteHalfAdvances.withUnsafeBufferPointer { table in
        for byte in utf8 {
          let step = table[Int(byte)]
          if step != separator {
            halves &+= Int(step)
            continue
          }
          if halves > 0 {
            batch[count] = Double(halves) * halfAdvance
            count &+= 1
            if count == batchSize {
              words.append(contentsOf: UnsafeBufferPointer(start: batch, count: count))
              count = 0
            }
          }
          halves = 0
        }
      }
      if halves > 0 {
        batch[count] = Double(halves) * halfAdvance
        count &+= 1
      }
      if count > 0 { words.append(contentsOf: UnsafeBufferPointer(start: batch, count: count)) }
    }
  }

  private static var batchSize: Int { 32 }
  private static var separator: UInt8 { 0xFF }

  /// The advance of each byte in half glyph advances: for ASCII as `TextStyle.advance(of:)`
  /// gives it (1, 2 or 3), ``separator`` for the separators; 2 for the first byte of a
  /// scalar beyond ASCII (11xxxxxx) and 0 for the bytes that continue one (10xxxxxx).
  private static let byteHalfAdvances: [UInt8] = (0..<256).map { byte in
    if byte >= 0xC0 { return 2 }
    if byte >= 0x80 { return 0 }
    let scalar = Unicode.Scalar(UInt8(byte))
    if scalar == " " || scalar == "\n" || scalar == "\t" { return separator }
    return UInt8(TextStyle(glyphAdvance: 2, lineHeight: 1).advance(of: scalar))
  }

  /// Lines needed at `width`: greedy, a space between words, over-long words broken.
  func lineCount(width: Double) -> Int {
    guard !wordWidths.isEmpty else { return 0 }
    guard width > 0 else { return wordWidths.count }
    // A width that a solver computed as 89.99999999999 for a frame layout's 90 must wrap
    // the same way: widths within a nanopoint of a line's end count as fitting.
    let width = width + 1e-9
    var lines = 1
    var used = 0.0
    for word in wordWidths {
      let needed = used == 0 ? word : used + spaceWidth + word
      if needed <= width {
        used = needed
        continue
      }
      if used > 0 { lines += 1 }
      if word <= width {
        used = word
      } else {
        // Broken at the width: full lines, then the rest starts the current line.
        let full = (word / width).rounded(.down)
        let rest = word - full * width
        lines += Int(full) - (rest == 0 ? 1 : 0)
        used = rest == 0 ? width : rest
      }
    }
    return lines
  }
}
