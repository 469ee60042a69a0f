import Cassowary
import Testing

/// The operator DSL and `Expression` itself. Variables come from a solver only because that
/// is the sole way to make one; nothing here is solved.
@Suite struct ExpressionTests {
  let solver = Solver()
  let x: Variable
  let y: Variable
  let z: Variable

  init() {
    x = solver.makeVariable("x")
    y = solver.makeVariable("y")
    z = solver.makeVariable("z")
  }

  // MARK: - Construction

  @Test func initialisers() {
    expectExpression(Expression(), [], constant: 0)
    expectExpression(Expression(x), [(x, 1)], constant: 0)
    expectExpression(Expression(constant: 4.5), [], constant: 4.5)
    expectExpression(
      Expression([Term(x, 2), Term(y)], constant: -1), [(x, 2), (y, 1)], constant: -1)
  }

  @Test func termDefaultsToCoefficientOne() {
    let term = Term(y)
    #expect(term.variable.index == y.index)
    #expect(term.coefficient == 1)
  }

  // MARK: - Arithmetic

  @Test func additionOfVariablesExpressionsAndNumbers() {
    expectExpression(x + y, [(x, 1), (y, 1)], constant: 0)
    expectExpression(x + 2, [(x, 1)], constant: 2)
    expectExpression(2 + x, [(x, 1)], constant: 2)
    expectExpression((x + 1) + (y + 2), [(x, 1), (y, 1)], constant: 3)
    expectExpression((x + 1) + y, [(x, 1), (y, 1)], constant: 1)
    expectExpression(y + (x + 1), [(y, 1), (x, 1)], constant: 1)
    expectExpression((x + 1) + 2.5, [(x, 1)], constant: 3.5)
    expectExpression(2.5 + (x + 1), [(x, 1)], constant: 3.5)
  }

  @Test func subtractionNegatesTheRightHandSide() {
    expectExpression(x - y, [(x, 1), (y, -1)], constant: 0)
    expectExpression(x - 3, [(x, 1)], constant: -3)
    expectExpression(3 - x, [(x, -1)], constant: 3)
    expectExpression((x + 5) - (y - 2), [(x, 1), (y, -1)], constant: 7)
    expectExpression((x + 5) - y, [(x, 1), (y, -1)], constant: 5)
    expectExpression(y - (x + 5), [(y, 1), (x, -1)], constant: -5)
    expectExpression((x + 5) - 1, [(x, 1)], constant: 4)
    expectExpression(10 - (x + 2), [(x, -1)], constant: 8)
  }

  @Test func multiplicationScalesEveryTermAndTheConstant() {
    expectExpression(3 * x, [(x, 3)], constant: 0)
    expectExpression(x * 3, [(x, 3)], constant: 0)
    expectExpression(2 * (x - 2 * y + 1), [(x, 2), (y, -4)], constant: 2)
    expectExpression((x - 2 * y + 1) * -0.5, [(x, -0.5), (y, 1)], constant: -0.5)
  }

  @Test func divisionMultipliesByTheReciprocal() {
    expectExpression(x / 4, [(x, 0.25)], constant: 0)
    expectExpression((2 * x + y + 6) / 2, [(x, 1), (y, 0.5)], constant: 3)
  }

  @Test func divisionByZeroMakesANonFiniteExpression() {
    #expect(!(x / 0).isFinite)
    #expect(!((x + 1) / 0).isFinite)
    // 0 · (1/0) is NaN: a zero constant does not stay finite either.
    #expect(!((Expression(x) + 0) / 0).isFinite)
  }

  @Test func unaryMinus() {
    expectExpression(-x, [(x, -1)], constant: 0)
    expectExpression(-(x + 2 * y - 3), [(x, -1), (y, -2)], constant: 3)
    expectExpression(-(-x), [(x, 1)], constant: 0)
  }

  @Test func termsAreKeptAsWritten() {
    // The DSL does not combine repeated variables; the constraint does.
    expectExpression(x + y - x, [(x, 1), (y, 1), (x, -1)], constant: 0)
  }

  // MARK: - Reduction

  @Test func reducedCombinesRepeatedVariablesInFirstUseOrder() {
    expectExpression((y + 2 * x + 3 * y + 1).reduced(), [(y, 4), (x, 2)], constant: 1)
    expectExpression((x * 2 + 3 * x).reduced(), [(x, 5)], constant: 0)
  }

  @Test func reducedDropsTermsThatCancel() {
    expectExpression(((x + y) - (x - y)).reduced(), [(y, 2)], constant: 0)
    expectExpression((x - x + 7).reduced(), [], constant: 7)
    expectExpression(Expression([Term(z, 0)]).reduced(), [], constant: 0)
  }

  // MARK: - Finiteness

  @Test func isFinite() {
    #expect((x + 2 * y - 1).isFinite)
    #expect(!Expression([Term(x, .infinity)]).isFinite)
    #expect(!Expression([Term(x, -.infinity)]).isFinite)
    #expect(!Expression([Term(x, .nan)]).isFinite)
    #expect(!(x + .infinity).isFinite)
    #expect(!(x + .nan).isFinite)
  }

  @Test func hashableCompareTermsAndConstant() {
    #expect(Set([x + 1, x + 1, x + 2, 1 + x]).count == 2)
  }
}
