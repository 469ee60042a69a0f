import Cassowary

/// A parsed constraint script: the statements of the line-oriented format read by
/// `layout-bench solve`, each with the line it came from.
///
/// ```
/// left >= 0
/// c1: left == 10 @weak        # an optional label names a constraint
/// edit width @strong
/// suggest width 800
/// print
/// remove c1
/// ```
public struct Script: Sendable {
  public var statements: [Statement]

  public init(statements: [Statement]) { self.statements = statements }
}

/// One line of a script.
public struct Statement: Sendable {
  public enum Kind: Sendable {
    /// `[label:] lhs op rhs [@strength]`, stored as `form op 0`; an equality may weigh an
    /// excess and a shortfall differently, `@excess/shortfall` (`shortfall` is nil
    /// otherwise).
    case constraint(
      label: String?, form: LinearForm, relation: Relation, strength: Strength,
      shortfall: Strength?)
    case edit(name: String, strength: Strength)
    case suggest(name: String, value: Double)
    case remove(label: String)
    case print
  }

  public var kind: Kind
  public var line: Int
  /// Variable names in order of first mention on the line (a variable that cancels out,
  /// as in `x - x`, is still mentioned and so still printed).
  public var mentioned: [String]
}

/// A linear combination of named variables plus a constant, as written in a script.
public struct LinearForm: Sendable, Equatable {
  public private(set) var names: [String] = []
  public private(set) var coefficients: [Double] = []
  public var constant: Double = 0
  /// Where each name is in ``names``, so that adding a term is O(1) and a line of n terms
  /// parses in O(n) (a linear search made 40k terms take 9 s).
  private var position: [String: Int] = [:]

  public init(constant: Double = 0) { self.constant = constant }

  public init(variable: String) {
    names = [variable]
    coefficients = [1]
    position = [variable: 0]
  }

  public static func == (a: LinearForm, b: LinearForm) -> Bool {
    a.names == b.names && a.coefficients == b.coefficients && a.constant == b.constant
  }

  public var isConstant: Bool { coefficients.allSatisfy { $0 == 0 } }

  public var isFinite: Bool { constant.isFinite && coefficients.allSatisfy(\.isFinite) }

  /// `self += k · other`, keeping the order of first appearance.
  public mutating func add(_ other: LinearForm, times k: Double) {
    constant += k * other.constant
    for (name, c) in zip(other.names, other.coefficients) {
      if let i = position[name] {
        coefficients[i] += k * c
      } else {
        position[name] = names.count
        names.append(name)
        coefficients.append(k * c)
      }
    }
  }

  /// `self + k · other`, keeping the order of first appearance.
  public func adding(_ other: LinearForm, times k: Double) -> LinearForm {
    var result = self
    result.add(other, times: k)
    return result
  }

  public func scaled(by k: Double) -> LinearForm {
    var result = self
    result.constant = 0 + result.constant * k  // 0 + keeps a zero constant positive
    for i in result.coefficients.indices { result.coefficients[i] *= k }
    return result
  }

  /// Divides every coefficient (rather than multiplying by `1 / d`, which rounds twice).
  public func divided(by d: Double) -> LinearForm {
    var result = self
    result.constant /= d
    for i in result.coefficients.indices { result.coefficients[i] /= d }
    return result
  }
}

/// A script error with its location, printed as `FILE:LINE: reason`.
public struct ScriptError: Error, Equatable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var reason: String

  public init(file: String, line: Int, reason: String) {
    self.file = file
    self.line = line
    self.reason = reason
  }

  public var description: String { "\(file):\(line): \(reason)" }
}
