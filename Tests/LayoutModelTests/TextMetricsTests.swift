import Testing

@testable import LayoutModel

#if canImport(Glibc)
  import Glibc
#endif

/// The synthetic text metric, seen through Label.textHeight(width:). Body style: ordinary
/// glyphs advance 7; "i l j t f I . , ; : ' ! |" and the space 3.5; "m w M W @" 10.5; lines
/// are 17 high and wrap greedily at spaces, a word wider than the line being broken.
@Suite struct TextMetricsTests {
  /// The number of lines `text` takes at `width` (nil when the height is not a whole
  /// number of lines).
  private func lines(_ text: String, width: Double, style: TextStyle = .body) -> Int? {
    let height = Label(text: text, style: style).textHeight(width: width)
    let count = (height / style.lineHeight).rounded()
    return isClose(height, count * style.lineHeight) ? Int(count) : nil
  }

  @Test func glyphAdvancesGiveTheNaturalWidth() {
    // h 7 + e 7 + l 3.5 + l 3.5 + o 7 = 28, space 3.5, w 10.5 + o 7 + r 7 + l 3.5 + d 7 = 35.
    #expect(isClose(Label(text: "hello world").naturalWidth, 66.5))
    #expect(isClose(Label(text: "il.,;:'!|tfjI").naturalWidth, 13 * 3.5))
    #expect(isClose(Label(text: "mwMW@").naturalWidth, 5 * 10.5))
    #expect(isClose(Label(text: "abc").naturalWidth, 21))
    // Title style: advance 9, so "mi" = 13.5 + 4.5.
    #expect(isClose(Label(text: "mi", style: .title).naturalWidth, 18))
  }

  @Test func emptyTextHasNoLines() {
    for text in ["", "   ", " \t "] {
      let label = Label(text: text)
      #expect(isClose(label.textHeight(width: 100), 0), "\(text.debugDescription)")
      #expect(isClose(label.textHeight(width: 0), 0))
      #expect(isClose(label.naturalWidth, 0))
    }
  }

  @Test func greedyWrappingAtSpaces() {
    // "hello world" is 66.5 wide: one line at exactly that width, two just below it.
    #expect(lines("hello world", width: 66.5) == 1)
    #expect(lines("hello world", width: 66) == 2)
    #expect(isClose(Label(text: "hello world").textHeight(width: 66), 34))
    // Greedy: "ab ab" (14 + 3.5 + 14 = 31.5) fills the first line at 50, "abcde" (35) cannot
    // join it (70 > 50) and starts the second.
    #expect(lines("ab ab abcde", width: 50) == 2)
    // Runs of spaces separate words like one space: 7 + 3.5 + 7.
    #expect(isClose(Label(text: "a    b").naturalWidth, 17.5))
    #expect(lines("a    b", width: 17.5) == 1)
    // Trailing and leading spaces take no room.
    #expect(lines("  abcde  ", width: 35) == 1)
    // Twelve 35-point words at 200: 5 a line (5 * 35 + 4 * 3.5 = 189), so 5 + 5 + 2.
    #expect(lines(Array(repeating: "abcde", count: 12).joined(separator: " "), width: 200) == 3)
    // Other styles: caption (advance 6, line 14): "abcde" is 30; two words need 63.
    let caption = Label(text: "abcde abcde", style: .caption)
    #expect(isClose(caption.textHeight(width: 63), 14))
    #expect(isClose(caption.textHeight(width: 62), 28))
  }

  @Test func aWordLongerThanTheWidthIsBroken() {
    // "abcdeabcde" is 70: at 30 it takes 30 + 30 + 10, three lines.
    #expect(lines("abcdeabcde", width: 30) == 3)
    // At 35 it fills exactly two lines; a following word starts a third.
    #expect(lines("abcdeabcde", width: 35) == 2)
    #expect(lines("abcdeabcde ab", width: 35) == 3)
    // The remainder of a broken word shares its line with the next word when it fits:
    // 10 + 3.5 + 14 = 27.5 <= 30.
    #expect(lines("abcdeabcde ab", width: 30) == 3)
    // A long word after a short one starts on a new line: "ab" | 30 | 30 | 10.
    #expect(lines("ab abcdeabcde", width: 30) == 4)
  }

  @Test func widthZeroPutsEachWordOnItsOwnLine() {
    // No room at all: the model gives every word one line rather than infinitely many.
    #expect(lines("one two three", width: 0) == 3)
    #expect(lines("abcdeabcde", width: 0) == 1)
    #expect(lines("one two", width: -5) == 2)
    // Unbounded width: one line.
    #expect(lines("one two three", width: .infinity) == 1)
  }

