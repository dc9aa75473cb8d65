import Foundation
import Testing

/// The module graph is one-way, and the compiler keeps most of it so: a module can only
/// import what Package.swift lets it depend on. These tests keep the rest: what each
/// module's own sources import, and what the library must not do.
@Suite struct ModuleBoundaryTests {
  static let sources = BuiltCommand.packageRoot.appendingPathComponent("Sources")

  /// The modules each module's sources may import.
  static let allowedImports: [String: Set<String>] = [
    "SpecYAML": ["Foundation", "CYAML"],
    // CSwiftTaskHook: the runtime's global-executor hook, which the test store sets, and
    // `dispatch_async_f` on the main queue. Dispatch: `_printChanges`' queue. SwiftUI, where it
    // exists: its `Animation` and `Transaction`, which TCA's reducer API takes (stand-ins
    // elsewhere).
    "ReducerCore": [
      "Foundation", "CasePaths", "Clocks", "ConcurrencyExtras", "CustomDump", "Dependencies",
      "DependenciesMacros", "Dispatch", "IdentifiedCollections", "IssueReporting", "CSwiftTaskHook", "SwiftUI",
    ],
    // The macros' compiler plugin: swift-syntax only; it never sees the code it expands into.
    "ReducerCoreMacros": ["SwiftCompilerPlugin", "SwiftDiagnostics", "SwiftSyntax", "SwiftSyntaxBuilder", "SwiftSyntaxMacros"],
    "ExampleFeatures": ["Foundation", "ReducerCore", "CasePaths", "Dependencies", "DependenciesMacros"],
    // The runner knows no architecture: it drives any store through its store contract.
    "SpecRunner": [
      "Foundation", "SpecYAML", "Clocks", "ConcurrencyExtras", "CustomDump", "Dependencies", "IssueReporting",
      "Glibc", "Musl", "Darwin",
    ],
    // ReducerCore's TestStore as a store the runner drives.
    "ReducerCoreSpecs": [
      "Foundation", "ReducerCore", "SpecRunner", "SpecYAML", "CasePaths", "CustomDump", "Dependencies", "IdentifiedCollections",
    ],
    // The Redux architecture: no ReducerCore, no runner.
    "Redux": ["Foundation", "Observation"],
    "ReduxExampleFeatures": ["Redux", "Dependencies", "DependenciesMacros", "Foundation"],
    // A Redux store as a store the runner drives; never ReducerCore.
    "ReduxSpecs": ["Foundation", "Redux", "SpecRunner", "SpecYAML", "CustomDump", "Dependencies", "IssueReporting"],
    // Spec files inside `swift test`: the library, and the toolchain's test frameworks.
    "SpecTesting": ["Foundation", "ReducerCoreSpecs", "SpecRunner", "Testing", "XCTest"],
    // The example features as registered; ExampleFeatures itself never sees SpecRunner.
    "ExampleFeatureRegistry": ["ExampleFeatures", "ReducerCoreSpecs", "ReduxExampleFeatures", "ReduxSpecs", "SpecRunner"],
    // This process and the ones it starts: the C library and the close-on-exec pipe only.
    "SpecProcess": ["Foundation", "CCloseOnExecPipe", "Glibc", "Musl", "Darwin"],
    // Check, schema, doc, record, coverage: the library, and SpecProcess for the coverage
    // tools; never the workers or the command line.
    "SpecAuthoring": [
      "Foundation", "SpecProcess", "SpecRunner", "SpecYAML", "Clocks", "Dependencies", "IssueReporting", "Glibc",
      "Musl", "Darwin",
    ],
    // The pool and the worker's main, which checks and records with SpecAuthoring.
    "SpecWorkers": [
      "Foundation", "CCloseOnExecPipe", "SpecAuthoring", "SpecProcess", "SpecRunner", "SpecYAML", "Glibc", "Musl",
      "Darwin",
    ],
    // The command line: the only module that imports ArgumentParser.
    "ReducerSpecCLI": [
      "Foundation", "ArgumentParser", "ReducerCoreSpecs", "SpecAuthoring", "SpecProcess", "SpecRunner", "SpecWorkers",
      "SpecYAML", "Glibc", "Musl", "Darwin",
    ],
    "reducer-spec": ["ExampleFeatureRegistry", "ReducerSpecCLI", "SpecRunner"],
  ]

  /// Only the command line parses arguments: no other module imports ArgumentParser.
  @Test func onlyTheCommandLineImportsArgumentParser() throws {
    for module in Self.allowedImports.keys.sorted() where module != "ReducerSpecCLI" {
      for (file, name) in try Self.imports(of: module) where name == "ArgumentParser" {
        Issue.record("\(file) imports ArgumentParser, which only ReducerSpecCLI may import")
      }
    }
  }

