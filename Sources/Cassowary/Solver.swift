/// An incremental Cassowary constraint solver.
///
/// The algorithm is the one of Badros, Borning & Stuckey, "The Cassowary Linear Arithmetic
/// Constraint Solving Algorithm" (ACM TOCHI 8(4), 2001), with kiwi's refinements: required
/// constraints are hard, weaker ones are error terms weighted by strength in a single
/// objective, and edit variables are re-solved by the dual simplex after each suggestion.
///
/// Beyond kiwi the solver changes a constraint's constant or strength in place, takes several
/// suggestions at once, and counts its work (``counters``).
///
/// Every throwing method leaves the solver as it was when it throws. Values are read with
/// ``value(of:)`` after ``updateVariables()``.
public final class Solver {
  // Exclusivity: the solver's stored properties are only ever accessed by its own methods,
  // which never call out to client code while an access is open (`updateVariables(_:)`
  // and `updateVariables(collectingMoved:)` collect the changes first and call back
  // after), and the compiler checks every access statically. The dynamic check on each access (a
  // thread-local access set, about 16% of the instructions of building a small system) is
  // therefore switched off.
  @exclusivity(unchecked) var tableau: Tableau

  // MARK: - Variables, indexed by `Variable.index`
  /// The names of the variables made with one (most are made without: a layout's four per
  /// view were an empty string each, 16 bytes a variable), in the order they were made, so
  /// by index (a variable's index is the number made before it): a name is found by binary
  /// search. (In a dictionary, each name cost a hashed insertion and its share of the
  /// rehashes, about 2,000 instructions: 4% of a build of kiwi's enaml system.)
  @exclusivity(unchecked) var variableNames: [(index: Int32, name: String)] = []
  @exclusivity(unchecked) var variableSymbols: [Symbol] = []
  /// From how many changed values, in a tableau of how many symbols, the loops over changed
  /// values request their lines ahead (`prefetches(_:)`): a list of 100,000 cells (15
  /// million symbols, a text tick moving up to 100,000 values) needs them, a tree of 10,000
  /// boxes (60,000 symbols) runs slower with them. Tests lower it to reach that path on
  /// small systems.
  @exclusivity(unchecked) var prefetchThreshold = (values: 4096, symbols: 1 << 20)
  /// The variable of each external symbol, indexed by `Symbol.index` (-1 for other symbols).
  @exclusivity(unchecked) var symbolVariables: [Int32] = []
  @usableFromInline @exclusivity(unchecked) var variableValues: ContiguousArray<Double> = []
  @exclusivity(unchecked) var editIndex: [Int32] = []
  /// The required constraints as the check of the values reads them (`Solver+Audit.swift`).
  @exclusivity(unchecked) var audit = Audit()

  // MARK: - Constraints and edits
  @exclusivity(unchecked) var constraintIndex = ConstraintIndex()
  @exclusivity(unchecked) var records: [ConstraintRecord] = []
  @exclusivity(unchecked) var freeRecords: [Int32] = []
  @exclusivity(unchecked) var edits: [EditRecord] = []
  /// Reused by `updateVariables(_:)` for the variables whose value changed.
  @exclusivity(unchecked) var movedVariables: [Int32] = []
  /// Reused by `setConstants(_:)`: the records to change and their new constants, and the
  /// records changed with their old constants.
  @exclusivity(unchecked) var constantBatch: [(record: Int, constant: Double)] = []
  /// `setConstants`' buffer of the batch's old constants.
  @exclusivity(unchecked) var constantBatchOld: [Double] = []
  @exclusivity(unchecked) var changedRecords: [(record: Int, old: Double)] = []
  /// Set while a rebuild builds a canonical tableau, which the adaptive representation must
  /// then not turn lazy (see `Solver+Recovery.swift`).
  @exclusivity(unchecked) var buildingCanonically = false
  /// Set while `rebuild` inserts the constraints again: required rows without a subject go
  /// through phase one rather than the dual simplex.
  @exclusivity(unchecked) var rebuilding = false
  /// Set when the check at the end of an operation found a required constraint broken, no
  /// rebuild held the constraints, and one refused them or a tableau refused the operation
  /// before a rebuilt one took it (`overturnedRefusal`; `rebuildIfDamaged`). An operation
  /// that can make the required constraints infeasible (a required constraint added, a
  /// required constant changed, a constraint made required) then made them so though its
  /// tableau accepted it, and it is undone and refused (`refuseUnrepairable`); any other
  /// keeps the state the rebuilds left (the least broken, else its own), and the flag
  /// stays until the next operation starts.
  @exclusivity(unchecked) var rebuildsRefused = false
  /// Set when a tableau refused this operation and a rebuilt one then accepted it
  /// (`verifyRefusal`): the refused constraint and the ones the refusal named. Should no
  /// rebuild at the end of the operation hold the constraints, that refusal stands
  /// (`rebuildIfDamaged`): the tableau that accepted may have been damaged, with values at
  /// which an infeasible constraint held (soak seed 72110644).
  @exclusivity(unchecked) var overturnedRefusal: [Constraint]? = nil
  /// With `rebuildsRefused`: the constraint the last rebuild refused and the ones it
  /// named, for `refuseUnrepairable` to report.
  @exclusivity(unchecked) var unrepairableConflicts: [Constraint] = []

