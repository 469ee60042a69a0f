@testable import Cassowary
import Testing

/// Equalities that weigh their two directions apart
/// (`Constraint(_:equalWithExcess:shortfall:)`): `x - 10 == 0` with an excess (x above 10)
/// at one weight and a shortfall (x below 10) at another, the objective of the pair
/// `x <= 10` at the excess weight and `x >= 10` at the shortfall weight, in one row.
@Suite struct SplitEqualityTests {
  /// `x == 10`, an excess at `excess` and a shortfall at `shortfall`, against a medium pull
  /// to `target`: the pull wins only in a direction weaker than medium.
  static func pulled(
    _ representation: Solver.Representation, excess: Strength, shortfall: Strength,
    target: Double
  ) throws -> Double {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    try solver.addConstraint(
      Constraint(Expression(x) - 10, equalWithExcess: excess, shortfall: shortfall))
    try solver.addConstraint((x == target) | .medium)
    solver.updateVariables()
    return solver.value(of: x)
  }

  @Test(arguments: representations)
  func eachDirectionHasItsOwnWeight(_ representation: Solver.Representation) throws {
    // A weak excess gives way to a pull up, a strong shortfall holds against a pull down.
    #expect(try Self.pulled(representation, excess: .weak, shortfall: .strong, target: 20) == 20)
    #expect(try Self.pulled(representation, excess: .weak, shortfall: .strong, target: 0) == 10)
    // The weights the other way round.
    #expect(try Self.pulled(representation, excess: .strong, shortfall: .weak, target: 20) == 10)
    #expect(try Self.pulled(representation, excess: .strong, shortfall: .weak, target: 0) == 0)
  }

  /// A label's width between a container's required bounds, with hugging 250 and compression
  /// resistance 750 as one split equality and as UIKit's pair of inequalities: the same
  /// width whatever the bounds.
  @Test(arguments: representations)
  func aSplitEqualityLaysOutLikeThePairItReplaces(
    _ representation: Solver.Representation
  ) throws {
    func width(split: Bool, minimum: Double, maximum: Double, pull: Double) throws -> Double {
      let solver = Solver(representation: representation)
      let w = solver.makeVariable("w")
      let content = Expression(w) - 120
      if split {
        try solver.addConstraint(
          Constraint(content, equalWithExcess: Strength(250), shortfall: Strength(750)))
      } else {
        try solver.addConstraint(Constraint(content, .lessOrEqual, strength: Strength(250)))
        try solver.addConstraint(Constraint(content, .greaterOrEqual, strength: Strength(750)))
      }
      try solver.addConstraint(w >= minimum)
      try solver.addConstraint(w <= maximum)
      // A pull between the two weights: it beats hugging, not compression resistance.
      try solver.addConstraint((w == pull) | Strength(500))
      solver.updateVariables()
      return solver.value(of: w)
    }
    for (minimum, maximum, pull) in [
      (0.0, 500.0, 300.0), (0, 500, 40), (150, 500, 40), (0, 90, 300), (0, 90, 40),
    ] {
      let split = try width(split: true, minimum: minimum, maximum: maximum, pull: pull)
      let pair = try width(split: false, minimum: minimum, maximum: maximum, pull: pull)
      #expect(split == pair, "bounds \(minimum)...\(maximum), pull \(pull)")
    }
    #expect(try width(split: true, minimum: 0, maximum: 500, pull: 300) == 300)
    #expect(try width(split: true, minimum: 0, maximum: 500, pull: 40) == 120)
  }

