import Cassowary
import Testing

/// Suggestions must reach every value that depends on the edited one, however deep: the
/// lazy representation moves them through rows that name other rows.
@Suite struct NestedEditTests {
  /// D boxes, each inset by 1 on both sides from its parent; the outer width is edited.
  func nestedBoxes(_ depth: Int, _ representation: Solver.Representation) throws
    -> (Solver, [Variable], [Variable])
  {
    let s = Solver(representation: representation)
    var x = [s.makeVariable("x0")]
    var w = [s.makeVariable("w0")]
    try s.addEditVariable(w[0], strength: .strong)
    try s.suggestValue(w[0], Double(2 * depth + 500))
    try s.addConstraint(x[0] == 0)
    try s.addConstraint(w[0] >= 0)
    for j in 1...depth {
      x.append(s.makeVariable("x\(j)"))
      w.append(s.makeVariable("w\(j)"))
      try s.addConstraint(x[j] == x[j - 1] + 1)
      try s.addConstraint(x[j] + w[j] == x[j - 1] + w[j - 1] - 1)
      try s.addConstraint(w[j] >= 0)
    }
    return (s, x, w)
  }

  @Test(arguments: [Solver.Representation.adaptive, .lazy, .canonical], [3, 40, 300])
  func everyNestedWidthFollowsTheOuterOne(_ representation: Solver.Representation, depth: Int)
    throws
  {
    let (s, x, w) = try nestedBoxes(depth, representation)
    // Box j sits at x = j and is 2j narrower than the outer box, down to width 0.
    for outer in [Double(2 * depth + 500), Double(2 * depth + 100), 60, Double(4 * depth)] {
      try s.suggestValue(w[0], outer)
      s.updateVariables()
      for j in 0...depth {
        #expect(abs(s.value(of: x[j]) - Double(j)) < 1e-9)
        let expected = max(0, outer - 2 * Double(j))
        if outer - 2 * Double(depth) >= 0 {
          #expect(
            abs(s.value(of: w[j]) - expected) < 1e-9,
            "depth \(depth), outer \(outer), box \(j): \(s.value(of: w[j])) != \(expected)")
        }
      }
    }
  }
}