  /// A tiny positive width is a valid input (solver round-off can produce one): the height
  /// must be finite and the call must not trap (lineCount turns word / width into an Int,
  /// which would trap above Int.max; the nanopoint wrap tolerance bounds the ratio). In a
  /// child process, so that a trap fails this test only.
  @Test func aTinyPositiveWidthDoesNotTrap() async {
    await #expect(processExitsWith: .success) {
      alarm(60)
      let height = Label(text: "abcdeabcde").textHeight(width: 1e-300)
      exit(height.isFinite && height > 0 ? 0 : 1)
    }
  }

  @Test func aNewStyleReMeasuresTheText() throws {
    // "abcde abcde" is 73.5 in body (two 35s and a 3.5 space), 63 in caption (two 30s and
    // a 3 space), 94.5 in title (two 45s and a 4.5 space). At 70: two, one, two lines.
    let label = Label(text: "abcde abcde", name: "label")
    #expect(isClose(label.textHeight(width: 70), 34))
    try label.setStyle(.caption)
    #expect(isClose(label.textHeight(width: 70), 14))
    #expect(isClose(label.naturalWidth, 63))
    try label.setStyle(.title)
    #expect(isClose(label.textHeight(width: 70), 44))
    #expect(isClose(label.naturalWidth, 94.5))
    // A style without an advance cannot measure anything: refused, the old one kept.
    let error = layoutError { try label.setStyle(TextStyle(glyphAdvance: 0, lineHeight: 10)) }
    #expect(error == .invalidSize(view: label.description, what: "text style", value: 0))
    #expect(label.style == .title)
  }

  /// Before Auto Layout gives a label a width, its intrinsic height is that of one line
  /// (the text unwrapped); its intrinsic width is the text on one line (30 words of 5
  /// glyphs at 7 points and 29 spaces at 3.5).
  @Test func intrinsicSizeBeforeLayoutIsOneLine() {
    let label = Label(text: Array(repeating: "abcde", count: 30).joined(separator: " "))
    #expect(isClose(label.intrinsicContentSize.height, 17))
    #expect(isClose(label.intrinsicContentSize.width, 30 * 35 + 29 * 3.5))
    #expect(isClose(Label(text: "").intrinsicContentSize.height, 0))
  }

  /// The words' widths measured over UTF-8 bytes (a table of every byte, one ordinary
  /// advance per scalar beyond ASCII) are bit for bit those of the definition, scalar by scalar with
  /// `TextStyle.advance(of:)`: the glyph advance times the sum of the scalars' advances at
  /// a glyph advance of 1 (multiples of 0.5, summed exactly), on random texts of special
  /// and ordinary ASCII, separators, accented letters, combining marks, CJK, emoji and
  /// "\r\n", in native strings and in bridged-looking substrings, and a glyph advance (0.3)
  /// whose multiples are not exact.
  @Test func byteMeasurementMatchesTheScalarDefinition() {
    let pieces: [String] = [
      "a", "b", "Z", "0", "i", "l", "j", "t", "f", "I", ".", ",", ";", ":", "'", "!", "|",
      "m", "w", "M", "W", "@", " ", "  ", "\n", "\t", "\r\n", "\r", "é", "e\u{301}", "ß",
      "漢", "字", "🙂", "👩‍💻", "\u{0}", "~", "\u{7F}", "ü", "\u{A0}",
    ]
    var state: UInt64 = 0x2026_1127
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for trial in 0..<2_000 {
      var text = ""
      for _ in 0..<next(60) { text += pieces[next(pieces.count)] }
      // A substring made into a string, as texts from scene files are.
      if trial % 3 == 0 { text = String(("xx" + text).dropFirst(2)) }
      let style = [TextStyle.body, .title, .caption, TextStyle(glyphAdvance: 0.3, lineHeight: 1)][
        trial % 4]
      let metrics = TextMetrics(text: text, style: style)
      #expect(
        metrics.wordWidths == wordWidthsByScalar(text, style: style),
        "trial \(trial): \(text.debugDescription)")
    }
  }

  /// The measure writes words to a batch of 32 and appends a full batch at a time: texts of
  /// 0 to 200 words, around one, two and three batches, with and without separators before
  /// the first word and after the last (a batch that ends on a separator, a text that ends
  /// in a word), measure as the definition says. Measured again into the same metrics, a
  /// text that fits the buffer keeps it (a label's text changes every tick in the text
  /// workloads).
  @Test func textsOfManyWordsMeasureAcrossBatches() {
    let words = ["a", "mW", "é", "漢字", "🙂", "il", "e\u{301}"]
    let separators = [" ", "\n", "\t", "  ", " \t\n"]
    var metrics = TextMetrics(text: "", style: .body)
    for count in [0, 1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 200] {
      for variant in 0..<8 {
        var text = variant & 1 != 0 ? separators[count % separators.count] : ""
        for k in 0..<count {
          if k > 0 { text += separators[(k &* 7 &+ variant) % separators.count] }
          text += words[(k &* 3 &+ count) % words.count]
        }
        if variant & 2 != 0 { text += separators[variant % separators.count] }
        if variant & 4 != 0 { text = String(("xx" + text).dropFirst(2)) }
        for style in [TextStyle.body, TextStyle(glyphAdvance: 0.3, lineHeight: 1)] {
          let fresh = TextMetrics(text: text, style: style)
          #expect(fresh.wordWidths.count == count, "\(count) words, variant \(variant)")
          #expect(
            fresh.wordWidths == wordWidthsByScalar(text, style: style),
            "\(count) words, variant \(variant)")
          let buffer = metrics.wordWidths.withUnsafeBufferPointer { $0.baseAddress }
          let room = metrics.wordWidths.capacity
          metrics.measure(text, style: style)
          #expect(metrics.wordWidths == fresh.wordWidths)
          if count <= room {
            #expect(metrics.wordWidths.withUnsafeBufferPointer { $0.baseAddress } == buffer)
          }
        }
      }
    }
  }

  /// The definition of the words' widths, scalar by scalar: a separator (space, newline,
  /// tab) ends a word; each word is the glyph advance times the sum of its scalars'
  /// advances at a glyph advance of 1.
  private func wordWidthsByScalar(_ text: String, style: TextStyle) -> [Double] {
    let unit = TextStyle(glyphAdvance: 1, lineHeight: 1)
    var widths: [Double] = []
    var factors = 0.0
    var inWord = false
    for scalar in text.unicodeScalars {
      if scalar == " " || scalar == "\n" || scalar == "\t" {
        if inWord { widths.append(factors * style.glyphAdvance) }
        factors = 0
        inWord = false
      } else {
        factors += unit.advance(of: scalar)
        inWord = true
      }
    }
    if inWord { widths.append(factors * style.glyphAdvance) }
    return widths
  }
}
