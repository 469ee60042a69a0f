import Testing

@testable import LayoutModel

/// Stacks, labels and sizeToFit. Frames are hand-computed from the stack rules: flexible
/// children (labels, stacks) take the inner width, fixed ones (images) keep their size and
/// are aligned; text is measured by the synthetic metric (body: ordinary glyph 7, narrow
/// glyphs and space 3.5, line 17). The stack tests run in both modes: StackView promises
/// the same frames under Auto Layout as under frame layout.
@Suite struct FrameLayoutTests {
  private func window(_ mode: Window.LayoutMode, width: Double = 300) throws -> Window {
    try Window(size: Size(width: width, height: 400), layoutMode: mode)
  }

  @Test(arguments: Window.LayoutMode.allCases)
  func verticalStackWithSpacingInsetsAndCenterAlignment(_ mode: Window.LayoutMode) throws {
    let window = try window(mode)
    let stack = try StackView(
      axis: .vertical, spacing: 10, alignment: .center,
      insets: EdgeInsets(top: 5, left: 7, bottom: 3, right: 9), name: "stack")
    let top = try ImageView(size: Size(width: 50, height: 20), name: "top")
    let label = Label(text: "Hello", name: "label")  // 7 + 7 + 3.5 + 3.5 + 7 = 28: one line
    let bottom = try ImageView(size: Size(width: 30, height: 10), name: "bottom")
    for view in [top, label, bottom] as [View] { try stack.addSubview(view) }
    try window.addSubview(stack)
    try window.runUpdateCycle()

    // Inner width 300 - 7 - 9 = 284. Heights 20, 17, 10 with two gaps of 10, plus the
    // insets 5 + 3: 75. Images are centred in the inner width: 7 + (284 - 50) / 2 = 124
    // and 7 + (284 - 30) / 2 = 134; the label spans it.
    expectFrame(stack, rect(0, 0, 300, 75))
    expectFrame(top, rect(124, 5, 50, 20))
    expectFrame(label, rect(7, 35, 284, 17))
    expectFrame(bottom, rect(134, 62, 30, 10))
  }