  /// How the tableau stores its rows. Both give the same solutions; they differ in cost.
  public enum Representation: Sendable {
    /// Canonical while the rows stay short and substitutions rewrite few of them, lazy
    /// from the first sign of fill-in (rows averaging over eight cells) or of substitutions
    /// that keep rewriting rows (more rows rewritten than half the rows held, plus eight):
    /// small systems of independent parts keep the canonical tableau's cheap suggestions,
    /// large ones never fill in, and small systems whose constraints tie the same
    /// variables together (kiwi's enaml system) stop paying a rewrite of every row that
    /// names each new subject. The default.
    case adaptive
    /// Rows may name other basic variables (without cycles) and are expanded only when a
    /// pivot needs them. A stack of N views costs O(N) instead of O(N²).
    case lazy
    /// kiwi's canonical tableau: every row is written over parametric symbols only.
    case canonical
  }

  public let representation: Representation

  public init(representation: Representation = .adaptive) {
    self.representation = representation
    tableau = Tableau(lazy: representation == .lazy)
    // Room for a small system's first variables and constraints, as the tableau has for
    // its rows (`Tableau.firstRoom`).
    let room = Tableau.firstRoom
    variableSymbols.reserveCapacity(room)
    variableValues.reserveCapacity(room)
    editIndex.reserveCapacity(room)
    symbolVariables.reserveCapacity(2 * room)
    records.reserveCapacity(room)
    audit.reserveCapacity(variables: room, constraints: room)
  }

  /// Whether the tableau currently lets rows name basic symbols.
  public var isLazy: Bool { tableau.lazy }

  // MARK: - Variables

  /// Creates a variable of this solver. Its value is 0 until it takes part in a solution.
  public func makeVariable(_ name: String = "") -> Variable {
    let v = Variable(index: Int32(variableSymbols.count))
    if !name.isEmpty { variableNames.append((v.index, name)) }
    let symbol = tableau.newSymbol(.external)
    variableSymbols.append(symbol)
    mapSymbol(symbol, to: v)
    variableValues.append(0)
    editIndex.append(-1)
    audit.addVariable()
    return v
  }

  public var variableCount: Int { variableSymbols.count }

  public func name(of variable: Variable) -> String {
    var low = 0
    var high = variableNames.count
    while low < high {
      let middle = (low + high) / 2
      if variableNames[middle].index < variable.index { low = middle + 1 } else { high = middle }
    }
    return low < variableNames.count && variableNames[low].index == variable.index
      ? variableNames[low].name : ""
  }

