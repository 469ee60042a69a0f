import Cassowary

/// The solver variables of one view: its origin in its superview's coordinate space and its
/// size. Origins relative to the superview keep a moved container's descendants out of the
/// solution: when a cell moves down a list, one variable changes, not one per descendant.
///
/// The four are consecutive variables of the engine's solver (x, y, width, height; a solver
/// numbers its variables in order of creation), so a view stores the first one only
/// (`View.firstVariable`).
struct ViewVariables {
  var x: Variable
  /// The mark of the engine that made them (`LayoutEngine.serial`, never 0). A number, not
  /// a reference: a view that left a window keeps its variables, and the window and its
  /// engine may be gone when the view joins another; reading a reference to the freed
  /// engine, even to compare it, retained freed memory.
  var engine: UInt64

  init(x: Variable, engine: UInt64) {
    self.x = x
    self.engine = engine
  }

  init(firstIndex: Int32, engine: UInt64) {
    self.init(x: Variable(index: firstIndex), engine: engine)
  }

  var firstIndex: Int32 { x.index }
  var y: Variable { Variable(index: x.index &+ 1) }
  var width: Variable { Variable(index: x.index &+ 2) }
  var height: Variable { Variable(index: x.index &+ 3) }

  /// The frame these variables hold in `values` (a solver's values by variable index,
  /// `Solver.withUnsafeValues`).
  @inline(__always) func frame(in values: UnsafeBufferPointer<Double>) -> Rect {
    let first = Int(firstIndex)
    precondition(first >= 0 && first &+ 3 < values.count, "a view's variable index is out of range")
    return Rect(
      x: values[first], y: values[first &+ 1], width: values[first &+ 2],
      height: values[first &+ 3])
  }
}

/// A window's Auto Layout engine: one Cassowary solver, the variables of every view, and
/// the bookkeeping that turns a new solution into layout flags.
final class LayoutEngine {
  /// This engine's mark on the variables it makes: random, so that no other engine in the
  /// process has it (an address is reused once its engine is freed; a shared counter would
  /// need an atomic, which older Apple platforms lack).
  let serial = UInt64.random(in: 1...UInt64.max)

  /// Lazy from the first constraint: a view tree is stacks, and in a canonical tableau a
  /// stack's rows fill in (a box's position written over every earlier box's errors). The
  /// adaptive default stays canonical until the rows average eight cells (or the
  /// insertions' substitutions have rewritten more rows than half it holds), long enough
  /// to cost a feed's cold build 10% more instructions, a table's twice as many, and its
  /// ticks more rows touched (measured in the notes of issue 16, stop 34).
  let solver = Solver(representation: .lazy)
  unowned(unsafe) var window: Window?
  /// For each view, indexed by its first variable's index over 4 (every variable of the
  /// solver is one of four of a view, made in order by `attach`), the view to flag for
  /// layout when one of its values changes: its superview, or the view itself when it has
  /// none (the window); nil once detached. The superview is stored rather than read through
  /// the view at each read-out: that read was a cache miss per moved value in a large tree
  /// (the views are scattered over the heap; this array is in variable order). One entry
  /// per view, not per variable: a list's moved cells are 11 entries apart, not 44, close
  /// enough for the processor to fetch them ahead on its own. A view changes
  /// superview only by leaving the tree (`removeFromSuperview` detaches it from the engine)
  /// and joining it again (`attach` reads the new superview); the harness's frame check
  /// fails at once when a target is wrong (tried: the view itself as its target).
  ///
  /// This and the queue of constants below are read and written only by the engine's own
  /// methods, never while another access to them is open, so their accesses are not checked
  /// at run time (`flushConstants` alone, called before every solver operation, paid a
  /// dynamic check each time: 19,000 in a 300-cell feed's cold build).
  @exclusivity(unchecked) private var layoutTargets: ContiguousArray<Unmanaged<View>?> = []
  /// For each view, as `layoutTargets`, the view itself (nil once detached): the layout
  /// finds the children a solve listed here.
  @exclusivity(unchecked) private var layoutViews: ContiguousArray<Unmanaged<View>?> = []
  /// The children the last solve moved, by number (a view's first variable over 4), each
  /// superview's chained from its last one (`View.movedHead`) through `movedNext` (-1 ends
  /// a chain); `movedCount` entries are in use. A view listed again after another (its
  /// variables reported apart) takes another entry. They are written through pointers: an
  /// append per moved child, with its checks of uniqueness and room, made a resize tick of
  /// 1,000 children 8 us slower.
  ///
  /// There is room for a quarter of the views (`movedRoom`). A solve that moves more runs
  /// out (`overflowedSolve`): its lists are not read, and every superview it flagged copies
  /// all of its children, as many copies as four times the listed ones at most. The
  /// entries that would have been written then are the cost the list saves nothing
  /// against (a resize moves every child of a list), and it spares them.
  @exclusivity(unchecked) private var movedNumbers: ContiguousArray<Int32> = []
  @exclusivity(unchecked) private var movedNext: ContiguousArray<Int32> = []
  private var movedCount = 0
  /// The last solve whose entries ran out: its lists are not read.
  private var overflowedSolve: UInt64 = 0
  /// The entries a solve may list: a quarter of the views, and 64 at least.
  private var movedRoom: Int { Swift.max(64, layoutTargets.count / 4) }
  /// Counts solves from a random start: a superview's chain is read only in the solve that
  /// made it (`View.movedSerial`), and a view that joins another window forgets its
  /// chain (`View.forgetMovedChildren`); the start keeps two engines' numbers apart
  /// besides. 64 bits: it does not wrap in practice, and 0 is never a solve.
  private(set) var solveSerial = UInt64.random(in: 1...(UInt64.max / 2))

