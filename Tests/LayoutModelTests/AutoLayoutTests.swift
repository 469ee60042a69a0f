import Testing

@testable import LayoutModel

/// Constraints between anchors, solved by the window's one solver. Every expected frame is
/// worked out by hand from the constraints in the test.
@Suite struct AutoLayoutTests {
  /// An Auto Layout window 400 x 300 whose root container the window pins to its edges, so
  /// the container's frame is (0, 0, 400, 300).
  private func container() throws -> (Window, View) {
    let window = try Window(size: Size(width: 400, height: 300), layoutMode: .autoLayout)
    let container = View(name: "container")
    try window.addSubview(container)
    return (window, container)
  }

  private func add(_ names: String..., to container: View) throws -> [View] {
    var views: [View] = []
    for name in names {
      let view = View(name: name)
      try container.addSubview(view)
      views.append(view)
    }
    return views
  }

  @Test func anchorsWithMultipliersAndConstantsGiveTheExpectedFrames() throws {
    let (window, container) = try container()
    let v = try add("a", "b", "c", "d", to: container)
    let (a, b, c, d) = (v[0], v[1], v[2], v[3])
    try LayoutConstraint.activate([
      // a: (20, 10), half the container's width (200), 50 high.
      a.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 20),
      a.topAnchor.constraint(equalTo: container.topAnchor, constant: 10),
      a.widthAnchor.constraint(equalTo: container.widthAnchor, multiplier: 0.5),
      a.heightAnchor.constraint(equalToConstant: 50),
      // b: 8 after a's trailing edge (228), under a (60); 0.25 * 400 - 10 = 90 wide;
      // 2 * 50 - 20 = 80 high.
      b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 8),
      b.topAnchor.constraint(equalTo: a.bottomAnchor),
      b.widthAnchor.constraint(equalTo: container.widthAnchor, multiplier: 0.25, constant: -10),
      b.heightAnchor.constraint(equalTo: a.heightAnchor, multiplier: 2, constant: -20),
      // c: 100 x 40 centred, 20 below the centre: x 200 - 50, y 150 + 20 - 20.
      c.centerXAnchor.constraint(equalTo: container.centerXAnchor),
      c.centerYAnchor.constraint(equalTo: container.centerYAnchor, constant: 20),
      c.widthAnchor.constraint(equalToConstant: 100),
      c.heightAnchor.constraint(equalToConstant: 40),
      // d: 30 x 20 in the bottom-right corner, 10 and 5 in: x 400 - 10 - 30, y 300 - 5 - 20.
      d.trailingAnchor.constraint(equalTo: container.trailingAnchor, constant: -10),
      d.bottomAnchor.constraint(equalTo: container.bottomAnchor, constant: -5),
      d.widthAnchor.constraint(equalToConstant: 30),
      d.heightAnchor.constraint(equalToConstant: 20),
    ])
    try window.runUpdateCycle()
    expectFrame(container, rect(0, 0, 400, 300))
    expectFrame(a, rect(20, 10, 200, 50))
    expectFrame(b, rect(228, 60, 90, 80))
    expectFrame(c, rect(150, 150, 100, 40))
    expectFrame(d, rect(360, 275, 30, 20))

    // Resizing the window re-solves: a is half of 600, b a quarter less 10, c re-centred.
    try window.setFrame(rect(0, 0, 600, 300))
    try window.runUpdateCycle()
    expectFrame(a, rect(20, 10, 300, 50))
    expectFrame(b, rect(328, 60, 140, 80))
    expectFrame(c, rect(250, 150, 100, 40))
  }

  @Test func prioritiesDecideBetweenConflictingPreferences() throws {
    let (window, container) = try container()
    let e = try add("e", to: container)[0]
    let strong = e.widthAnchor.constraint(equalToConstant: 100).withPriority(750)
    let weak = e.widthAnchor.constraint(equalToConstant: 150).withPriority(250)
    try LayoutConstraint.activate([
      e.leadingAnchor.constraint(equalTo: container.leadingAnchor),
      e.topAnchor.constraint(equalTo: container.topAnchor),
      e.heightAnchor.constraint(equalToConstant: 10), strong, weak,
    ])
    try window.runUpdateCycle()
    // The cost is 750 * |w - 100| + 250 * |w - 150|: least at 100.
    #expect(isClose(e.frame.width, 100))

    // Raising the weak one above the strong one flips the outcome, in place.
    var before = window.counters
    try weak.setPriority(800)
    #expect(weak.priority == 800)
    try window.runUpdateCycle()
    #expect(isClose(e.frame.width, 150))
    var work = window.counters - before
    #expect(work.constraintsChanged == 1 && work.constraintsAdded == 0)
    #expect(work.constraintsRemoved == 0)

    // A required constraint beats any preference; deactivating it gives them back.
    let floor = e.widthAnchor.constraint(greaterThanOrEqualToConstant: 180)
    try floor.activate()
    try window.runUpdateCycle()
    #expect(isClose(e.frame.width, 180))
    before = window.counters
    floor.deactivate()
    #expect(!floor.isActive)
    #expect(!e.constraints.contains { $0 === floor })
    try window.runUpdateCycle()
    #expect(isClose(e.frame.width, 150))
    work = window.counters - before
    #expect(work.constraintsRemoved == 1 && work.constraintsAdded == 0)
  }

  @Test func setConstantMovesViewsInPlace() throws {
    let (window, container) = try container()
    let v = try add("a", "b", to: container)
    let (a, b) = (v[0], v[1])
    let leading = a.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 20)
    try LayoutConstraint.activate([
      leading, a.topAnchor.constraint(equalTo: container.topAnchor),
      a.widthAnchor.constraint(equalToConstant: 200),
      a.heightAnchor.constraint(equalToConstant: 50),
      b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 8),
      b.topAnchor.constraint(equalTo: container.topAnchor),
      b.widthAnchor.constraint(equalToConstant: 90), b.heightAnchor.constraint(equalToConstant: 50),
    ])
    try window.runUpdateCycle()
    expectFrame(b, rect(228, 0, 90, 50))

    let before = window.counters
    try leading.setConstant(50)
    #expect(leading.constant == 50)
    expectFrame(a, rect(20, 0, 200, 50))  // not before the update cycle
    try window.runUpdateCycle()
    expectFrame(a, rect(50, 0, 200, 50))
    expectFrame(b, rect(258, 0, 90, 50))
    let work = window.counters - before
    #expect(work.constraintsChanged == 1)
    #expect(work.constraintsAdded == 0 && work.constraintsRemoved == 0)
    // The constraint names a and the container, so their superviews are flagged: the
    // container (which places a and b) and the window. a and b moved but kept their size,
    // which flags nothing more.
    #expect(work.layoutSubviews == 2)

    // UIKit's animation idiom: change a constant, then layoutIfNeeded on the superview.
    try leading.setConstant(0)
    try container.layoutIfNeeded()
    expectFrame(b, rect(208, 0, 90, 50))
  }

  /// A root view's width belongs to the window: a required width of its own conflicts with
  /// the pin, and the error says which pin and why.
  @Test func aRootViewsOwnWidthConflictNamesTheWindowsPin() throws {
    let window = try Window(size: Size(width: 400, height: 300), layoutMode: .autoLayout)
    let root = View(name: "root")
    try window.addSubview(root)
    try root.widthAnchor.constraint(equalToConstant: 200).activate()
    let error = try #require(layoutError { try window.runUpdateCycle() })
    guard case .unsatisfiableConstraint(let text) = error else {
      Issue.record("expected unsatisfiableConstraint, got \(error)")
      return
    }
    #expect(text.contains("the window pins each direct subview"), "\(text)")
    #expect(text.contains("'root'"), "\(text)")
  }

  @Test func requiredConflictThrowsAndLeavesTheLayoutAsItWas() throws {
    let (window, container) = try container()
    let a = try add("a", to: container)[0]
    let height = a.heightAnchor.constraint(equalToConstant: 50)
    let half = a.widthAnchor.constraint(equalTo: container.widthAnchor, multiplier: 0.5)
    let cap = a.heightAnchor.constraint(lessThanOrEqualToConstant: 60)
    try LayoutConstraint.activate([
      a.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 20),
      a.topAnchor.constraint(equalTo: container.topAnchor, constant: 10), half, height, cap,
    ])
    try window.runUpdateCycle()
    let settled = rect(20, 10, 200, 50)
    expectFrame(a, settled)
    let constraintCount = a.constraints.count

    // Width 300 contradicts width = 0.5 * 400.
    let conflicting = a.widthAnchor.constraint(equalToConstant: 300)
    let before = window.counters
    let error = try #require(layoutError { try conflicting.activate() })
    guard case .unsatisfiableConstraint(let text) = error else {
      Issue.record("expected unsatisfiableConstraint, got \(error)")
      return
    }
    #expect(text.contains("'a'") && text.contains("300"), "\(text)")
    // The error names the layout constraint it conflicts with, not only the one refused.
    #expect(text.contains(" (conflicts with ") && text.contains(half.description), "\(text)")
    #expect(!conflicting.isActive)
    #expect(a.constraints.count == constraintCount)
    #expect((window.counters - before).constraintsAdded == 0)

    // A constant that breaks a required inequality is refused too, and the old one kept.
    let error2 = try #require(layoutError { try height.setConstant(70) })
    #expect(
      error2
        == .unsatisfiableConstraint(
          "\(height.description), its constant changed to 70 (conflicts with \(cap.description))"
        ))
    #expect(height.constant == 50)

    try window.runUpdateCycle()
    expectFrame(a, settled)
    // The solver is still consistent: later changes work.
    try height.setConstant(55)
    try window.runUpdateCycle()
    expectFrame(a, rect(20, 10, 200, 55))
  }

  /// A view whose content has a size (as a `UIImageView`'s image does in UIKit).
  final class ContentBox: View {
    var content: Size
    init(_ content: Size, name: String) {
      self.content = content
      super.init(name: name)
    }
    override var intrinsicContentSize: Size { content }
    func setContent(_ size: Size) {
      content = size
      invalidateIntrinsicContentSize()
    }
  }

  @Test func contentHuggingAndCompressionResistanceComeFromTheIntrinsicSize() throws {
    let (window, container) = try container()
    // Two 60 x 40 contents, one asked to stretch to 100, one to shrink to 30.
    let stretched = ContentBox(Size(width: 60, height: 40), name: "stretched")
    let squeezed = ContentBox(Size(width: 60, height: 40), name: "squeezed")
    try container.addSubview(stretched)
    try container.addSubview(squeezed)
    let stretch = stretched.widthAnchor.constraint(equalToConstant: 100).withPriority(500)
    let squeeze = squeezed.widthAnchor.constraint(equalToConstant: 30).withPriority(700)
    try LayoutConstraint.activate([
      stretched.leadingAnchor.constraint(equalTo: container.leadingAnchor),
      stretched.topAnchor.constraint(equalTo: container.topAnchor),
      squeezed.leadingAnchor.constraint(equalTo: container.leadingAnchor),
      squeezed.topAnchor.constraint(equalTo: stretched.bottomAnchor),
      stretch, squeeze,
    ])
    try window.runUpdateCycle()
    // Heights: the intrinsic 40, nothing else asks. Widths: stretching to 100 costs the
    // hugging (250) 40 * 250 = 10000 and staying at 60 costs the preference 40 * 500, so
    // it stretches. Squeezing to 30 costs the compression resistance (750) 30 * 750 =
    // 22500, staying costs 30 * 700 = 21000, so it stays at 60.
    expectFrame(stretched, rect(0, 0, 100, 40))
    expectFrame(squeezed, rect(0, 40, 60, 40))
    #expect(stretched.contentHuggingPriority(for: .horizontal) == .defaultLow)
    #expect(squeezed.contentCompressionResistancePriority(for: .horizontal) == .defaultHigh)

    // Hugging at 600 (> 500) keeps the image at its size; resistance at 650 (< 700) lets
    // the preference squeeze it.
    try stretched.setContentHuggingPriority(600, for: .horizontal)
    try squeezed.setContentCompressionResistancePriority(650, for: .horizontal)
    #expect(stretched.needsUpdateConstraints && squeezed.needsUpdateConstraints)
    try window.runUpdateCycle()
    expectFrame(stretched, rect(0, 0, 60, 40))
    expectFrame(squeezed, rect(0, 40, 30, 40))

    // A new content size moves the intrinsic constraints in place.
    stretched.setContent(Size(width: 70, height: 45))
    try window.runUpdateCycle()
    expectFrame(stretched, rect(0, 0, 70, 45))
    expectFrame(squeezed, rect(0, 45, 30, 40))
  }

  /// The message of the error a 100-point row of `count` 40-point icons 8 points apart
  /// fails its first update cycle with (they need 48 * count - 8 points).
  func overfullRowError(icons count: Int) throws -> String? {
    let window = try Window(size: Size(width: 100, height: 300), layoutMode: .autoLayout)
    let row = try StackView(axis: .horizontal, spacing: 8, name: "row")
    try window.addSubview(row)
    for i in 0..<count {
      try row.addSubview(ImageView(size: Size(width: 40, height: 40), name: "icon\(i)"))
    }
    let error = layoutError { try window.runUpdateCycle() }
    guard case .unsatisfiableConstraint(let what)? = error else {
      Issue.record("expected an unsatisfiable constraint, got \(String(describing: error))")
      return nil
    }
    return what
  }

  @Test func imagesThatCannotFitTheirRowAreAnErrorNamingTheImage() throws {
    // 3 x 40 + 2 x 8 = 136 points in a 100-point row.
    guard let what = try overfullRowError(icons: 3) else { return }
    #expect(what.contains("icon"), "\(what)")
  }

  /// A conflict through a long chain names its first layout constraints and counts the
  /// rest: every link of the row is in it.
  @Test func aLongConflictNamesItsFirstConstraintsAndCountsTheRest() throws {
    guard let what = try overfullRowError(icons: 20) else { return }
    let listed = try #require(what.firstRange(of: " (conflicts with "), "\(what)")
    let parts = what[listed.upperBound...].dropLast().split(separator: "; ")
    #expect(parts.count == LayoutEngine.conflictsNamed + 1, "\(what)")
    #expect(parts.last?.hasPrefix("and ") == true && parts.last?.hasSuffix(" more") == true)
  }

  @Test func anEmptyRowKeepsItsTailAcrossConstraintPasses() throws {
    let window = try Window(size: Size(width: 390, height: 300), layoutMode: .autoLayout)
    let column = try StackView(axis: .vertical, name: "column")
    let row = try StackView(axis: .horizontal, spacing: 8, name: "row")
    try window.addSubview(column)
    try column.addSubview(row)
    let icon = try ImageView(size: Size(width: 40, height: 40), name: "icon")
    try row.addSubview(icon)
    try window.runUpdateCycle()
    icon.removeFromSuperview()
    try window.runUpdateCycle()
    let before = window.counters
    row.setNeedsUpdateConstraints()
    try window.runUpdateCycle()
    let work = window.counters - before
    // The empty row's tail (width >= its insets) is the one it had: nothing re-made.
    #expect(work.constraintsAdded == 0 && work.constraintsRemoved == 0, "\(work)")
  }

  @Test func anImageKeepsItsSizeBesideLabelsThatHugTheirText() throws {
    // The labels' hugging (250 each) would outweigh an image's own (250): an image whose
    // size only hugged would stretch to make the labels' column narrower. Its size is
    // required, so both layout modes agree.
    for mode in [Window.LayoutMode.autoLayout, .frames] {
      let window = try Window(size: Size(width: 390, height: 300), layoutMode: mode)
      let row = try StackView(axis: .horizontal, spacing: 8, alignment: .center, name: "row")
      let avatar = try ImageView(size: Size(width: 40, height: 40), name: "avatar")
      let names = try StackView(axis: .vertical, spacing: 2, name: "names")
      try window.addSubview(row)
      try row.addSubview(avatar)
      try row.addSubview(names)
      try names.addSubview(Label(text: "Ada", style: .title))
      try names.addSubview(Label(text: "today", style: .caption))
      try window.runUpdateCycle()
      expectFrame(avatar, rect(0, 0, 40, 40))
      // The names column: 22 + 2 + 14 points tall, centred on the 40-point avatar.
      expectFrame(names, rect(48, 1, 342, 38))
      try avatar.setImageSize(Size(width: 48, height: 48))
      try window.runUpdateCycle()
      expectFrame(avatar, rect(0, 0, 48, 48))
      expectFrame(names, rect(56, 5, 334, 38))
    }
  }

  /// UIKit keeps a view's constraints when it is added again to the superview it is already
  /// in (that only brings it to the front); only leaving the superview removes them.
  @Test func addingASubviewAgainToItsSuperviewKeepsItsConstraints() throws {
    let (window, container) = try container()
    let v = try add("a", "b", to: container)
    let (a, b) = (v[0], v[1])
    let constraints = [
      a.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 20),
      a.topAnchor.constraint(equalTo: container.topAnchor, constant: 10),
      a.widthAnchor.constraint(equalToConstant: 30), a.heightAnchor.constraint(equalToConstant: 30),
    ]
    try LayoutConstraint.activate(constraints)
    try window.runUpdateCycle()
    expectFrame(a, rect(20, 10, 30, 30))

    try container.addSubview(a)
    #expect(container.subviews.map(\.name) == ["b", "a"])
    // Regression test (fixed): re-adding goes through removeFromSuperview, which deactivates a's
    // constraints
    // to its superview (see the report).
    #expect(constraints.allSatisfy { $0.isActive })
    try window.runUpdateCycle()
    expectFrame(a, rect(20, 10, 30, 30))
    #expect(b.superview === container)
  }

  /// A subtree removed from a window keeps its solver variables; the window and its engine
  /// may be freed before the subtree joins another window, whose engine must then make it
  /// new ones (it compared the old engine by a reference to freed memory).
  @Test func aSubtreeOutlivingItsWindowIsLaidOutInAnother() throws {
    let card = View(name: "card")
    let label = View(name: "label")
    try card.addSubview(label)
    let labelWidth = label.widthAnchor.constraint(equalToConstant: 50)
    try LayoutConstraint.activate([
      label.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 8),
      label.topAnchor.constraint(equalTo: card.topAnchor, constant: 4),
      labelWidth, label.heightAnchor.constraint(equalToConstant: 20),
    ])
    do {
      let (first, container) = try container()
      try container.addSubview(card)
      try LayoutConstraint.activate([
        card.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 10),
        card.topAnchor.constraint(equalTo: container.topAnchor, constant: 10),
        card.widthAnchor.constraint(equalToConstant: 100),
        card.heightAnchor.constraint(equalToConstant: 40),
      ])
      try first.runUpdateCycle()
      expectFrame(label, rect(8, 4, 50, 20))
      card.removeFromSuperview()
    }
    // The first window is gone, and with the card's removal the constraints that tied it to
    // the container; its size and the label's constraints stay active.
    let (second, container) = try container()
    try container.addSubview(card)
    try LayoutConstraint.activate([
      card.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 30),
      card.topAnchor.constraint(equalTo: container.topAnchor, constant: 20),
    ])
    try second.runUpdateCycle()
    expectFrame(card, rect(30, 20, 100, 40))
    expectFrame(label, rect(8, 4, 50, 20))
    try labelWidth.setConstant(70)
    try second.runUpdateCycle()
    expectFrame(label, rect(8, 4, 70, 20))
  }

  /// A list long enough that its frame copy requests its children ahead (4,096 children or
  /// more): every child still gets its own frame, and a change near the top moves every
  /// child below. Child i is 10 + i % 7 high, stacked from y 0 with no spacing, as wide as
  /// the list (the window's width, 320: the window pins its root view to its edges).
  @Test func aLongListCopiesEveryChildsFrame() throws {
    let count = 4_100
    let window = try Window(size: Size(width: 320, height: 640), layoutMode: .autoLayout)
    let list = ListView(name: "list")
    var children: [View] = []
    var heights: [LayoutConstraint] = []
    for i in 0..<count {
      let child = View(name: "row\(i)")
      try list.addSubview(child)
      children.append(child)
    }
    try window.addSubview(list)
    var constraints: [LayoutConstraint] = []
    for (i, child) in children.enumerated() {
      let height = child.heightAnchor.constraint(equalToConstant: Double(10 + i % 7))
      heights.append(height)
      constraints.append(height)
    }
    try LayoutConstraint.activate(constraints)
    try window.runUpdateCycle()
    var y = 0.0
    var wrong = 0
    for (i, child) in children.enumerated() {
      let h = Double(10 + i % 7)
      if child.frame != rect(0, y, 320, h) { wrong += 1 }
      y += h
    }
    #expect(wrong == 0, "\(wrong) of \(count) rows misplaced; last \(children[count - 1].frame)")

    // Row 3 grows by 5: rows 4 and below move down by 5.
    try heights[3].setConstant(Double(10 + 3 % 7) + 5)
    try window.runUpdateCycle()
    y = 0
    wrong = 0
    for (i, child) in children.enumerated() {
      let h = Double(10 + i % 7) + (i == 3 ? 5 : 0)
      if child.frame != rect(0, y, 320, h) { wrong += 1 }
      y += h
    }
    #expect(wrong == 0, "\(wrong) of \(count) rows misplaced after a change")
  }
}
