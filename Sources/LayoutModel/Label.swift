/// A multi-line text view measured by ``TextStyle``'s synthetic metric. Its height depends
/// on its width: frame layout asks `sizeThatFits` with the width on offer; Auto Layout
/// learns the width from a first solve, then (like UIKit's automatic
/// `preferredMaxLayoutWidth`) invalidates its intrinsic size and is solved again.
public final class Label: View {
  // Read on every measure; written only by the setters, with no access open (as View's hot
  // properties): not checked at run time.
  @exclusivity(unchecked) public private(set) var text: String
  @exclusivity(unchecked) public private(set) var style: TextStyle
  @exclusivity(unchecked) private var metrics: TextMetrics
  /// The width the intrinsic height is computed at (0: not laid out yet, one line).
  public private(set) var preferredMaxLayoutWidth = 0.0

  public init(text: String, style: TextStyle = .body, name: String = "") {
    self.text = text
    self.style = style
    metrics = TextMetrics(text: text, style: style)
    super.init(name: name)
  }

  /// Replaces the text: the content size and the drawing are invalidated.
  public func setText(_ newText: String) {
    guard newText != text else { return }
    text = newText
    metrics.measure(newText, style: style)
    invalidateIntrinsicContentSize()
    setNeedsDisplay()
  }

  /// - Throws: ``LayoutError/invalidSize(view:what:value:)`` for a non-positive advance or
  ///   a negative line height.
  public func setStyle(_ newStyle: TextStyle) throws(LayoutError) {
    guard newStyle.isValid else {
      throw .invalidSize(view: description, what: "text style", value: newStyle.glyphAdvance)
    }
    style = newStyle
    metrics.measure(text, style: newStyle)
    invalidateIntrinsicContentSize()
    setNeedsDisplay()
  }

  /// Height of the text wrapped at `width`.
  public func textHeight(width: Double) -> Double {
    Double(metrics.lineCount(width: width)) * style.lineHeight
  }

  /// Width of the text on one line.
  public var naturalWidth: Double { metrics.naturalWidth }

  override public func sizeThatFits(_ size: Size) -> Size {
    Size(width: size.width, height: textHeight(width: size.width))
  }

  /// The text's width on one line, and its height wrapped at the width of the last layout
  /// (one line before the first). Under Auto Layout the width becomes hugging (at 250) and
  /// compression-resistance (at 750) constraints as in UIKit: a label whose trailing edge
  /// is only bounded (`<=`) hugs its text, and one given less room than its text wraps.
  /// Stacks stretch labels across (as `UIStackView` fills), where the width is required.
  override public var intrinsicContentSize: Size {
    let width = preferredMaxLayoutWidth > 0 ? preferredMaxLayoutWidth : .infinity
    return Size(width: naturalWidth, height: textHeight(width: width))
  }

  override public func layoutSubviews() {
    super.layoutSubviews()
    guard usesAutoLayout, frame.width != preferredMaxLayoutWidth else { return }
    // Only a new line count changes the intrinsic height: most labels of a resized window
    // wrap the same way, and skipping their invalidation saves a constraints pass.
    let height = intrinsicContentSize.height
    preferredMaxLayoutWidth = frame.width
    if intrinsicContentSize.height != height { invalidateIntrinsicContentSize() }
  }
}

/// An image of a fixed size: its fitting size is that size, and containers align it rather
/// than stretch it. Under Auto Layout the size is held by required width and height
/// constraints, as an app pins an avatar's size, so both layout modes give it its size:
/// `UIImageView`'s intrinsic size hugs at 250 only, and beside two labels that hug their
/// text at 250 too a stack would stretch the image (the classic stack-view bug). It has no
/// intrinsic size of its own (the required size makes one redundant). The price: images
/// that cannot fit (a horizontal stack of images narrower than they are) are an
/// unsatisfiable-constraint error, where UIKit would break a constraint and log.
public final class ImageView: View {
  @exclusivity(unchecked) public private(set) var imageSize: Size
  private var sizeConstraints: (width: LayoutConstraint, height: LayoutConstraint)?

  /// - Throws: ``LayoutError/invalidSize(view:what:value:)`` for a negative or non-finite
  ///   size.
  public init(size: Size, name: String = "") throws(LayoutError) {
    imageSize = size
    super.init(name: name)
    try check(size)
  }

  public func setImageSize(_ size: Size) throws(LayoutError) {
    try check(size)
    guard size != imageSize else { return }
    imageSize = size
    invalidateIntrinsicContentSize()
    setNeedsDisplay()
  }

  private func check(_ size: Size) throws(LayoutError) {
    if size.isValid { return }
    for (what, value) in [("image width", size.width), ("image height", size.height)]
    where !(value.isFinite && value >= 0) {
      throw .invalidSize(view: description, what: what, value: value)
    }
  }

  override public var isFlexibleWidth: Bool { false }
  override public func sizeThatFits(_ size: Size) -> Size { imageSize }

  override public func updateConstraints() throws(LayoutError) {
    try super.updateConstraints()
    // Kept while active; made again when a move between windows deactivated them.
    if let (width, height) = sizeConstraints, width.isActive, height.isActive {
      try width.setConstant(imageSize.width)
      try height.setConstant(imageSize.height)
      return
    }
    sizeConstraints?.width.deactivate()
    sizeConstraints?.height.deactivate()
    let made = (
      widthAnchor.constraint(equalToConstant: imageSize.width),
      heightAnchor.constraint(equalToConstant: imageSize.height)
    )
    try LayoutConstraint.activate(made.0, made.1)
    sizeConstraints = made
  }
}
