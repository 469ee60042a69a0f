import BenchSupport
@testable import Cassowary
import Foundation
import Testing

/// `Tableau.applyShift`, the loops of a cached shift, `Tableau.moveExternals`, which adds
/// the shift its externals wait for, and `Tableau.listShifted`, which lists
/// the column's externals when anything but a read-out comes before the next read-out,
/// against the same shift made value by value with `Tableau.flagChanged`; and
/// `Tableau.shiftDirectRows`, which later applies the shifts to the constants of the rows
/// that name the marker. Through the solver, a cached
/// shift rarely finds an external listed and checked since (the general path lists only
/// values that moved, the column every value it can move, so a value the check passed and
/// the general path left alone can be one), so every kind of mark is set up here by hand,
/// on both listing paths (gathered, from `Tableau.batchedListing` externals on, and one by
/// one), with dummies that stay zero and one that does not.
@Suite struct ShiftApplicationTests {
  /// Marks of the externals, by position: listed in the current generation, listed and
  /// checked since, or not listed since the last read-out (generations 9, 7, and 4 or 5; the
  /// last read-out ended generation 5).
  static func mark(_ i: Int) -> UInt32 { [9, 7, 4, 5, 7][i % 5] }

  @Test(arguments: [5, Tableau.batchedListing - 1, Tableau.batchedListing, 40], [false, true])
  func aShiftListsAndMovesAsValueByValueUpdatesDo(externalCount: Int, brokenDummy: Bool) {
    let generation: UInt32 = 9
    let readOut: UInt32 = 5
    let symbolCount = 2 * externalCount + 8
    // Externals on even indices (in a scattered order), restricted symbols on odd ones.
    let externals = (0..<externalCount).map { i in
      ShiftEntry(
        target: Symbol(.external, index: (i * 7 % externalCount) * 2),
        coefficient: Double(i % 3) - 0.5)
    }
    let restricted = (0..<6).map { i in
      ShiftEntry(target: Symbol(.slack, index: 2 * i + 1), coefficient: i % 2 == 0 ? 1.0 : -1.0)
    }
    let direct = [ShiftEntry<Int32>(target: 1, coefficient: 2), .init(target: 0, coefficient: -1)]
    // Dummies at the last indices: zero before, and moved by 0 (stays zero) or by 3.
    let dummies = [
      ShiftEntry(target: Symbol(.dummy, index: symbolCount - 3), coefficient: 0.0),
      ShiftEntry(target: Symbol(.dummy, index: symbolCount - 2), coefficient: brokenDummy ? 1 : 0),
    ]
    let delta = 3.0
    var rows = [Row(constant: 10), Row(constant: 20)]
    var values = (0..<symbolCount).map { $0 >= symbolCount - 3 ? 0 : Double($0) - 4 }
    var marks = [SymbolMarks](repeating: SymbolMarks(), count: symbolCount)
    for (i, entry) in externals.enumerated() { marks[entry.target.index].listed = Self.mark(i) }
    // Lists as they were before the shift (what is already listed stays where it is).
    var changed = [Symbol(.external, index: symbolCount - 1)]
    var rechanged: [Symbol] = []
    var infeasible: [Symbol] = []

    // The reference: the same updates one value at a time.
    var wantValues = values
    var wantMarks = marks
    var wantChanged = changed
    var wantRechanged = rechanged
    var wantInfeasible: [Symbol] = []
    for entry in externals {
      wantValues[entry.target.index] += entry.coefficient * delta
      Tableau.flagChanged(
        entry.target, in: &wantMarks[entry.target.index].listed, generation: generation,
        readOut: readOut, &wantChanged, &wantRechanged)
    }
    for entry in restricted {
      wantValues[entry.target.index] += entry.coefficient * delta
      if wantValues[entry.target.index] < 0 { wantInfeasible.append(entry.target) }
    }
    for entry in dummies { wantValues[entry.target.index] += entry.coefficient * delta }

    // A short column moves its externals and its restricted values in the same pass.
    var together = values
    var togetherInfeasible: [Symbol] = []
    let togetherConsistent = direct.withUnsafeBufferPointer { direct in
      externals.withUnsafeBufferPointer { externals in
        restricted.withUnsafeBufferPointer { restricted in
          dummies.withUnsafeBufferPointer { dummies in
            Tableau.applyShift(
              ShiftEntries(
                direct: direct, externals: externals, restricted: restricted, dummies: dummies),
              by: delta, values: &together, infeasible: &togetherInfeasible,
              movingExternals: true, movingRestricted: true)
          }
        }
      }
    }
    #expect(togetherConsistent == !brokenDummy)
    #expect(together == wantValues)
    #expect(togetherInfeasible == wantInfeasible)

    let listed = UnsafeMutablePointer<Symbol>.allocate(capacity: externalCount)
    defer { listed.deallocate() }
    let consistent = direct.withUnsafeBufferPointer { direct in
      externals.withUnsafeBufferPointer { externals in
        restricted.withUnsafeBufferPointer { restricted in
          dummies.withUnsafeBufferPointer { dummies in
            let consistent = Tableau.applyShift(
              ShiftEntries(
                direct: direct, externals: externals, restricted: restricted, dummies: dummies),
              by: delta, values: &values, infeasible: &infeasible, movingExternals: false,
              movingRestricted: false)
            let bounds = Tableau.shiftRestricted(
              restricted, by: delta, values: &values, infeasible: &infeasible, bounding: true)
            #expect(bounds == nil, "no bounds once a value went negative")
            return consistent
          }
        }
      }
    }
    #expect(consistent == !brokenDummy)
    #expect(changed.count == 1 && rechanged.isEmpty, "the shift lists nothing itself")
    // A long column's externals wait for the read-out or a settle
    // (`ShiftColumn.externalShift`); a settle adds their shift, then lists them.
    #expect(externals.allSatisfy { values[$0.target.index] != wantValues[$0.target.index] })
    values.withUnsafeMutableBufferPointer { values in
      externals.withUnsafeBufferPointer { Tableau.moveExternals($0, by: delta, values: values) }
    }
    externals.withUnsafeBufferPointer { externals in
      Tableau.listShifted(
        externals, marks: &marks, changedExternals: &changed, rechangedExternals: &rechanged,
        listed: listed, generation: generation, readOut: readOut)
    }
    #expect(rows.map(\.constant) == [10, 20], "the rows wait for the shifts to settle")
    direct.withUnsafeBufferPointer { Tableau.shiftDirectRows($0, by: delta, rows: &rows) }
    #expect(rows.map(\.constant) == [10 - delta, 20 + 2 * delta])
    #expect(values == wantValues)
    #expect(marks.map(\.listed) == wantMarks.map(\.listed))
    #expect(changed == wantChanged)
    #expect(rechanged == wantRechanged)
    #expect(infeasible == wantInfeasible)
    #expect(!wantRechanged.isEmpty && wantChanged.count > 1, "every kind of mark is present")
  }
  /// The bounds a deferring column keeps (`Tableau.shiftRestricted(_:by:values:infeasible:bounding:)`):
  /// every sum of shifts inside them leaves each restricted value non-negative as rounded,
  /// and a sum a part in 1e9 past either bound leaves one negative (they are tight). Random
  /// columns of 1 to 60 values, some zero, with coefficients from 1e-6 to 1e6 of either
  /// sign.
  @Test func sumsInsideTheBoundsKeepEveryRestrictedValueNonNegative() {
    var rng = SplitMix64(seed: 20_261_205)
    var sawBoth = 0
    for _ in 0..<2_000 {
      let count = rng.int(1...60)
      let restricted = (0..<count).map { i in
        let magnitude = pow(10, rng.double(-6...6))
        return ShiftEntry(
          target: Symbol(.slack, index: i),
          coefficient: rng.int(0...1) == 0 ? magnitude : -magnitude)
      }
      let start = (0..<count).map { _ in rng.int(0...4) == 0 ? 0 : pow(10, rng.double(-3...4)) }
      var values = start
      var infeasible: [Symbol] = []
      let found = restricted.withUnsafeBufferPointer {
        Tableau.shiftRestricted($0, by: 0, values: &values, infeasible: &infeasible, bounding: true)
      }
      guard let bounds = found else {
        Issue.record("no bounds for non-negative values")
        return
      }
      #expect(values == start && infeasible.isEmpty)
      #expect(bounds.lower <= 0 && bounds.upper >= 0)
      func lowest(_ sum: Double) -> Double {
        zip(restricted, start).map { $1 + $0.coefficient * sum }.min()!
      }
      var sums = [bounds.lower, bounds.upper, 0]
      for _ in 0..<8 where bounds.lower.isFinite && bounds.upper.isFinite {
        sums.append(rng.double(bounds.lower...bounds.upper))
      }
      for sum in sums where sum.isFinite { #expect(lowest(sum) >= 0, "sum \(sum)") }
      if bounds.lower.isFinite && bounds.upper.isFinite { sawBoth += 1 }
      let margin = { (bound: Double) in Swift.max(abs(bound) * 1e-9, 1e-9) }
      if bounds.lower.isFinite {
        #expect(lowest(bounds.lower - margin(bounds.lower)) < 0, "past \(bounds.lower)")
      }
      if bounds.upper.isFinite {
        #expect(lowest(bounds.upper + margin(bounds.upper)) < 0, "past \(bounds.upper)")
      }
    }
    #expect(sawBoth > 100, "columns bounded on both sides")
  }
}
