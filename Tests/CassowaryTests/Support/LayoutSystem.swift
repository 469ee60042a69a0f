import BenchSupport
import Cassowary

/// A random, layout-like constraint system for the property tests, fully determined by its
/// seed: nested boxes (`left`, `width`) contained in their parents, sibling chains, minimum
/// and maximum widths, preferred widths at weak, medium and strong, a few relations, and
/// strong edit variables.
///
/// Two choices make the tests meaningful:
/// - The required constraints are generated around a *witness* layout that satisfies all of
///   them, so every subset of them is satisfiable and a refusal is always a solver bug.
/// - Every variable has its own tie-breaking preference `v == r` at a random strength below
///   weak. With those generic weights the optimum is unique, so two solvers of the same
///   system must agree, whatever path they took.
struct LayoutSystem {
  struct Entry {
    let constraint: Constraint
    /// The expression without its constant, evaluated at the witness.
    let atWitness: Double
    /// Tie-breakers stay in the solver: without them the optimum may not be unique.
    let isTieBreaker: Bool
  }

  let seed: UInt64
  let variables: [Variable]
  let widths: Set<Int32>
  let witness: [Double]
  let entries: [Entry]
  let initiallyActive: [Bool]
  /// Edit variables (all strong) and their first suggestions.
  let edits: [Variable]
  let firstSuggestions: [Double]

  init(seed: UInt64, boxes: ClosedRange<Int> = 2...4) {
    var rng = SplitMix64(seed: seed)
    self.seed = seed
    let boxCount = rng.int(boxes)
    let scratch = Solver()
    var lefts: [Variable] = []
    var widthVars: [Variable] = []
    for i in 0..<boxCount {
      lefts.append(scratch.makeVariable("left\(i)"))
      widthVars.append(scratch.makeVariable("width\(i)"))
    }
    let parent = (0..<boxCount).map { $0 == 0 ? -1 : rng.int(0...($0 - 1)) }

    // The witness: the root at 0, children laid out left to right inside their parent.
    var x = [Double](repeating: 0, count: 2 * boxCount)
    func at(_ v: Variable) -> Double { x[Int(v.index)] }
    x[Int(widthVars[0].index)] = rng.double(300...900)
    var padding = [Double](repeating: 0, count: boxCount)
    for p in 0..<boxCount {
      let children = (0..<boxCount).filter { parent[$0] == p }
      let width = at(widthVars[p])
      padding[p] = min(rng.double(0...10), 0.1 * width)
      let gaps = (0...children.count).map { _ in rng.double(0.1...1) }
      let sizes = children.map { _ in rng.double(0.5...3) }
      let unit = (width - 2 * padding[p]) / (gaps.reduce(0, +) + sizes.reduce(0, +))
      var cursor = at(lefts[p]) + padding[p] + gaps[0] * unit
      for (k, child) in children.enumerated() {
        x[Int(lefts[child].index)] = cursor
        x[Int(widthVars[child].index)] = sizes[k] * unit
        cursor += (sizes[k] + gaps[k + 1]) * unit
      }
    }

    var entries: [Entry] = []
    var active: [Bool] = []
    func add(_ c: Constraint, tieBreaker: Bool = false, startsActive: Bool = true) {
      let value = c.expression.terms.reduce(0) { $0 + $1.coefficient * x[Int($1.variable.index)] }
      entries.append(Entry(constraint: c, atWitness: value, isTieBreaker: tieBreaker))
      active.append(startsActive)
    }
    func soft(_ rng: inout SplitMix64) -> Strength { rng.element(of: [.weak, .medium, .strong])! }
    /// Required with probability `p`, else a random non-required strength.
    func maybeRequired(_ c: Constraint, _ p: Double, _ rng: inout SplitMix64) {
      add(rng.chanceOf(p) ? c : c | soft(&rng), startsActive: rng.chanceOf(0.85))
    }

    add(lefts[0] == 0)
    for i in 0..<boxCount {
      let left = lefts[i]
      let width = widthVars[i]
      add(width >= 0)
      maybeRequired(width >= at(width) * rng.double(0.2...1), 0.6, &rng)
      if rng.chanceOf(0.5) { maybeRequired(width <= at(width) * rng.double(1...2.5), 0.7, &rng) }
      if rng.chanceOf(0.8) {
        add((width == rng.double(20...500)) | soft(&rng), startsActive: rng.chanceOf(0.9))
      }
      if rng.chanceOf(0.3) {
        add((left == rng.double(0...600)) | soft(&rng), startsActive: rng.chanceOf(0.9))
      }
      guard i > 0 else { continue }
      let p = parent[i]
      let inset = padding[p] * rng.double(0...1)
      maybeRequired(left >= lefts[p] + inset, 0.85, &rng)
      maybeRequired(left + width <= lefts[p] + widthVars[p] - inset, 0.85, &rng)
      if rng.chanceOf(0.15) {
        // Centre offset as in the witness: 2·left + width − (2·left_p + width_p) == k.
        let k = 2 * at(left) + at(width) - 2 * at(lefts[p]) - at(widthVars[p])
        maybeRequired(2 * left + width == 2 * lefts[p] + widthVars[p] + k, 0.5, &rng)
      }
      if rng.chanceOf(0.15) {
        let j = (i + rng.int(1...(boxCount - 1))) % boxCount
        let ratio = rng.double(0.25...2)
        maybeRequired(
          width == ratio * widthVars[j] + (at(width) - ratio * at(widthVars[j])), 0.5, &rng)
      }
    }
    // Sibling chains, with gaps no larger than the witness's.
    for p in 0..<boxCount {
      let children = (0..<boxCount).filter { parent[$0] == p }
      for (a, b) in zip(children, children.dropFirst()) {
        let gap = at(lefts[b]) - at(lefts[a]) - at(widthVars[a])
        if rng.chanceOf(0.15) {
          add(lefts[b] == lefts[a] + widthVars[a] + gap)
        } else {
          maybeRequired(lefts[b] >= lefts[a] + widthVars[a] + gap * rng.double(0...1), 0.8, &rng)
        }
      }
    }
    let variables = (0..<boxCount).flatMap { [lefts[$0], widthVars[$0]] }
    for v in variables {
      add((v == rng.double(-50...600)) | Strength(rng.double(0.05...0.95)), tieBreaker: true)
    }

    var edits: [Variable] = rng.chanceOf(0.85) ? [widthVars[0]] : []
    for v in variables where v.index != widthVars[0].index && rng.chanceOf(0.12) { edits.append(v) }
    let widths = Set(widthVars.map(\.index))
    self.variables = variables
    self.widths = widths
    self.witness = x
    self.entries = entries
    self.initiallyActive = active
    self.edits = edits
    self.firstSuggestions = edits.map { Self.randomSuggestion(for: $0, widths: widths, &rng) }
  }

