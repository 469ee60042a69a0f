import ArgumentParser

@main
struct LayoutBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layout-bench",
    abstract: "Measure what constraint-based UI layout costs per frame.",
    version: "0.4.0",
    subcommands: [
      Run.self, Sweep.self, BaselineCommand.self, Compare.self, AB.self, Calibrate.self, Solve.self,
      SolverBenchCommand.self,
    ],
    defaultSubcommand: Run.self
  )
}
