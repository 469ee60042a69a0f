/// A solver variable: a small handle created by, and only meaningful to, one ``Solver``.
///
/// Variables are plain integer handles so that the solver keeps their values in a flat array
/// and no reference counting happens while it pivots. Create them with
/// ``Solver/makeVariable(_:)`` and read values back with ``Solver/value(of:)``.
public struct Variable: Hashable, Sendable {
  /// Dense index of the variable in the solver that created it.
  public let index: Int32

  @inlinable package init(index: Int32) { self.index = index }
}

/// A variable times a coefficient, one cell of a linear ``Expression``.
public struct Term: Hashable, Sendable {
  public var variable: Variable
  public var coefficient: Double

  public init(_ variable: Variable, _ coefficient: Double = 1) {
    self.variable = variable
    self.coefficient = coefficient
  }
}
