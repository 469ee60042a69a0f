/// How many ticks a round measures of each scenario.
///
/// A round's median is only as steady as the stretch of time it covers: on shared machines
/// the memory system's speed moves on a scale of a tenth of a second, so 60 ticks of a 50 us
/// scenario (a few milliseconds) sample one moment of it. Measured on `feed300/text`, eight
/// rounds each: 60 ticks gave rounds spread by 12-16% (speed-adjusted), 1,000 ticks by 7-9%.
/// So commands that measure in rounds pick, per scenario, the smallest count of a fixed
/// ladder whose ticks (all strategies in lockstep, with the speed reference) last
/// ``targetNs``, from a short pilot. The ladder keeps the choice stable from one pilot to the
/// next, so that separate runs usually measure the same ticks and their counters compare.
public enum RoundLength {
  public static let ladder = [60, 120, 250, 500, 1_000, 2_000]
  /// Measured time per scenario and round that the ticks should cover.
  public static let targetNs = 250_000_000.0

  /// The ticks for a scenario whose lockstep tick costs `lockstepNs`.
  public static func ticks(lockstepNs: Double) -> Int {
    guard lockstepNs.isFinite, lockstepNs > 0 else { return ladder[0] }
    let needed = targetNs / lockstepNs
    return ladder.first { Double($0) >= needed } ?? ladder.last!
  }

  /// Runs every scenario of `plan` for a few ticks and picks its ticks per round, keyed by
  /// the scenario's description (`feed300/textx1`).
  public static func pilot(
    _ plan: RunPlan, probe: (any AllocationProbe)? = nil
  ) throws(RunError) -> [String: Int] {
    var choice: [String: Int] = [:]
    for entry in plan.entries {
      var pilot = entry.settings
      pilot.ticks = 20
      pilot.minimumTicks = 20
      pilot.timeLimitNs = nil
      pilot.warmupTicks = min(pilot.warmupTicks, 5)
      let results = try ScenarioRunner(settings: pilot, probe: probe).run(entry.scenario).results
      let lockstep = results.reduce(0) { $0 + $1.tickNs.p50 } + (results.first?.referenceNs ?? 0)
      choice[entry.scenario.description] = ticks(lockstepNs: lockstep)
    }
    return choice
  }

  /// `feed300/textx1=1000,feed300/resizex1=60`, for a round's command line.
  public static func encode(_ ticks: [String: Int]) -> String {
    ticks.keys.sorted().map { "\($0)=\(ticks[$0]!)" }.joined(separator: ",")
  }

  /// The inverse of ``encode(_:)``; nil when malformed.
  public static func decode(_ text: String) -> [String: Int]? {
    var result: [String: Int] = [:]
    for item in text.split(separator: ",") {
      let parts = item.split(separator: "=")
      guard parts.count == 2, let ticks = Int(parts[1]), ticks >= 1 else { return nil }
      result[String(parts[0])] = ticks
    }
    return result
  }
}
