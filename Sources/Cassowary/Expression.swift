/// A linear expression `c0 + a1*x1 + a2*x2 + ...`.
///
/// Terms are kept as written (a variable may appear more than once); the solver combines
/// them when it turns a constraint into a tableau row.
public struct Expression: Hashable, Sendable {
  public var terms: [Term]
  public var constant: Double

  public init(_ terms: [Term] = [], constant: Double = 0) {
    self.terms = terms
    self.constant = constant
  }

  public init(_ variable: Variable) {
    self.init([Term(variable)])
  }

  public init(constant: Double) {
    self.init([], constant: constant)
  }

  /// Whether every coefficient and the constant are finite numbers.
  public var isFinite: Bool {
    constant.isFinite && terms.allSatisfy { $0.coefficient.isFinite }
  }

  /// Sums the coefficients of repeated variables and drops zero terms, keeping first-use order.
  public func reduced() -> Expression {
    // Most are reduced already (a layout constraint between siblings): returned as they
    // are, they share their terms instead of copying them.
    if isReduced { return self }
    // Layout constraints have a handful of terms: a quadratic scan beats hashing.
    var kept: [Term] = []
    kept.reserveCapacity(terms.count)
    for term in terms {
      if let i = kept.firstIndex(where: { $0.variable == term.variable }) {
        kept[i].coefficient += term.coefficient
      } else {
        kept.append(term)
      }
    }
    kept.removeAll { $0.coefficient == 0 }
    return Expression(kept, constant: constant)
  }

  /// Whether no variable repeats and no coefficient is zero.
  var isReduced: Bool {
    for i in terms.indices {
      if terms[i].coefficient == 0 { return false }
      for j in 0..<i where terms[j].variable == terms[i].variable { return false }
    }
    return true
  }

  func scaled(by k: Double) -> Expression {
    Expression(terms.map { Term($0.variable, $0.coefficient * k) }, constant: constant * k)
  }
}
