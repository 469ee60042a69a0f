import ArgumentParser
import BenchSupport
import Cassowary
import SolverBench
internal import Foundation

extension SolverWorkload: ExpressibleByArgument {}

/// `layout-bench solver-bench`: the kiwi comparison set (the workloads of `SolverWorkload`,
/// mirrored by Scripts/kiwi_bench.py).
struct SolverBenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "solver-bench",
    abstract: "Time the solver on the kiwi comparison workloads.",
    discussion: """
      Builds the workload's system (buildNs: add every constraint, then updateVariables; for \
      N <= 200 and enaml the median of 7 builds after a warm-up build) and reports the median \
      tick (tickNs: suggestValue + updateVariables, or a remove + re-add for churn) over at \
      least 200 ticks or 1 s, each timed on its own, with the solver's work counters. Then \
      the mean tick timed in batches (tickMeanNs: the median over up to 101 batches, 21 or \
      more where they fit in 1 s, of whole six-tick cycles sized to last 100 us or longer, \
      of the batch's time per tick), so that a tick under a microsecond is not the clock's, \
      and the floor: one multiply-add per variable a tick moves (counted through the \
      reporting read-out on untimed ticks), timed in samples of 100 us or longer, one after \
      each tick batch. tick/floor is the median over the batches of a batch's mean tick over \
      the floor sample after it: how close a tick comes to the work no solver can avoid, \
      with a slow spell of the machine on both sides of each ratio. The earlier floor, one \
      per basic value a tick changed (slacks and errors included, which a solver need not \
      write at each tick), is printed below it and kept in the JSON (floorNs, \
      tickOverFloor).
      """
  )

  @Option(help: "The workload: \(SolverWorkload.allCases.map(\.rawValue).joined(separator: ", ")).")
  var workload: SolverWorkload

  @Option(help: "The system size N (boxes, children or depth; ignored by enaml).")
  var size: Int = 1000

  @Option(help: "The solver's tableau: adaptive (the default), lazy or canonical (kiwi's).")
  var representation: RepresentationOption = .adaptive

  @Option(help: "Minimum number of measured ticks (fewer if they take over 1 s in all).")
  var ticks: Int = 200

  @Option(help: "Write the result as JSON to this file (- for standard output).")
  var json: String?

  func validate() throws {
    guard size >= workload.minimumSize else {
      throw ValidationError(
        "Please specify a --size of at least \(workload.minimumSize) for \(workload.rawValue).")
    }
    guard size <= 10_000_000 else {
      throw ValidationError("Please specify a --size up to 10000000.")
    }
    guard ticks >= 1 else { throw ValidationError("Please specify --ticks of at least 1.") }
    guard ticks <= 1_000_000 else { throw ValidationError("Please specify --ticks up to 1000000.") }
  }

  func run() throws {
    // N = 10,000,000 took 5.9 GB and a minute with nothing printed (about 600 bytes per box).
    if workload != .enaml && size >= 1_000_000 {
      let gigabytes = (Double(size) * 600 / 1_073_741_824 * 10).rounded() / 10
      FileHandle.standardError.write(
        Data(
          ("note: N=\(size) builds a solver of about \(gigabytes) GB; building takes a minute "
            + "or more\n").utf8))
    }
    let result = workload.measure(
      size: size, representation: representation.value, minimumTicks: ticks)
    if let json {
      try OutputFile.write(result.json, to: json)
      if json == "-" { return }
    }
    let perTick = Double(result.tickCounters.pivots) / Double(result.ticks)
    print(
      """
      \(workload == .enaml ? "enaml" : "\(workload.rawValue) N=\(size)")
        buildNs  \(NumberFormat.duration(result.buildNs))  (\(result.buildCounters.pivots) pivots)
        tickNs   \(NumberFormat.duration(result.tickNs))  median of \(result.ticks) ticks, \
      \(NumberFormat.fixed(perTick, 1)) pivots/tick
        mean     \(NumberFormat.duration(result.tickMeanNs))  per tick, median of \
      \(result.batches) batches of \(result.ticksPerBatch) ticks
      """)
    if let ratio = result.tickOverMovedFloor {
      print(
        """
          floor    \(NumberFormat.duration(result.movedFloorNs))  one multiply-add per moved \
        variable (\(NumberFormat.fixed(result.movedPerTick, 0)) per tick): mean tick = \
        \(NumberFormat.fixed(ratio, 1))x floor
        """)
    }
    if let ratio = result.tickOverFloor {
      print(
        """
                   \(NumberFormat.duration(result.floorNs))  one per changed value, slacks and \
        errors too (\(NumberFormat.fixed(result.valuesPerTick, 0)) per tick): mean tick = \
        \(NumberFormat.fixed(ratio, 1))x
        """)
    }
  }
}
