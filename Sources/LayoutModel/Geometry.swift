/// A point in a view's coordinate space, in points.
public struct Point: Hashable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  public static let zero = Point(x: 0, y: 0)
}

/// A width and a height, in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  public var width: Double
  public var height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  public static let zero = Size(width: 0, height: 0)

  /// Both dimensions finite and not negative: the sizes a caller may give a view.
  public var isValid: Bool {
    width.isFinite && height.isFinite && width >= 0 && height >= 0
  }

  public var description: String { "\(format(width)) x \(format(height))" }
}

/// A rectangle: a view's frame in its superview's coordinate space.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  public var origin: Point
  public var size: Size

  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var width: Double { size.width }
  public var height: Double { size.height }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }

  /// Whether every coordinate is within `tolerance` points of `other`'s.
  public func isApproximatelyEqual(to other: Rect, tolerance: Double = 1e-6) -> Bool {
    abs(minX - other.minX) <= tolerance && abs(minY - other.minY) <= tolerance
      && abs(width - other.width) <= tolerance && abs(height - other.height) <= tolerance
  }

  /// The largest coordinate difference from `other`.
  public func distance(to other: Rect) -> Double {
    max(
      max(abs(minX - other.minX), abs(minY - other.minY)),
      max(abs(width - other.width), abs(height - other.height)))
  }

  public var description: String {
    "(\(format(minX)), \(format(minY)), \(format(width)), \(format(height)))"
  }
}

/// Space kept free inside a container's edges.
public struct EdgeInsets: Hashable, Sendable {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double

  public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  public init(all value: Double) {
    self.init(top: value, left: value, bottom: value, right: value)
  }

  public static let zero = EdgeInsets()

  /// Every inset finite and not negative.
  public var isValid: Bool {
    top.isFinite && left.isFinite && bottom.isFinite && right.isFinite && top >= 0 && left >= 0
      && bottom >= 0 && right >= 0
  }

  public var horizontal: Double { left + right }
  public var vertical: Double { top + bottom }
}

/// Short decimal text for diagnostics: integers without a fraction, others to 1e-6.
func format(_ value: Double) -> String {
  if value.isNaN || value.isInfinite { return "\(value)" }
  if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
  let scaled = (value * 1e6).rounded() / 1e6
  return "\(scaled)"
}
