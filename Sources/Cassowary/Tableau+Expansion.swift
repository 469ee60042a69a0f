// The expansion's loops over raw memory: the reference closure of a row and the spreading
// of each definition in it. A dual pivot in a stack of N boxes expands a row whose closure
// is the whole stack (2N to 3N rows), so these loops run over every box several times per
// tick. Through the arrays themselves each append paid a uniqueness check (a runtime call),
// each row read a retain and a release, and each write to the marks or the accumulator
// another uniqueness check: about 400 instructions per box per expansion in `chain`.

/// A raw, growable list of a trivial element type, owned by `ExpansionScratch`. Contents
/// beyond what a caller asks to keep are not preserved when it grows.
struct ScratchList<Element> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  /// Makes room for `count` elements, keeping the first `kept`.
  @inline(__always) mutating func reserve(_ count: Int, keeping kept: Int = 0) {
    if count > capacity { grow(count, keeping: kept) }
  }

  private mutating func grow(_ count: Int, keeping kept: Int) {
    let newCapacity = Swift.max(count, capacity &* 2)
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    if kept > 0 { newBase.moveInitialize(from: base, count: kept) }
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  func deallocate() { base.deallocate() }
}

/// The work space of `Tableau.expand(_:slot:)` (and `listed`, of `Tableau.applyShift`), kept
/// between uses and grown to the largest. Shared by copies of a tableau, which is harmless:
/// it holds nothing between two uses (but the last expansion's closure, which the dual
/// simplex reads right after it). Its lists are only touched by those loops, never
/// while another access to the same list is open, so their accesses are not checked at run time (the
/// check, a thread-local access set per access, was 5% of a feed's cold Auto Layout build
/// with the engine's queue below).
final class ExpansionScratch {
  /// The closure, dependencies first, and the traversal's stack.
  ///
  /// Three walks outside the expansion borrow lists the expansion does not keep between uses
  /// (a list of their own each was three more allocations per solver): `stack` and
  /// `other` hold the stack and the result of `Tableau.dependents(of:)`, `touched` the
  /// stack of `Tableau.setLevel(_:_:)`. None of them runs during an expansion, and neither
  /// calls the other or expands while its list is in use.
  @exclusivity(unchecked) var order = ScratchList<Symbol>(capacity: 64)
  @exclusivity(unchecked) var stack = ScratchList<(symbol: Symbol, next: Int32)>(capacity: 64)
  /// The symbols the expansion touches, as sorted runs, and the merge's second buffer.
  @exclusivity(unchecked) var touched = ScratchList<Symbol>(capacity: 64)
  @exclusivity(unchecked) var other = ScratchList<Symbol>(capacity: 64)
  @exclusivity(unchecked) var runEnds = ScratchList<Int>(capacity: 64)
  /// The coefficients of the result's cells, parallel to the first cells of `touched`.
  @exclusivity(unchecked) var coefficients = ScratchList<Double>(capacity: 64)
  /// The weight of each spread definition, parallel to `spreadBasics`.
  @exclusivity(unchecked) var spreadBasics = ScratchList<Symbol>(capacity: 64)
  @exclusivity(unchecked) var spreadWeights = ScratchList<Double>(capacity: 64)
  /// The externals a cached shift lists (`Tableau.applyShift`): new ones from the start,
  /// changed again after a check from the end.
  @exclusivity(unchecked) var listed = ScratchList<Symbol>(capacity: 64)
  /// How many symbols of `order` the last expansion spread (its closure), for
  /// `Tableau.lastClosureNames(_:besides:)`, and how many cells it read (the row's and its
  /// closure's), what expanding the row again would cost.
  var closureCount = 0
  var cellsRead = 0

  /// The iterative depth-first walk of the reference closure and of the dependents: from
  /// `root` (visited already), each symbol's children in the order `nextChild` hands them
  /// out, `visit` called on each before its own children are walked, and each symbol
  /// written to `order` at `count` once all of its children are (postorder). `nextChild(s,
  /// &next)` is the next child of `s` not visited yet from position `next` on, moving `next`
  /// past it, or `.invalid` when none is left. The stack is `stack`.
  @inline(__always)
  func walkPostorder(
    from root: Symbol, into order: inout ScratchList<Symbol>, count: inout Int,
    nextChild: (Symbol, inout Int) -> Symbol, visit: (Symbol) -> Void
  ) {
    stack.reserve(1)
    stack.base[0] = (root, 0)
    var depth = 1
    while depth > 0 {
      let top = stack.base[depth &- 1]
      var next = Int(top.next)
      let child = nextChild(top.symbol, &next)
      if child.isValid {
        stack.base[depth &- 1].next = Int32(next)
        visit(child)
        stack.reserve(depth &+ 1, keeping: depth)
        stack.base[depth] = (child, 0)
        depth &+= 1
      } else {
        depth &-= 1
        order.reserve(count &+ 1, keeping: count)
        order.base[count] = top.symbol
        count &+= 1
      }
    }
  }

