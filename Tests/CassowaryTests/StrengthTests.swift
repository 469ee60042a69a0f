import Cassowary
import Testing

/// `Strength`: kiwi's scale, clamping, `create` and ordering. How strengths resolve
/// conflicts inside a solver is tested in `SolverTests`.
@Suite struct StrengthTests {
  @Test func levelsHaveKiwisWeights() {
    #expect(Strength.weak.value == 1)
    #expect(Strength.medium.value == 1_000)
    #expect(Strength.strong.value == 1_000_000)
    // required = 1000 strong + 1000 medium + 1000 weak.
    #expect(Strength.required.value == 1_001_001_000)
  }

  @Test func levelsAreOrdered() {
    #expect(Strength.weak < .medium)
    #expect(Strength.medium < .strong)
    #expect(Strength.strong < .required)
    #expect(
      [Strength.required, .weak, .strong, .medium].sorted() == [.weak, .medium, .strong, .required])
  }

  @Test func onlyTheTopOfTheScaleIsRequired() {
    #expect(Strength.required.isRequired)
    #expect(!Strength.strong.isRequired)
    #expect(!Strength(1_001_000_999).isRequired)
    #expect(!Strength(0).isRequired)
  }

  @Test func initialiserClampsIntoTheScale() {
    #expect(Strength(-5).value == 0)
    #expect(Strength(-.infinity).value == 0)
    #expect(Strength(.nan).value == 0)
    #expect(Strength(2e12) == .required)
    #expect(Strength(.infinity) == .required)
    #expect(Strength(2e12).isRequired)
    #expect(Strength(12.5).value == 12.5)
  }

  @Test func createWeighsEachLevel() {
    #expect(Strength.create(1, 0, 0) == .strong)
    #expect(Strength.create(0, 1, 0) == .medium)
    #expect(Strength.create(0, 0, 1) == .weak)
    #expect(Strength.create(1, 2, 3).value == 1_002_003)
    #expect(Strength.create(1000, 1000, 1000) == .required)
  }

  @Test func createClampsEachLevelAfterWeighting() {
    #expect(Strength.create(5000, 0, 0).value == 1_000_000_000)
    #expect(Strength.create(0, -4, 7).value == 7)
    #expect(Strength.create(1, 2, 3, weight: 2).value == 2_004_006)
    // 600 · 2 = 1200 is clamped to 1000 on every level: required.
    #expect(Strength.create(600, 600, 600, weight: 2) == .required)
    #expect(Strength.create(1, 1, 1, weight: -1).value == 0)
  }

  @Test func description() {
    #expect(Strength.required.description == "required")
    #expect(Strength.strong.description == "strong")
    #expect(Strength.medium.description == "medium")
    #expect(Strength.weak.description == "weak")
    #expect(Strength(2.5).description == "2.5")
  }
}