  /// The value computed by the last read-out. ``updateVariables()`` copies every changed
  /// value as computed. ``updateVariables(_:)``, which reports the variables that moved,
  /// keeps a variable's value when the new one is within round-off of it (1e-12 plus 1e-14
  /// of its magnitude) and does not report it: rows that reach the same value through other
  /// pivots land an ulp apart, and a client that acts on each move (a view tree) must not
  /// take that for one. Both copy only the values that changed since the last read-out, so
  /// a reading held by a reporting read-out stays until the value changes again, whichever
  /// read-out comes next: it is always within that threshold of the value computed.
  /// Inlinable: a layout pass reads four values per child, and the call was most of what it
  /// cost.
  @inlinable public func value(of variable: Variable) -> Double {
    variableValues[Int(variable.index)]
  }

  /// Calls `body` with the values of the last read-out, indexed by `Variable.index`: for a
  /// client that reads the values of many variables in one loop (a list copying its
  /// children's frames), without a call and a bounds check per value. `body` must not call
  /// into this solver: the buffer is the solver's own array, open while `body` runs.
  @inlinable package func withUnsafeValues<R>(_ body: (UnsafeBufferPointer<Double>) -> R) -> R {
    variableValues.withUnsafeBufferPointer(body)
  }

  /// Copies the current solution into the variables' values. Only variables whose rows
  /// changed since the last call are visited, so a tick that moves few values is cheap.
  public func updateVariables() {
    screenOperation()
    copyChangedValues()
  }

  /// Like ``updateVariables()``, and calls `didChange` for each variable whose value moved
  /// beyond round-off (a value within it keeps its reading, as ``value(of:)`` says), so a
  /// client (a view tree) can act on exactly what moved. `didChange` may
  /// call the solver again: the changes are collected first and reported after, when no
  /// access to the solver's state is open.
  public func updateVariables(_ didChange: (Variable, Double) -> Void) {
    updateVariables(collectingMoved: { moved in
      for index in moved { didChange(Variable(index: index), variableValues[Int(index)]) }
    })
  }

  /// Like ``updateVariables(_:)`` for a client in this package that acts on the moved
  /// variables in a loop of its own: `body` gets the indices (`Variable.index`) of every
  /// variable whose value moved beyond round-off (as ``value(of:)`` says), once, valid while
  /// it runs. It may call the
  /// solver (the read-out is over). Handing over the list, rather than calling a closure
  /// per moved value during the copy, lets the client keep its state in registers through
  /// a loop of its own: a layout engine that lists the moved views for their superviews
  /// took 3% fewer instructions per text tick of 1,000 children in a row this way (107,879
  /// -> 104,629), and 4% fewer on a feed of 1,000 cells.
  package func updateVariables(collectingMoved body: (UnsafeBufferPointer<Int32>) -> Void) {
    screenOperation()
    var moved: [Int32] = []
    swap(&moved, &movedVariables)
    defer { swap(&moved, &movedVariables) }
    // Scratch as long as the most values one read-out ever reported (never shrunk, so a
    // steady state appends nothing). Written over a raw buffer: checked array writes cost a
    // uniqueness check each.
    let most = tableau.changedExternals.count &+ tableau.unlistedExternalCount
    if moved.count < most { moved.append(contentsOf: repeatElement(0, count: most &- moved.count)) }
    var count = 0
    moved.withUnsafeMutableBufferPointer { moved in
      copyChangedValues { index in
        moved[count] = Int32(truncatingIfNeeded: index)
        count &+= 1
      }
    }
    moved.withUnsafeBufferPointer { moved in body(UnsafeBufferPointer(rebasing: moved[..<count])) }
  }

  /// Ends every operation that can move values: when it changed rows, the values changed
  /// since the last check are checked now rather than at the next read-out, then damage is
  /// repaired (as at a read-out, check and repair alternate a bounded number of times).
  ///
  /// Checked only at read-out, drift that one operation made could be hidden by the next:
  /// seed 3501287 of 2-200 boxes, with stop 35's sign rule, left values after a suggestion
  /// that broke a required constraint; the next suggestion moved them to where every
  /// required constraint held again, with the rows still off, and the read-out after it
  /// passed the audit with strong preferences 2.9e-6 from their optimum. A read-out
  /// between the two suggestions caught it (and the rebuild made the run pass).
  func finishOperation() {
    screenOperation()
    // Tested first: a store of `nil` releases the old value, a call per operation.
    if overturnedRefusal != nil { overturnedRefusal = nil }
    // A state that no rebuild held, and that one refused, breaks the invariants by
    // definition, and is not checked: an operation that can make the required constraints
    // infeasible is undone (`refuseUnrepairable`), which checks them after; another keeps
    // that state (see `rebuildsRefused`), unchecked, as when every rebuild refused before
    // stop 73.
    if !rebuildsRefused { checkInvariants() }
  }

