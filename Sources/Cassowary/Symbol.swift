/// A tableau column: an external variable, a slack, an error or a dummy marker.
///
/// The kind lives in the top two bits so that kind tests cost nothing on the pivot path and
/// the low bits index the tableau's per-symbol arrays directly. Sorting by `raw` orders rows'
/// cells by kind first, then by creation.
struct Symbol: Hashable, Comparable {
  enum Kind: UInt32 {
    case external = 0
    case slack = 1
    case error = 2
    case dummy = 3
  }

  static let indexMask: UInt32 = (1 << 30) - 1
  static let invalid = Symbol(raw: .max)

  var raw: UInt32

  init(raw: UInt32) { self.raw = raw }

  init(_ kind: Kind, index: Int) {
    raw = kind.rawValue << 30 | UInt32(index)
  }

  @inline(__always) var index: Int { Int(raw & Symbol.indexMask) }
  @inline(__always) var kind: Kind { Kind(rawValue: raw >> 30)! }
  @inline(__always) var isValid: Bool { raw != .max }
  @inline(__always) var isExternal: Bool { raw >> 30 == 0 }
  @inline(__always) var isDummy: Bool { raw >> 30 == 3 && isValid }
  /// Slack and error symbols are restricted to non-negative values and may be pivoted.
  @inline(__always) var isPivotable: Bool {
    let k = raw >> 30
    return k == 1 || k == 2
  }

  static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.raw < rhs.raw }
}
