import Cassowary

// What happens after the build: rounds of suggestions, removals, re-additions, in-place
// constant and strength changes and edit variables coming and going, each round ending in a
// checkpoint. A model of the system is stepped along so that every operation is valid (a
// removal names an active constraint) and keeps the witness a solution of the required set.

extension CaseGenerator {
  /// The whole case: boxes, the build in shuffled order, the rounds.
  mutating func makeCase() -> FuzzCase {
    makeBoxes()
    let bare = FuzzCase(
      seed: seed, boxCount: boxCount, vertical: style.vertical, variableNames: names,
      witness: witness, constraints: constraints, operations: [])
    var run = OperationLog(model: FuzzModel(bare))

    var order = Array(constraints.indices)
    rng.shuffle(&order)
    // The root's edit variables usually come after the constraints, as when a window opens,
    // and sometimes in the middle of the build.
    var rootEdits: [FuzzOperation] = [
      .addEdit(variable: 1, strength: rng.pick([.strong, .medium]))
    ]
    if style.vertical && rng.chance(0.5) {
      rootEdits.append(.addEdit(variable: 3, strength: rng.pick([.strong, .medium])))
    }
    let editPoint = rng.chance(0.3) ? rng.int(in: 0...order.count) : order.count
    for (i, c) in order.enumerated() {
      if i == editPoint { addEdits(rootEdits, &run) }
      run.append(.add(c))
    }
    if editPoint == order.count { addEdits(rootEdits, &run) }
    appendProbe(&run)
    run.append(.checkpoint)

    for _ in 0..<rng.int(in: 1...6) {
      for _ in 0..<rng.int(in: 1...8) { randomOperation(&run) }
      appendProbe(&run)
      run.append(.checkpoint)
    }
    return FuzzCase(
      seed: seed, boxCount: boxCount, vertical: style.vertical, variableNames: names,
      witness: witness, constraints: constraints, operations: run.operations)
  }

  /// The edit variables, each followed by a suggestion of its witness value.
  private mutating func addEdits(_ edits: [FuzzOperation], _ run: inout OperationLog) {
    for edit in edits {
      guard case .addEdit(let v, _) = edit else { continue }
      run.append(edit)
      run.append(.suggest([FuzzSuggestion(variable: v, value: witness[v])]))
    }
  }

  // MARK: - Rounds

  private mutating func randomOperation(_ run: inout OperationLog) {
    let model = run.model
    // Tie-breakers stay as they are: they keep the optimum unique.
    let active = constraints.indices.filter {
      model.isActive($0) && constraints[$0].role != .tieBreaker
    }
    let removed = constraints.indices.filter { model.status[$0] == .removed }
    switch rng.int(in: 0...15) {
    case 0...2 where !model.edits.isEmpty:
      let edit = rng.pick(model.edits)
      let first = suggestion(for: edit.variable)
      run.append(.suggest([first]))
      appendDrag(from: first, &run)
    case 3 where !model.edits.isEmpty:
      run.append(.suggest(model.edits.map { suggestion(for: $0.variable) }))
    case 4...5 where !active.isEmpty:
      run.append(.remove(rng.pick(active)))
    case 6...7 where !removed.isEmpty:
      run.append(.add(rng.pick(removed)))
    case 8...9 where !active.isEmpty:
      let c = rng.pick(active)
      run.append(.setConstant(c, newConstant(c, model)))
    case 10 where !active.isEmpty:
      var picked = active
      rng.shuffle(&picked)
      let changes = picked.prefix(rng.int(in: 2...5)).map {
        FuzzConstantChange(constraint: $0, constant: newConstant($0, model))
      }
      run.append(.setConstants(changes))
    case 11...12 where !active.isEmpty:
      let c = rng.pick(active)
      let strength = newStrength(c, model)
      let splittable = constraints[c].relation == .equal && constraints[c].role != .tieBreaker
      let shortfall = splittable ? splitShortfall(strength) : nil
      run.append(.setStrength(c, strength, shortfall: shortfall))
    case 13:
      let candidates = names.indices.filter { !model.isEdit($0) }
      guard !candidates.isEmpty else { return }
      let v = rng.pick(candidates)
      run.append(.addEdit(variable: v, strength: softStrength()))
      if rng.chance(0.8) { run.append(.suggest([suggestion(for: v)])) }
    case 14 where !model.edits.isEmpty:
      run.append(.removeEdit(variable: rng.pick(model.edits).variable))
    default:
      run.append(.checkpoint)
    }
  }