  /// The check and repair of `finishOperation()`, also run after a refusal restored the
  /// solver (the pivots that undid the refused operation changed rows too) and before a
  /// read-out hands values out.
  ///
  /// A value that is not a number, or a required constraint that the values break beyond
  /// round-off, is damage, and the tableau is rebuilt (`Solver+Recovery.swift`). Only the
  /// constraints of variables whose values changed since the last check are evaluated: the
  /// others hold as they did then. A repair can pivot (an objective refresh re-optimises),
  /// and the values it moves are checked like any others: check and repair alternate, a
  /// bounded number of times. Every operation ends here, so a read-out finds work only when
  /// that bound left a repair pending.
  func screenOperation() {
    for _ in 0..<3 {
      if tableau.needsAudit {
        // The values a cached shift moved in this operation are listed first: the check
        // reads only the lists (a suggestion batch that shifted through a column after an
        // operation left a check pending).
        tableau.settleShifts()
        takeDisowned()
        let hold =
          tableau.shiftDrift > tableau.shiftBudget
          ? checkDrift() : changedValuesHold(includingOwned: tableau.shiftedThroughCache)
        if !hold { tableau.damaged = true }
        tableau.shiftedThroughCache = false
        tableau.markChecked()
        tableau.markAudited()
      }
      guard tableau.needsRepair else { return }
      repairIfDamaged()
    }
  }

  /// Starts checking the constraints whose rows stopped being their own equations
  /// (`Tableau+OwnRows.swift`) since the last call.
  @inline(__always) func takeDisowned() {
    if !tableau.disowned.isEmpty { exposeDisowned() }
  }

  private func exposeDisowned() {
    for record in tableau.disowned {
      audit.expose(record: record, symbolVariables: symbolVariables)
    }
    tableau.disowned.removeAll(keepingCapacity: true)
  }

  func mapSymbol(_ symbol: Symbol, to variable: Variable) {
    while symbolVariables.count <= symbol.index { symbolVariables.append(-1) }
    symbolVariables[symbol.index] = variable.index
  }

  /// After an operation threw ``SolverError/unsatisfiableConstraint(_:)``: the required
  /// constraints in the solver that cannot hold together with the refused constraint (or
  /// its new constant). It names a conflicting set, not always the smallest one; it is empty
  /// when the refused constraint contradicts itself (`0 == 1`) or after any other outcome.
  @exclusivity(unchecked) public internal(set) var conflictingConstraints: [Constraint] = []

  /// Empties `conflictingConstraints` as an operation starts (every public operation that
  /// can change the solver, so that the list is the last operation's). An empty list is
  /// left as it is: assigning `[]` released the old array, a call into the runtime per
  /// operation.
  @inline(__always) func clearConflicts() {
    if !conflictingConstraints.isEmpty { conflictingConstraints = [] }
    // A failed simplex search of an earlier operation that refused nothing (its tableau was
    // rebuilt) must not name this operation's conflicts.
    if !tableau.blockingSymbols.isEmpty { tableau.blockingSymbols = [] }
    // Set by an earlier operation or read-out whose undoing was not its to do.
    rebuildsRefused = false
    if !unrepairableConflicts.isEmpty { unrepairableConflicts = [] }
    if overturnedRefusal != nil { overturnedRefusal = nil }
  }

  /// Work done since the solver was created.
  public var counters: SolverCounters { tableau.counters }

  // MARK: - Constraints

