import ArgumentParser
import LayoutHarness
internal import Foundation

/// `layout-bench scene`: scene files (the README's "Scene files").
struct SceneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scene",
    abstract: "Write a built-in scene as a scene file, or check a scene file.",
    discussion: """
      A scene file is a JSON view tree (labels, images, stacks, lists, plain views, \
      templates repeated N times), constraints between named views, and what each tick \
      changes. Run one with `run --scene FILE` (and `sweep`, `baseline save`, `compare`).
      """,
    subcommands: [Export.self, Check.self]
  )

  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a built-in scenario's scene and ticks as a scene file.",
      discussion: """
        The file records the built-in workload with the position of its random stream, so \
        `run --scene FILE` does what the built-in scenario does: the same frames and \
        counters. A starting point for a scene of your own: replace `ticks` with steps.
        """
    )

    @Option(
      help:
        "Tree shape: \(Shape.builtIn.map(\.rawValue).joined(separator: ", "))."
    )
    var shape: Shape

    @Option(help: "Scenario size (as `run --size`).")
    var size: Int

    @Option(help: "The built-in mutation the file's ticks record.")
    var mutation: MutationKind = .text

    @Option(name: .customLong("per-tick"), help: "Mutations per tick.")
    var perTick: Int = 1

    @Option(help: "Seed of the scene and mutation generators.")
    var seed: UInt64 = 1

    @Option(
      name: .shortAndLong,
      help: "Write the file here (written atomically); - or omitted: standard output.")
    var output: String = "-"

    func validate() throws {
      if shape == .scene || mutation == .scripted {
        throw ValidationError("Please export a built-in shape and mutation.")
      }
      if output != "-", let problem = OutputFile.problem(writing: output) {
        throw ValidationError(problem)
      }
    }

    func run() throws {
      let scenario = Scenario(
        shape: shape, size: size, mutation: mutation, perTick: perTick, seed: seed)
      if let problem = scenario.problem { throw CommandFailure("\(scenario): \(problem)") }
      if scenario.estimatedViews > 200_000 {
        throw CommandFailure(
          "\(scenario) has about \(scenario.estimatedViews) views: export up to 200000 (a "
            + "scene file that size is tens of megabytes)")
      }
      let document: JSONValue
      do { document = try SceneFile.exporting(scenario) } catch {
        throw CommandFailure(error.description)
      }
      // Read back before writing: a file this command writes must be one `run` accepts.
      do { _ = try SceneFile.parse(Array(document.prettyText.utf8), file: output) } catch {
        throw CommandFailure("\(scenario) cannot be written as a scene file: \(error.reason)")
      }
      try OutputFile.write(document.prettyText, to: output)
    }
  }

  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Read a scene file and say what it holds, or what is wrong with it (exit 1).")

    @Argument(help: "The scene file.")
    var file: String

    @Option(help: "Check it at this size (a file with a top-level size).")
    var size: Int?

    func run() throws {
      let scene: SceneFile
      do { scene = try SceneFile.load(path: file) } catch {
        throw CommandFailure(error.description)
      }
      let scenario: Scenario
      do { scenario = try Scenario(file: scene, size: size) } catch {
        throw CommandFailure(error.description)
      }
      let (value, _) = try scenario.makeWorkload()
      var constraints = 0
      value.forEachNode { constraints += $0.constraints.count }
      print("\(file): scene \(scene.name), hash \(scene.hash)")
      print(
        "  \(value.viewCount) views, \(constraints) declared constraints, window \(value.windowSize)"
      )
      if let size = scene.defaultSize {
        print("  size \(scenario.size) (default \(size)): sweep it with `sweep --scene \(file)`")
      }
      switch scene.workload {
      case .scripted(let seed, let steps):
        print("  ticks: \(steps.count) steps, seed \(seed)")
      case .builtin(let mutation, let perTick, let seed, let size, _):
        print("  ticks: built-in \(mutation) x\(perTick), seed \(seed), size \(size)")
      }
      print(
        "  strategies: coalesced, eager"
          + (scene.frameLayoutProblem.map { "; not bottom-up: \($0)" } ?? ", bottom-up"))
      print("  results key: \(scenario)")
    }
  }
}
