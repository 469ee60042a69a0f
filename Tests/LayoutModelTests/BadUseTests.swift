import Testing

@testable import LayoutModel

#if canImport(Glibc)
  import Glibc
#endif

/// Misuse gets a LayoutError naming the view or value at fault, never a trap, and the
/// failed call leaves the tree as it was (LayoutError's documented contract).
@Suite struct BadUseTests {
  /// window > root > mid > leaf, laid out.
  private func tree() throws -> (Window, View, View, View) {
    let window = try Window(
      size: Size(width: 100, height: 100), layoutMode: .autoLayout, name: "w1")
    let root = View(name: "root")
    let mid = View(name: "mid")
    let leaf = View(name: "leaf")
    try window.addSubview(root)
    try root.addSubview(mid)
    try mid.addSubview(leaf)
    try window.runUpdateCycle()
    return (window, root, mid, leaf)
  }

  private func expectShape(
    _ window: Window, _ root: View, _ mid: View, _ leaf: View,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      window.subviews.count == 1 && window.subviews.first === root, sourceLocation: sourceLocation)
    #expect(root.subviews.count == 1 && root.subviews.first === mid, sourceLocation: sourceLocation)
    #expect(mid.subviews.count == 1 && mid.subviews.first === leaf, sourceLocation: sourceLocation)
    #expect(leaf.subviews.isEmpty, sourceLocation: sourceLocation)
    #expect(
      leaf.superview === mid && mid.superview === root && root.superview === window,
      sourceLocation: sourceLocation)
  }

  @Test func addingAViewToItselfOrItsDescendantIsRefused() throws {
    let (window, root, mid, leaf) = try tree()
    let selfError = layoutError { try mid.addSubview(mid) }
    #expect(selfError == .viewIsAncestor(child: mid.description, parent: mid.description))
    let loopError = layoutError { try leaf.addSubview(root) }
    #expect(loopError == .viewIsAncestor(child: root.description, parent: leaf.description))
    #expect(loopError?.description.contains("'root'") == true)
    #expect(loopError?.description.contains("'leaf'") == true)
    expectShape(window, root, mid, leaf)
    #expect(!leaf.needsLayout && !root.needsLayout)
  }

  @Test func aWindowIsNeverASubview() throws {
    let (window, root, mid, leaf) = try tree()
    let other = try Window(size: Size(width: 10, height: 10), layoutMode: .frames, name: "w2")
    let error = layoutError { try leaf.addSubview(other) }
    #expect(error == .windowAsSubview(other.description))
    #expect(error?.description.contains("'w2'") == true)
    #expect(
      layoutError { try root.insertSubview(window, at: 0) } == .windowAsSubview(window.description))
    expectShape(window, root, mid, leaf)
    #expect(other.superview == nil)
  }

  @Test func insertIndexOutOfRangeIsRefused() throws {
    let (window, root, mid, leaf) = try tree()
    let newcomer = View(name: "newcomer")
    // root has one subview: valid indices are 0 and 1.
    let error = layoutError { try root.insertSubview(newcomer, at: 2) }
    #expect(error == .indexOutOfRange(view: root.description, index: 2, count: 1))
    #expect(
      error?.description.contains("'root'") == true && error?.description.contains("2") == true)
    #expect(
      layoutError { try root.insertSubview(newcomer, at: -1) }
        == .indexOutOfRange(view: root.description, index: -1, count: 1))
    expectShape(window, root, mid, leaf)
    #expect(newcomer.superview == nil && newcomer.window == nil)
    // The boundary itself is fine.
    try root.insertSubview(newcomer, at: 1)
    #expect(root.subviews.map(\.name) == ["mid", "newcomer"])
  }

  @Test func aConstraintBetweenTwoWindowsIsRefused() throws {
    let (window, _, _, leaf) = try tree()
    let other = try Window(size: Size(width: 10, height: 10), layoutMode: .autoLayout, name: "w2")
    let stranger = View(name: "stranger")
    try other.addSubview(stranger)
    let constraint = leaf.leadingAnchor.constraint(equalTo: stranger.leadingAnchor)
    let error = try #require(layoutError { try constraint.activate() })
    #expect(
      error
        == .noCommonAncestor(
          constraint: constraint.description, first: leaf.description, second: stranger.description)
    )
    #expect(error.description.contains("'leaf'") && error.description.contains("'stranger'"))
    #expect(!constraint.isActive)
    #expect(leaf.constraints.isEmpty && stranger.constraints.isEmpty)
    #expect(leaf.window === window && stranger.window === other)
  }

  @Test func invalidFramesAreRefused() throws {
    let (window, root, mid, leaf) = try tree()
    let old = leaf.frame
    #expect(
      layoutError { try leaf.setFrame(rect(0, 0, -1, 10)) }
        == .invalidSize(view: leaf.description, what: "width", value: -1))
    #expect(
      layoutError { try leaf.setFrame(rect(0, 0, 10, .infinity)) }
        == .invalidSize(view: leaf.description, what: "height", value: .infinity))
    #expect(
      layoutError { try leaf.setFrame(rect(-.infinity, 0, 10, 10)) }
        == .invalidSize(view: leaf.description, what: "x", value: -.infinity))
    // NaN is not equal to itself: match the case instead.
    let nan = layoutError { try leaf.setFrame(rect(0, 0, .nan, 10)) }
    guard case .invalidSize(let view, let what, let value)? = nan else {
      Issue.record("expected invalidSize, got \(String(describing: nan))")
      return
    }
    #expect(view == leaf.description && what == "width" && value.isNaN)
    #expect(nan?.description.contains("nan") == true && nan?.description.contains("'leaf'") == true)
    expectFrame(leaf, old)
    #expect(!leaf.needsLayout && !leaf.needsDisplay)
    expectShape(window, root, mid, leaf)
  }

  @Test func invalidSizesAtConstructionAreRefused() {
    let windowError = layoutError {
      _ = try Window(size: Size(width: -5, height: 10), layoutMode: .frames, name: "bad")
    }
    guard case .invalidSize(let view, "width", -5)? = windowError else {
      Issue.record("expected invalidSize, got \(String(describing: windowError))")
      return
    }
    #expect(view.contains("'bad'"))
    #expect(
      layoutError {
        _ = try Window(size: Size(width: 10, height: .infinity), layoutMode: .autoLayout)
      } != nil)

    let imageError = layoutError {
      _ = try ImageView(size: Size(width: 10, height: .nan), name: "img")
    }
    guard case .invalidSize(let imageView, "image height", let value)? = imageError else {
      Issue.record("expected invalidSize, got \(String(describing: imageError))")
      return
    }
    #expect(imageView.contains("'img'") && value.isNaN)
    #expect(layoutError { _ = try ImageView(size: Size(width: -1, height: 1)) } != nil)

    #expect(
      layoutError { _ = try StackView(axis: .vertical, spacing: -2, name: "s") }
        == .invalidSize(view: "StackView 's'", what: "spacing", value: -2))
    #expect(
      layoutError {
        _ = try StackView(axis: .horizontal, insets: EdgeInsets(left: .infinity), name: "s")
      } == .invalidSize(view: "StackView 's'", what: "left inset", value: .infinity))
  }

  @Test func invalidStackGeometryChangesAreRefused() throws {
    let window = try Window(size: Size(width: 100, height: 100), layoutMode: .frames)
    let stack = try StackView(axis: .vertical, spacing: 4, insets: EdgeInsets(all: 2), name: "s")
    try window.addSubview(stack)
    try window.runUpdateCycle()
    #expect(
      layoutError { try stack.setSpacing(-1) }
        == .invalidSize(view: stack.description, what: "spacing", value: -1))
    #expect(layoutError { try stack.setInsets(EdgeInsets(bottom: -3)) } != nil)
    #expect(stack.spacing == 4 && stack.insets == EdgeInsets(all: 2))
    #expect(!stack.needsLayout && !window.needsLayout)
  }

  @Test func invalidPrioritiesAreRefused() throws {
    let (window, _, _, leaf) = try tree()
    for bad in [0.0, 1001, -1] {
      let constraint = leaf.widthAnchor.constraint(equalToConstant: 10).withPriority(
        LayoutPriority(bad))
      let error = layoutError { try constraint.activate() }
      #expect(error == .invalidPriority(constraint: constraint.description, value: bad))
      #expect(error?.description.contains("'leaf'") == true)
      #expect(!constraint.isActive)
    }
    let nanPriority = leaf.widthAnchor.constraint(equalToConstant: 10).withPriority(
      LayoutPriority(.nan))
    guard case .invalidPriority(_, let value)? = layoutError({ try nanPriority.activate() }) else {
      Issue.record("expected invalidPriority for NaN")
      return
    }
    #expect(value.isNaN)
    #expect(leaf.constraints.isEmpty)

    // Changing the priority of an active constraint: refused, the old one kept.
    let active = leaf.widthAnchor.constraint(equalToConstant: 10).withPriority(500)
    try active.activate()
    #expect(layoutError { try active.setPriority(1001) } != nil)
    #expect(layoutError { try active.setPriority(0) } != nil)
    #expect(active.priority == 500)
    // An intrinsic size is never required, and 0 is no priority.
    #expect(layoutError { try leaf.setContentHuggingPriority(.required, for: .vertical) } != nil)
    #expect(
      layoutError { try leaf.setContentCompressionResistancePriority(0, for: .horizontal) } != nil)
    #expect(leaf.contentHuggingPriority(for: .vertical) == .defaultLow)
    #expect(leaf.window === window)
  }

  @Test func nonFiniteConstantsAreRefused() throws {
    let (window, _, _, leaf) = try tree()
    let infinite = leaf.widthAnchor.constraint(equalToConstant: .infinity)
    let error = layoutError { try infinite.activate() }
    #expect(error == .invalidConstraint(constraint: infinite.description, reason: "constant inf"))
    #expect(error?.description.contains("'leaf'") == true)
    #expect(!infinite.isActive)

    let width = leaf.widthAnchor.constraint(equalToConstant: 30)
    try width.activate()
    try window.runUpdateCycle()
    let frame = leaf.frame
    guard case .invalidConstraint(_, let reason)? = layoutError({ try width.setConstant(.nan) })
    else {
      Issue.record("expected invalidConstraint for a NaN constant")
      return
    }
    #expect(reason.contains("nan"))
    #expect(width.constant == 30)
    try window.runUpdateCycle()
    expectFrame(leaf, frame)
  }

  /// "Activates all or none": a failure undoes what this call activated, and only that.
  @Test func aFailedBatchActivationLeavesEarlierConstraintsActive() throws {
    let (window, _, mid, leaf) = try tree()
    let earlier = leaf.widthAnchor.constraint(equalToConstant: 30)
    try earlier.activate()
    let fresh = leaf.heightAnchor.constraint(equalToConstant: 20)
    let bad = leaf.widthAnchor.constraint(equalTo: mid.widthAnchor, multiplier: .nan)
    #expect(layoutError { try LayoutConstraint.activate([earlier, fresh, bad]) } != nil)
    #expect(!fresh.isActive && !bad.isActive)
    // Regression test (fixed): the rollback also deactivates `earlier`, which was active before the
    // call.
    #expect(earlier.isActive)
    try window.runUpdateCycle()
    #expect(isClose(leaf.frame.width, 30))
  }

  @Test func nonFiniteScrollOffsetIsRefused() throws {
    let list = ListView(name: "list")
    guard
      case .invalidSize(let view, "content offset", let value)? = layoutError({
        try list.setContentOffset(.nan)
      })
    else {
      Issue.record("expected invalidSize for a NaN offset")
      return
    }
    #expect(view.contains("'list'") && value.isNaN)
    #expect(list.contentOffset == 0)
  }

  /// Letting the window go while keeping part of its tree is ordinary use; afterwards no
  /// view may still point at the freed window (the tree's back pointers are unowned(unsafe),
  /// so a stale one is a use after free). In a child process: a stale pointer is undefined
  /// behaviour and may crash.
  @Test func droppingTheWindowLeavesNoViewPointingAtIt() async {
    await #expect(processExitsWith: .success) {
      alarm(60)
      var child: View?
      var grandchild: View?
      do {
        let window = try Window(size: Size(width: 100, height: 100), layoutMode: .frames)
        let c = View(name: "child")
        let g = View(name: "grandchild")
        try window.addSubview(c)
        try c.addSubview(g)
        try window.runUpdateCycle()
        (child, grandchild) = (c, g)
      }
      // Regression test (fixed): View.deinit clears the window pointer of the window's direct
      // subviews only;
      // the grandchild keeps pointing at the freed window (see the report).
      exit(child?.window == nil && grandchild?.window == nil ? 0 : 1)
    }
  }
}