  @Test(arguments: representations)
  func setStrengthsReweighsEachDirection(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let ten = Constraint(Expression(x) - 10, equalWithExcess: .weak, shortfall: .strong)
    try solver.addConstraint(ten)
    try solver.addConstraint((x == 20) | .medium)
    #expect(solver.strength(of: ten) == .weak)
    #expect(solver.shortfallStrength(of: ten) == .strong)
    solver.updateVariables()
    #expect(solver.value(of: x) == 20)

    try solver.setStrengths(excess: .strong, shortfall: .weak, of: ten)
    #expect(solver.strength(of: ten) == .strong)
    #expect(solver.shortfallStrength(of: ten) == .weak)
    solver.updateVariables()
    #expect(solver.value(of: x) == 10)

    // `setStrength` makes both directions alike.
    try solver.setStrength(.weak, of: ten)
    #expect(solver.shortfallStrength(of: ten) == .weak)
    solver.updateVariables()
    #expect(solver.value(of: x) == 20)

    // Split again, then required (equal required weights): it must hold.
    try solver.setStrengths(excess: .weak, shortfall: .medium, of: ten)
    try solver.setStrengths(excess: .required, shortfall: .required, of: ten)
    #expect(solver.strength(of: ten) == .required)
    solver.updateVariables()
    #expect(solver.value(of: x) == 10)
    // And back to split from required.
    try solver.setStrengths(excess: .weak, shortfall: .strong, of: ten)
    solver.updateVariables()
    #expect(solver.value(of: x) == 20)
  }

  @Test func aRequiredSideOrASplitInequalityIsRefused() throws {
    let solver = Solver()
    let x = solver.makeVariable("x")
    let halfRequired = Constraint(Expression(x) - 10, equalWithExcess: .required, shortfall: .weak)
    #expect(throws: SolverError.requiredSplitStrength(halfRequired)) {
      try solver.addConstraint(halfRequired)
    }
    #expect(!solver.hasConstraint(halfRequired))

    let cap = (x <= 10) | .weak
    try solver.addConstraint(cap)
    #expect(throws: SolverError.requiredSplitStrength(cap)) {
      try solver.setStrengths(excess: .weak, shortfall: .strong, of: cap)
    }
    #expect(solver.strength(of: cap) == .weak)
    #expect(solver.shortfallStrength(of: cap) == .weak)

    let ten = Constraint(Expression(x) - 10, equalWithExcess: .weak, shortfall: .strong)
    try solver.addConstraint(ten)
    #expect(throws: SolverError.requiredSplitStrength(ten)) {
      try solver.setStrengths(excess: .weak, shortfall: .required, of: ten)
    }
    #expect(solver.shortfallStrength(of: ten) == .strong)
  }

  /// A rebuild re-inserts a split equality with both weights, and an objective recomputed
  /// from the constraints weighs each error with its own.
  @Test(arguments: representations)
  func aRebuildAndAnObjectiveRefreshKeepBothWeights(
    _ representation: Solver.Representation
  ) throws {
    let solver = Solver(representation: representation)
    let x = solver.makeVariable("x")
    let ten = Constraint(Expression(x) - 10, equalWithExcess: .weak, shortfall: .strong)
    try solver.addConstraint(ten)
    let pull = (x == 0) | .medium
    try solver.addConstraint(pull)
    solver.updateVariables()
    #expect(solver.value(of: x) == 10)

    solver.tableau.damaged = true
    try solver.setConstant(-1, of: pull)  // x == 1: the shortfall still holds x at 10
    #expect(solver.counters.rebuilds == 1)
    #expect(solver.shortfallStrength(of: ten) == .strong)
    solver.updateVariables()
    #expect(solver.value(of: x) == 10)

    solver.tableau.objectiveSuspect = true
    try solver.setConstant(-30, of: pull)  // x == 30: the weak excess gives way
    #expect(solver.counters.objectiveRefreshes == 1)
    solver.updateVariables()
    #expect(solver.value(of: x) == 30)
    try solver.setConstant(0, of: pull)
    solver.updateVariables()
    #expect(solver.value(of: x) == 10)
  }

  @Test func theDescriptionNamesBothWeights() {
    let solver = Solver()
    let x = solver.makeVariable("x")
    let split = Constraint(Expression(x) - 10, equalWithExcess: .weak, shortfall: .strong)
    #expect(split.isSplit)
    #expect(split.description.hasSuffix("== 0 @weak/strong"))
    #expect(!((x == 10) | .weak).isSplit)
  }
}

