@testable import Cassowary
import Testing

/// The spare row buffers expansions are built in (`RowPool`).
@Suite struct RowPoolTests {
  private func row(room: Int) -> Row {
    var row = Row()
    row.reserveCapacity(room)
    return row
  }

  /// An expansion takes the smallest buffer that holds its cells, so a large one stays for
  /// the large rows; none holding them, it gets a row with no buffer and the pool is kept.
  @Test func aTakeGetsTheSmallestBufferThatHoldsTheCells() {
    var pool = RowPool()
    let rooms = [300, 10, 40, 2000].map { row(room: $0).capacity }
    for room in [300, 10, 40, 2000] { pool.give(row(room: room)) }
    #expect(pool.count == 4)
    var taken: [Int] = []
    for cells in [20, 20, rooms[3] + 1] { taken.append(pool.take(holding: cells).capacity) }
    #expect(taken == [rooms[2], rooms[0], 0])
    #expect(pool.count == 2)
    for cells in [1, 1] { taken.append(pool.take(holding: cells).capacity) }
    #expect(taken.suffix(2) == [rooms[1], rooms[3]])
    #expect(pool.count == 0)
  }

  /// A full pool drops its smallest buffer for a larger one, and keeps itself when offered a
  /// smaller one; a buffer another row shares, or none, is not kept. (The rooms go in out
  /// of order, so the smallest is not the first buffer.)
  @Test func aFullPoolKeepsTheLargestBuffers() {
    var pool = RowPool()
    let rooms = [40, 10, 80, 20, 70, 30, 60, 50]
    #expect(rooms.count == RowPool.limit)
    for room in rooms { pool.give(row(room: room)) }
    pool.give(row(room: 1))
    pool.give(row(room: 5000))
    pool.give(row(room: 5))
    #expect(pool.count == RowPool.limit)
    var shared = row(room: 9000)
    shared.appendCell(Symbol(.slack, index: 1), 1)
    let other = shared
    pool.give(shared)
    pool.give(Row())
    #expect(other.count == 1, "the other row keeps its cells")
    // Drained smallest first: the 10-cell buffer went for the 5,000-cell one, and nothing
    // else came in.
    var drained: [Int] = []
    while pool.count > 0 { drained.append(pool.take(holding: 1).capacity) }
    let expected = ([20, 30, 40, 50, 60, 70, 80, 5000]).map { row(room: $0).capacity }
    #expect(drained == expected)
  }

  /// An empty result takes no buffer.
  @Test func anEmptyResultTakesNoBuffer() {
    var pool = RowPool()
    pool.give(row(room: 30))
    #expect(pool.take(holding: 0).capacity == 0)
    #expect(pool.count == 1)
  }

  /// Cells left in a given row are dropped: a taken row is empty.
  @Test func aTakenRowIsEmpty() {
    var pool = RowPool()
    var full = row(room: 50)
    for i in 0..<30 { full.appendCell(Symbol(.error, index: i), Double(i)) }
    pool.give(consume full)
    let taken = pool.take(holding: 30)
    #expect(taken.count == 0 && taken.capacity >= 30)
  }
}
