// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

/// Set by Fuzz/run for the libFuzzer build of `reducer-spec-fuzz` (Fuzz/README.md).
let fuzzing = Context.environment["REDUCER_SPEC_FUZZING"] == "1"

let package = Package(
  name: "reducer-spec",
  // Linux and macOS: the command line starts worker processes with posix_spawn, which iOS
  // does not have.
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "ReducerCore", targets: ["ReducerCore"]),
    .library(name: "SpecYAML", targets: ["SpecYAML"]),
    .library(name: "SpecRunner", targets: ["SpecRunner"]),
    .library(name: "ReducerCoreSpecs", targets: ["ReducerCoreSpecs"]),
    .library(name: "ReducerSpecCLI", targets: ["ReducerSpecCLI"]),
    .library(name: "SpecTesting", targets: ["SpecTesting"]),
    .library(name: "Redux", targets: ["Redux"]),
    .library(name: "ReduxSpecs", targets: ["ReduxSpecs"]),
    .executable(name: "reducer-spec", targets: ["reducer-spec"]),
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    // Without the FoundationNetworking trait (and, for Dependencies, without CombineSchedulers,
    // whose OpenCombine imports FoundationNetworking too): FoundationNetworking links libcurl
    // and some 30 libraries of its own, which every process of the command, each worker
    // included, would load and relocate at start, for `\.urlSession` and URLRequest's dumps,
    // which nothing here uses. A package that wants them depends on these packages itself,
    // with their default traits (docs/architecture.md, "What the executable links").
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3", traits: []),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: ["Clocks", "Foundation"]),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // The macros' own (`@Reducer`, `@ObservableState`, `@Presents`): the same swift-syntax
    // that swift-case-paths' and swift-dependencies' macros build with.
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    // What the test store's serial execution needs from C: the Swift runtime's global-executor
    // hook, by its address, and libdispatch's `dispatch_async_f` on the main queue (see its header).
    .target(name: "CSwiftTaskHook"),
    // The compiler plugin of ReducerCore's macros: `@Reducer`, `@ObservableState`,
    // `@Presents`, `@CodableDefaults` and the case markers (Sources/ReducerCore/Macros.swift).
    .macro(
      name: "ReducerCoreMacros",
      dependencies: [
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
      ]
    ),
    .target(
      name: "ReducerCore",
      dependencies: [
        "CSwiftTaskHook",
        "ReducerCoreMacros",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "DependenciesMacros", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    // The YAML layer alone: libyaml's parser, nodes with source marks, a Decoder and an
    // Encoder over them. It imports CYAML and Foundation only (ModuleBoundaryTests).
    .target(name: "SpecYAML", dependencies: ["CYAML"]),
    // The library: the spec format, state paths, features and stubs, the store contract and
    // the engine that runs a scenario through it, results and reporters. No architecture (no
    // ReducerCore), no ArgumentParser, no processes.
    .target(
      name: "SpecRunner",
      dependencies: [
        "SpecYAML",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    // ReducerCore's TestStore as a store the runner drives, and `Feature(_:initialState:stubs:reducer:)`.
    .target(
      name: "ReducerCoreSpecs",
      dependencies: [
        "ReducerCore",
        "SpecRunner",
        "SpecYAML",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
      ]
    ),
    // Pipes made close-on-exec in one call (see its header): the workers' and the interrupt pipe.
    .target(name: "CCloseOnExecPipe"),
    // This process and the ones it starts: child processes through posix_spawn (workers, and
    // the coverage tools), signal names, the name the command was invoked as and its version.
    .target(name: "SpecProcess", dependencies: ["CCloseOnExecPipe"]),
    // Authoring: check, schema, doc, record (its rewriter and diff), behaviour and code
    // coverage (the ELF reader and the profile runtime), and the JUnit reader.
    .target(
      name: "SpecAuthoring",
      dependencies: [
        "SpecProcess",
        "SpecRunner",
        "SpecYAML",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    // The worker processes: the pool, the line protocol and its JSON codec, the worker's
    // main (which runs, checks and records with SpecAuthoring), the step board and the
    // interrupt pipe.
    .target(
      name: "SpecWorkers",
      dependencies: ["CCloseOnExecPipe", "SpecAuthoring", "SpecProcess", "SpecRunner", "SpecYAML"]
    ),
    // The command line: the subcommands (the only module that imports ArgumentParser), a
    // run, its record and watch.
    .target(
      name: "ReducerSpecCLI",
      dependencies: [
        "ReducerCoreSpecs",
        "SpecAuthoring",
        "SpecProcess",
        "SpecRunner",
        "SpecWorkers",
        "SpecYAML",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .target(
      name: "ExampleFeatures",
      dependencies: [
        "ReducerCore",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "DependenciesMacros", package: "swift-dependencies"),
      ]
    ),
    // A Redux architecture as a SwiftUI + Redux app writes it: actions, a reducer function,
    // middlewares and a store. Foundation (its lock) and Observation only.
    .target(name: "Redux"),
    // A Redux store as a store the runner drives (ReduxTestStore), its actions named by their
    // types (ReduxAction), and `Feature(_:initialState:stubs:reducer:middlewares:actions:)`.
    .target(
      name: "ReduxSpecs",
      dependencies: [
        "Redux",
        "SpecRunner",
        "SpecYAML",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    // The archive screen written for Redux (actions, reducer, middlewares): the example that
    // the runner drives through Redux. It does not import ReducerCore.
    .target(
      name: "ReduxExampleFeatures",
      dependencies: [
        "Redux",
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "DependenciesMacros", package: "swift-dependencies"),
      ]
    ),
    // Spec files inside `swift test`: one Swift Testing test case per scenario, run in the
    // test process (and a helper for XCTest). It imports Testing and XCTest, which come
    // with the toolchain.
    .target(name: "SpecTesting", dependencies: ["ReducerCoreSpecs", "SpecRunner"]),
    // The example features as the runner registers them, for the executable and for
    // ExampleSpecsTests: ExampleFeatures itself never imports SpecRunner.
    .target(
      name: "ExampleFeatureRegistry",
      dependencies: ["ExampleFeatures", "ReducerCoreSpecs", "ReduxExampleFeatures", "ReduxSpecs", "SpecRunner"]
    ),
    .executableTarget(
      name: "reducer-spec",
      dependencies: ["ExampleFeatureRegistry", "SpecRunner", "ReducerSpecCLI"]
    ),
    // The fuzz targets (Fuzz/README.md): what each checks of arbitrary bytes, and the
    // executable that libFuzzer drives (built by Fuzz/run) or that replays inputs.
    .target(
      name: "FuzzTargets",
      dependencies: ["ExampleFeatureRegistry", "SpecRunner", "SpecYAML", "SpecAuthoring", "ReducerSpecCLI"],
      path: "Fuzz/Sources/FuzzTargets"
    ),
    .executableTarget(
      name: "reducer-spec-fuzz",
      dependencies: ["FuzzTargets"],
      path: "Fuzz/Sources/reducer-spec-fuzz",
      // Fuzz/run sets REDUCER_SPEC_FUZZING=1: libFuzzer's entry point and main, linked into
      // this executable alone (the macro plugins, also built, have a main of their own).
      swiftSettings: fuzzing ? [.define("FUZZING"), .unsafeFlags(["-parse-as-library", "-sanitize=fuzzer"])] : [],
      linkerSettings: fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"])] : []
    ),
    // What the test targets share: an IssueReporter that collects issues, temporary files,
    // and Codable types shaped like the example features.
    .target(
      name: "TestSupport",
      dependencies: [.product(name: "IssueReporting", package: "xctest-dynamic-overlay")],
      path: "Tests/TestSupport"
    ),
    .testTarget(
      name: "FuzzRegressionTests",
      dependencies: ["FuzzTargets", "SpecYAML"]
    ),
    // The macros' expansions and diagnostics, with swift-syntax's `assertMacroExpansion`
    // (swift-macro-testing would bring swift-snapshot-testing, whose swift-custom-dump
    // dependency turns FoundationNetworking back on for every target).
    .testTarget(
      name: "ReducerCoreMacrosTests",
      dependencies: [
        "ReducerCoreMacros",
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
      ]
    ),
    .testTarget(
      name: "ReducerCoreTests",
      dependencies: [
        "ReducerCore",
        "TestSupport",
        // The YAML decoder's rejection of unknown keys, in MacroFeatureTests.
        "SpecYAML",
        // Its reader of the runtime's executor hook, against the test store's writer.
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "DependenciesMacros", package: "swift-dependencies"),
        // Without it, an issue that IssueReporting reports under Swift Testing on Linux is
        // only printed, and a failing TestStore step would not fail its test.
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    // Features for the runner's tests, and the executable that registers them.
    .target(
      name: "SpecFixtures",
      dependencies: [
        "ReducerCore",
        "ReducerCoreSpecs",
        "SpecRunner",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "Tests/SpecFixtures"
    ),
    .executableTarget(
      name: "reducer-spec-fixtures",
      dependencies: ["SpecFixtures", "SpecRunner", "ReducerSpecCLI"],
      path: "Tests/FixtureRunner"
    ),
    // A test-only executable: the command with a fake engine, for EndToEndTests.
    .executableTarget(
      name: "reducer-spec-pool-fixture",
      dependencies: ["SpecRunner", "ReducerSpecCLI"],
      path: "Tests/PoolFixture"
    ),
    .testTarget(
      name: "EndToEndTests",
      // The executables are built before the tests run them, not imported; SpecYAML's parser
      // turns spec files into JSON for the schema tests.
      dependencies: [
        "reducer-spec", "reducer-spec-fixtures", "reducer-spec-pool-fixture", "SpecRunner", "SpecYAML", "TestSupport",
      ]
    ),
    .testTarget(
      name: "SpecYAMLTests",
      dependencies: [
        "SpecYAML",
        "TestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "SpecRunnerTests",
      dependencies: [
        "SpecRunner",
        "SpecFixtures",
        "TestSupport",
        // What the store of OwnArchitecture/ imports, as a user's adapter would.
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    .testTarget(
      name: "SpecAuthoringTests",
      dependencies: ["SpecAuthoring", "SpecFixtures", "TestSupport"]
    ),
    // The pool, the protocol and its codec, with a run of the command's (ReducerSpecCLI's
    // SpecRun) over them.
    .testTarget(
      name: "SpecWorkersTests",
      dependencies: ["SpecWorkers", "ReducerSpecCLI", "SpecFixtures", "TestSupport"]
    ),
    .testTarget(
      name: "ReducerSpecCLITests",
      dependencies: [
        "ReducerSpecCLI",
        "SpecFixtures",
        "TestSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "ExampleFeaturesTests",
      dependencies: [
        "ExampleFeatures",
        "TestSupport",
        "ReducerCore",
        // Without it, an issue that IssueReporting reports under Swift Testing on Linux is
        // only printed, and a failing TestStore step would not fail its test.
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    // The Redux store's semantics, and the Redux archive through it.
    .testTarget(
      name: "ReduxTests",
      dependencies: [
        "Redux",
        "ReduxExampleFeatures",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        // Without it, an issue that IssueReporting reports under Swift Testing on Linux is
        // only printed, and an unimplemented dependency that a test calls would not fail it.
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
    // A Redux feature's specs through ReduxTestStore: tasks, messages, action names.
    .testTarget(
      name: "ReduxSpecsTests",
      dependencies: [
        "ExampleFeatureRegistry", "Redux", "ReduxSpecs", "SpecAuthoring", "SpecRunner", "SpecYAML", "TestSupport",
      ]
    ),
    // The example specs (specs/) as Swift Testing test cases, through SpecTesting, and a
    // failing fixture spec that shows where and how a failure is recorded.
    .testTarget(
      name: "ExampleSpecsTests",
      dependencies: ["SpecTesting", "ExampleFeatureRegistry"]
    ),
  ]
)