  /// The window's own size, pinned by required constraints changed in place on resize.
  private var windowPins: (width: Constraint, height: Constraint)?
  /// Whether the solver changed since the last read-out.
  var needsSolve = false
  /// Constant changes of non-required constraints not yet handed to the solver. They cannot
  /// fail, so they wait for the next read-out (or the next other solver call) and go in as
  /// one batch: after a resize every label of a list changes its intrinsic height, and each
  /// change alone would move every cell below it.
  @exclusivity(unchecked) private var pendingConstants: [(Constraint, Double)] = []

  var added = 0
  var removed = 0
  var changed = 0
  var solves = 0

  // MARK: - Views

  /// Gives a view joining the window its variables (kept across detach and re-attach) and
  /// installs its active constraints whose other view is in the window too.
  func attach(_ view: View) {
    let target = view.parentLink ?? Unmanaged.passUnretained(view)
    if let vars = view.variables, vars.engine == serial {
      setLayoutTarget(target, of: vars)
      layoutViews[Int(vars.x.index) >> 2] = Unmanaged.passUnretained(view)
    } else {
      // Unnamed: nothing reads the solver's names (errors name views and constraints), and
      // four names made per view cost 2% of a cold Auto Layout build and four strings of
      // memory.
      let vars = ViewVariables(x: solver.makeVariable(), engine: serial)
      precondition(
        Int(vars.x.index) == layoutTargets.count &* 4, "layout targets out of step")
      for k in 1...3 {
        let next = solver.makeVariable()
        precondition(
          next.index == vars.x.index + Int32(k), "a view's variables are not consecutive")
      }
      layoutTargets.append(target)
      layoutViews.append(Unmanaged.passUnretained(view))
      view.variables = vars
    }
    for constraint in view.attachedConstraints
    where !constraint.isInstalled && constraint.bothEnds(in: window) {
      // Constraints were satisfiable when activated; re-installing the same set succeeds
      // unless the subtree moved into conflicting surroundings, which we report at once.
      do throws(LayoutError) {
        try install(constraint)
      } catch {
        constraint.deactivate()
      }
    }
  }

  /// Removes a leaving view's constraints and intrinsic constraints from the solver.
  func detach(_ view: View) {
    for constraint in view.attachedConstraints where constraint.isInstalled {
      uninstall(constraint)
    }
    view.intrinsic.removeAll(from: self)
    if let vars = view.variables, vars.engine == serial {
      setLayoutTarget(nil, of: vars)
      layoutViews[Int(vars.x.index) >> 2] = nil
    }
  }

  private func setLayoutTarget(_ target: Unmanaged<View>?, of vars: ViewVariables) {
    layoutTargets[Int(vars.x.index) >> 2] = target
  }