  /// Under frame layout a stack makes no constraints (no solver would read them: building
  /// them was a fifth of a cold frame-layout build); the same subtree moved into an Auto
  /// Layout window gets its constraints there, and the same frames.
  @Test func onlyAutoLayoutStacksMakeConstraints() throws {
    let frames = try window(.frames)
    let stack = try StackView(axis: .vertical, spacing: 10, alignment: .center, name: "stack")
    let image = try ImageView(size: Size(width: 50, height: 20), name: "image")
    let label = Label(text: "Hello", name: "label")
    for view in [image, label] as [View] { try stack.addSubview(view) }
    try frames.addSubview(stack)
    try frames.runUpdateCycle()
    // Centred: (300 - 50) / 2 = 125; the label spans the width below the gap of 10.
    expectFrame(image, rect(125, 0, 50, 20))
    expectFrame(label, rect(0, 30, 300, 17))
    for view in [stack, image, label] as [View] { #expect(view.attachedConstraints.isEmpty) }
    stack.setAlignment(.leading)
    try frames.runUpdateCycle()
    expectFrame(image, rect(0, 0, 50, 20))
    #expect(image.attachedConstraints.isEmpty)

    let auto = try window(.autoLayout)
    stack.removeFromSuperview()
    try auto.addSubview(stack)
    try auto.runUpdateCycle()
    #expect(!image.attachedConstraints.isEmpty)
    expectFrame(image, rect(0, 0, 50, 20))
    expectFrame(label, rect(0, 30, 300, 17))
  }

  /// A laid-out stack moved into another Auto Layout window takes its constraints along,
  /// each installed once: attaching the stack installs a constraint that names a child,
  /// which attaches the child first, and that used to install the same constraint a second
  /// time (the copy stayed in the solver when the stack later replaced the constraint).
  @Test func aStackMovedBetweenAutoLayoutWindowsInstallsEachConstraintOnce() throws {
    let first = try window(.autoLayout)
    let stack = try StackView(axis: .vertical, spacing: 10, alignment: .center, name: "stack")
    let image = try ImageView(size: Size(width: 50, height: 20), name: "image")
    let label = Label(text: "Hello", name: "label")
    for view in [image, label] as [View] { try stack.addSubview(view) }
    try first.addSubview(stack)
    try first.runUpdateCycle()
    let installedInFirst = try #require(first.engine).solver.constraintCount

    let second = try window(.autoLayout)
    stack.removeFromSuperview()
    try second.addSubview(stack)
    try second.runUpdateCycle()
    #expect(try #require(second.engine).solver.constraintCount == installedInFirst)
    expectFrame(image, rect(125, 0, 50, 20))
    stack.setAlignment(.leading)
    try second.runUpdateCycle()
    expectFrame(image, rect(0, 0, 50, 20))
    expectFrame(label, rect(0, 30, 300, 17))
  }

  /// Changing the alignment of a laid-out stack moves its fixed-size children (under Auto
  /// Layout, by replacing the alignment constraints), and only them.
  @Test(arguments: Window.LayoutMode.allCases)
  func alignmentChangesAfterLayoutMoveTheChildren(_ mode: Window.LayoutMode) throws {
    let window = try window(mode)
    let stack = try StackView(axis: .vertical, spacing: 0, alignment: .leading, name: "stack")
    let image = try ImageView(size: Size(width: 50, height: 20), name: "image")
    let label = Label(text: "Hello", name: "label")
    for view in [image, label] as [View] { try stack.addSubview(view) }
    try window.addSubview(stack)
    try window.runUpdateCycle()
    expectFrame(image, rect(0, 0, 50, 20))
    stack.setAlignment(.trailing)
    try window.runUpdateCycle()
    expectFrame(image, rect(250, 0, 50, 20))
    expectFrame(label, rect(0, 20, 300, 17))
    stack.setAlignment(.center)
    try window.runUpdateCycle()
    expectFrame(image, rect(125, 0, 50, 20))
    expectFrame(stack, rect(0, 0, 300, 37))
  }

  /// A horizontal stack (spacing 8, insets 4) of a 40 x 40 avatar, a label of seven
  /// 35-point words and a 20 x 10 badge, in a 300-wide window, laid out once. The label gets
  /// 300 - 8 (insets) - 40 - 20 (images) - 16 (two gaps) = 216; five words fit a line
  /// (5 * 35 + 4 * 3.5 = 189, six would be 227.5): two lines, 34 high.
  private func avatarLabelBadgeRow(
    _ mode: Window.LayoutMode, alignment: StackView.Alignment
  ) throws -> (window: Window, stack: StackView, avatar: ImageView, label: Label, badge: View) {
    let window = try window(mode)
    let stack = try StackView(
      axis: .horizontal, spacing: 8, alignment: alignment, insets: EdgeInsets(all: 4),
      name: "stack")
    let avatar = try ImageView(size: Size(width: 40, height: 40), name: "avatar")
    let label = Label(
      text: Array(repeating: "abcde", count: 7).joined(separator: " "), name: "label")
    let badge = try ImageView(size: Size(width: 20, height: 10), name: "badge")
    for view in [avatar, label, badge] as [View] { try stack.addSubview(view) }
    try window.addSubview(stack)
    try window.runUpdateCycle()
    return (window, stack, avatar, label, badge)
  }

  @Test(arguments: Window.LayoutMode.allCases)
  func horizontalStackSharesTheWidthAndAlignsTrailing(_ mode: Window.LayoutMode) throws {
    let (_, stack, avatar, label, badge) = try avatarLabelBadgeRow(mode, alignment: .trailing)

    // Height: the tallest child (40) plus insets: 48. Trailing alignment puts each child's
    // bottom at 48 - 4 = 44.
    expectFrame(stack, rect(0, 0, 300, 48))
    expectFrame(avatar, rect(4, 4, 40, 40))
    expectFrame(label, rect(52, 10, 216, 34))
    expectFrame(badge, rect(276, 34, 20, 10))
  }

  /// A horizontal stack whose child is replaced by another of a different size (the count
  /// of children unchanged) measures the new child.
  @Test(arguments: Window.LayoutMode.allCases)
  func horizontalStackMeasuresAReplacedChild(_ mode: Window.LayoutMode) throws {
    let (window, stack, avatar, label, badge) = try avatarLabelBadgeRow(mode, alignment: .leading)
    expectFrame(label, rect(52, 4, 216, 34))
    // A wider, shorter image in the avatar's place: the label gets 300 - 8 - 100 - 20 - 16
    // = 156 (four words a line, 4 * 35 + 3 * 3.5 = 150.5): two lines still, 34 high.
    let wide = try ImageView(size: Size(width: 100, height: 12), name: "wide")
    avatar.removeFromSuperview()
    try stack.insertSubview(wide, at: 0)
    try window.runUpdateCycle()
    expectFrame(stack, rect(0, 0, 300, 42))
    expectFrame(wide, rect(4, 4, 100, 12))
    expectFrame(label, rect(112, 4, 156, 34))
    expectFrame(badge, rect(276, 4, 20, 10))
  }

  /// A child whose `sizeThatFits` measures a sibling at another width (a custom view may)
  /// leaves the stack's measure as it was: the stack lays out with the size it measured for
  /// each child. (Read back from the children's caches as they stood, the label's size at
  /// width 1, 70 lines, became the row's height.) With 70 images of a point between the
  /// label and the prober, the row has more children than it keeps sizes for on the stack
  /// (64), and reads them back at each child's proposal instead. The two flexible children
  /// share what the images leave: the label's two words (35 each and a space of 3.5) fit on
  /// one line of 150 or 115.
  @Test(arguments: [0, 70])
  func horizontalStackLaysOutWithTheSizesItMeasured(dots: Int) throws {
    let window = try window(.frames)
    let stack = try StackView(axis: .horizontal, name: "row")
    let label = Label(text: "abcde abcde", name: "label")
    try stack.addSubview(label)
    for i in 0..<dots {
      try stack.addSubview(ImageView(size: Size(width: 1, height: 1), name: "dot\(i)"))
    }
    let prober = SiblingMeasuringView(name: "prober")
    try stack.addSubview(prober)
    try window.addSubview(stack)
    try window.runUpdateCycle()
    let share = (300 - Double(dots)) / 2
    #expect(prober.measuredSibling)
    expectFrame(stack, rect(0, 0, 300, 17))
    expectFrame(label, rect(0, 0, share, 17))
    if dots > 0 { expectFrame(stack.subviews[dots], rect(share + Double(dots) - 1, 0, 1, 1)) }
    expectFrame(prober, rect(share + Double(dots), 0, share, 5))
  }

  /// A child whose `sizeThatFits` removes a sibling while the row measures them (its first
  /// measure, the row placed by hand): the row places nothing on that measure, and lays out
  /// the child it has left when the removal's flag brings it back in the same pass. The
  /// removed label, out of the window, gets no frame from it.
  @Test func aRowWhoseChildRemovesASiblingLaysOutTheChildLeft() throws {
    let window = try window(.frames)
    let host = View(name: "host")
    try window.addSubview(host)
    let row = try StackView(axis: .horizontal, name: "row")
    try host.addSubview(row)
    try row.setFrame(rect(0, 0, 300, 40))
    let label = Label(text: "abcde abcde", name: "label")
    let remover = SiblingRemovingView(name: "remover")
    for view in [label, remover] as [View] { try row.addSubview(view) }
    try window.runUpdateCycle()
    #expect(remover.removed === label)
    #expect(label.superview == nil)
    #expect(row.subviews.count == 1)
    expectFrame(label, rect(0, 0, 0, 0))
    expectFrame(remover, rect(0, 0, 300, 5))
  }

  @Test(arguments: Window.LayoutMode.allCases)
  func overlayStackStacksOnTopOfEachOther(_ mode: Window.LayoutMode) throws {
    let window = try window(mode)
    let stack = try StackView(
      axis: .overlay, alignment: .trailing,
      insets: EdgeInsets(top: 2, left: 3, bottom: 4, right: 5),
      name: "stack")
    let image = try ImageView(size: Size(width: 30, height: 30), name: "image")
    let label = Label(text: "Hello", name: "label")
    try stack.addSubview(image)
    try stack.addSubview(label)
    try window.addSubview(stack)
    try window.runUpdateCycle()

    // All children start at the top inset; the stack is as high as the tallest child plus
    // insets (30 + 6). Inner width 292: the image is aligned to its trailing edge
    // (300 - 5 - 30 = 265), the label spans it.
    expectFrame(stack, rect(0, 0, 300, 36))
    expectFrame(image, rect(265, 2, 30, 30))
    expectFrame(label, rect(3, 2, 292, 17))
  }

  @Test(arguments: Window.LayoutMode.allCases)
  func labelsWrapToLinesTimesLineHeight(_ mode: Window.LayoutMode) throws {
    let window = try window(mode, width: 200)
    let stack = try StackView(axis: .vertical, spacing: 0, name: "stack")
    // Twelve 35-point words at 200: 5 a line (192.5; 6 would be 231): 5 + 5 + 2, 3 lines.
    let label = Label(
      text: Array(repeating: "abcde", count: 12).joined(separator: " "), name: "label")
    // The title style (advance 9, line 22): "Wide" = W 13.5 + i 4.5 + d 9 + e 9 = 36.
    let title = Label(text: "Wide", style: .title, name: "title")
    try stack.addSubview(label)
    try stack.addSubview(title)
    try window.addSubview(stack)
    try window.runUpdateCycle()
    expectFrame(label, rect(0, 0, 200, 51))
    expectFrame(title, rect(0, 51, 200, 22))
    expectFrame(stack, rect(0, 0, 200, 73))

    // A narrower window rewraps: at 100, 2 words a line (73.5; 3 would be 112): 6 lines.
    try window.setFrame(rect(0, 0, 100, 400))
    try window.runUpdateCycle()
    expectFrame(label, rect(0, 0, 100, 102))
    expectFrame(stack, rect(0, 0, 100, 124))
  }

  @Test func sizeToFitTakesTheFittingSize() throws {
    // A label keeps the width it has and takes the height of its text at that width:
    // three 35-point words at 100 wrap 2 + 1.
    let label = Label(text: "abcde abcde abcde", name: "label")
    try label.setFrame(rect(5, 6, 100, 0))
    label.sizeToFit()
    expectFrame(label, rect(5, 6, 100, 34))
    // New text invalidates the cached fitting size.
    label.setText("abcde")
    label.sizeToFit()
    expectFrame(label, rect(5, 6, 100, 17))

    let image = try ImageView(size: Size(width: 24, height: 16), name: "image")
    image.sizeToFit()
    expectFrame(image, rect(0, 0, 24, 16))

    // A plain view's fitting size is its current size.
    let plain = View(name: "plain")
    try plain.setFrame(rect(1, 2, 3, 4))
    plain.sizeToFit()
    expectFrame(plain, rect(1, 2, 3, 4))
  }

  @Test func sizeToFitInAWindowCountsAMeasureAndFlagsOnlyOnResize() throws {
    let window = try window(.frames)
    let holder = View(name: "holder")
    let label = Label(text: "abcde abcde abcde", name: "label")
    try window.addSubview(holder)
    try holder.addSubview(label)
    try window.runUpdateCycle()
    try label.setFrame(rect(0, 0, 100, 0))
    try window.runUpdateCycle()

    let before = window.counters
    label.sizeToFit()
    #expect((window.counters - before).sizeThatFits == 1)
    expectFrame(label, rect(0, 0, 100, 34))
    #expect(label.needsLayout && label.needsDisplay)  // it was resized
    try window.runUpdateCycle()
    // Already at its fitting size: a second call changes nothing, so flags nothing.
    label.sizeToFit()
    expectFrame(label, rect(0, 0, 100, 34))
    #expect(!label.needsLayout && !label.needsDisplay)
  }

  /// Window.layoutSubviews (frames) documents that a root view whose size does not depend
  /// on its children gets the window's height, as the Auto Layout window pins it; a list
  /// does, and so should a plain view.
  @Test(arguments: Window.LayoutMode.allCases)
  func rootViewsWhoseSizeIsGivenFillTheWindow(_ mode: Window.LayoutMode) throws {
    let window = try window(mode)
    let list = ListView(name: "list")
    let plain = View(name: "plain")
    try window.addSubview(list)
    try window.addSubview(plain)
    try window.runUpdateCycle()
    expectFrame(list, rect(0, 0, 300, 400))
    // Regression test (fixed): under frames the plain view gets its old height (0), not the
    // window's.
    expectFrame(plain, rect(0, 0, 300, 400))
  }

  /// A list longer than the length from which a stack requests its children's lines ahead
  /// (4,096) places every child, on the first layout and after a change near its top that
  /// moves every child below.
  @Test func aLongListPlacesEveryChild() throws {
    let window = try window(.frames)
    let list = ListView(name: "list")
    try window.addSubview(list)
    var images: [ImageView] = []
    for i in 0..<5_003 {
      let image = try ImageView(size: Size(width: Double(20 + i % 5), height: Double(1 + i % 7)))
      try list.addSubview(image)
      images.append(image)
    }
    /// Each child below the last one's bottom, at its own size (leading alignment).
    func expectStacked() {
      var y = 0.0
      var misplaced = 0
      for image in images {
        let expected = rect(0, y, image.imageSize.width, image.imageSize.height)
        if !image.frame.isApproximatelyEqual(to: expected, tolerance: exact) { misplaced += 1 }
        y += image.imageSize.height
      }
      #expect(misplaced == 0, "\(misplaced) of \(images.count) children misplaced")
    }
    try window.runUpdateCycle()
    expectStacked()
    try images[3].setImageSize(Size(width: 30, height: 50))
    try window.runUpdateCycle()
    expectStacked()
    #expect(images.last?.frame.minY == images.dropLast().reduce(0) { $0 + $1.imageSize.height })
  }
}

/// A view 5 points high whose `sizeThatFits` first measures its first sibling at a width of
/// 1 point, overwriting that sibling's cached fitting size.
private final class SiblingMeasuringView: View {
  private(set) var measuredSibling = false

  override func sizeThatFits(_ size: Size) -> Size {
    if let first = superview?.subviews.first, first !== self {
      _ = first.fittingSize(for: Size(width: 1, height: .infinity))
      measuredSibling = true
    }
    return Size(width: size.width, height: 5)
  }
}

/// A view 5 points high whose `sizeThatFits` removes its first sibling from their
/// superview, once.
private final class SiblingRemovingView: View {
  private(set) var removed: View?

  override func sizeThatFits(_ size: Size) -> Size {
    if removed == nil, let first = superview?.subviews.first, first !== self {
      removed = first
      first.removeFromSuperview()
    }
    return Size(width: size.width, height: 5)
  }
}
