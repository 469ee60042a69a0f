import Cassowary
import Foundation
import Testing

/// Seeded properties of `Solver` over thousands of random layout-like systems (see
/// `Support/LayoutSystem.swift`). Each failure message starts with the seed; to replay one,
/// run the property's body for that seed alone, e.g. `try Self.incrementalEqualsFresh(42)`.
///
/// Values are compared within 1e-6: the systems' optimum is unique, so any difference larger
/// than round-off is a wrong solution, not another optimal one. Seeds take the tableau
/// representations in turn, and every comparison (with a fresh solve, or with remove + add)
/// is made against a solver of another representation.
@Suite struct SolverPropertyTests {
  /// 1000 by default; set `CASSOWARY_PROPERTY_SYSTEMS` for a longer soak run.
  static let systemsPerProperty = environment("CASSOWARY_PROPERTY_SYSTEMS") ?? 1000
  /// Systems have 2 to 4 boxes by default, which keeps the file fast in debug builds; set
  /// `CASSOWARY_PROPERTY_MAX_BOXES` for larger ones (the seeds then give other systems).
  static let boxes = 2...max(2, environment("CASSOWARY_PROPERTY_MAX_BOXES") ?? 4)

  static func environment(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
  }

  static func system(_ seed: UInt64) -> LayoutSystem { LayoutSystem(seed: seed, boxes: boxes) }
  static let tolerance = 1e-6

  /// The representation a seed is run with, in turn.
  static func representation(for seed: UInt64) -> Solver.Representation {
    representations[Int(seed % UInt64(representations.count))]
  }

