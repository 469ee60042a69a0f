/// Emptied row buffers kept for the next expansions: of rows that pivots replaced, and of
/// expansions that were not installed (`Tableau.pivotInPlace`); at most `limit`, the
/// largest kept.
///
/// With one spare (the buffer last freed), a large buffer freed by a long row went to the
/// next expansion, often a short one, and the next long expansion allocated. Here an
/// expansion takes the smallest buffer that holds its cells, and a full pool drops its
/// smallest, so the large ones stay for the rows that need them. Random 1,000 text ticks
/// after 300 warm-up ticks: 0.127 -> 0.052 allocations per tick; the other shapes' are
/// first growths of rows, which no choice of spare avoids. (Stop 53's eight best-fit
/// spares kept whatever came back, and filled with the small buffers of replaced rows.)
struct RowPool {
  /// How many buffers the pool keeps (each scan reads this many capacities).
  static let limit = 8

  /// The buffers, as empty rows, and their capacities side by side (a scan reads the
  /// capacities only, not each buffer's header).
  private var rows: [Row] = []
  private var capacities: [Int] = []

  init() {
    rows.reserveCapacity(Self.limit)
    capacities.reserveCapacity(Self.limit)
  }

  var count: Int { rows.count }

  /// The row with the smallest buffer holding `cells` cells, taken out of the pool; an
  /// empty row with no buffer (whose first cells allocate) when none does.
  mutating func take(holding cells: Int) -> Row {
    guard cells > 0 else { return Row() }
    var best = -1
    var bestCapacity = Int.max
    for i in capacities.indices where capacities[i] >= cells && capacities[i] < bestCapacity {
      best = i
      bestCapacity = capacities[i]
    }
    guard best >= 0 else { return Row() }
    capacities.swapAt(best, capacities.count &- 1)
    rows.swapAt(best, rows.count &- 1)
    capacities.removeLast()
    return rows.removeLast()
  }

  /// Keeps `row`'s buffer, emptied, unless the pool is full of larger ones. A buffer
  /// shared with another row is not kept.
  mutating func give(_ row: consuming Row) {
    var row = row
    row.removeAllCells()
    let capacity = row.capacity
    guard capacity > 0 else { return }
    if rows.count < Self.limit {
      rows.append(row)
      capacities.append(capacity)
      return
    }
    var smallest = 0
    for i in capacities.indices where capacities[i] < capacities[smallest] { smallest = i }
    guard capacity > capacities[smallest] else { return }
    rows[smallest] = row
    capacities[smallest] = capacity
  }
}
