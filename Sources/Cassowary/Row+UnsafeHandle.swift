// The only file that touches unsafe buffers: the merge at the heart of every substitution.

/// Reusable buffers for merges and the list of symbols a merge added to or removed from the
/// destination row, so that the tableau can keep its column index exact.
struct MergeScratch {
  var symbols: ContiguousArray<Symbol> = []
  var coefficients: ContiguousArray<Double> = []
  var added: [Symbol] = []
  var removed: [Symbol] = []
}

extension Row {
  mutating func scaleCoefficients(by k: Double) {
    coefficients.withUnsafeMutableBufferPointer { c in
      for i in c.indices { c[i] *= k }
    }
  }

  /// `self += k · other`, as a linear merge of the two sorted rows. Cells whose sum is near
  /// zero are dropped. Symbols that appear or disappear are appended to `scratch.added` /
  /// `scratch.removed` (which the caller clears).
  mutating func add(_ other: Row, times k: Double, scratch: inout MergeScratch) {
    constant += k * other.constant
    if other.symbols.isEmpty { return }
    let total = symbols.count + other.symbols.count
    scratch.symbols.removeAll(keepingCapacity: true)
    scratch.coefficients.removeAll(keepingCapacity: true)
    scratch.symbols.reserveCapacity(total)
    scratch.coefficients.reserveCapacity(total)
    symbols.withUnsafeBufferPointer { aS in
      coefficients.withUnsafeBufferPointer { aC in
        other.symbols.withUnsafeBufferPointer { bS in
          other.coefficients.withUnsafeBufferPointer { bC in
            var i = 0
            var j = 0
            while i < aS.count || j < bS.count {
              if j == bS.count || (i < aS.count && aS[i] < bS[j]) {
                scratch.symbols.append(aS[i])
                scratch.coefficients.append(aC[i])
                i &+= 1
              } else if i == aS.count || bS[j] < aS[i] {
                let v = k * bC[j]
                if !nearZero(v) {
                  scratch.symbols.append(bS[j])
                  scratch.coefficients.append(v)
                  scratch.added.append(bS[j])
                }
                j &+= 1
              } else {
                let v = aC[i] + k * bC[j]
                if nearZero(v) {
                  scratch.removed.append(aS[i])
                } else {
                  scratch.symbols.append(aS[i])
                  scratch.coefficients.append(v)
                }
                i &+= 1
                j &+= 1
              }
            }
          }
        }
      }
    }
    swap(&symbols, &scratch.symbols)
    swap(&coefficients, &scratch.coefficients)
  }
}
