// The merge at the heart of every substitution, over raw scratch memory (the one place the
// solver allocates memory by hand).

/// Raw output space for merges, grown as needed and reused: writing merged cells through
/// pointers costs no uniqueness check or capacity test per cell, which appending to an
/// array does. Shared by copies of a tableau, which is harmless: it holds nothing between
/// two merges.
final class MergeBuffer {
  private(set) var symbols: UnsafeMutablePointer<Symbol>
  private(set) var coefficients: UnsafeMutablePointer<Double>
  private(set) var capacity: Int

  init() {
    capacity = 64
    symbols = .allocate(capacity: capacity)
    coefficients = .allocate(capacity: capacity)
  }

  deinit {
    symbols.deallocate()
    coefficients.deallocate()
  }

  /// Makes room for `count` cells (the contents are not kept).
  @inline(__always) func reserve(_ count: Int) {
    if count > capacity { grow(count) }
  }

  private func grow(_ count: Int) {
    symbols.deallocate()
    coefficients.deallocate()
    capacity = Swift.max(count, capacity &* 2)
    symbols = .allocate(capacity: capacity)
    coefficients = .allocate(capacity: capacity)
  }
}

/// Reusable merge output and the list of symbols a merge added to or removed from the
/// destination row, so that the tableau can keep its column index exact.
struct MergeScratch {
  let buffer = MergeBuffer()
  var added: [Symbol] = []
  var removed: [Symbol] = []
}

extension Row {
  mutating func scaleCoefficients(by k: Double) {
    coefficients.withUnsafeMutableBufferPointer { c in
      for i in c.indices { c[i] *= k }
    }
  }

  /// `self += k · other`, as a linear merge of the two sorted rows, leaving out the cell of
  /// `dropped` (the symbol `other` defines, in a substitution). Cells whose sum is zero
  /// (`isResidue`) are dropped. Symbols that appear or disappear are appended to
  /// `scratch.added` / `scratch.removed` (which the caller clears); `dropped` is not
  /// reported.
  mutating func add(
    _ other: Row, times k: Double, dropping dropped: Symbol = .invalid,
    scratch: inout MergeScratch
  ) {
    constant += k * other.constant
    if other.symbols.isEmpty && !dropped.isValid { return }
    let buffer = scratch.buffer
    buffer.reserve(symbols.count + other.symbols.count)
    let outS = buffer.symbols
    let outC = buffer.coefficients
    var n = 0
    symbols.withUnsafeBufferPointer { aS in
      coefficients.withUnsafeBufferPointer { aC in
        other.symbols.withUnsafeBufferPointer { bS in
          other.coefficients.withUnsafeBufferPointer { bC in
            var i = 0
            var j = 0
            while i < aS.count || j < bS.count {
              if j == bS.count || (i < aS.count && aS[i] < bS[j]) {
                if aS[i] != dropped {
                  outS[n] = aS[i]
                  outC[n] = aC[i]
                  n &+= 1
                }
                i &+= 1
              } else if i == aS.count || bS[j] < aS[i] {
                let v = k * bC[j]
                if !isResidue(v, scale: 0) {
                  outS[n] = bS[j]
                  outC[n] = v
                  n &+= 1
                  scratch.added.append(bS[j])
                }
                j &+= 1
              } else {
                let v = aC[i] + k * bC[j]
                if isResidue(v, scale: abs(aC[i])) {
                  scratch.removed.append(aS[i])
                } else {
                  outS[n] = aS[i]
                  outC[n] = v
                  n &+= 1
                }
                i &+= 1
                j &+= 1
              }
            }
          }
        }
      }
    }
    // Back into the row's own buffers (kept when they are unique and large enough).
    symbols.removeAll(keepingCapacity: true)
    coefficients.removeAll(keepingCapacity: true)
    symbols.append(contentsOf: UnsafeBufferPointer(start: outS, count: n))
    coefficients.append(contentsOf: UnsafeBufferPointer(start: outC, count: n))
  }
}
