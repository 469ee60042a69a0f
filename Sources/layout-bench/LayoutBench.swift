import ArgumentParser

@main
struct LayoutBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layout-bench",
    abstract: "Measure what constraint-based UI layout costs per frame.",
    subcommands: [Solve.self, SolverBenchCommand.self]
  )
}
