import Testing
import Cassowary

@Test func smoke() throws {
  let s = Solver()
  let x = s.makeVariable("x")
  try s.addConstraint(x == 3)
  s.updateVariables()
  #expect(s.value(of: x) == 3)
}
