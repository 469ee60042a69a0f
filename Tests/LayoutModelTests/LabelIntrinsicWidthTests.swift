import Testing

@testable import LayoutModel

/// A label's intrinsic width under Auto Layout: its text on one line, held by hugging (250)
/// and compression resistance (750) as in UIKit, on both axes.
@Suite struct LabelIntrinsicWidthTests {
  /// A label at the container's top leading corner (inset 20), its trailing edge only
  /// bounded by the container's.
  func boundedLabel(_ text: String) throws -> (Window, Label) {
    let window = try Window(size: Size(width: 400, height: 300), layoutMode: .autoLayout)
    let container = View(name: "container")
    try window.addSubview(container)
    let label = Label(text: text, name: "title")
    try container.addSubview(label)
    try LayoutConstraint.activate([
      label.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 20),
      label.topAnchor.constraint(equalTo: container.topAnchor),
      label.trailingAnchor.constraint(lessThanOrEqualTo: container.trailingAnchor, constant: -20),
    ])
    try window.runUpdateCycle()
    return (window, label)
  }

  @Test func aLabelBoundedByLessOrEqualHugsItsText() throws {
    let (window, label) = try boundedLabel("hello world")
    #expect(isClose(label.naturalWidth, 66.5))
    expectFrame(label, rect(20, 0, 66.5, 17))
    #expect(label.intrinsicContentSize == Size(width: 66.5, height: 17))
    // A text longer than the room: the bound wins over compression resistance, the label
    // takes the 360 points there are and wraps.
    let long = String(repeating: "constraint ", count: 12)
    label.setText(long)
    try window.runUpdateCycle()
    #expect(label.naturalWidth > 360)
    let wrapped = label.textHeight(width: 360)
    #expect(wrapped >= 3 * 17)
    expectFrame(label, rect(20, 0, 360, wrapped))
    // And back: it hugs the short text again.
    label.setText("hi")
    try window.runUpdateCycle()
    expectFrame(label, rect(20, 0, label.naturalWidth, 17))
  }

  @Test func huggingAndCompressionResistanceCompeteOnBothAxes() throws {
    let (window, label) = try boundedLabel("hello world")
    // Stretching to 200 costs the hugging 250 per point; the preference at 500 wins.
    let stretch = label.widthAnchor.constraint(greaterThanOrEqualToConstant: 200).withPriority(500)
    try stretch.activate()
    try window.runUpdateCycle()
    #expect(isClose(label.frame.width, 200))
    try label.setContentHuggingPriority(600, for: .horizontal)
    try window.runUpdateCycle()
    #expect(isClose(label.frame.width, 66.5))
    stretch.deactivate()
    // Squeezing to 30 costs the compression resistance 750 per point: the label keeps its
    // width until the resistance drops below the preference.
    let squeeze = label.widthAnchor.constraint(lessThanOrEqualToConstant: 30).withPriority(500)
    try squeeze.activate()
    try window.runUpdateCycle()
    #expect(isClose(label.frame.width, 66.5))
    try label.setContentCompressionResistancePriority(400, for: .horizontal)
    try window.runUpdateCycle()
    #expect(isClose(label.frame.width, 30))
    // 30 points wrap "hello world" into more lines, and the height follows.
    #expect(isClose(label.frame.height, label.textHeight(width: 30)) && label.frame.height > 17)
    // Vertically the same: a preference for 5 points of height loses to the resistance...
    let short = label.heightAnchor.constraint(lessThanOrEqualToConstant: 5).withPriority(500)
    try short.activate()
    try window.runUpdateCycle()
    #expect(isClose(label.frame.height, label.textHeight(width: 30)))
    // ...until the resistance is lowered.
    try label.setContentCompressionResistancePriority(400, for: .vertical)
    try window.runUpdateCycle()
    #expect(isClose(label.frame.height, 5))
  }
}