extension SplitEqualityTests {
  /// A tree of nested stacks built from the inside out, as a layout engine installs it:
  /// per level a caption whose width prefers its text (a split equality, hugging 250 and
  /// compression resistance 750), the stack as wide as the caption plus insets, and the
  /// level inside as wide as the stack minus insets. That last constraint names two basic
  /// widths: it is added by the dual simplex, and in a rebuild (which keeps to phase one)
  /// through phase one. Phase one's entering rule (the cheapest symbol in the real
  /// objective) rebuilds these 60 levels in about 75 pivots; the lowest symbol (Bland's
  /// rule) walked the nest at every level: 2,727 pivots.
  @Test(arguments: representations)
  func nestedStacksBuildInAFewPivotsPerLevel(_ representation: Solver.Representation) throws {
    let solver = Solver(representation: representation)
    let levels = 60
    var inner = solver.makeVariable("leaf.w")
    try solver.addConstraint(
      Constraint(Expression(inner) - 350, equalWithExcess: Strength(250), shortfall: Strength(750)))
    for level in stride(from: levels - 1, through: 0, by: -1) {
      let caption = solver.makeVariable("caption\(level).w")
      let stack = solver.makeVariable("stack\(level).w")
      try solver.addConstraint(
        Constraint(
          Expression(caption) - Double(33 + level % 7), equalWithExcess: Strength(250),
          shortfall: Strength(750)))
      try solver.addConstraint(stack == caption + 2)
      try solver.addConstraint(inner == stack - 2)
      inner = stack
    }
    let built = solver.counters
    #expect(built.dualInsertions >= levels - 1 && built.phaseOnes == 0)
    #expect(built.pivots <= 3 * levels, "\(built.pivots) pivots for \(levels) levels")
    solver.updateVariables()
    let width = solver.value(of: inner)

    try solver.rebuild(.fresh)
    let rebuilt = solver.counters - built
    #expect(rebuilt.phaseOnes >= levels - 1, "a rebuild goes through phase one")
    #expect(rebuilt.pivots <= 3 * levels, "\(rebuilt.pivots) pivots for \(levels) levels")
    solver.updateVariables()
    #expect(abs(solver.value(of: inner) - width) < 1e-9)
  }
}

extension SplitEqualityTests {
  /// Phase one's entering rule on a hand-made artificial objective: of the symbols whose
  /// increase lowers it, the cheapest in the real objective, and the lowest when asked
  /// (`optimize` asks after a run of degenerate pivots).
  @Test func phaseOneEntersTheCheapestOrWhenAskedTheLowest() {
    var tableau = Tableau(lazy: false)
    let dummy = tableau.newSymbol(.dummy)
    let low = tableau.newSymbol(.error)
    let mid = tableau.newSymbol(.error)
    let top = tableau.newSymbol(.error)
    let raising = tableau.newSymbol(.error)
    #expect(low < mid && mid < top, "symbols of a kind order by creation")
    tableau.objective.add(low, 750)
    tableau.objective.add(mid, 250)
    // `top` costs nothing in the real objective; `raising` would raise the artificial one;
    // a dummy never enters.
    var artificial = Row(constant: 5)
    _ = artificial.insert(dummy, -3)
    _ = artificial.insert(low, -1)
    _ = artificial.insert(mid, -1)
    _ = artificial.insert(top, -2)
    _ = artificial.insert(raising, 1)
    #expect(tableau.enteringSymbol(artificial) == top)
    #expect(tableau.enteringSymbol(artificial, lowest: true) == low)
    tableau.objective.add(top, 1000)
    #expect(tableau.enteringSymbol(artificial) == mid)
    // Ties go to the lowest symbol.
    tableau.objective.add(low, -500)
    #expect(tableau.enteringSymbol(artificial) == low)
  }
}