  static func randomSuggestion(for v: Variable, widths: Set<Int32>, _ rng: inout SplitMix64)
    -> Double
  {
    widths.contains(v.index) ? rng.double(0...1000) : rng.double(-100...900)
  }

  /// Whether `entry` with expression constant `constant` holds at the witness.
  func holdsAtWitness(_ entry: Entry, constant: Double) -> Bool {
    let value = entry.atWitness + constant
    switch entry.constraint.relation {
    case .equal: return abs(value) <= 1e-9
    case .lessOrEqual: return value <= 1e-9
    case .greaterOrEqual: return value >= -1e-9
    }
  }

  /// A solver with this system's variables (same indices as `variables`) and nothing else.
  func emptySolver(_ representation: Solver.Representation = .lazy) -> Solver {
    let solver = Solver(representation: representation)
    // The generator made its variables in a fresh solver, so their indices are 0..<count.
    for v in variables { _ = solver.makeVariable("v\(v.index)") }
    return solver
  }
}

/// A constraint like `c` with another constant and strength: a new instance.
func rebuilt(_ c: Constraint, constant: Double, strength: Strength) -> Constraint {
  Constraint(Expression(c.expression.terms, constant: constant), c.relation, strength: strength)
}

/// Whether `c`, with constant `constant`, holds (within `tolerance`) at the solver's values.
func holds(_ c: Constraint, constant: Double, in solver: Solver, tolerance: Double) -> Bool {
  let value = evaluate(Expression(c.expression.terms, constant: constant), in: solver)
  switch c.relation {
  case .equal: return abs(value) <= tolerance
  case .lessOrEqual: return value <= tolerance
  case .greaterOrEqual: return value >= -tolerance
  }
}

/// The first index where `a` and `b` differ by more than `tolerance`, described.
func firstMismatch(_ a: [Double], _ b: [Double], tolerance: Double) -> String? {
  for i in a.indices where !isClose(a[i], b[i], tolerance: tolerance) {
    return "variable \(i): \(a[i]) versus \(b[i])"
  }
  return nil
}