  deinit {
    order.deallocate()
    stack.deallocate()
    touched.deallocate()
    other.deallocate()
    runEnds.deallocate()
    coefficients.deallocate()
    spreadBasics.deallocate()
    spreadWeights.deallocate()
    listed.deallocate()
  }
}

extension Tableau {
  /// The basic symbols a row names, directly or through their rows, written to the first
  /// elements of `expansion.order`, each after every basic symbol its own row names
  /// (dependencies first). Returns how many. `slot` is the row's slot when it is a row of the
  /// tableau (else -1).
  ///
  /// A row whose basic cells are cached (`Tableau+References.swift`) is walked through its
  /// span, which holds exactly those cells in row order: the same children in the same
  /// order as a pass over all its cells, without the pass. In a stack, the row a dual pivot
  /// expands is often a dense one with a cell per box and few basic cells; checking every
  /// cell for a row was a quarter of the expansion in `chain`.
  mutating func referenceClosure(of row: Row, slot rowSlot: Int = -1) -> Int {
    nextEpoch()
    let epoch = visitEpoch
    // The scratch lent unretained (a `let` of the tableau): bound to a local, it was
    // retained and released per call.
    return Unmanaged.passUnretained(expansion)._withUnsafeGuaranteedRef { scratch in
      assert(rowSlot < 0 || row.symbols == rows[rowSlot].symbols, "the row is not the slot's")
      assert(rowSlot < 0 || spanIsExact(rowSlot), "a span differs from its row")
      let count = rows.withReadBuffer { rows in
        basicSlot.withReadBuffer { basicSlot in
          symbolMarks.withUnsafeMutableBufferPointer { marks in
            referenceSpans.withReadBuffer { spans in
              referenceSymbols.withReadBuffer { arena in
                var count = 0
                /// The next basic cell from position `next` on that is not marked yet, of the row
                /// in `slot` (of `row` when `slot` is -1), moving `next` past it; `.invalid` when
                /// none is left.
                @inline(__always)
                func nextChild(_ slot: Int, _ next: inout Int) -> Symbol {
                  let span = slot >= 0 ? spans[slot] : .unknown
                  if span.count >= 0 {
                    let start = Int(span.start)
                    while next < Int(span.count) {
                      let t = arena[start &+ next]
                      next &+= 1
                      if marks[t.index].visit != epoch { return t }
                    }
                    return .invalid
                  }
                  /// The same scan over the row's own cells. (Choosing the row with a
                  /// conditional expression made a copy of it: a retain and a release of its
                  /// buffers per step of the walk.)
                  func scan(_ cells: UnsafeBufferPointer<Symbol>) -> Symbol {
                    while next < cells.count {
                      let t = cells[next]
                      next &+= 1
                      if basicSlot[t.index] >= 0 && marks[t.index].visit != epoch { return t }
                    }
                    return .invalid
                  }
                  // The cells read unretained (no row changes during the walk).
                  if slot >= 0 { return scan(rows.unretainedHandle(at: slot).symbols) }
                  return scan(row.unretainedHandle.symbols)
                }
                var rootNext = 0
                while true {
                  let root = nextChild(rowSlot, &rootNext)
                  guard root.isValid else { break }
                  marks[root.index].visit = epoch
                  scratch.walkPostorder(
                    from: root, into: &scratch.order, count: &count,
                    nextChild: { symbol, next in nextChild(Int(basicSlot[symbol.index]), &next) },
                    visit: { marks[$0.index].visit = epoch })
                }
                return count
              }
            }
          }
        }
      }
      assert(
        (0..<count).allSatisfy { spanIsExact(Int(basicSlot[scratch.order.base[$0].index])) },
        "a span differs from its row")
      return count
    }
  }

