/// Views waiting for a layout pass, bucketed by depth so the pass takes parents before
/// children in O(1) per view (UIKit lays out top-down: a superview places its subviews,
/// which then lay out their own).
struct DepthQueue {
  private var buckets: [[View]] = []
  private var lowest = 0
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  mutating func insert(_ view: View) {
    let depth = view.depth
    while buckets.count <= depth { buckets.append([]) }
    buckets[depth].append(view)
    count += 1
    if depth < lowest { lowest = depth }
  }

  /// Removes and returns a view of the lowest depth present.
  mutating func popShallowest() -> View? {
    guard count > 0 else { return nil }
    while buckets[lowest].isEmpty { lowest += 1 }
    count -= 1
    return buckets[lowest].popLast()
  }

  /// Removes every entry, in depth order.
  mutating func drain() -> [View] {
    var all: [View] = []
    all.reserveCapacity(count)
    while let view = popShallowest() { all.append(view) }
    return all
  }
}
