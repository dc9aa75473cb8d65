// swift-tools-version: 6.0
import PackageDescription

// Benchmarks for the YAML layer (SpecYAML), the command and TestStore, kept out of the root package so that
// the library does not depend on Yams. Run with:
//
//     cd Benchmarks && swift run -c release yaml-benchmark
let package = Package(
  name: "reducer-spec-benchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "reducer-spec", path: ".."),
    .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
  ],
  targets: [
    // libyaml itself, for the raw event scan that every other measurement is compared with.
    .systemLibrary(
      name: "CLibYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(name: "LibYAMLScan", dependencies: ["CLibYAML"]),
    // The seeded generator and the Counter corpus of the generated corpora, and measuring a command.
    .target(name: "BenchmarkSupport"),
    .executableTarget(
      name: "yaml-benchmark",
      dependencies: [
        "BenchmarkSupport",
        "CLibYAML",
        "LibYAMLScan",
        .product(name: "SpecYAML", package: "reducer-spec"),
        .product(name: "Yams", package: "Yams"),
      ]
    ),
    // The `reducer-spec` command end to end on a generated corpus, against libyaml's scan;
    // its Yams row decodes the corpus with Yams' `YAMLDecoder`.
    .executableTarget(
      name: "runner-benchmark",
      dependencies: ["BenchmarkSupport", "LibYAMLScan", .product(name: "Yams", package: "Yams")]
    ),
    // The command on suites of 1,000 to 50,000 scenarios: time and memory against the size.
    .executableTarget(name: "soak-benchmark", dependencies: ["BenchmarkSupport"]),
    // `record`'s diff against the standard library's `difference(from:)`; it compiles the
    // root package's UnifiedDiff.swift itself (a symbolic link), which is internal there.
    .executableTarget(name: "diff-benchmark"),
    // Sends per second through ReducerCore's TestStore.
    .executableTarget(
      name: "teststore-benchmark",
      dependencies: [
        .product(name: "ReducerCore", package: "reducer-spec"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
  ]
)
