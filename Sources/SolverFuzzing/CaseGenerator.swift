import BenchSupport
import Cassowary

/// Draws a ``FuzzCase`` from a seed: a tree of boxes laid out like a window of views, the
/// constraints such a layout has, and then (in `CaseGenerator+Operations.swift`) the edits
/// a running application makes.
///
/// Every box's placement is chosen first, as numbers (the witness), and each required
/// constraint is then written so that the witness satisfies it: an inset no larger than the
/// box's distance to its parent's edge, a chain gap equal to the one placed. Any set of the
/// required constraints therefore has a solution, and a solver that refuses one is wrong.
/// Witness values are integers plus multiples of 1/4 and multipliers are multiples of 1/4,
/// so every residual at the witness is computed exactly and "satisfies" needs no tolerance.
struct CaseGenerator {
  /// A box's position and size variables on one axis.
  struct Axis {
    let position: Int
    let size: Int
  }

  struct Box {
    let parent: Int
    /// `[x, w]` first, then `[y, h]` when the case is vertical.
    var axes: [Axis] = []
  }

  /// Per-case probabilities, drawn once, so that some cases are deep paths, some long stack
  /// views, some flat and centred: a single mix would rarely reach the extremes.
  struct Style {
    var vertical: Bool
    /// A box goes inside the box made just before it (a path of nested boxes).
    var nesting: Double
    /// A box continues a stack after its parent's last child.
    var chaining: Double
    var centring: Double
    var matching: Double
    var aspect: Double
    /// An inequality is tight at the witness (degenerate vertices are where simplex
    /// implementations go wrong).
    var tightness: Double
  }

  /// How a box was placed on an axis: the constraint that placement satisfies exactly can be
  /// required.
  enum Placement {
    case free
    case centred
    case chained(after: Int, gap: Double)
    case matched(Int)
    case scaled(Double)
  }

  let seed: UInt64
  var rng: SplitMix64
  /// Draws whether and how a soft equality weighs its directions apart, from a stream of
  /// its own: the main stream, and so the systems and operations of every seed, are the
  /// same as before split equalities existed (seeds that once failed still make the case
  /// they made), with some of their soft equalities split.
  var splitRng: SplitMix64
  /// Whether soft equalities may be split (false replays the cases as they were before).
  let splits: Bool
  /// Draws the drags (runs of small suggestions of one edit variable after a suggestion),
  /// from a stream of its own for the same reason as `splitRng`.
  var dragRng: SplitMix64
  /// Whether suggestions may be followed by drags (false replays the cases as they were
  /// before drags existed).
  let drags: Bool
  /// Draws the probes (infeasible required constraints offered to the solver), from a
  /// stream of its own for the same reason as `splitRng`.
  var probeRng: SplitMix64
  /// Whether rounds may end with a probe (false replays the cases as they were before
  /// probes existed).
  let probes: Bool
  let boxCount: Int
  let style: Style
  var names: [String] = []
  var witness: [Double] = []
  var constraints: [FuzzConstraint] = []
  var boxes: [Box] = []
  var children: [[Int]] = []
  /// The root's width, the scale of every suggestion.
  var rootWidth = 0.0

  init(
    seed: UInt64, boxes range: ClosedRange<Int>, splits: Bool = true, drags: Bool = true,
    probes: Bool = true
  ) {
    self.seed = seed
    self.splits = splits
    self.drags = drags
    self.probes = probes
    probeRng = SplitMix64(seed: seed ^ 0x9B0B_E000_0000_0000)
    rng = SplitMix64(seed: seed)
    splitRng = SplitMix64(seed: seed ^ 0x5EED_5917_0000_0000)
    dragRng = SplitMix64(seed: seed ^ 0xD7A6_0000_0000_0000)
    boxCount = CaseGenerator.drawBoxCount(&rng, range)
    let levels = [0.0, 0.1, 0.4, 0.9]
    style = Style(
      vertical: rng.chance(0.5), nesting: rng.pick(levels), chaining: rng.pick(levels),
      centring: rng.pick([0.0, 0.1, 0.3]), matching: rng.pick([0.0, 0.1, 0.3]),
      aspect: rng.pick([0.0, 0.1, 0.3]), tightness: rng.pick([0.0, 0.1, 0.5]))
  }

  /// Half the time uniform over the range, half the time uniform over the bit length (a log
  /// scale): large systems stay common while small ones, where a different set of bugs
  /// lives, are not rare.
  static func drawBoxCount(_ rng: inout SplitMix64, _ range: ClosedRange<Int>) -> Int {
    let low = max(1, range.lowerBound)
    let high = max(low, range.upperBound)
    if rng.chance(0.5) { return rng.int(in: low...high) }
    func bits(_ n: Int) -> Int { Int.bitWidth - n.leadingZeroBitCount }
    let length = rng.int(in: bits(low)...bits(high))
    return rng.int(in: max(low, 1 << (length - 1))...min(high, (1 << length) - 1))
  }

  // MARK: - Building blocks

  mutating func variable(_ name: String, _ value: Double) -> Int {
    names.append(name)
    witness.append(value)
    return names.count - 1
  }

  /// Appends `terms + constant relation 0` and returns its index.
  @discardableResult
  mutating func constrain(
    _ role: FuzzConstraint.Role, _ note: String, _ terms: [(Int, Double)], _ constant: Double,
    _ relation: Relation, _ strength: Strength
  ) -> Int {
    let label = role == .tieBreaker ? "t\(terms[0].0)" : "c\(constraints.count)"
    constraints.append(
      FuzzConstraint(
        label: label, role: role, note: note,
        terms: terms.map { FuzzTerm(variable: $0.0, coefficient: $0.1) }, constant: constant,
        relation: relation, strength: strength,
        shortfall: relation == .equal && role != .tieBreaker ? splitShortfall(strength) : nil))
    return constraints.count - 1
  }