  func variables(of view: View) -> ViewVariables {
    if let vars = view.variables, vars.engine == serial { return vars }
    attach(view)
    return view.variables!
  }

  // MARK: - Constraints

  func install(_ constraint: LayoutConstraint) throws(LayoutError) {
    try install(constraint, first: constraint.firstView, second: constraint.secondView)
  }

  /// `install(_:)` with the constraint's views as the caller read them
  /// (`LayoutConstraint.makeSolverConstraint(in:first:second:)`).
  func install(
    _ constraint: LayoutConstraint, first: View, second: View?
  ) throws(LayoutError) {
    let solverConstraint = constraint.makeSolverConstraint(in: self, first: first, second: second)
    // Writing the constraint can attach a view that joined the window with it (a subtree
    // arriving parent first), and attaching installs that view's constraints: this one
    // among them. A second copy would stay in the solver after the constraint is removed.
    if constraint.isInstalled { return }
    try add(solverConstraint, describing: constraint.description)
    // Moved in: assigned as a copy, it was retained here and released on return.
    constraint.installed = consume solverConstraint
    LayoutConstraint.flagAffectedViews(first: first, second: second)
  }

  func uninstall(_ constraint: LayoutConstraint) {
    guard let installed = constraint.installed else { return }
    constraint.flagAffectedViews()
    remove(installed)
    constraint.installed = nil
  }

  // Descriptions are autoclosures: they format type names and anchors, far too slow to
  // build for every constraint change when they are only needed for an error.
  func add(_ constraint: Constraint, describing owner: @autoclosure () -> String)
    throws(LayoutError)
  {
    flushConstants()
    try solverCall(owner()) { () throws(SolverError) in try solver.addConstraint(constraint) }
    added += 1
  }

  func remove(_ constraint: Constraint) {
    flushConstants()
    // Only constraints this engine added reach here.
    try? solver.removeConstraint(constraint)
    removed += 1
    needsSolve = true
  }

  /// Changes a constraint's constant: at once for a required constraint (whose refusal must
  /// reach the caller), batched until the next solver call for the others. The caller says
  /// which it is (it knows the priority; asking the solver would cost a look-up per change).
  func setConstant(
    _ constant: Double, of constraint: Constraint, required: Bool,
    namingConflicts: Bool = true, describing owner: @autoclosure () -> String
  ) throws(LayoutError) {
    guard required else {
      pendingConstants.append((constraint, constant))
      needsSolve = true
      changed += 1
      return
    }
    flushConstants()
    try solverCall(owner(), namingConflicts: namingConflicts) { () throws(SolverError) in
      try solver.setConstant(constant, of: constraint)
    }
    changed += 1
  }

  /// Hands the batched constant changes to the solver.
  private func flushConstants() {
    guard !pendingConstants.isEmpty else { return }
    // Non-required constants never conflict with the required constraints, and every
    // constraint here is installed (removals and strength changes flush first): the batch
    // cannot be refused. Were it refused anyway, each change is tried alone, so that one
    // bad entry cannot drop the others.
    do throws(SolverError) {
      try solver.setConstants(pendingConstants)
    } catch {
      for (constraint, constant) in pendingConstants {
        try? solver.setConstant(constant, of: constraint)
      }
    }
    pendingConstants.removeAll(keepingCapacity: true)
  }

  func setStrength(
    _ strength: Strength, of constraint: Constraint, describing owner: @autoclosure () -> String
  ) throws(LayoutError) {
    flushConstants()
    try solverCall(owner()) { () throws(SolverError) in
      try solver.setStrength(strength, of: constraint)
    }
    changed += 1
  }

  /// Changes the two weights of a split equality (a view's intrinsic size on one axis).
  func setStrengths(
    excess: Strength, shortfall: Strength, of constraint: Constraint,
    describing owner: @autoclosure () -> String
  ) throws(LayoutError) {
    flushConstants()
    try solverCall(owner()) { () throws(SolverError) in
      try solver.setStrengths(excess: excess, shortfall: shortfall, of: constraint)
    }
    changed += 1
  }

