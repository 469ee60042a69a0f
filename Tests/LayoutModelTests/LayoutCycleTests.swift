import Testing

@testable import LayoutModel

/// A container that re-lays out its children every time it is laid out (as a UIKit view
/// that reconfigures its subviews in layoutSubviews does).
private final class RelayingContainer: View {
  override func layoutSubviews() {
    super.layoutSubviews()
    for child in subviews { child.setNeedsLayout() }
  }
}

/// Dirties its superview in layoutSubviews, for its first `dirtyingLayouts` layouts. With a
/// `RelayingContainer` above it, each dirtying starts another round: `.max` is a true cycle,
/// 10 a layout that settles, but only after 11 rounds.
private final class AncestorDirtyingView: View {
  let dirtyingLayouts: Int
  var layouts = 0

  init(dirtyingLayouts: Int, name: String) {
    self.dirtyingLayouts = dirtyingLayouts
    super.init(name: name)
  }

  override func layoutSubviews() {
    super.layoutSubviews()
    layouts += 1
    // The cap turns a broken detector into a failed expectation instead of a hang.
    guard layouts <= dirtyingLayouts, layouts < 1000 else { return }
    superview?.setNeedsLayout()
  }
}

/// Under Auto Layout, toggles its own height constraint every time it is laid out: the new
/// solution resizes it, so it is laid out again, forever.
private final class OscillatingView: View {
  var height: LayoutConstraint?
  var layouts = 0

  override func layoutSubviews() {
    super.layoutSubviews()
    layouts += 1
    guard layouts < 1000, let height else { return }
    try? height.setConstant(height.constant == 10 ? 20 : 10)
  }
}

/// Forces its superview's layout from inside its own layoutSubviews (a well-known UIKit
/// misuse): under a `RelayingContainer` each call lays the container and then this view
/// out again, one nesting level deeper. It keeps the first error the nested call reports.
private final class ReentrantView: View {
  var layouts = 0
  var caught: LayoutError?

  override func layoutSubviews() {
    super.layoutSubviews()
    layouts += 1
    // The cap keeps a broken detector from overflowing the stack (about 4000 levels do).
    guard layouts < 100, caught == nil else { return }
    superview?.setNeedsLayout()
    do {
      try superview?.layoutIfNeeded()
    } catch {
      caught = error
    }
  }
}

/// Asks for its own constraints pass again from updateConstraints.
private final class RestlessConstraintsView: View {
  var updates = 0
  override func updateConstraints() throws(LayoutError) {
    try super.updateConstraints()
    updates += 1
    if updates < 1000 { setNeedsUpdateConstraints() }
  }
}