  /// Adds a constraint.
  /// - Throws: ``SolverError/duplicateConstraint(_:)``, ``SolverError/nonFiniteConstraint(_:)``,
  ///   ``SolverError/coefficientOutOfRange(_:_:)``, ``SolverError/constantOutOfRange(_:_:)``,
  ///   ``SolverError/unknownVariable(_:)``, ``SolverError/requiredSplitStrength(_:)``,
  ///   ``SolverError/unsatisfiableConstraint(_:)``.
  public func addConstraint(_ constraint: Constraint) throws(SolverError) {
    tableau.settleShifts()
    clearConflicts()
    guard recordIndex(of: constraint) == nil else {
      throw .duplicateConstraint(constraint)
    }
    // `verifyingRefusal` spelled out: its closure's context retained the solver and the
    // constraint even when the insertion succeeds.
    do throws(SolverError) {
      try insertWhole(constraint)
    } catch {
      try verifyRefusal(error, retrying: { () throws(SolverError) in try insertWhole(constraint) })
    }
    finishOperation()
    // Only a required constraint can make the required constraints infeasible: a refusal
    // met by another operation is round-off, and the least broken rebuild is kept.
    if rebuildsRefused && constraint.strength.isRequired {
      try refuseUnrepairable(constraint) {
        if let index = recordIndex(of: constraint) { erase(record: index) }
      }
    }
  }

  /// Changes the constant of a constraint in the solver. (Its record is looked up at each
  /// attempt: a rebuild renumbers the records.)
  @inline(__always) private func changeConstant(
    of constraint: Constraint, to constant: Double
  ) throws(SolverError) {
    try changeConstant(record: Int(recordIndex(of: constraint)!), to: constant)
  }

  /// Inserts a constraint that is not in the solver, with its own constant and strengths.
  @inline(__always) private func insertWhole(_ constraint: Constraint) throws(SolverError) {
    try insert(
      constraint, constant: constraint.expression.constant, strength: constraint.strength,
      shortfall: constraint.shortfallStrength)
  }

  /// Removes a constraint.
  /// - Throws: ``SolverError/unknownConstraint(_:)``.
  public func removeConstraint(_ constraint: Constraint) throws(SolverError) {
    tableau.settleShifts()
    clearConflicts()
    guard let index = recordIndex(of: constraint) else {
      throw .unknownConstraint(constraint)
    }
    erase(record: index)
    finishOperation()
  }

  public func hasConstraint(_ constraint: Constraint) -> Bool {
    recordIndex(of: constraint) != nil
  }

  /// Number of constraints added by the user (edit variables not included).
  public var constraintCount: Int { constraintIndex.count - edits.count }

  /// The index of the record holding `constraint`, nil when the solver does not hold it
  /// (`ConstraintIndex`). Each index found is checked against its record.
  @inline(__always) func recordIndex(of constraint: Constraint) -> Int32? {
    // The index read field by field: a method of the index called here copied it, its
    // table retained and released, twice per constraint added.
    if constraint.placeOwner.load(ordering: .relaxed) == constraintIndex.token {
      let r = Int(constraint.placeRecord.load(ordering: .relaxed))
      if holds(record: r, constraint) { return Int32(r) }
    }
    // The table is read only when it holds something: in a solver whose constraints are
    // its own (the usual case), a lookup of a constraint it does not hold (every
    // `addConstraint` checks that first) costs no hash.
    guard constraintIndex.table.count > 0 else { return nil }
    return tableRecord(of: constraint)
  }

  /// Whether the record at `index` holds `constraint`.
  @inline(__always) private func holds(record index: Int, _ constraint: Constraint) -> Bool {
    records.withReadBuffer { records in
      index < records.count
        && records[index].constraint.map(ObjectIdentifier.init) == ObjectIdentifier(constraint)
    }
  }

  /// `recordIndex(of:)` through the table: a constraint another solver claimed.
  @inline(never) private func tableRecord(of constraint: Constraint) -> Int32? {
    guard let r = constraintIndex.table[ObjectIdentifier(constraint)],
      holds(record: Int(r), constraint)
    else { return nil }
    return r
  }

  /// The current constant of a constraint's expression (`expression relation 0`).
  public func constant(of constraint: Constraint) -> Double? {
    recordIndex(of: constraint).map { records[Int($0)].constant }
  }