  /// Runs a solver mutation: a refusal (the solver is then unchanged) becomes an
  /// unsatisfiable-constraint error naming `owner`, and the layout constraints the solver
  /// named as its conflict; success leaves a solve pending.
  private func solverCall(
    _ owner: @autoclosure () -> String, namingConflicts: Bool = true,
    _ body: () throws(SolverError) -> Void
  ) throws(LayoutError) {
    do throws(SolverError) { try body() } catch {
      let conflicts = namingConflicts ? conflictingLayoutConstraints() : []
      throw .unsatisfiableConstraint(
        conflicts.isEmpty
          ? owner() : "\(owner()) (conflicts with \(conflicts.joined(separator: "; ")))")
    }
    needsSolve = true
  }

  /// The layout constraints of this window among the solver's conflicting constraints after
  /// a refusal, described, in tree order, at most ``conflictsNamed`` of them and then how
  /// many more (a chain of required links names every link). Without them an error named
  /// only the constraint refused, often an implicit one (an image's size), where the cause
  /// was a constraint the app declared: a scene file's `[wide]` that fights an image's
  /// width was reported at the root as `ImageView 'avatar'.width == 64`. Stacks' links and
  /// the window's pins on its subviews are layout constraints and are listed; intrinsic
  /// sizes and the engine's pins of the window itself are not. Found by a walk of the
  /// tree: on error paths only (the window's own resize, refused inside a tick, does not
  /// ask).
  private func conflictingLayoutConstraints() -> [String] {
    let conflicts = solver.conflictingConstraints
    guard !conflicts.isEmpty, let window else { return [] }
    var wanted = Set(conflicts.map(ObjectIdentifier.init))
    var found: [String] = []
    var more = 0
    try? window.forEachInSubtree { view in
      for constraint in view.attachedConstraints where !wanted.isEmpty {
        if let installed = constraint.installed,
          wanted.remove(ObjectIdentifier(installed)) != nil
        {
          if found.count < Self.conflictsNamed {
            found.append(constraint.description)
          } else {
            more += 1
          }
        }
      }
    }
    if more > 0 { found.append("and \(more) more") }
    return found
  }

  /// How many conflicting layout constraints an error names.
  static let conflictsNamed = 8

  /// Pins the window's origin to zero and its size to `size` (changed in place later).
  func pinWindow(to size: Size) {
    guard let window, let vars = window.variables else { return }
    if let pins = windowPins {
      try? setConstant(
        -size.width, of: pins.width, required: true, namingConflicts: false,
        describing: "window width")
      try? setConstant(
        -size.height, of: pins.height, required: true, namingConflicts: false,
        describing: "window height")
      return
    }
    let pins = (width: vars.width == size.width, height: vars.height == size.height)
    for constraint in [Expression(vars.x) == 0, Expression(vars.y) == 0, pins.width, pins.height] {
      try? add(constraint, describing: "window pin")
    }
    windowPins = pins
  }

  // MARK: - Solving

  /// Reads the new solution. A view whose origin or size moved is placed by its superview,
  /// so the superview is flagged for layout (the window flags itself), and the view is
  /// listed for it: a superview that nothing else flagged copies out the frames of its
  /// listed children only (`View.layoutSubviews`).
  func solve() {
    flushConstants()
    needsSolve = false
    solves += 1
    solveSerial &+= 1
    let serial = solveSerial
    let room = movedRoom
    if movedNumbers.count < room {
      // Views joined since the last solve: more room (allocates only then).
      movedNumbers.append(contentsOf: repeatElement(0, count: room - movedNumbers.count))
      movedNext.append(contentsOf: repeatElement(-1, count: room - movedNext.count))
    }
    // Moved variables come view by view and sibling by sibling (a cell's y, the next
    // cell's y...): one flag per run of the same superview, one entry per run of the same
    // view (`MovedChildLister`).
    solver.updateVariables(collectingMoved: { moved in
      layoutTargets.withUnsafeBufferPointer { targets in
        movedNumbers.withUnsafeMutableBufferPointer { numbers in
          movedNext.withUnsafeMutableBufferPointer { next in
            var lister = MovedChildLister(
              targets: targets.baseAddress.unsafelyUnwrapped,
              numbers: numbers.baseAddress.unsafelyUnwrapped,
              next: next.baseAddress.unsafelyUnwrapped, room: room, serial: serial,
              window: window.map { Unmanaged.passUnretained($0) })
            // Room for every moved variable: the loop needs no check of it.
            if moved.count <= room {
              for index in moved { lister.report(Int(index), checkingRoom: false) }
            } else {
              for index in moved { lister.report(Int(index), checkingRoom: true) }
            }
            movedCount = lister.finish()
            if lister.overflowed { overflowedSolve = serial }
          }
        }
      }
    })
  }

