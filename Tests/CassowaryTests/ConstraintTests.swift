import Cassowary
import Testing

/// `Constraint` values and the relational operators that build them. Solving is in
/// `SolverTests`; here only the stored expression, relation and strength are checked.
@Suite struct ConstraintTests {
  let solver = Solver()
  let x: Variable
  let y: Variable

  init() {
    x = solver.makeVariable("x")
    y = solver.makeVariable("y")
  }

  // MARK: - Relational operators

  @Test func lessOrEqualMovesTheRightHandSideToTheLeft() {
    let c = x + 2 <= y
    #expect(c.relation == .lessOrEqual)
    #expect(c.strength == .required)
    expectExpression(c.expression, [(x, 1), (y, -1)], constant: 2)
  }

  @Test func greaterOrEqualWithANumber() {
    let c = x >= 3
    #expect(c.relation == .greaterOrEqual)
    expectExpression(c.expression, [(x, 1)], constant: -3)
  }

  @Test func equalityWithTheNumberOnTheLeft() {
    let c = 3 == x
    #expect(c.relation == .equal)
    expectExpression(c.expression, [(x, -1)], constant: 3)
  }

  @Test func everyOperandCombination() {
    // (expression, expected terms, expected constant) for each overload shape.
    let cases: [(Constraint, [(Variable, Double)], Double)] = [
      (x + 1 == y + 3, [(x, 1), (y, -1)], -2),
      (x + 1 == y, [(x, 1), (y, -1)], 1),
      (x == y + 3, [(x, 1), (y, -1)], -3),
      (x == y, [(x, 1), (y, -1)], 0),
      (x + 1 == 4, [(x, 1)], -3),
      (4 == x + 1, [(x, -1)], 3),
      (x == 4, [(x, 1)], -4),
      (2 * x <= y - 1, [(x, 2), (y, -1)], 1),
      (x + 1 <= y, [(x, 1), (y, -1)], 1),
      (x <= y - 1, [(x, 1), (y, -1)], 1),
      (x <= y, [(x, 1), (y, -1)], 0),
      (x - 1 <= 4, [(x, 1)], -5),
      (4 <= x - 1, [(x, -1)], 5),
      (x <= 4, [(x, 1)], -4),
      (4 <= x, [(x, -1)], 4),
      (x / 2 >= y + 1, [(x, 0.5), (y, -1)], -1),
      (x + 1 >= y, [(x, 1), (y, -1)], 1),
      (x >= y * 3, [(x, 1), (y, -3)], 0),
      (x >= y, [(x, 1), (y, -1)], 0),
      (x + 1 >= 4, [(x, 1)], -3),
      (4 >= x + 1, [(x, -1)], 3),
      (4 >= x, [(x, -1)], 4),
    ]
    for (constraint, terms, constant) in cases {
      expectExpression(constraint.expression, terms, constant: constant)
    }
  }

  @Test func repeatedVariablesAreCombined() {
    expectExpression((x + x == y).expression, [(x, 2), (y, -1)], constant: 0)
    expectExpression((x + y <= x + 5).expression, [(y, 1)], constant: -5)
    expectExpression((x - 3 == x).expression, [], constant: -3)
  }

  @Test func directInitialiserReducesToo() {
    let c = Constraint(Expression([Term(x, 1), Term(y, 2), Term(x, 3)], constant: 1), .equal)
    expectExpression(c.expression, [(x, 4), (y, 2)], constant: 1)
    let d = Constraint(x + 1, .greaterOrEqual, 2 * y, strength: .medium)
    expectExpression(d.expression, [(x, 1), (y, -2)], constant: 1)
    #expect(d.strength == .medium)
  }

  // MARK: - Strength

  @Test func barOperatorMakesANewInstanceAtTheGivenStrength() {
    let c = x <= 10
    let weak = c | .weak
    #expect(weak.strength == .weak)
    #expect(c.strength == .required)
    #expect(weak !== c)
    #expect(weak.relation == c.relation)
    expectExpression(weak.expression, [(x, 1)], constant: -10)
    #expect(c.withStrength(.strong).strength == .strong)
  }

  @Test func solverStrengthChangesDoNotTouchTheInstance() throws {
    let c = (x == 1) | .weak
    try solver.addConstraint(c)
    try solver.setStrength(.strong, of: c)
    try solver.setConstant(-7, of: c)
    #expect(c.strength == .weak)
    #expect(c.expression.constant == -1)
  }

  // MARK: - Identity

  @Test func equalityIsIdentity() {
    let a: Constraint = x == y
    let b: Constraint = x == y
    #expect(a == a)
    #expect(a != b)
    #expect(Set([a, b, a]).count == 2)
  }

  // MARK: - Description

  @Test func descriptionSpellsTheNormalisedForm() {
    // Variables print as `v<index>`: x is v0 and y is v1 in this solver.
    #expect((x + 2 * y <= 10).description == "v0 + 2.0 * v1 - 10.0 <= 0 @required")
    #expect(((-x == 2.5) | .strong).description == "-v0 - 2.5 == 0 @strong")
    #expect((x >= y).description == "v0 - v1 >= 0 @required")
    #expect(Constraint(Expression(), .equal, strength: .weak).description == "0.0 == 0 @weak")
  }
}