  /// The row with every basic symbol replaced, recursively, by its definition: the same
  /// equation over parametric symbols only. Each row in the closure is read once. `slot` is
  /// the row's slot when it is a row of the tableau (its cached basic cells then serve).
  ///
  /// A cell that sums to less than the near-zero threshold may be a small coefficient or
  /// the residue of a cancellation (zero in exact arithmetic); only the second is dropped
  /// (`isResidue`). Telling them apart needs the magnitude of what went into the cell,
  /// which is computed in a second pass only when such a cell exists.
  mutating func expand(_ row: Row, slot: Int = -1) -> Row {
    let closure = referenceClosure(of: row, slot: slot)
    if closure == 0 { return row }
    counters.expansions &+= 1
    nextEpoch()
    let epoch = visitEpoch
    // The scratch lent unretained (a `let` of the tableau): bound to a local, it was
    // retained and released per call.
    return Unmanaged.passUnretained(expansion)._withUnsafeGuaranteedRef { scratch in
      scratch.closureCount = closure
      // Room for every cell the spread can touch: the row's and each definition's. (One pass
      // over the closure's rows, which the spread reads next.)
      var bound = row.count
      rows.withReadBuffer { rows in
        basicSlot.withReadBuffer { basicSlot in
          for k in 0..<closure {
            bound &+= rows[Int(basicSlot[scratch.order.base[k].index])].count
          }
        }
      }
      scratch.cellsRead = bound
      scratch.touched.reserve(bound)
      scratch.other.reserve(bound)
      scratch.coefficients.reserve(bound)
      scratch.runEnds.reserve(closure &+ 1)
      scratch.spreadBasics.reserve(closure)
      scratch.spreadWeights.reserve(closure)
      let touched = scratch.touched.base
      let runEnds = scratch.runEnds.base
      let order = scratch.order.base
      let spreadBasics = scratch.spreadBasics.base
      let spreadWeights = scratch.spreadWeights.base
      // `touched` becomes a sequence of sorted runs: the row's symbols, then each spread
      // definition's new ones, in its order; `runEnds` marks where each ends.
      var n = 0
      var runs = 0
      var spreadCount = 0
      var constant = row.constant
      rows.withReadBuffer { rows in
        basicSlot.withReadBuffer { basicSlot in
          symbolMarks.withUnsafeMutableBufferPointer { marks in
            accumulator.withUnsafeMutableBufferPointer { accumulator in
              row.withUnsafeHandle { cells in
                for i in 0..<cells.count {
                  let s = cells.symbols[i]
                  marks[s.index].visit = epoch
                  touched[n] = s
                  n &+= 1
                  accumulator[s.index] += cells.coefficients[i]
                }
              }
              if n > 0 {
                runEnds[0] = n
                runs = 1
              }
              // Referrers before the rows they name, so each basic symbol's weight is
              // complete when its row is spread.
              var k = closure
              while k > 0 {
                k &-= 1
                let b = order[k]
                let weight = accumulator[b.index]
                accumulator[b.index] = 0
                guard weight != 0 else { continue }
                spreadBasics[spreadCount] = b
                spreadWeights[spreadCount] = weight
                spreadCount &+= 1
                let slot = Int(basicSlot[b.index])
                constant += weight * rows[slot].constant
                let cells = rows.unretainedHandle(at: slot)
                for i in 0..<cells.count {
                  let t = cells.symbols[i]
                  if marks[t.index].visit != epoch {
                    marks[t.index].visit = epoch
                    touched[n] = t
                    n &+= 1
                  }
                  accumulator[t.index] += weight * cells.coefficients[i]
                }
                if n > (runs > 0 ? runEnds[runs &- 1] : 0) {
                  runEnds[runs] = n
                  runs &+= 1
                }
              }
            }
          }
        }
      }
      let sorted = Tableau.mergeRuns(touched, other: scratch.other.base, ends: runEnds, runs: runs)
      // The parametric cells that are not residues, in order, written back over `touched`.
      let coefficients = scratch.coefficients.base
      var kept = 0
      var small = 0
      basicSlot.withReadBuffer { basicSlot in
        accumulator.withUnsafeMutableBufferPointer { accumulator in
          for i in 0..<n {
            let t = sorted[i]
            let c = accumulator[t.index]
            accumulator[t.index] = 0
            if basicSlot[t.index] < 0 && !isResidue(c, scale: 0) {
              if nearZero(c) { small &+= 1 }
              touched[kept] = t
              coefficients[kept] = c
              kept &+= 1
            }
          }
        }
      }
      // The result goes into the smallest spare buffer that holds it (`RowPool`: of rows that
      // pivots replaced, and of expansions that were not installed), so a pivot that expands
      // a row allocates nothing once the spares are as large as the rows need.
      var result = spareRows.take(holding: kept)
      result.constant = constant
      result.replaceCells(symbols: touched, coefficients: coefficients, count: kept)
      if small > 0 {
        dropResidues(
          from: &result, expanding: row,
          spread: UnsafeBufferPointer(start: spreadBasics, count: spreadCount),
          weights: UnsafeBufferPointer(start: spreadWeights, count: spreadCount))
      }
      return result
    }
  }