  /// The current strength of a constraint (of an excess, when its directions weigh
  /// differently).
  public func strength(of constraint: Constraint) -> Strength? {
    recordIndex(of: constraint).map { records[Int($0)].strength }
  }

  /// The current weight of a constraint's shortfall (see ``Constraint/shortfallStrength``).
  public func shortfallStrength(of constraint: Constraint) -> Strength? {
    recordIndex(of: constraint).map { records[Int($0)].shortfall }
  }

  /// Changes the constant of a constraint's expression (`expression relation 0`) in place:
  /// the tableau rows are shifted and re-optimised by the dual simplex, with no removal and
  /// no re-insertion. This is Auto Layout's fast path for `constant` changes.
  /// - Throws: ``SolverError/unknownConstraint(_:)``, ``SolverError/nonFiniteValue(_:)``,
  ///   ``SolverError/valueOutOfRange(_:)``, and
  ///   ``SolverError/unsatisfiableConstraint(_:)`` when a required constraint can no longer
  ///   hold (the old constant is then restored).
  public func setConstant(_ constant: Double, of constraint: Constraint) throws(SolverError) {
    tableau.settleShifts()
    clearConflicts()
    guard let index = recordIndex(of: constraint) else {
      throw .unknownConstraint(constraint)
    }
    try checkValue(constant)
    let old = records[Int(index)].constant
    // `verifyingRefusal` spelled out (see `addConstraint`).
    do throws(SolverError) {
      try changeConstant(of: constraint, to: constant)
    } catch {
      try verifyRefusal(
        error,
        retrying: { () throws(SolverError) in try changeConstant(of: constraint, to: constant) })
    }
    finishOperation()
    if rebuildsRefused && strength(of: constraint)?.isRequired == true {
      try refuseUnrepairable(constraint) {
        setConstant(ofRecord: Int(recordIndex(of: constraint)!), to: old)
      }
    }
  }

  /// Changes the constants of several constraints in place, then brings the values up to
  /// date and re-optimises once. When many constants change together (every label of a list
  /// after a resize), each change alone would move the values of everything that depends on
  /// it, once per change; together they move once. All changes are checked before any is
  /// applied; later changes of the same constraint win.
  /// - Throws: ``SolverError/unknownConstraint(_:)``, ``SolverError/nonFiniteValue(_:)``,
  ///   ``SolverError/valueOutOfRange(_:)``, and
  ///   ``SolverError/unsatisfiableConstraint(_:)`` when the required constraints cannot all
  ///   hold with the new constants; every constant is then restored, and the error names the
  ///   first required constraint of the batch (only those can conflict).
  public func setConstants(_ changes: [(Constraint, Double)]) throws(SolverError) {
    tableau.settleShifts()
    clearConflicts()
    // Each constraint is looked up once; the records go to `changeConstants` in a reused
    // buffer.
    var batch: [(record: Int, constant: Double)] = []
    let rebuildsBefore = tableau.counters.rebuilds
    swap(&batch, &constantBatch)
    defer {
      batch.removeAll(keepingCapacity: true)
      swap(&batch, &constantBatch)
    }
    for (constraint, constant) in changes {
      guard let index = recordIndex(of: constraint) else {
        throw .unknownConstraint(constraint)
      }
      try checkValue(constant)
      batch.append((Int(index), constant))
    }
    // The old constants, in the batch's order, for `refuseUnrepairable` (a reused buffer).
    var old: [Double] = []
    swap(&old, &constantBatchOld)
    defer {
      old.removeAll(keepingCapacity: true)
      swap(&old, &constantBatchOld)
    }
    for change in batch { old.append(records[change.record].constant) }
    try verifyingRefusal { () throws(SolverError) in
      if tableau.counters.rebuilds != rebuildsBefore {
        // A rebuild renumbered the records.
        for i in batch.indices {
          batch[i].record = Int(recordIndex(of: changes[i].0)!)
        }
      }
      try changeConstants(batch)
    }
    finishOperation()
    // Only a required constant that moves can make the required constraints infeasible.
    // The refusal names it as `changeConstants` names a refusal: the first required change
    // that moves a constant. Restored newest first: a constraint changed twice goes back to
    // its first constant.
    if rebuildsRefused,
      let first = changes.indices.first(where: {
        changes[$0].1 != old[$0] && strength(of: changes[$0].0)?.isRequired == true
      })
    {
      let culprit = changes[first].0
      try refuseUnrepairable(culprit) {
        for i in changes.indices.reversed() {
          setConstant(ofRecord: Int(recordIndex(of: changes[i].0)!), to: old[i])
        }
      }
    }
  }

