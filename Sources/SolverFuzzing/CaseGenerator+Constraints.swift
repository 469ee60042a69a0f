import Cassowary

// The constraints of one box on one axis, written around the witness placement just drawn.
// Each kind appears with the frequency it has in real layouts: every box sits inside its
// parent, most have a minimum and a preferred size, some follow a sibling, keep a ratio to
// their parent or match a sibling.

extension CaseGenerator {
  mutating func constrainAxis(_ k: Int, axis a: Int, placement: Placement) {
    let parent = boxes[k].parent
    let (pos, size) = (boxes[k].axes[a].position, boxes[k].axes[a].size)
    let (outerPos, outerSize) = (boxes[parent].axes[a].position, boxes[parent].axes[a].size)
    let (position, length) = (witness[pos], witness[size])
    let (origin, span) = (witness[outerPos], witness[outerSize])
    let tight = rng.chance(style.tightness)
    let inParent = "b\(k) in b\(parent)"
    let siblings = children[parent]

    // Inside the parent with one inset on both sides, at most the smaller distance to an edge.
    let room = min(position - origin, origin + span - position - length)
    let inset = tight ? Double(Int(room)) : Double(rng.upTo(min(10, room)))
    constrain(.inset, inParent, [(pos, 1), (outerPos, -1)], -inset, .greaterOrEqual, .required)
    constrain(
      .inset, inParent, [(pos, 1), (size, 1), (outerPos, -1), (outerSize, -1)], inset,
      .lessOrEqual, .required)

    if rng.chance(0.85) {
      let minimum = tight ? Double(Int(length)) : Double(rng.upTo(length))
      constrain(.minimum, "b\(k)", [(size, 1)], -minimum, .greaterOrEqual, .required)
    }
    if rng.chance(0.75) {
      // Sometimes exactly the witness size, so that a later change to required is allowed.
      let preferred = rng.chance(0.4) ? length : Double(rng.upTo(span * 1.2))
      constrain(.preferred, "b\(k)", [(size, 1)], -preferred, .equal, softStrength())
    }

    switch placement {
    case .chained(let sibling, let gap):
      let other = boxes[sibling].axes[a]
      constrain(
        .chain, "b\(k) after b\(sibling)", [(pos, 1), (other.position, -1), (other.size, -1)],
        -gap, .equal, required(0.75, else: .strong))
    default:
      if !siblings.isEmpty, rng.chance(0.3) {
        let sibling = rng.pick(siblings)
        let other = boxes[sibling].axes[a]
        constrain(
          .gap, "b\(k) after b\(sibling)", [(pos, 1), (other.position, -1), (other.size, -1)],
          -Double(rng.int(in: 0...16)), .equal, softStrength())
      }
    }

    if rng.chance(0.2) {
      // 2 * w - m * pw <= k, with k at or above its value at the witness.
      let m = 0.25 * Double(rng.int(in: 1...16))
      let bound = 2 * length - m * span + (tight ? 0 : Double(rng.int(in: 0...50)))
      constrain(
        .ratio, "b\(k) to b\(parent)", [(size, 2), (outerSize, -m)], -bound, .lessOrEqual,
        required(0.6, else: .strong))
    }

    let centred: Bool
    if case .centred = placement { centred = true } else { centred = false }
    if centred || rng.chance(0.04) {
      constrain(
        .centring, inParent, [(pos, 1), (size, 0.5), (outerPos, -1), (outerSize, -0.5)], 0,
        .equal, centred ? required(0.7) : softStrength())
    }

    if case .matched(let sibling) = placement {
      constrain(
        .equalSize, "b\(k) and b\(sibling)", [(size, 1), (boxes[sibling].axes[a].size, -1)], 0,
        .equal, required(0.7, else: .strong))
    } else if !siblings.isEmpty, rng.chance(0.04) {
      let sibling = rng.pick(siblings)
      constrain(
        .equalSize, "b\(k) and b\(sibling)", [(size, 1), (boxes[sibling].axes[a].size, -1)], 0,
        .equal, softStrength())
    }

    guard a == 1 else { return }
    let width = boxes[k].axes[0].size
    if case .scaled(let ratio) = placement {
      constrain(.aspect, "b\(k)", [(size, 1), (width, -ratio)], 0, .equal, required(0.7))
    } else if rng.chance(0.04) {
      let ratio = 0.25 * Double(rng.int(in: 1...8))
      constrain(.aspect, "b\(k)", [(size, 1), (width, -ratio)], 0, .equal, softStrength())
    }
  }
}