  /// For a soft equality at `strength`, now and then a different shortfall weight (from
  /// `splitRng`), as a view's intrinsic size weighs compression and hugging; nil otherwise.
  /// Tie-breakers stay whole: their tiny weights pick one optimum among ties, and a
  /// shortfall at a layout's weights would change which layouts are optimal.
  mutating func splitShortfall(_ strength: Strength) -> Strength? {
    guard splits, !strength.isRequired, splitRng.chance(0.3) else { return nil }
    let levels: [Strength] = [.weak, .medium, .strong, Strength(250), Strength(750)]
    let shortfall =
      splitRng.chance(0.5)
      ? splitRng.pick(levels) : Strength(Double(splitRng.int(in: 2...900_000)))
    return shortfall == strength ? nil : shortfall
  }

  /// A non-required strength: one of the three levels or a raw weight between them.
  mutating func softStrength() -> Strength {
    switch rng.int(in: 0...3) {
    case 0: .weak
    case 1: .medium
    case 2: .strong
    default: Strength(Double(rng.int(in: 2...900)))
    }
  }

  /// Required with probability `p`, else the given or a random soft strength.
  mutating func required(_ p: Double, else soft: Strength? = nil) -> Strength {
    rng.chance(p) ? .required : (soft ?? softStrength())
  }

  // MARK: - Boxes

  /// The constraints and witness of every box, then a tie-breaker per variable.
  mutating func makeBoxes() {
    rootWidth = Double(rng.int(in: 200...3000))
    var root = Box(parent: 0)
    let x = variable("b0.x", 0)
    root.axes.append(Axis(position: x, size: variable("b0.w", rootWidth)))
    constrain(.origin, "b0", [(x, 1)], 0, .equal, .required)
    if style.vertical {
      let y = variable("b0.y", 0)
      root.axes.append(Axis(position: y, size: variable("b0.h", Double(rng.int(in: 200...3000)))))
      constrain(.origin, "b0", [(y, 1)], 0, .equal, .required)
    }
    boxes.append(root)
    children.append([])
    for k in 1..<max(1, boxCount) { addBox(k) }
    // A tiny pull of every variable toward a value near the witness makes the optimum
    // (almost surely) unique without weighing on anything a layout cares about.
    for v in names.indices {
      let target = witness[v] + Double(rng.int(in: -40...40))
      constrain(
        .tieBreaker, names[v], [(v, 1)], -target, .equal,
        Strength(Double(rng.int(in: 10...100)) / 10_000))
    }
  }

  mutating func addBox(_ k: Int) {
    let parent = rng.chance(style.nesting) ? k - 1 : rng.int(in: 0...(k - 1))
    var box = Box(parent: parent)
    box.axes.append(Axis(position: variable("b\(k).x", 0), size: variable("b\(k).w", 0)))
    if style.vertical {
      box.axes.append(Axis(position: variable("b\(k).y", 0), size: variable("b\(k).h", 0)))
    }
    boxes.append(box)
    children.append([])
    for axis in box.axes.indices { place(k, axis: axis) }
    children[parent].append(k)
  }

  /// The far edge of box `k` on an axis, at the witness.
  func end(_ k: Int, _ axis: Int) -> Double {
    witness[boxes[k].axes[axis].position] + witness[boxes[k].axes[axis].size]
  }

  /// Chooses the witness position and size of box `k` on one axis, then its constraints.
  mutating func place(_ k: Int, axis a: Int) {
    let parent = boxes[k].parent
    let outer = boxes[parent].axes[a]
    let inner = boxes[k].axes[a]
    let origin = witness[outer.position]
    let span = witness[outer.size]
    let siblings = children[parent]
    var placement = Placement.free
    var position = origin
    var size = 0.0
    if let last = siblings.last, rng.chance(style.chaining), end(last, a) <= origin + span {
      // A stack view: right after the last sibling, if there is room left.
      let room = origin + span - end(last, a)
      let gap = Double(rng.upTo(min(8, room)))
      size = Double(rng.upTo(room - gap))
      position = end(last, a) + gap
      placement = .chained(after: last, gap: gap)
    } else if a == 1, rng.chance(style.aspect) {
      let ratio = 0.25 * Double(rng.int(in: 1...8))
      let height = ratio * witness[boxes[k].axes[0].size]
      if height <= span {
        size = height
        position = origin + Double(rng.upTo(span - size))
        placement = .scaled(ratio)
      }
    } else if rng.chance(style.centring) {
      size = Double(rng.upTo(span))
      position = origin + (span - size) / 2
      placement = .centred
    } else if !siblings.isEmpty, rng.chance(style.matching) {
      let sibling = rng.pick(siblings)
      if witness[boxes[sibling].axes[a].size] <= span {
        size = witness[boxes[sibling].axes[a].size]
        position = origin + Double(rng.upTo(span - size))
        placement = .matched(sibling)
      }
    }
    if case .free = placement {
      // Nested paths fill their parent almost entirely, so that 200 levels still fit.
      let nested = parent == k - 1
      let inset = Double(min(rng.int(in: 0...(nested ? 4 : 10)), rng.upTo(span / 2)))
      let available = span - 2 * inset
      let smallest = nested ? max(0, Int(available) - 3) : rng.upTo(available / 4)
      size = Double(rng.int(in: smallest...Int(available)))
      position = origin + inset + Double(rng.upTo(available - size))
    }
    witness[inner.position] = position
    witness[inner.size] = size
    constrainAxis(k, axis: a, placement: placement)
  }
}
