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
    .library(name: "BenchSupport", targets: ["BenchSupport"]),
    .library(name: "LayoutHarness", targets: ["LayoutHarness"]),
    .library(name: "JemallocProbe", targets: ["JemallocProbe"]),
    .library(name: "SolverBench", targets: ["SolverBench"]),
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
    // The incremental simplex solver. Imports nothing but the prefetch hints, not even
    // Foundation.
    .target(name: "Cassowary", dependencies: ["CPrefetch"]),
    // Prefetch hints (`__builtin_prefetch`) for loops over values scattered in memory: a
    // long list's frame copy, the solver's read-out and check of many changed values.
    .target(name: "CPrefetch"),
    // The line-oriented constraint script format read by `layout-bench solve`.
    .target(name: "ConstraintScript", dependencies: ["Cassowary"]),
    // UIKit-like views: hierarchy, flags, update cycle, Auto Layout and frame layout.
    .target(name: "LayoutModel", dependencies: ["Cassowary", "CPrefetch"]),
    // What the frame harness, the solver bench and the fuzzer share: the seeded generator,
    // the monotonic clock and the sample statistics.
    .target(name: "BenchSupport"),
    // The frame harness: scenes, strategies, the runner, reports and regression verdicts.
    .target(name: "LayoutHarness", dependencies: ["BenchSupport", "LayoutModel"]),
    // The solver alone on the kiwi comparison workloads (chain, wide, deep, enaml, churn).
    .target(
      name: "SolverBench", dependencies: ["BenchSupport", "Cassowary", "ConstraintScript"],
      resources: [.embedInCode("enaml.cass")]),
    // jemalloc's mallctl, for allocation counts. Only the executable links it.
    .systemLibrary(
      name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
    // Allocation counts per tick from jemalloc (linking it replaces malloc).
    .target(name: "JemallocProbe", dependencies: ["CJemalloc", "LayoutHarness"]),
    // The options jemalloc starts with in `layout-bench`: huge pages for large trees. Its
    // debug information is DWARF 4: clang writes 5 by default, whose string forms
    // valgrind 3.19 (Debian 12) cannot read, and it then refuses to run the executable
    // (`--instructions`, Scripts/callgrind-tick.sh).
    .target(name: "CJemallocConfig", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
    .executableTarget(
      name: "layout-bench",
      dependencies: [
        "BenchSupport", "Cassowary", "ConstraintScript", "LayoutHarness", "LayoutModel",
        "SolverBench", "CJemalloc", "CJemallocConfig", "JemallocProbe",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "SolverBenchmarks",
      dependencies: [
        "Cassowary", "SolverBench", .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/SolverBenchmarks",
      swiftSettings: [.swiftLanguageMode(.v5)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "TickBenchmarks",
      dependencies: [
        "LayoutHarness", "LayoutModel", .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/TickBenchmarks",
      swiftSettings: [.swiftLanguageMode(.v5)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // Seeded layout-like systems replayed on every representation, checked against a fresh
    // canonical solve of the same active set.
    .target(name: "SolverFuzzing", dependencies: ["BenchSupport", "Cassowary"]),
    // The differential fuzzer's command line, for long soak runs and replaying one seed.
    .executableTarget(
      name: "solver-fuzz",
      dependencies: [
        "SolverFuzzing", "Cassowary",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "CassowaryTests", dependencies: ["BenchSupport", "Cassowary"]),
    .testTarget(
      name: "ConstraintScriptTests", dependencies: ["ConstraintScript", "Cassowary"],
      exclude: ["Fixtures"]
    ),
    .testTarget(name: "LayoutModelTests", dependencies: ["LayoutModel"]),
    .testTarget(
      name: "LayoutHarnessTests", dependencies: ["BenchSupport", "LayoutHarness", "LayoutModel"]),
    .testTarget(name: "SolverBenchTests", dependencies: ["SolverBench", "Cassowary"]),
    .testTarget(name: "LayoutBenchTests", dependencies: ["layout-bench"]),
    // A debug-sized slice of the fuzzer, and checks that its generator and oracle are sound.
    .testTarget(
      name: "SolverFuzzingTests", dependencies: ["SolverFuzzing", "Cassowary", "ConstraintScript"]),
  ]
)