  /// Calls `body` with the chains of the children the last solve moved (`movedNumbers`,
  /// `movedNext`, their first `movedCount` entries) and the views by number, nil for a
  /// view detached since; `body` must not change them (nor solve). Returns nil, without
  /// calling `body`, when another solve came after solve `serial` or its entries ran out.
  @inline(__always) func withMovedChildren<R>(
    ofSolve serial: UInt64,
    _ body: (
      UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Unmanaged<View>?>
    ) -> R
  ) -> R? {
    guard serial == solveSerial && serial != overflowedSolve else { return nil }
    return movedNumbers.withUnsafeBufferPointer { numbers in
      movedNext.withUnsafeBufferPointer { next in
        layoutViews.withUnsafeBufferPointer { views in
          body(
            UnsafeBufferPointer(rebasing: numbers[..<movedCount]),
            UnsafeBufferPointer(rebasing: next[..<movedCount]), views)
        }
      }
    }
  }
}

/// What `LayoutEngine.solve` keeps while it lists the moved variables the solver's
/// read-out collected. It holds no reference (the window too is unmanaged), so the
/// compiler keeps it in registers through the loop: with the window as a reference the
/// value lived on the stack, every field loaded and stored again for each moved variable
/// (wide 1,000 text: 26 instructions per moved variable).
///
/// The targets and the window are read without a retain (the window holds every attached
/// view while it solves, and the engine's caller holds the window); flagging only queues
/// views, it never calls the solver.
struct MovedChildLister {
  let targets: UnsafePointer<Unmanaged<View>?>
  let numbers: UnsafeMutablePointer<Int32>
  let next: UnsafeMutablePointer<Int32>
  let serial: UInt64
  let window: Unmanaged<Window>?
  /// Entries that may be written (`LayoutEngine.movedRoom`).
  let room: Int
  var lastTarget: Unmanaged<View>?
  var lastNumber = -1
  var head: Int32 = -1
  var count = 0
  var overflowed = false

  init(
    targets: UnsafePointer<Unmanaged<View>?>, numbers: UnsafeMutablePointer<Int32>,
    next: UnsafeMutablePointer<Int32>, room: Int, serial: UInt64, window: Unmanaged<Window>?
  ) {
    self.targets = targets
    self.numbers = numbers
    self.room = room
    self.next = next
    self.serial = serial
    self.window = window
  }

  /// The variable `index` moved: flags its view's superview at the first of a run of the
  /// same superview (attached views are the window's: flagged in it without reading their
  /// `owner`), and lists the view at the first of a run of the same view. `checkingRoom`
  /// (a constant where it is inlined) is false when the entries cannot run out: fewer
  /// variables moved than there is room.
  @inline(__always) mutating func report(_ index: Int, checkingRoom: Bool) {
    let number = index >> 2
    guard let target = targets[number] else { return }
    if target.toOpaque() != lastTarget?.toOpaque() {
      if let lastTarget { lastTarget._withUnsafeGuaranteedRef { $0.movedHead = head } }
      lastTarget = target
      lastNumber = -1
      head = target._withUnsafeGuaranteedRef { view in
        guard let window else { return view.listMovedChildren(solve: serial, owner: nil) }
        return window._withUnsafeGuaranteedRef {
          view.listMovedChildren(solve: serial, owner: $0)
        }
      }
    }
    guard number != lastNumber else { return }
    lastNumber = number
    if checkingRoom && count >= room {
      overflowed = true
      return
    }
    assert(count < room, "moved children listed past their room")
    numbers[count] = Int32(truncatingIfNeeded: number)
    next[count] = head
    head = Int32(truncatingIfNeeded: count)
    count &+= 1
  }

  /// Ends the read-out: the last superview gets its chain. Returns the entries used.
  mutating func finish() -> Int {
    if let lastTarget { lastTarget._withUnsafeGuaranteedRef { $0.movedHead = head } }
    return count
  }
}