/// The limit catches a layout cycle that never ends, well within CI's 90 minutes. It was one
/// minute until stop 70; swift-testing counts a test's time from its start, and on a machine
/// shared with two soak processes these tests (4 ms each) waited past a minute for a thread.
@Suite(.timeLimit(.minutes(15))) struct LayoutCycleTests {
  private func cycle(_ error: LayoutError?) -> LayoutCycle? {
    guard case .layoutCycle(let cycle)? = error else { return nil }
    return cycle
  }

  @Test(arguments: Window.LayoutMode.allCases)
  func aCyclicViewIsReportedByName(_ mode: Window.LayoutMode) throws {
    let window = try Window(size: Size(width: 200, height: 200), layoutMode: mode)
    let container = RelayingContainer(name: "container")
    let cyclic = AncestorDirtyingView(dirtyingLayouts: .max, name: "cyclic")
    try window.addSubview(container)
    try container.addSubview(cyclic)

    let error = layoutError { try window.runUpdateCycle() }
    let report = try #require(
      cycle(error), "expected a layout cycle, got \(String(describing: error))")
    #expect(report.pass == .layout)
    #expect(report.limit == window.visitLimit)
    #expect(report.viewNames.contains(cyclic.description))
    // The container's entry says who flagged it again.
    #expect(report.views.contains { $0.flaggedBy == cyclic.description })
    #expect(error?.description.contains("'cyclic'") == true)
    // Stopped at the limit, not after the safety cap.
    #expect(cyclic.layouts <= window.visitLimit + 1)

    // Taking the culprit out lets the window settle again.
    cyclic.removeFromSuperview()
    #expect(layoutError { try window.runUpdateCycle() } == nil)
  }

  @Test func aViewTogglingItsOwnConstraintIsReported() throws {
    let window = try Window(size: Size(width: 200, height: 200), layoutMode: .autoLayout)
    let container = View(name: "container")
    let oscillating = OscillatingView(name: "oscillating")
    try window.addSubview(container)
    try container.addSubview(oscillating)
    let height = oscillating.heightAnchor.constraint(equalToConstant: 10)
    try LayoutConstraint.activate([
      oscillating.leadingAnchor.constraint(equalTo: container.leadingAnchor),
      oscillating.topAnchor.constraint(equalTo: container.topAnchor),
      oscillating.widthAnchor.constraint(equalToConstant: 10), height,
    ])
    oscillating.height = height

    let report = try #require(cycle(layoutError { try window.runUpdateCycle() }))
    #expect(report.viewNames.contains(oscillating.description))
    #expect(oscillating.layouts <= window.visitLimit + 1)
  }

  /// The visit limit is per view per update cycle; a layoutIfNeeded nested in a pass is part
  /// of the cycle that runs the pass, so its visits count towards the same limit.
  @Test func aCycleThroughANestedLayoutIfNeededIsReported() throws {
    let window = try Window(size: Size(width: 200, height: 200), layoutMode: .frames)
    let container = RelayingContainer(name: "container")
    let reentrant = ReentrantView(name: "reentrant")
    try window.addSubview(container)
    try container.addSubview(reentrant)
    let outer = layoutError { try window.runUpdateCycle() }
    // Regression test (fixed): every nested layoutIfNeeded starts a new epoch, which resets the
    // visit counts:
    // the detector never fires and only the cap above ends the recursion (see the report).
    #expect(reentrant.layouts <= window.visitLimit + 1, "\(reentrant.layouts) layouts")
    let report = cycle(reentrant.caught) ?? cycle(outer)
    #expect(report?.viewNames.contains(reentrant.description) == true)
  }

  @Test(arguments: Window.LayoutMode.allCases)
  func aSettlingButSlowViewIsCaughtToo(_ mode: Window.LayoutMode) throws {
    func make() throws -> (Window, AncestorDirtyingView) {
      let window = try Window(size: Size(width: 200, height: 200), layoutMode: mode)
      let container = RelayingContainer(name: "container")
      let slow = AncestorDirtyingView(dirtyingLayouts: 10, name: "slow")
      try window.addSubview(container)
      try container.addSubview(slow)
      return (window, slow)
    }
    // It needs 11 layouts in one update cycle (10 that dirty the container, then one that
    // does not): over the default limit of 6.
    let (window, slow) = try make()
    #expect(window.visitLimit == 6)
    let report = try #require(cycle(layoutError { try window.runUpdateCycle() }))
    #expect(report.viewNames.contains(slow.description))

    // With room for 11 visits per view the same tree settles, after exactly 11 layouts.
    let (roomy, slow2) = try make()
    roomy.visitLimit = 11
    #expect(layoutError { try roomy.runUpdateCycle() } == nil)
    #expect(slow2.layouts == 11)
  }

  /// A multi-line label under Auto Layout lays out twice in its first cycle (it learns its
  /// width, then its height at that width, which resizes it): legitimate, so even a limit
  /// of 2 visits must not report it.
  @Test func aLabelThatLaysOutTwiceIsNotACycle() throws {
    let window = try Window(size: Size(width: 200, height: 400), layoutMode: .autoLayout)
    window.visitLimit = 2
    let stack = try StackView(axis: .vertical, name: "stack")
    // Twelve 35-point words at 200: 5 + 5 + 2, three lines.
    let label = Label(
      text: Array(repeating: "abcde", count: 12).joined(separator: " "), name: "label")
    try window.addSubview(stack)
    try stack.addSubview(label)
    #expect(layoutError { try window.runUpdateCycle() } == nil)
    expectFrame(label, rect(0, 0, 200, 51))
    #expect(isClose(label.preferredMaxLayoutWidth, 200))

    // And again after a change of width (the window at 100: 2 a line, 6 lines).
    try window.setFrame(rect(0, 0, 100, 400))
    #expect(layoutError { try window.runUpdateCycle() } == nil)
    expectFrame(label, rect(0, 0, 100, 102))
  }

  @Test func aConstraintsPassCycleIsReported() throws {
    let window = try Window(size: Size(width: 200, height: 200), layoutMode: .autoLayout)
    let restless = RestlessConstraintsView(name: "restless")
    try window.addSubview(restless)
    let report = try #require(cycle(layoutError { try window.runUpdateCycle() }))
    #expect(report.pass == .constraints)
    #expect(report.viewNames == [restless.description])
    #expect(restless.updates == window.visitLimit)
  }
}