  /// Whether a row of the last expansion's closure, or a row the column index cannot rule
  /// out (a stale entry), names `symbol`, other than the row in `slot`. Read right after
  /// `expand(_:slot:)` expanded that row, before another expansion.
  ///
  /// When none does, the expanded row's cell of `symbol` is the row's own, and solving the
  /// unexpanded row for it keeps the rows acyclic: no row its new row names depends on it.
  mutating func lastClosureNames(_ symbol: Symbol, besides slot: Int) -> Bool {
    let index = symbol.index
    let count = columns.count(index)
    // Most often the row itself is the only one that names it.
    var others = false
    for k in 0..<count where Int(columns.entry(index, k)) != slot {
      others = true
      break
    }
    guard others else { return false }
    nextEpoch()
    let epoch = visitEpoch
    let scratch = expansion
    for k in 0..<scratch.closureCount {
      symbolMarks[scratch.order.base[k].index].visit = epoch
    }
    for k in 0..<count {
      let entry = Int(columns.entry(index, k))
      guard entry != slot else { continue }
      let b = rowBasic[entry]
      if b.isValid && symbolMarks[b.index].visit == epoch { return true }
    }
    return false
  }

  /// Sorts a list of `runs` sorted runs of distinct symbols (in `list`, the runs ending at
  /// `ends`) by merging neighbouring runs pairwise, back and forth between `list` and
  /// `other`; returns the buffer that holds the result. The same order as `sort()`, with no
  /// allocation.
  static func mergeRuns(
    _ list: UnsafeMutablePointer<Symbol>, other: UnsafeMutablePointer<Symbol>,
    ends: UnsafeMutablePointer<Int>, runs: Int
  ) -> UnsafeMutablePointer<Symbol> {
    var source = list
    var target = other
    var runCount = runs
    while runCount > 1 {
      var merged = 0
      var start = 0
      var r = 0
      while r < runCount {
        let middle = ends[r]
        guard r &+ 1 < runCount else {
          // An odd run out: copied as it is.
          target.advanced(by: start).update(
            from: source.advanced(by: start), count: middle &- start)
          ends[merged] = middle
          merged &+= 1
          break
        }
        let end = ends[r &+ 1]
        var i = start
        var j = middle
        var k = start
        while i < middle && j < end {
          if source[i] < source[j] {
            target[k] = source[i]
            i &+= 1
          } else {
            target[k] = source[j]
            j &+= 1
          }
          k &+= 1
        }
        while i < middle {
          target[k] = source[i]
          i &+= 1
          k &+= 1
        }
        while j < end {
          target[k] = source[j]
          j &+= 1
          k &+= 1
        }
        ends[merged] = end
        merged &+= 1
        start = end
        r &+= 2
      }
      runCount = merged
      swap(&source, &target)
    }
    return source
  }

  /// Sorts `list`, a sequence of sorted runs of distinct symbols ending at `ends`, the way
  /// the expansion does (`mergeRuns(_:other:ends:runs:)`); leaves at most one run in `ends`.
  mutating func mergeRuns(_ list: inout [Symbol], ends: inout [Int]) {
    guard ends.count > 1 else { return }
    precondition(ends.last == list.count, "the runs must cover the list")
    let scratch = expansion
    scratch.other.reserve(list.count)
    let runs = ends.count
    list.withUnsafeMutableBufferPointer { list in
      ends.withUnsafeMutableBufferPointer { ends in
        let result = Tableau.mergeRuns(
          list.baseAddress!, other: scratch.other.base, ends: ends.baseAddress!, runs: runs)
        if result != list.baseAddress! {
          list.baseAddress!.update(from: result, count: list.count)
        }
      }
    }
    ends.removeLast(ends.count - 1)
  }

  /// Drops the cells of an expansion that are cancellation residues: the magnitudes of the
  /// terms that went into each small cell are summed (in `accumulator`) from the original
  /// row and the weighted definitions that were spread.
  private mutating func dropResidues(
    from result: inout Row, expanding row: Row, spread: UnsafeBufferPointer<Symbol>,
    weights: UnsafeBufferPointer<Double>
  ) {
    nextEpoch()
    for i in result.symbols.indices where nearZero(result.coefficients[i]) {
      symbolMarks[result.symbols[i].index].visit = visitEpoch
    }
    for i in row.symbols.indices where symbolMarks[row.symbols[i].index].visit == visitEpoch {
      accumulator[row.symbols[i].index] += abs(row.coefficients[i])
    }
    for k in spread.indices {
      let definition = rows[Int(basicSlot[spread[k].index])]
      let weight = weights[k]
      for i in definition.symbols.indices
      where symbolMarks[definition.symbols[i].index].visit == visitEpoch {
        accumulator[definition.symbols[i].index] += abs(weight * definition.coefficients[i])
      }
    }
    let epoch = visitEpoch
    let kept = result.withUnsafeMutableCells { symbols, coefficients in
      var kept = 0
      for i in symbols.indices {
        let t = symbols[i]
        let c = coefficients[i]
        if symbolMarks[t.index].visit == epoch {
          let scale = accumulator[t.index]
          accumulator[t.index] = 0
          if isResidue(c, scale: scale) { continue }
        }
        symbols[kept] = t
        coefficients[kept] = c
        kept &+= 1
      }
      return kept
    }
    result.truncate(to: kept)
  }
}
