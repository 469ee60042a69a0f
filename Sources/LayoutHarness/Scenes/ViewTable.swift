import LayoutModel

/// The views of a scene tree by node id. Ids are small and dense (a scene's nodes are
/// numbered from 1, and nodes a mutation adds take the next numbers), so the table is an
/// array indexed by id. A dictionary hashed every id it stored or looked up, and counting
/// the scene to size it cost as much again: 6% of a cold bottom-up build of a feed.
public struct ViewTable {
  private var slots: [View?] = []
  /// The number of views in the table.
  public private(set) var count = 0

  public init() {}

  /// The view of the node `id`, or nil.
  public subscript(id: Int) -> View? {
    get { id >= 0 && id < slots.count ? slots[id] : nil }
    set {
      precondition(id >= 0, "a scene node id is not negative: \(id)")
      if id >= slots.count {
        guard newValue != nil else { return }
        slots.append(contentsOf: repeatElement(nil, count: id + 1 - slots.count))
      }
      switch (slots[id] == nil, newValue == nil) {
      case (true, false): count += 1
      case (false, true): count -= 1
      default: break
      }
      slots[id] = newValue
    }
  }

  /// Every view, by increasing node id.
  public var values: [View] { slots.compactMap { $0 } }
}
