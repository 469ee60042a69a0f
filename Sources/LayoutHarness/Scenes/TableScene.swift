import BenchSupport
import LayoutModel

// A table view of self-sizing cells with cell reuse: what a real app's list does on every
// frame of a scroll. Only the cells that cover the screen exist; a cell that scrolls off one
// edge is reused for the row that enters at the other (moved among its siblings, so it keeps
// its views and their constraints, as a `UITableView` keeps a dequeued cell's), configured
// for that row's content, and sized by the layout.
//
// The rows above and below the cells are stood in for by the content stack's top and bottom
// insets at an estimated height per row (`UITableView.estimatedRowHeight`), so the content
// keeps the height of the whole table and the cells sit where the rows are. Unlike UIKit,
// which corrects its estimates with the heights it has measured, the rows that enter are
// chosen from the estimates alone: the mutations are generated before any strategy lays
// them out, so that all three strategies get the same ones. The cost per frame is the same
// kind of work (reorder, configure, self-size, move the spacers).
//
// Scene: `table` (a scrolling list) > `table.content` (a vertical stack) > cells `cellN`,
// each with the feed cell's 11 views; N is the reuse slot, not the row.

/// The geometry of a table scene: how many rows it has, how tall it estimates a row, and
/// how many cells cover the screen.
public struct TableGeometry: Hashable, Sendable {
  /// A feed cell's height for a body of about 20 words, at 390 points wide.
  public static let estimatedRowHeight = 140.0
  /// Cells beyond the screen's height: one above and one below, as a table view keeps.
  public static let overscanCells = 2

  public var rows: Int
  public var cells: Int

  public init(rows: Int, windowHeight: Double) {
    self.rows = rows
    let covering = Int((windowHeight / Self.estimatedRowHeight).rounded(.up))
    cells = min(rows, covering + Self.overscanCells)
  }

  /// The content stack's insets when the cells show rows `first..<first + cells`.
  public func spacers(first: Int) -> EdgeInsets {
    EdgeInsets(
      top: Double(first) * Self.estimatedRowHeight, left: 0,
      bottom: Double(rows - first - cells) * Self.estimatedRowHeight, right: 0)
  }

  /// The largest scroll offset: the estimated content height less the screen's.
  public func maxOffset(windowHeight: Double) -> Double {
    max(0, Double(rows) * Self.estimatedRowHeight - windowHeight)
  }

  /// The first row the cells show at `offset`: one cell above the screen while there is a
  /// row above it, never past the last full set of cells.
  public func firstRow(atOffset offset: Double) -> Int {
    let top = Int((offset / Self.estimatedRowHeight).rounded(.down)) - Self.overscanCells / 2
    return min(max(top, 0), rows - cells)
  }
}

/// The content a row of the table's data source shows: drawn from the scene's seed and the
/// row alone, so a row that scrolls back in shows what it showed before.
public struct RowContent: Hashable, Sendable {
  public var title: String
  public var subtitle: String
  public var body: String
  /// Some rows show a larger avatar (a story ring): a constant that changes on reuse.
  public var avatar: Size

  public init(title: String, subtitle: String, body: String, avatar: Size) {
    self.title = title
    self.subtitle = subtitle
    self.body = body
    self.avatar = avatar
  }

  public init(row: Int, seed: UInt64) {
    var generator = SceneGenerator(seed: seed ^ (UInt64(row) &* 0x9E37_79B9_7F4A_7C15))
    let drawn = generator.cellTexts()
    title = drawn.title
    subtitle = drawn.subtitle
    body = drawn.body
    avatar = row % 3 == 0 ? Size(width: 48, height: 48) : Size(width: 40, height: 40)
  }
}

/// The scroll workload of a table: the offset moves back and forth over the whole table,
/// and every tick reuses the cells that left the screen for the rows that entered it.
struct TableScroller {
  let geometry: TableGeometry
  let seed: UInt64
  let windowHeight: Double
  let list: Int
  let content: Int
  /// The cells in their order on screen, and the row each shows.
  private(set) var cells: [CellParts]
  private(set) var first = 0
  private var tick = 0
  /// Points scrolled per tick: a brisk fling (2,400 points per second at 60 Hz).
  static let step = 40.0

  /// The scroller of a scene built by ``SceneGenerator/table(rows:seed:)`` with `rows` and
  /// `seed`; nil for any other scene.
  init?(scene: Scene, rows: Int, seed: UInt64) {
    guard scene.root.name == "table", case .list(let children) = scene.root.content,
      let contentNode = children.first, case .stack(_, let cellNodes) = contentNode.content
    else { return nil }
    let parts = CellParts.find(in: scene)
    guard parts.count == cellNodes.count else { return nil }
    geometry = TableGeometry(rows: rows, windowHeight: scene.windowSize.height)
    self.seed = seed
    windowHeight = scene.windowSize.height
    list = scene.root.id
    content = contentNode.id
    cells = parts
  }

  /// The scroll offset of tick `t`: a triangle wave over the whole table.
  func offset(atTick t: Int) -> Double {
    let range = geometry.maxOffset(windowHeight: windowHeight)
    guard range > 0 else { return 0 }
    let travel = Double(t) * Self.step
    let period = 2 * range
    let phase = travel.truncatingRemainder(dividingBy: period)
    return phase <= range ? phase : period - phase
  }

  /// The mutations of the next tick: reuse of the cells that left, their configuration for
  /// the rows that entered, the spacers, and the scroll itself.
  mutating func next() -> [SceneMutation] {
    defer { tick += 1 }
    let offset = self.offset(atTick: tick + 1)
    let target = geometry.firstRow(atOffset: offset)
    var result: [SceneMutation] = []
    let shift = min(abs(target - first), cells.count)
    if shift > 0 {
      for _ in 0..<shift {
        if target > first {
          // The top cell scrolls off: it becomes the last, for the row after the last.
          let cell = cells.removeFirst()
          cells.append(cell)
          result.append(.move(id: cell.cell, to: cells.count - 1))
        } else {
          let cell = cells.removeLast()
          cells.insert(cell, at: 0)
          result.append(.move(id: cell.cell, to: 0))
        }
      }
      let entered = target > first ? (cells.count - shift)..<cells.count : 0..<shift
      for slot in entered {
        result += configure(cells[slot], row: target + slot)
      }
      first = target
      result.append(.setInsets(id: content, insets: geometry.spacers(first: first)))
    }
    result.append(.scroll(id: list, offset: offset))
    return result
  }

  /// What `cellForRowAt` does to a dequeued cell: its texts and avatar for `row`.
  func configure(_ cell: CellParts, row: Int) -> [SceneMutation] {
    let content = RowContent(row: row, seed: seed)
    return [
      .setText(id: cell.title, text: content.title),
      .setText(id: cell.subtitle, text: content.subtitle),
      .setText(id: cell.body, text: content.body),
      .setImageSize(id: cell.avatar, size: content.avatar),
    ]
  }
}

extension SceneGenerator {
  /// A table of `rows` rows whose cells show rows `0..<cells` (``TableGeometry``), each
  /// configured from its row's ``RowContent``.
  public mutating func table(rows: Int, seed: UInt64) -> Scene {
    let geometry = TableGeometry(rows: rows, windowHeight: windowSize.height)
    var cells: [Scene.Node] = []
    for slot in 0..<geometry.cells {
      cells.append(feedCell(slot, content: RowContent(row: slot, seed: seed)))
    }
    let content = node(
      "table.content",
      .stack(.init(axis: .vertical, insets: geometry.spacers(first: 0)), children: cells))
    return Scene(windowSize: windowSize, root: node("table", .list(children: [content])))
  }
}
