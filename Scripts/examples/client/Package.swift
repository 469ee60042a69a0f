// swift-tools-version: 6.1
import PackageDescription

// A client of layout-bench: measures its own screens with the harness. It depends on the
// layout-bench package by path (a real client names its git URL and a version instead).
let package = Package(
  name: "my-screens",
  dependencies: [
    .package(name: "layout-bench", path: "../../.."),
    .package(
      url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1",
      traits: ["MallocInterposer"]),
  ],
  targets: [
    // The screens, built in Swift with the harness's scene API.
    .target(
      name: "Screens",
      dependencies: [
        .product(name: "LayoutHarness", package: "layout-bench"),
        .product(name: "LayoutModel", package: "layout-bench"),
      ]
    ),
    // Builds a screen in Swift, runs it and a scene file through the harness, and writes
    // reports (`swift run my-screens --help`).
    .executableTarget(
      name: "my-screens",
      dependencies: [
        "Screens",
        .product(name: "LayoutHarness", package: "layout-bench"),
        .product(name: "JemallocProbe", package: "layout-bench"),
      ]
    ),
    // The same screen's tick under package-benchmark
    // (`swift package --allow-writing-to-package-directory benchmark`).
    .executableTarget(
      name: "ScreenBenchmarks",
      dependencies: [
        "Screens",
        .product(name: "LayoutHarness", package: "layout-bench"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/ScreenBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ]
)