  /// Half the time (with `drags`), a drag after a suggestion: 3 to 12 more suggestions of
  /// the same variable, each a few points from its last, as a window edge or a divider
  /// dragged by hand. A run of suggestions of one edit without pivots goes through a cached
  /// column, whose restricted values wait in the column while the shifts stay inside their
  /// bounds (`Tableau+ShiftCache.swift`); steps of a few points often do. From `dragRng`,
  /// so that the main stream, and every other operation, stays as it was.
  ///
  /// A third of the drags, when there is another edit, move both in turn, each from its
  /// last suggestion (a window's width and height dragged at a corner): two columns then
  /// wait for the same read-out.
  private mutating func appendDrag(from start: FuzzSuggestion, _ run: inout OperationLog) {
    guard drags, dragRng.chance(0.5) else { return }
    var dragged = [(variable: start.variable, value: start.value)]
    let others = run.model.edits.filter { $0.variable != start.variable }
    if !others.isEmpty && dragRng.chance(1.0 / 3) {
      let other = others[dragRng.int(in: 0...(others.count - 1))]
      dragged.append((other.variable, other.suggestion))
    }
    for step in 0..<dragRng.int(in: 3...12) {
      let i = step % dragged.count
      dragged[i].value += Double(dragRng.int(in: -6...6))
      run.append(
        .suggest([FuzzSuggestion(variable: dragged[i].variable, value: dragged[i].value)]))
    }
  }

  /// Around the variable's witness value: a window dragged narrower or wider, a box moved.
  /// Edits are never required, so any value is valid; values below what the required
  /// constraints allow just leave the edit unsatisfied.
  private mutating func suggestion(for v: Int) -> FuzzSuggestion {
    let reach = max(100, Int(witness[v]))
    let offset = Double(rng.int(in: -(reach / 2)...reach))
    return FuzzSuggestion(variable: v, value: witness[v] + offset)
  }

  /// A required constraint's constant only moves to where the witness still satisfies it:
  /// loosened, or tightened at most to the witness (exactly tight with `tightness`). An
  /// equality's cannot move at all and is set to itself. Other constants move freely.
  private mutating func newConstant(_ c: Int, _ model: FuzzModel) -> Double {
    guard model.strengths[c].isRequired else {
      return model.constants[c] + Double(rng.int(in: -100...100))
    }
    let slack = rng.chance(style.tightness) ? 0 : Double(rng.int(in: 0...40))
    switch constraints[c].relation {
    case .equal: return model.constants[c]
    case .greaterOrEqual: return model.tightConstant(c) + slack
    case .lessOrEqual: return model.tightConstant(c) - slack
    }
  }

  /// Required becomes soft; soft becomes another soft strength, or required when the
  /// witness satisfies the constraint at its current constant.
  private mutating func newStrength(_ c: Int, _ model: FuzzModel) -> Strength {
    if !model.strengths[c].isRequired && model.witnessSatisfies(c, constant: model.constants[c])
      && rng.chance(0.4)
    {
      return .required
    }
    return softStrength()
  }
}

/// The operations drawn so far and the model they lead to.
struct OperationLog {
  var model: FuzzModel
  var operations: [FuzzOperation] = []

  mutating func append(_ operation: FuzzOperation) {
    operations.append(operation)
    model.apply(operation)
  }
}

extension FuzzCase {
  /// The case of `seed`, its box count drawn from `boxes`. Without `splits`, no soft
  /// equality weighs its directions apart: the case as it was before split equalities.
  /// Without `drags`, no suggestion is followed by a drag: the case as it was before drags.
  /// Without `probes`, no round ends with a probe: the case as it was before probes.
  public init(
    seed: UInt64, boxes: ClosedRange<Int>, splits: Bool = true, drags: Bool = true,
    probes: Bool = true
  ) {
    var generator = CaseGenerator(
      seed: seed, boxes: boxes, splits: splits, drags: drags, probes: probes)
    self = generator.makeCase()
  }
}