  /// Changes a constraint's strength in place, both directions of a split equality alike.
  /// Between non-required strengths this only reweighs the objective; to or from required
  /// the constraint is re-inserted.
  /// - Throws: ``SolverError/unknownConstraint(_:)``, and
  ///   ``SolverError/unsatisfiableConstraint(_:)`` when it cannot become required (the old
  ///   strength is then kept).
  public func setStrength(_ strength: Strength, of constraint: Constraint) throws(SolverError) {
    tableau.settleShifts()
    clearConflicts()
    guard let index = recordIndex(of: constraint) else {
      throw .unknownConstraint(constraint)
    }
    let old = records[Int(index)]
    try verifyingRefusal { () throws(SolverError) in
      // Looked up again: a rebuild renumbers the records.
      try changeStrength(record: Int(recordIndex(of: constraint)!), to: strength)
    }
    finishOperation()
    if rebuildsRefused && strength.isRequired {
      try refuseUnrepairable(constraint) {
        restoreStrengths(of: constraint, old.strength, old.shortfall)
      }
    }
  }

  /// Changes the weights of an equality's two directions in place (see
  /// ``Constraint/init(_:equalWithExcess:shortfall:)``). Between non-required weights only
  /// the objective is reweighed; to or from required the constraint is re-inserted (equal
  /// weights make it an ordinary equality at that strength, required included).
  /// - Throws: ``SolverError/unknownConstraint(_:)``, and
  ///   ``SolverError/requiredSplitStrength(_:)`` when the weights differ and the constraint is
  ///   not an equality or either weight is required (nothing is then changed), and
  ///   ``SolverError/unsatisfiableConstraint(_:)`` when equal required weights cannot hold.
  public func setStrengths(
    excess: Strength, shortfall: Strength, of constraint: Constraint
  ) throws(SolverError) {
    tableau.settleShifts()
    clearConflicts()
    guard let index = recordIndex(of: constraint) else {
      throw .unknownConstraint(constraint)
    }
    let old = records[Int(index)]
    try verifyingRefusal { () throws(SolverError) in
      try changeStrength(
        record: Int(recordIndex(of: constraint)!), to: excess,
        shortfall: shortfall)
    }
    finishOperation()
    if rebuildsRefused && excess.isRequired {
      try refuseUnrepairable(constraint) {
        restoreStrengths(of: constraint, old.strength, old.shortfall)
      }
    }
  }

  // MARK: - Edit variables

  /// Makes `variable` an edit variable whose value is then set with ``suggestValue(_:_:)``.
  /// - Throws: ``SolverError/duplicateEditVariable(_:)``,
  ///   ``SolverError/requiredEditStrength(_:)``, ``SolverError/unknownVariable(_:)``.
  public func addEditVariable(_ variable: Variable, strength: Strength) throws(SolverError) {
    tableau.settleShifts()
    clearConflicts()
    guard isKnown(variable) else { throw .unknownVariable(variable) }
    guard editIndex[Int(variable.index)] < 0 else { throw .duplicateEditVariable(variable) }
    guard !strength.isRequired else { throw .requiredEditStrength(variable) }
    let constraint = Constraint(Expression(variable), .equal, strength: strength)
    let record = try insert(constraint, constant: 0, strength: strength)
    editIndex[Int(variable.index)] = Int32(edits.count)
    edits.append(EditRecord(variable: variable, constraint: constraint, record: record, value: 0))
    finishOperation()
  }

