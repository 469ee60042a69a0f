@testable import Cassowary

/// A stack of boxes side by side (`solver-bench --workload chain`): box i at
/// `x[i] == x[i-1] + w[i-1] + 8` from 8, each of width at least 10 with a weak preference for
/// 50, the last one ending at the edited width `total` (strong, suggested first: 58 points a
/// box and 8). Narrowing the window by more than 40 points makes the dual simplex pivot.
struct StackOfBoxes {
  let total: Variable
  let x: [Variable]
  let w: [Variable]
  /// The suggestion that fits every box at its preferred width.
  let initial: Double

  init(_ solver: Solver, boxes: Int) throws {
    total = solver.makeVariable("W")
    try solver.addEditVariable(total, strength: .strong)
    initial = 58 * Double(boxes) + 8
    try solver.suggestValue(total, initial)
    var x: [Variable] = []
    var w: [Variable] = []
    for i in 0..<boxes {
      x.append(solver.makeVariable("x\(i)"))
      w.append(solver.makeVariable("w\(i)"))
      try solver.addConstraint(i == 0 ? x[0] == 8 : x[i] == x[i - 1] + w[i - 1] + 8)
      try solver.addConstraint(x[i] >= 0)
      try solver.addConstraint(w[i] >= 10)
      try solver.addConstraint((w[i] == 50) | .weak)
    }
    try solver.addConstraint(x[boxes - 1] + w[boxes - 1] + 8 == total)
    self.x = x
    self.w = w
  }
}
