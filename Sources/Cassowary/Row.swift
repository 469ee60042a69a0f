/// What dividing a row's cells by a pivot element did to them.
struct Scaling {
  /// Some cell came out under the zero threshold (only a factor under 1 in magnitude can
  /// take one there).
  var vanished: Bool
  /// The largest cell magnitude the division made when the factor was over 1 in magnitude,
  /// else 0: how far it enlarged the row (see `Tolerance.enlargedRow`).
  var largest: Double
}

/// One tableau row: `basic = constant + Σ coefficient·symbol`, or, before it is solved for a
/// basic symbol, the expression `constant + Σ coefficient·symbol` that must equal zero.
///
/// Cells are parallel arrays sorted by symbol, so lookups are binary searches and adding one
/// row to another is a linear merge (see `Row+UnsafeHandle.swift`). No dictionaries and no
/// class references: a row is two buffers and a number.
struct Row {
  var symbols: ContiguousArray<Symbol> = []
  var coefficients: ContiguousArray<Double> = []
  var constant: Double

  init(constant: Double = 0) { self.constant = constant }

  var isConstant: Bool { symbols.isEmpty }
  var count: Int { symbols.count }

  /// Position of `symbol`, or the position where it would be inserted.
  @inline(__always)
  func search(_ symbol: Symbol) -> (found: Bool, index: Int) {
    var low = 0
    var high = symbols.count
    while low < high {
      let mid = (low &+ high) >> 1
      let s = symbols[mid]
      if s == symbol { return (true, mid) }
      if s < symbol { low = mid &+ 1 } else { high = mid }
    }
    return (false, low)
  }

  func coefficient(for symbol: Symbol) -> Double {
    let (found, i) = search(symbol)
    return found ? coefficients[i] : 0
  }

  func contains(_ symbol: Symbol) -> Bool { search(symbol).found }

  /// What a single-cell update did to the row's set of symbols.
  enum CellChange { case added, removed, updated, unchanged }

  /// Adds `coefficient·symbol`, dropping the cell when the sum is zero (`isResidue`).
  @discardableResult
  mutating func insert(_ symbol: Symbol, _ coefficient: Double) -> CellChange {
    // New rows are mostly built in increasing symbol order (variables, then the
    // constraint's fresh markers): appending needs no search and no shifting.
    if symbols.isEmpty || symbols[symbols.count - 1] < symbol {
      if isResidue(coefficient, scale: 0) { return .unchanged }
      symbols.append(symbol)
      coefficients.append(coefficient)
      return .added
    }
    let (found, i) = search(symbol)
    if found {
      let sum = coefficients[i] + coefficient
      if isResidue(sum, scale: abs(coefficient)) {
        symbols.remove(at: i)
        coefficients.remove(at: i)
        return .removed
      }
      coefficients[i] = sum
      return .updated
    }
    if isResidue(coefficient, scale: 0) { return .unchanged }
    symbols.insert(symbol, at: i)
    coefficients.insert(coefficient, at: i)
    return .added
  }

  /// Removes the cell for `symbol`, returning its coefficient (0 when absent).
  @discardableResult
  mutating func remove(_ symbol: Symbol) -> Double {
    let (found, i) = search(symbol)
    guard found else { return 0 }
    symbols.remove(at: i)
    return coefficients.remove(at: i)
  }

  mutating func reverseSign() {
    constant = -constant
    scaleCoefficients(by: -1)
  }

  /// Turns `0 = constant + a·symbol + rest` into `symbol = -constant/a - rest/a`.
  ///
  /// Cells that the division takes under the zero threshold are dropped, as a sum drops
  /// them (`isResidue`). Returns what the division did to the cells.
  @discardableResult
  mutating func solve(for symbol: Symbol) -> Scaling {
    let a = remove(symbol)
    let k = -1.0 / a
    constant *= k
    let scaling = scaleCoefficients(by: k)
    if scaling.vanished { _ = removeZeroCells() }
    return scaling
  }

  /// Turns `lhs = constant + b·rhs + rest` into `rhs = (lhs - constant - rest) / b`.
  ///
  /// The cell of `rhs` goes before the cell of `lhs` comes, so the row never holds more
  /// cells than it did: a pivot then never grows (reallocates) the row's buffers.
  ///
  /// One pass: the cells between the two positions shift by one, the rest stay (a dense row
  /// in a stack has a cell per box, and a removal then an insertion each moved half of them).
  ///
  /// Returns what the division did: when it took some cell under the zero threshold, the
  /// caller, which keeps the column counts, removes it (`removeZeroCells`).
  mutating func solve(for rhs: Symbol, replacing lhs: Symbol) -> Scaling {
    let (found, i) = search(rhs)
    let (named, j) = search(lhs)
    assert(!named, "the symbol replacing the solved one is already in its row")
    guard found else {
      // Absent: a zero coefficient, which the caller refuses before solving.
      let b = remove(rhs)
      insert(lhs, -1)
      let k = -1.0 / b
      constant *= k
      return scaleCoefficients(by: k)
    }
    let b = coefficients[i]
    symbols.withUnsafeMutableBufferPointer { symbols in
      coefficients.withUnsafeMutableBufferPointer { coefficients in
        if j > i {
          // `lhs` goes after `rhs`: the cells in between move down one place.
          var p = i
          while p &+ 1 < j {
            symbols[p] = symbols[p &+ 1]
            coefficients[p] = coefficients[p &+ 1]
            p &+= 1
          }
          symbols[j &- 1] = lhs
          coefficients[j &- 1] = -1
        } else {
          // `lhs` goes before `rhs`: the cells in between move up one place.
          var p = i
          while p > j {
            symbols[p] = symbols[p &- 1]
            coefficients[p] = coefficients[p &- 1]
            p &-= 1
          }
          symbols[j] = lhs
          coefficients[j] = -1
        }
      }
    }
    let k = -1.0 / b
    constant *= k
    return scaleCoefficients(by: k)
  }
}