  @Test(arguments: allowedImports.keys.sorted())
  func aModuleImportsOnlyWhatItMay(_ module: String) throws {
    let imports = try Self.imports(of: module)
    #expect(!imports.isEmpty, "no Swift files found for \(module)")
    for (file, name) in imports where !Self.allowedImports[module]!.contains(name) {
      Issue.record("\(file) imports \(name); \(module) may import only \(Self.allowedImports[module]!.sorted())")
    }
  }

  /// SpecRunner builds wherever ReducerCore does: it starts no processes (the command
  /// line's workers are SpecWorkers', started through SpecProcess) and parses no command
  /// line; nor does SpecTesting, which runs scenarios in the test process.
  @Test func theLibraryStartsNoProcesses() throws {
    for (file, text) in try Self.files(of: "SpecRunner") + Self.files(of: "SpecTesting") {
      for word in ["posix_spawn", "Process()", "fork(", "execv", "ArgumentParser", "CommandLine.arguments"]
      where text.contains(word) {
        Issue.record("\(file) uses \(word), which belongs in SpecProcess or ReducerSpecCLI")
      }
    }
  }

  /// Only SpecProcess starts processes: the pool and the coverage tools go through its
  /// `WorkerProcess`.
  @Test func onlySpecProcessSpawns() throws {
    for module in Self.allowedImports.keys.sorted() where module != "SpecProcess" {
      for (file, text) in try Self.files(of: module) where text.contains("posix_spawn(") || text.contains("fork(") {
        Issue.record("\(file) starts a process; only SpecProcess (WorkerProcess) may")
      }
    }
  }

  #if os(Linux)
    /// Every process of the command, each worker included, loads what the executable links
    /// before it does anything. FoundationNetworking would bring libcurl and some 30 libraries
    /// of its own, half of a process's start (Package.swift builds swift-dependencies and
    /// swift-custom-dump without the traits that import it), and FoundationXML libxml2
    /// (`doc --results` reads JUnit files with a scanner of its own).
    @Test func theCommandLinksNeitherFoundationNetworkingNorFoundationXML() async throws {
      let executable = BuiltCommand.productsDirectory.appendingPathComponent("reducer-spec")
      let run = try await BuiltCommand.run([executable.path], executable: URL(fileURLWithPath: "/usr/bin/ldd"))
      try #require(run.status == 0, "ldd \(executable.path) exited \(run.status): \(run.stderr)")
      // "\tlibFoundation.so => /opt/…/libFoundation.so (0x…)": the name before the arrow.
      let libraries = Set(run.stdout.split(separator: "\n").compactMap { line in
        line.split(whereSeparator: \.isWhitespace).first.map { String($0) }
      })
      #expect(libraries.contains("libFoundation.so"), "ldd listed no Foundation: \(run.stdout)")
      for name in ["libFoundationNetworking.so", "libcurl.so.4", "libFoundationXML.so", "libxml2.so.2"] {
        #expect(!libraries.contains(name), "reducer-spec links \(name):\n\(run.stdout)")
      }
    }
  #endif

  /// The checks above are not vacuous: a file that imports a module it may not is found.
  @Test func aForbiddenImportIsFound() {
    let text = "import Foundation\n@testable import ArgumentParser\n  // import Nothing\n#if canImport(Glibc)\n  internal import CYAML\n#endif\n"
    #expect(Self.importedModules(in: text) == ["Foundation", "ArgumentParser", "CYAML"])
  }

  // MARK: - Reading the sources

  static func files(of module: String) throws -> [(file: String, text: String)] {
    let directory = sources.appendingPathComponent(module)
    guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
    var found: [(String, String)] = []
    for case let path as String in enumerator where path.hasSuffix(".swift") {
      let text = try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
      found.append(("Sources/\(module)/\(path)", text))
    }
    return found.sorted { $0.0 < $1.0 }
  }

  static func imports(of module: String) throws -> [(file: String, module: String)] {
    try files(of: module).flatMap { file, text in importedModules(in: text).map { (file, $0) } }
  }

  /// The modules a Swift file imports, with any attribute or access level before `import`.
  static func importedModules(in text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
      guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { return nil }
      let before = words[..<index]
      guard before.allSatisfy({ ["public", "package", "internal", "private", "fileprivate"].contains($0) })
      else { return nil }
      return String(words[index + 1].split(separator: ".")[0])
    }
  }
}
