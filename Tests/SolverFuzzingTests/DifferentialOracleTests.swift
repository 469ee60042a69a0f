import Cassowary
import SolverFuzzing
import Testing

/// The oracle must notice wrong answers and must not flag round-off: it is handed the
/// reference solution, perturbed copies of it, and the witness (feasible, not optimal).
@Suite struct DifferentialOracleTests {
  /// A mid-sized case's model and reference at its first checkpoint (after the build).
  /// Without `splits` the case is the one these tests chose their seeds from, before split
  /// equalities.
  static func firstCheckpoint(
    seed: UInt64, splits: Bool = false
  ) -> (FuzzModel, DifferentialOracle.Reference) {
    let fuzzCase = FuzzCase(seed: seed, boxes: 10...30, splits: splits)
    var model = FuzzModel(fuzzCase)
    for operation in fuzzCase.operations {
      model.apply(operation)
      if case .checkpoint = operation { break }
    }
    return (model, DifferentialOracle.freshSolve(model))
  }

  static func solved(_ reference: DifferentialOracle.Reference) throws -> [Double] {
    guard case .solved(let values) = reference else {
      Issue.record("the reference solve failed: \(reference)")
      throw CancellationError()
    }
    return values
  }

  @Test func theReferenceAndItsRoundOffPass() throws {
    for seed in 0..<UInt64(5) {
      let (model, reference) = Self.firstCheckpoint(seed: seed)
      let values = try Self.solved(reference)
      #expect(DifferentialOracle.judge(values, model: model, reference: reference) == nil)
      // Relative noise of 1e-13, what a different pivot order leaves, is not a failure.
      let noisy = values.enumerated().map { i, v in v * (1 + (i % 2 == 0 ? 1e-13 : -1e-13)) }
      #expect(DifferentialOracle.judge(noisy, model: model, reference: reference) == nil)
    }
  }

  @Test func aBrokenRequiredConstraintIsCaught() throws {
    let (model, reference) = Self.firstCheckpoint(seed: 3)
    var values = try Self.solved(reference)
    // b0.x == 0 is required and in at the first checkpoint.
    values[0] += 1e-3
    let verdict = DifferentialOracle.judge(values, model: model, reference: reference)
    #expect(verdict?.contains("required constraint c0: b0.x == 0") == true, "\(verdict ?? "nil")")
  }

  /// The witness satisfies every required constraint but ignores the preferences, so its
  /// weighted error is above the optimum's. (Not for every seed: seed 2's witness misses the
  /// optimum by 0.3 of weak-level error under 1.6e9 of strong violations, inside the band.)
  @Test func aFeasibleButWorseSolutionIsCaught() {
    for seed: UInt64 in [0, 1, 3, 4, 5, 6, 7, 8, 9] {
      let (model, reference) = Self.firstCheckpoint(seed: seed)
      let witness = model.fuzzCase.witness
      #expect(model.requiredProblem(witness) == nil)
      let verdict = DifferentialOracle.judge(witness, model: model, reference: reference)
      #expect(verdict?.hasPrefix("weighted error") == true, "seed \(seed): \(verdict ?? "nil")")
    }
    // A tighter band sees seed 2's miss too.
    let (model, reference) = Self.firstCheckpoint(seed: 2)
    let witness = model.fuzzCase.witness
    #expect(DifferentialOracle.judge(witness, model: model, reference: reference) == nil)
    #expect(
      DifferentialOracle.judge(witness, model: model, reference: reference, tolerance: 1e-12)
        != nil)
  }

  /// A solution that is worse by a single weak constraint's worth, the smallest miss that
  /// matters, is still caught.
  @Test func aWeakMissIsCaught() throws {
    let (model, reference) = Self.firstCheckpoint(seed: 4)
    var values = try Self.solved(reference)
    // Move an edit variable (the root width, never otherwise constrained to a point) by one:
    // the edit's error alone grows by at least its strength, medium or strong.
    values[1] += 1
    let verdict = DifferentialOracle.judge(values, model: model, reference: reference)
    #expect(verdict != nil)
  }

  @Test func nonFiniteValuesAndAFailedReferenceAreCaught() throws {
    let (model, reference) = Self.firstCheckpoint(seed: 2)
    var values = try Self.solved(reference)
    let refused = DifferentialOracle.Reference.refused("add c9 threw unsatisfiable")
    #expect(
      DifferentialOracle.judge(values, model: model, reference: refused)?.contains(
        "fresh canonical solve") == true)
    values[2] = .nan
    #expect(
      DifferentialOracle.judge(values, model: model, reference: reference)?.contains(
        "not finite") == true)
  }

  /// With split equalities: an excess weighs the constraint's strength, a shortfall its
  /// shortfall strength.
  @Test(arguments: [false, true])
  func theWeightedErrorSumsStrengthTimesViolation(splits: Bool) throws {
    let (model, reference) = Self.firstCheckpoint(seed: 1, splits: splits)
    let values = try Self.solved(reference)
    var expected = 0.0
    var splitMisses = 0
    for (c, constraint) in model.fuzzCase.constraints.enumerated()
    where model.isActive(c) && !model.strengths[c].isRequired {
      let r = constraint.residual(values, constant: model.constants[c])
      let violation =
        switch constraint.relation {
        case .equal: abs(r)
        case .lessOrEqual: max(0, r)
        case .greaterOrEqual: max(0, -r)
        }
      // Within round-off (1e-7 of the terms' magnitude, plus 1e-7) it counts as none.
      let noise = 1e-7 * (constraint.scale(values, constant: model.constants[c]) + 1)
      guard violation > noise else { continue }
      if let shortfall = model.shortfalls[c], r < 0 {
        expected += shortfall.value * violation
        splitMisses += 1
      } else {
        expected += model.strengths[c].value * violation
      }
    }
    #expect(splits || splitMisses == 0)
    #expect(!splits || splitMisses > 0, "a split equality missed in its shortfall direction")
    for edit in model.edits {
      let value = values[edit.variable]
      let noise = 1e-7 * (abs(value) + abs(edit.suggestion) + 1)
      let miss = abs(value - edit.suggestion)
      if miss > noise { expected += edit.strength.value * miss }
    }
    #expect(abs(model.weightedError(values) - expected) <= 1e-9 * max(1, expected))
    #expect(model.edits.count >= 1, "the root width is an edit variable")
  }
}
