import Cassowary

/// The kiwi comparison set: the systems `layout-bench solver-bench` builds and ticks, built
/// the same way by `Scripts/kiwi_bench.py`, so that the same work can be timed in kiwisolver
/// (`Scripts/kiwi-bench.sh`).
public enum SolverWorkload: String, CaseIterable, Sendable {
  /// N boxes side by side, `x[i] == x[i-1] + w[i-1] + 8`, the last one ending at an edited
  /// width: a stack view for the solver.
  case chain
  /// N children of one container, each stretched to half its edited width.
  case wide
  /// D nested boxes, each inset by 1 from its parent, the outer width edited.
  case deep
  /// kiwi's own `enaml_like_benchmark.cpp` system (37 variables, 111 constraints).
  case enaml
  /// The chain; a tick removes and re-adds one box's weak width preference.
  case churn
  /// The chain; a tick removes and re-adds one box's link to its predecessor.
  case churnLink = "churn-link"

  /// Whether a tick suggests edit values (otherwise it removes and re-adds a constraint).
  public var suggests: Bool { self != .churn && self != .churnLink }
}

/// A built workload: its solver and how to run tick `t`.
public final class SolverSystem {
  public let solver: Solver
  let tickBody: (Int) -> Void

  init(solver: Solver, tick: @escaping (Int) -> Void) {
    self.solver = solver
    self.tickBody = tick
  }

  /// Runs tick `t` (suggestions or a remove + re-add), then `updateVariables()`.
  public func tick(_ t: Int) {
    tickBody(t)
    solver.updateVariables()
  }

  /// Runs tick `t` as `tick(_:)` does, reading out through the reporting read-out, and
  /// returns how many variables it moved.
  public func movedVariables(_ t: Int) -> Int {
    tickBody(t)
    var moved = 0
    solver.updateVariables { _, _ in moved += 1 }
    return moved
  }
}

extension SolverWorkload {
  /// Builds the system of size `size` (ignored by `enaml`): adds every constraint, then
  /// calls `updateVariables()`. This is the `buildNs` region.
  public func build(size n: Int, representation: Solver.Representation = .adaptive) -> SolverSystem
  {
    let system: SolverSystem
    switch self {
    case .chain: system = SolverWorkload.chain(n, churn: nil, representation)
    case .churn: system = SolverWorkload.chain(n, churn: .preference, representation)
    case .churnLink: system = SolverWorkload.chain(n, churn: .link, representation)
    case .wide: system = SolverWorkload.wide(n, representation)
    case .deep: system = SolverWorkload.deep(n, representation)
    case .enaml: system = SolverWorkload.enaml(representation)
    }
    system.solver.updateVariables()
    return system
  }

  /// The smallest size the workload accepts.
  public var minimumSize: Int {
    switch self {
    case .chain, .churn, .deep, .wide, .enaml: 1
    case .churnLink: 2
    }
  }

  enum Churn { case preference, link }

  static let chainOffsets: [Double] = [120, -60, 300, -25, 10, -140]

  static func chain(
    _ n: Int, churn: Churn?, _ representation: Solver.Representation
  ) -> SolverSystem {
    let s = Solver(representation: representation)
    let width = s.makeVariable("W")
    try! s.addEditVariable(width, strength: .strong)
    let initial = 58 * Double(n) + 8
    try! s.suggestValue(width, initial)
    var x: [Variable] = []
    var w: [Variable] = []
    var links: [Constraint] = []
    var preferences: [Constraint] = []
    for i in 0..<n {
      x.append(s.makeVariable("x\(i)"))
      w.append(s.makeVariable("w\(i)"))
      let link = i == 0 ? x[0] == 8 : x[i] == x[i - 1] + w[i - 1] + 8
      try! s.addConstraint(link)
      try! s.addConstraint(x[i] >= 0)
      try! s.addConstraint(w[i] >= 10)
      let preference = (w[i] == 50) | .weak
      try! s.addConstraint(preference)
      links.append(link)
      preferences.append(preference)
    }
    try! s.addConstraint(x[n - 1] + w[n - 1] + 8 == width)
    switch churn {
    case nil:
      return SolverSystem(solver: s) { t in
        try! s.suggestValue(width, initial + chainOffsets[t % 6])
      }
    case .preference:
      return SolverSystem(solver: s) { t in
        let c = preferences[(379 * t) % n]
        try! s.removeConstraint(c)
        try! s.addConstraint(c)
      }
    case .link:
      return SolverSystem(solver: s) { t in
        let c = links[1 + (379 * t) % (n - 1)]
        try! s.removeConstraint(c)
        try! s.addConstraint(c)
      }
    }
  }

  static func wide(_ n: Int, _ representation: Solver.Representation) -> SolverSystem {
    let s = Solver(representation: representation)
    let rx = s.makeVariable("Rx")
    let rw = s.makeVariable("Rw")
    try! s.addEditVariable(rw, strength: .strong)
    try! s.suggestValue(rw, 640)
    try! s.addConstraint(rx == 0)
    try! s.addConstraint(rw >= 0)
    for i in 0..<n {
      let x = s.makeVariable("x\(i)")
      let w = s.makeVariable("w\(i)")
      try! s.addConstraint(x == rx + Double(i % 17))
      try! s.addConstraint(w >= 10)
      try! s.addConstraint((w == 0.5 * rw) | .medium)
      try! s.addConstraint(x + w <= rx + rw)
      try! s.addConstraint((w == 100) | .weak)
    }
    let values: [Double] = [800, 1000, 600, 1200, 400, 900]
    return SolverSystem(solver: s) { t in try! s.suggestValue(rw, values[t % 6]) }
  }

  static func deep(_ d: Int, _ representation: Solver.Representation) -> SolverSystem {
    let s = Solver(representation: representation)
    var x = [s.makeVariable("x0")]
    var w = [s.makeVariable("w0")]
    try! s.addEditVariable(w[0], strength: .strong)
    try! s.suggestValue(w[0], 2 * Double(d) + 500)
    try! s.addConstraint(x[0] == 0)
    try! s.addConstraint(w[0] >= 0)
    for j in 1...d {
      x.append(s.makeVariable("x\(j)"))
      w.append(s.makeVariable("w\(j)"))
      try! s.addConstraint(x[j] == x[j - 1] + 1)
      try! s.addConstraint(x[j] + w[j] == x[j - 1] + w[j - 1] - 1)
      try! s.addConstraint(w[j] >= 0)
    }
    let offsets: [Double] = [100, 400, 250, 1000, 50, 700]
    let root = w[0]
    return SolverSystem(solver: s) { t in try! s.suggestValue(root, 2 * Double(d) + offsets[t % 6])
    }
  }
}