  /// - Throws: ``SolverError/unknownEditVariable(_:)``.
  public func removeEditVariable(_ variable: Variable) throws(SolverError) {
    tableau.settleShifts()
    clearConflicts()
    guard isKnown(variable), editIndex[Int(variable.index)] >= 0 else {
      throw .unknownEditVariable(variable)
    }
    removeEdit(at: Int(editIndex[Int(variable.index)]))
    finishOperation()
  }

  public func hasEditVariable(_ variable: Variable) -> Bool {
    isKnown(variable) && editIndex[Int(variable.index)] >= 0
  }

  /// Suggests a value for an edit variable and re-solves with the dual simplex.
  /// - Throws: ``SolverError/unknownEditVariable(_:)``, ``SolverError/nonFiniteValue(_:)``,
  ///   ``SolverError/valueOutOfRange(_:)``.
  public func suggestValue(_ variable: Variable, _ value: Double) throws(SolverError) {
    clearConflicts()
    try checkSuggestion(variable, value)
    applySuggestion(edit: Int(editIndex[Int(variable.index)]), value: value)
    finishSuggestions()
  }

  /// Suggests values for several edit variables, then re-solves once. All suggestions are
  /// checked before any is applied.
  ///
  /// The batch APIs take arrays rather than any collection: called from another module, a
  /// generic collection is read through its witness table, and each element read allocated
  /// (a coroutine frame), which showed up as an allocation per element in every tick.
  /// - Throws: ``SolverError/unknownEditVariable(_:)``, ``SolverError/nonFiniteValue(_:)``,
  ///   ``SolverError/valueOutOfRange(_:)``.
  public func suggestValues(_ suggestions: [(Variable, Double)]) throws(SolverError) {
    clearConflicts()
    for (variable, value) in suggestions { try checkSuggestion(variable, value) }
    for (variable, value) in suggestions {
      applySuggestion(edit: Int(editIndex[Int(variable.index)]), value: value)
    }
    finishSuggestions()
  }

  private func checkSuggestion(_ variable: Variable, _ value: Double) throws(SolverError) {
    guard isKnown(variable), editIndex[Int(variable.index)] >= 0 else {
      throw .unknownEditVariable(variable)
    }
    try checkValue(value)
  }

  /// A suggested value or a new constant must be finite and within ``Limits``.
  private func checkValue(_ value: Double) throws(SolverError) {
    guard value.isFinite else { throw .nonFiniteValue(value) }
    guard Limits.accepts(constant: value) else { throw .valueOutOfRange(value) }
  }

  private func finishSuggestions() {
    // Edit constraints are never required, so their errors can always absorb a suggestion: a
    // row the dual simplex cannot repair is negative by round-off only. In a canonical
    // tableau it is left; a lazy one is rebuilt, since there that round-off can be damage
    // that grows.
    // After an ill-conditioned pivot, too: the objective refresh that follows runs the
    // primal simplex, which needs a feasible basis.
    if !tableau.dualOptimize() && (tableau.lazy || tableau.objectiveSuspect) {
      tableau.damaged = true
    }
    finishOperation()
  }

  // MARK: - Reset

  /// Removes every constraint and edit variable. Variables stay valid, with value 0.
  public func reset() {
    clearConflicts()
    empty(lazy: representation == .lazy, counters: tableau.counters)
    for i in variableValues.indices { variableValues[i] = 0 }
  }

  /// A new empty tableau (keeping the work counters) with a fresh external symbol per
  /// variable, and no constraints or edits: what `reset()` leaves and `rebuild` fills.
  func empty(lazy: Bool, counters: SolverCounters) {
    tableau = Tableau(lazy: lazy)
    tableau.counters = counters
    symbolVariables = []
    for i in variableSymbols.indices {
      variableSymbols[i] = tableau.newSymbol(.external)
      mapSymbol(variableSymbols[i], to: Variable(index: Int32(i)))
      editIndex[i] = -1
    }
    constraintIndex.removeAll()
    records = []
    freeRecords = []
    edits = []
    audit.removeAll()
  }

  func isKnown(_ variable: Variable) -> Bool {
    variable.index >= 0 && Int(variable.index) < variableSymbols.count
  }
}