  /// Runs `property` once per seed, recording the first failures with their seeds.
  func forEachSeed(
    base: UInt64, sourceLocation: SourceLocation = #_sourceLocation,
    _ property: (UInt64) throws -> String?
  ) {
    var failures = 0
    for offset in 0..<UInt64(Self.systemsPerProperty) {
      let seed = base &+ offset
      let problem: String?
      do { problem = try property(seed) } catch { problem = "unexpected error: \(error)" }
      guard let problem else { continue }
      failures += 1
      let origin = "seed \(seed) (\(Self.representation(for: seed)), boxes \(Self.boxes))"
      if failures <= 3 { Issue.record("\(origin): \(problem)", sourceLocation: sourceLocation) }
    }
    #expect(
      failures == 0, "\(failures) of \(Self.systemsPerProperty) seeds failed",
      sourceLocation: sourceLocation)
  }

  // MARK: - (a) Required constraints always hold

  static func requiredConstraintsHold(_ seed: UInt64) throws -> String? {
    let driver = try LayoutDriver(system(seed), representation(for: seed))
    if let problem = driver.violatedRequired() ?? driver.modelMismatch() {
      return "after building: \(problem)"
    }
    for _ in 0..<8 {
      let op = try driver.randomOperation()
      if let problem = driver.violatedRequired() ?? driver.modelMismatch() {
        return "after \(op) (\(driver.recent)): \(problem)"
      }
    }
    return nil
  }

  @Test func requiredConstraintsHoldAfterEveryOperation() {
    forEachSeed(base: 0xA000, Self.requiredConstraintsHold)
  }

  // MARK: - (b) Remove then add back

  static func removeAndAddBack(_ seed: UInt64) throws -> String? {
    let driver = try LayoutDriver(system(seed), representation(for: seed))
    let solver = driver.solver
    // Constraints still at the constant and strength they were created with, so that adding
    // the instance back restores exactly the same system.
    let candidates = driver.entries.indices.filter { i in
      let c = driver.entries[i].constraint
      return driver.active[i] && driver.constants[i] == c.expression.constant
        && driver.strengths[i] == c.strength
    }
    for i in (0..<3).compactMap({ _ in driver.rng.element(of: candidates) }) {
      let c = driver.entries[i].constraint
      let before = driver.values
      try solver.removeConstraint(c)
      driver.active[i] = false
      if let problem = driver.violatedRequired() { return "after removing \(i): \(problem)" }
      try solver.addConstraint(c)
      driver.active[i] = true
      if let problem = firstMismatch(driver.values, before, tolerance: tolerance) {
        return "removing and adding back \(i) (\(c)) moved \(problem)"
      }
    }
    // The same for an edit variable with its suggestion.
    if let k = driver.system.edits.indices.first {
      let v = driver.system.edits[k]
      let before = driver.values
      try solver.removeEditVariable(v)
      try solver.addEditVariable(v, strength: .strong)
      try solver.suggestValue(v, driver.suggestions[k])
      if let problem = firstMismatch(driver.values, before, tolerance: tolerance) {
        return "removing and adding back edit \(k) moved \(problem)"
      }
    }
    return nil
  }

  @Test func removingAndAddingBackRestoresTheValues() {
    forEachSeed(base: 0xB000, Self.removeAndAddBack)
  }

  // MARK: - (c) Refused operations change nothing

  static func refusalsChangeNothing(_ seed: UInt64) throws -> String? {
    let driver = try LayoutDriver(system(seed), representation(for: seed))
    for _ in 0..<7 {
      if driver.rng.chanceOf(0.4) {
        if let problem = try driver.randomRefusal() { return "\(problem) (\(driver.recent))" }
      } else {
        try driver.randomOperation()
      }
      if let problem = driver.violatedRequired() { return "after \(driver.recent): \(problem)" }
    }
    // After all the refusals, the solver still solves the system it holds.
    if let problem = firstMismatch(driver.values, try driver.freshValues(), tolerance: tolerance) {
      return "incremental versus fresh after \(driver.recent): \(problem)"
    }
    return nil
  }

  @Test func refusedOperationsChangeNothing() {
    forEachSeed(base: 0xC000, Self.refusalsChangeNothing)
  }

  // MARK: - (d) Incremental equals fresh

  static func incrementalEqualsFresh(_ seed: UInt64) throws -> String? {
    let driver = try LayoutDriver(system(seed), representation(for: seed))
    // No updateVariables() in between: the one below must catch up with every change.
    for _ in 0..<10 { try driver.randomOperation() }
    let fresh = try driver.freshValues()
    if let problem = firstMismatch(driver.values, fresh, tolerance: tolerance) {
      return "after \(driver.log.joined(separator: "; ")): incremental versus fresh \(problem)"
    }
    return nil
  }

  @Test func incrementalSolvingEqualsAFreshSolve() {
    forEachSeed(base: 0xD000, Self.incrementalEqualsFresh)
  }

  // MARK: - (e) setConstant equals remove + add

  static func setConstantEqualsRemoveAdd(_ seed: UInt64) throws -> String? {
    let system = Self.system(seed)
    let fast = try LayoutDriver(system, representation(for: seed))
    let slow = try LayoutDriver(system, fast.otherRepresentation)
    // The instance of each entry in the slow solver, replaced on every change.
    var slowInstances = system.entries.map(\.constraint)
    for step in 0..<4 {
      if fast.rng.chanceOf(0.3), let k = fast.system.edits.indices.randomElement(using: &fast.rng) {
        let value = LayoutSystem.randomSuggestion(
          for: system.edits[k], widths: system.widths, &fast.rng)
        try fast.solver.suggestValue(system.edits[k], value)
        try slow.solver.suggestValue(system.edits[k], value)
        fast.suggestions[k] = value
      }
      // Any constant: when the required constraints cannot take it, both ways must refuse.
      // Half the changes go to required constraints, by up to 400, to meet refusals often.
      let live = fast.entries.indices.filter { fast.active[$0] }
      let required = live.filter { fast.strengths[$0].isRequired }
      let pickRequired = !required.isEmpty && fast.rng.chanceOf(0.5)
      guard let i = fast.rng.element(of: pickRequired ? required : live) else { break }
      let k = fast.constants[i] + fast.rng.double(pickRequired ? -400...400 : -60...60)
      let fastRefused = try refusedAsUnsatisfiable {
        () throws(SolverError) in try fast.solver.setConstant(k, of: fast.entries[i].constraint)
      }
      if !fastRefused { fast.constants[i] = k }
      let replacement = rebuilt(
        system.entries[i].constraint, constant: k, strength: fast.strengths[i])
      try slow.solver.removeConstraint(slowInstances[i])
      let slowRefused = try refusedAsUnsatisfiable {
        () throws(SolverError) in try slow.solver.addConstraint(replacement)
      }
      if fastRefused != slowRefused {
        let verdicts =
          fastRefused ? "refused, remove + add accepted" : "accepted, remove + add refused"
        return "step \(step): setConstant \(k) of \(i) \(verdicts)"
      }
      if slowRefused {
        try slow.solver.addConstraint(slowInstances[i])
      } else {
        slowInstances[i] = replacement
      }
      if let problem = fast.violatedRequired() { return "step \(step): \(problem)" }
      if let problem = firstMismatch(fast.values, slow.values, tolerance: tolerance) {
        return "step \(step): setConstant \(k) of \(i) versus remove + add: \(problem)"
      }
    }
    return nil
  }

  @Test func setConstantEqualsRemoveAndAdd() {
    forEachSeed(base: 0xE000, Self.setConstantEqualsRemoveAdd)
  }

  // MARK: - (f) Runs of shifts on one marker equal a fresh solve

  /// Suggests the same edit variable, or changes the same constant, several times in a row,
  /// which is when the solver shifts values through a cached column (from the second shift
  /// at an unchanged tableau structure), with a random operation between runs so that
  /// columns go stale. Every value is compared with a fresh solve after every shift. Returns
  /// the problem, if any, and the number of cached shifts made.
  static func runsOfShifts(_ seed: UInt64) throws -> (problem: String?, cached: Int) {
    let driver = try LayoutDriver(system(seed), representation(for: seed), stream: 6)
    func check(_ what: String) throws -> String? {
      guard
        let problem = firstMismatch(driver.values, try driver.freshValues(), tolerance: tolerance)
      else { return nil }
      return "after \(driver.recent); \(what): incremental versus fresh \(problem)"
    }
    for _ in 0..<3 {
      let liveEdits = driver.system.edits.indices.filter { driver.editActive[$0] }
      if let k = driver.rng.element(of: liveEdits), driver.rng.chanceOf(0.6) {
        let v = driver.system.edits[k]
        for _ in 0..<4 {
          let value = LayoutSystem.randomSuggestion(
            for: v, widths: driver.system.widths, &driver.rng)
          try driver.solver.suggestValue(v, value)
          driver.suggestions[k] = value
          if let problem = try check("suggest e\(k)=\(value)") {
            return (problem, driver.solver.counters.cachedShifts)
          }
        }
      } else if let i = driver.rng.element(of: driver.entries.indices.filter { driver.active[$0] })
      {
        for _ in 0..<4 {
          guard let k = driver.randomConstant(for: i) else { break }
          try driver.solver.setConstant(k, of: driver.entries[i].constraint)
          driver.constants[i] = k
          if let problem = try check("setConstant \(k) of \(i)") {
            return (problem, driver.solver.counters.cachedShifts)
          }
        }
      }
      try driver.randomOperation()
    }
    return (nil, driver.solver.counters.cachedShifts)
  }

  @Test func runsOfShiftsOnOneMarkerEqualAFreshSolve() {
    var cached = 0
    forEachSeed(base: 0xF000) { seed in
      let (problem, shifts) = try Self.runsOfShifts(seed)
      cached += shifts
      return problem
    }
    // The property is about the cached path: most runs must have taken it.
    #expect(cached >= Self.systemsPerProperty, "only \(cached) cached shifts")
  }

  /// Runs `body`; `true` when it throws `unsatisfiableConstraint`, rethrowing other errors.
  static func refusedAsUnsatisfiable(_ body: () throws(SolverError) -> Void) throws(SolverError)
    -> Bool
  {
    do {
      try body()
      return false
    } catch {
      guard case .unsatisfiableConstraint = error else { throw error }
      return true
    }
  }

  // MARK: - The generator itself

  @Test func generatedSystemsAreDeterministicAndWitnessed() throws {
    for seed in UInt64(0)..<200 {
      let a = LayoutSystem(seed: seed)
      let b = LayoutSystem(seed: seed)
      #expect(a.entries.map(\.constraint.description) == b.entries.map(\.constraint.description))
      for (i, entry) in a.entries.enumerated() where entry.constraint.strength.isRequired {
        #expect(
          a.holdsAtWitness(entry, constant: entry.constraint.expression.constant),
          "seed \(seed): entry \(i) does not hold at the witness")
      }
    }
  }
}
