// swift-tools-version: 6.1
import PackageDescription

// Compile-time switches (pass with `swift build -Xswiftc -DNAME` or see Scripts/check.sh):
//   CASSOWARY_INTERNAL_CHECKS  verifies tableau invariants after every public solver mutation.
let package = Package(
  name: "layout-bench",
  products: [
    .library(name: "Cassowary", targets: ["Cassowary"]),
    .library(name: "ConstraintScript", targets: ["ConstraintScript"]),
    .library(name: "LayoutModel", targets: ["LayoutModel"]),
    .library(name: "LayoutHarness", targets: ["LayoutHarness"]),
    .executable(name: "layout-bench", targets: ["layout-bench"]),
    .library(name: "SolverFuzzing", targets: ["SolverFuzzing"]),
    .executable(name: "solver-fuzz", targets: ["solver-fuzz"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    // `traits` keeps SwiftPM from fetching swift-runtime-interposer, which is not mirrored.
    .package(
      url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1",
      traits: ["MallocInterposer"]),
  ],
  targets: [
    // The incremental simplex solver. Imports nothing, not even Foundation.
    .target(name: "Cassowary"),
    // The line-oriented constraint script format read by `layout-bench solve`.
    .target(name: "ConstraintScript", dependencies: ["Cassowary"]),
    // UIKit-like views: hierarchy, flags, update cycle, Auto Layout and frame layout.
    .target(name: "LayoutModel", dependencies: ["Cassowary"]),
    // Scenes, strategies, workloads, measurement and reports.
    .target(name: "LayoutHarness", dependencies: ["Cassowary", "ConstraintScript", "LayoutModel"]),
    // jemalloc's mallctl, for allocation counts. Only the executable links it.
    .systemLibrary(
      name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
    .executableTarget(
      name: "layout-bench",
      dependencies: [
        "Cassowary", "ConstraintScript", "LayoutHarness", "LayoutModel", "CJemalloc",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "SolverBenchmarks",
      dependencies: [
        "Cassowary", "LayoutHarness", .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/SolverBenchmarks",
      swiftSettings: [.swiftLanguageMode(.v5)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "TickBenchmarks",
      dependencies: ["LayoutHarness", "LayoutModel", .product(name: "Benchmark", package: "benchmark")],
      path: "Benchmarks/TickBenchmarks",
      swiftSettings: [.swiftLanguageMode(.v5)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // Seeded layout-like systems replayed on every representation, checked against a fresh
    // canonical solve of the same active set.
    .target(name: "SolverFuzzing", dependencies: ["Cassowary"]),
    // The differential fuzzer's command line, for long soak runs and replaying one seed.
    .executableTarget(
      name: "solver-fuzz",
      dependencies: [
        "SolverFuzzing", "Cassowary",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "CassowaryTests", dependencies: ["Cassowary"]),
    .testTarget(
      name: "ConstraintScriptTests", dependencies: ["ConstraintScript", "Cassowary"],
      exclude: ["Fixtures"]
    ),
    .testTarget(name: "LayoutModelTests", dependencies: ["LayoutModel"]),
    .testTarget(name: "LayoutHarnessTests", dependencies: ["LayoutHarness", "LayoutModel"]),
    .testTarget(name: "LayoutBenchTests", dependencies: ["layout-bench"]),
    // A debug-sized slice of the fuzzer, and checks that its generator and oracle are sound.
    .testTarget(
      name: "SolverFuzzingTests", dependencies: ["SolverFuzzing", "Cassowary", "ConstraintScript"]),
  ]
)
