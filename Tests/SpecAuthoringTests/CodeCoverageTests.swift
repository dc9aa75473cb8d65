import Foundation
import SpecRunner
import TestSupport
import Testing
@testable import SpecAuthoring

/// `reducer-spec coverage --code`'s measuring: llvm-cov's JSON summary and lcov export read
/// (fixtures captured from the instrumented reducer-spec running specs/, restricted to two
/// files), the renderings, the messages, and a real program built for coverage and measured.
@Suite struct CodeCoverageTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/code-coverage").path
  /// The directory the fixtures were captured in: their paths are under it.
  static let capturedIn = "/work/wt-code"

  static func fixture(_ name: String) throws -> String {
    try String(contentsOfFile: fixtures + "/" + name, encoding: .utf8)
  }

  /// The fixtures' report, read as `measure` reads llvm-cov's output.
  static func fixtureReport(in directory: String = capturedIn) throws -> CodeCoverage.Report {
    var report = try CodeCoverage.parseSummary(Array(fixture("summary.json").utf8), currentDirectory: directory)
    let lcov = try CodeCoverage.parseLcov(fixture("export.lcov"), currentDirectory: directory)
    report.lcov = lcov.text
    report.ignoreRegex = "REGEX"
    for index in report.files.indices { report.files[index].lines = lcov.lines[report.files[index].path] ?? [] }
    return report
  }

  /// The TOTAL row of `llvm-cov report`: regions, missed regions, cover, functions, missed
  /// functions, executed, lines, missed lines, cover, ...
  static func reportTotals(_ text: String) throws -> CodeCoverage.Summary {
    let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("TOTAL ") })
    let numbers = row.split(separator: " ").dropFirst().compactMap { Int($0) }
    try #require(numbers.count >= 6, "\(row)")
    return CodeCoverage.Summary(
      lines: .init(covered: numbers[4] - numbers[5], total: numbers[4]),
      regions: .init(covered: numbers[0] - numbers[1], total: numbers[0]),
      functions: .init(covered: numbers[2] - numbers[3], total: numbers[2]))
  }

  // MARK: - Reading llvm-cov

  @Test func theSummaryHasTheNumbersThatLlvmCovReportPrints() throws {
    let report = try Self.fixtureReport()
    #expect(report.files.map(\.path) == ["Sources/ExampleFeatures/Counter.swift", "Sources/ExampleFeatures/ErrorMessages.swift"])
    #expect(report.totals == (try Self.reportTotals(Self.fixture("report.txt"))))
    #expect(report.totals == .init(
      lines: .init(covered: 38, total: 51), regions: .init(covered: 16, total: 29),
      functions: .init(covered: 7, total: 14)))
    #expect(report.files[1].summary == .init(
      lines: .init(covered: 3, total: 8), regions: .init(covered: 1, total: 4), functions: .init(covered: 1, total: 4)))
    // Outside the current directory, a path stays absolute.
    let elsewhere = try Self.fixtureReport(in: "/elsewhere")
    #expect(elsewhere.files[0].path == "/work/wt-code/Sources/ExampleFeatures/Counter.swift")
  }

  @Test func theLcovExportGivesEachLinesHits() throws {
    let report = try Self.fixtureReport()
    let counter = report.files[0].lines
    #expect(counter.count == 41)
    #expect(counter.first == .init(line: 32, hits: 23))
    #expect(counter.filter { $0.hits == 0 }.map(\.line) == [38, 39, 40, 41, 42, 120])
    #expect(report.files[1].lines == [
      .init(line: 9, hits: 7), .init(line: 10, hits: 7), .init(line: 11, hits: 7), .init(line: 17, hits: 0),
      .init(line: 18, hits: 0), .init(line: 19, hits: 0), .init(line: 21, hits: 0),
    ])
    // llvm-cov's lines (its LF, and `report`) count a line once per function on it: line 10
    // also holds the `??` autoclosure, never run. Its DA lines have each line once.
    #expect(report.lcov.contains("LF:8\nLH:3\n"))
  }

  @Test func theLcovTextHasRelativePathsAndATestName() throws {
    let report = try Self.fixtureReport()
    let original = try Self.fixture("export.lcov")
    #expect(report.lcov.hasPrefix("TN:code\nSF:Sources/ExampleFeatures/Counter.swift\nFN:"))
    #expect(report.lcov.components(separatedBy: "TN:code\n").count == 3)
    #expect(
      report.lcov.replacingOccurrences(of: "TN:code\nSF:", with: "SF:" + Self.capturedIn + "/") == original)
  }

  @Test func unreadableOutputIsAnError() {
    #expect(throws: CodeCoverageError.unreadableOutput(tool: "llvm-cov export -summary-only", excerpt: "{\"data\": []}")) {
      try CodeCoverage.parseSummary(Array("{\"data\": []}".utf8), currentDirectory: "/")
    }
    #expect(throws: CodeCoverageError.unreadableOutput(tool: "llvm-cov export -format=lcov", excerpt: "DA:x,1")) {
      try CodeCoverage.parseLcov("SF:/a.swift\nDA:x,1\nend_of_record\n", currentDirectory: "/")
    }
  }

  // MARK: - Selection

  @Test func theIgnoreRegexLeavesOutBuildFoldersAndReducerSpecsOwnModules() throws {
    #expect(CodeCoverage.packageRoot + "/Sources/SpecAuthoring/CodeCoverage.swift" == #filePath
      .replacingOccurrences(of: "/Tests/SpecAuthoringTests/CodeCoverageTests.swift", with: "/Sources/SpecAuthoring/CodeCoverage.swift"))
    #expect(
      CodeCoverage.ignoreRegex(packageRoot: "/w/a.b+c")
        == #"(^|/)\.build[^/]*/|^/w/a\.b\+c/Sources/(CYAML|CSwiftTaskHook|CCloseOnExecPipe|SpecYAML|SpecRunner|SpecProcess|SpecAuthoring|SpecWorkers|ReducerSpecCLI|SpecTesting|ReducerCore|ReducerCoreSpecs|Redux|ReduxSpecs)/"#)
    let regex = try Regex(CodeCoverage.ignoreRegex(packageRoot: "/w/a.b+c"))
    let ignored = [
      "/w/a.b+c/.build/checkouts/swift-case-paths/Sources/CasePaths/AnyCasePath.swift",
      "/u/app/.build-coverage/x86_64-unknown-linux-gnu/debug/App.build/DerivedSources/x.swift",
      "/w/a.b+c/Sources/SpecRunner/Runner/SpecEngine.swift",
      "/w/a.b+c/Sources/ReducerCore/Store.swift",
    ]
    let kept = [
      "/w/a.b+c/Sources/ExampleFeatures/Counter.swift", "/w/a.b+c/Sources/reducer-spec/main.swift",
      "/w/aXb+c/Sources/SpecRunner/Runner/SpecEngine.swift", "/u/app/Sources/SpecRunner/Mine.swift",
      "/u/app/Sources/App/build/x.swift",
    ]
    for path in ignored { #expect(path.contains(regex), "\(path)") }
    for path in kept { #expect(!path.contains(regex), "\(path)") }
  }

  // MARK: - Renderings

  @Test func console() throws {
    #expect(CodeCoverage.console(try Self.fixtureReport()) == """
      file                                                 lines        regions     functions
      Sources/ExampleFeatures/Counter.swift         35/43  81.4%   15/25  60.0%   6/10  60.0%
      Sources/ExampleFeatures/ErrorMessages.swift     3/8  37.5%     1/4  25.0%    1/4  25.0%
      TOTAL                                         38/51  74.5%   16/29  55.2%   7/14  50.0%

      """)
    let empty = CodeCoverage.Report(
      files: [], totals: .init(lines: .init(covered: 0, total: 0), regions: .init(covered: 0, total: 0),
        functions: .init(covered: 0, total: 0)), lcov: "", ignoreRegex: "")
    #expect(CodeCoverage.console(empty) == """
      file    lines   regions   functions
      TOTAL       -         -           -
      No feature source files were measured.

      """)
  }

  @Test func json() throws {
    var report = try Self.fixtureReport()
    report.files.removeLast()
    #expect(CodeCoverage.json(report).text() == """
      {
        "files": [
          {
            "path": "Sources/ExampleFeatures/Counter.swift",
            "lines": {
              "covered": 35,
              "total": 43,
              "percent": "81.4"
            },
            "regions": {
              "covered": 15,
              "total": 25,
              "percent": "60.0"
            },
            "functions": {
              "covered": 6,
              "total": 10,
              "percent": "60.0"
            }
          }
        ],
        "totals": {
          "lines": {
            "covered": 38,
            "total": 51,
            "percent": "74.5"
          },
          "regions": {
            "covered": 16,
            "total": 29,
            "percent": "55.2"
          },
          "functions": {
            "covered": 7,
            "total": 14,
            "percent": "50.0"
          }
        },
        "ignoreFilenameRegex": "REGEX"
      }
      """)
  }

  @Test func coberturaPackage() throws {
    var report = try Self.fixtureReport()
    report.files[0].lines = [.init(line: 3, hits: 2), .init(line: 4, hits: 0)]
    report.files[1].path = "a&b.swift"
    report.files[1].lines = []
    let package = CodeCoverage.coberturaPackage(report)
    #expect(package.linesCovered == 1)
    #expect(package.linesValid == 2)
    #expect(package.xml == """
          <package name="code" line-rate="0.5000" branch-rate="1" complexity="0">
            <classes>
              <class name="Sources/ExampleFeatures/Counter.swift" filename="Sources/ExampleFeatures/Counter.swift" line-rate="0.5000" branch-rate="1" complexity="0">
                <methods/>
                <lines>
                  <line number="3" hits="2" branch="false"/>
                  <line number="4" hits="0" branch="false"/>
                </lines>
              </class>
              <class name="a&amp;b.swift" filename="a&amp;b.swift" line-rate="1" branch-rate="1" complexity="0">
                <methods/>
                <lines>
                </lines>
              </class>
            </classes>
          </package>

      """)
  }

  /// The package in the behaviour report's document validates against coverage-04.dtd.
  @MainActor @Test(.enabled(if: ContinuousIntegration.runs(whenFound: xmllint != nil), "xmllint is not installed (Debian: libxml2-utils): the Cobertura package was NOT validated"))
  func coberturaPackageValidates() async throws {
    let package = CodeCoverage.coberturaPackage(try Self.fixtureReport())
    #expect(package.linesValid == 48)
    #expect(package.linesCovered == 38)
    let none = BehaviourCoverage(
      files: [], engine: SpecEngine(features: []), result: RunResult(suites: [], duration: 0, wasInterrupted: false))
    let behaviour = CoverageReports.cobertura(none, timestamp: 0)
    let document = CoverageReports.cobertura(none, timestamp: 0, code: package)
    #expect(document == behaviour.replacingOccurrences(of: "  </packages>\n", with: package.xml + "  </packages>\n")
      .replacingOccurrences(of: #"line-rate="1" branch-rate="1" lines-covered="0" lines-valid="0""#,
        with: #"line-rate="0.7917" branch-rate="1" lines-covered="38" lines-valid="48""#))
    let dtd = Self.fixtures + "/../cobertura-coverage-04.dtd"
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let valid = directory + "/valid.xml"
    let broken = directory + "/broken.xml"
    try document.write(toFile: valid, atomically: true, encoding: .utf8)
    // The check has teeth: a class without its methods does not validate.
    try document.replacingOccurrences(of: "<methods/>", with: "").write(toFile: broken, atomically: true, encoding: .utf8)
    // xmllint waited for on a thread of its own, not on the main actor.
    guard let xmllint = Self.xmllint else { throw MissingTool("xmllint", debianPackage: "libxml2-utils") }
    let good = try await onThread { try CodeCoverage.runTool(xmllint, ["--noout", "--nonet", "--dtdvalid", dtd, valid], environment: [:]) }
    #expect(good.status == .exited(0), "\(String(decoding: good.errors, as: UTF8.self))")
    let bad = try await onThread { try CodeCoverage.runTool(xmllint, ["--noout", "--nonet", "--dtdvalid", dtd, broken], environment: [:]) }
    #expect(bad.status != .exited(0))
  }

  static let xmllint: String? = ["/usr/bin/xmllint", "/usr/local/bin/xmllint", "/opt/homebrew/bin/xmllint"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "reducer-spec-code-coverage-tests-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  // MARK: - Messages

  @Test func messages() {
    #expect(CodeCoverageError.notInstrumented(executable: ".build/debug/reducer-spec").description == """
      --code needs an executable built for code coverage, and .build/debug/reducer-spec was not; \
      build and run it with: swift build --scratch-path .build-coverage --enable-code-coverage \
      --product reducer-spec && .build-coverage/debug/reducer-spec coverage --code specs/
      """)
    // A team's own spec executable is named by its own name.
    #expect(CodeCoverageError.noProfiles(executable: "/app/.build/debug/app-specs").description == """
      the workers wrote no coverage profile: the executable is probably not built for code coverage; \
      build and run it with: swift build --scratch-path .build-coverage --enable-code-coverage \
      --product app-specs && .build-coverage/debug/app-specs coverage --code specs/
      """)
  }

  @Test func aToolThatIsNowhereIsNamedWithWhereItWasLookedFor() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // A `swift` symlink to a toolchain without the tools, and an empty directory on PATH.
    try FileManager.default.createDirectory(atPath: directory + "/toolchain/bin", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: directory + "/toolchain/bin/swift-driver", contents: Data(), attributes: [.posixPermissions: 0o755])
    try FileManager.default.createSymbolicLink(atPath: directory + "/bin/swift", withDestinationPath: directory + "/toolchain/bin/swift-driver")
    let environment = ["PATH": directory + "/bin"]
    let error = #expect(throws: CodeCoverageError.self) { try CodeCoverage.locateTools(environment: environment) }
    #if os(macOS)
      let searched = "\(directory)/toolchain/bin, xcrun --find llvm-profdata, PATH"
    #else
      let searched = "\(directory)/toolchain/bin, PATH"
    #endif
    #expect(error?.description == "cannot find llvm-profdata, which comes with the Swift toolchain; looked in: \(searched)")
    // Beside the toolchain's swift comes before PATH, whose llvm-cov may be an older LLVM's.
    _ = FileManager.default.createFile(atPath: directory + "/bin/llvm-profdata", contents: Data(), attributes: [.posixPermissions: 0o755])
    _ = FileManager.default.createFile(atPath: directory + "/toolchain/bin/llvm-profdata", contents: Data(), attributes: [.posixPermissions: 0o755])
    #expect(CodeCoverage.locate("llvm-profdata", environment: environment).path == directory + "/toolchain/bin/llvm-profdata")
    #expect(CodeCoverage.locate("llvm-cov", environment: environment).path == nil)
  }

  @Test func aKeptProfileDirectoryLosesTheLastRunsProfilesOnly() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for name in ["worker-1.profraw", "merged.profdata", "notes.txt"] {
      _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data())
    }
    let kept = try CodeCoverage.ProfileDirectory(keeping: directory + "/")
    #expect(kept.path == directory)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["notes.txt"])
    #expect(kept.environment == ["LLVM_PROFILE_FILE": directory + "/worker-%p-%m.profraw"])
    kept.remove()
    #expect(FileManager.default.fileExists(atPath: directory))

    let fresh = try CodeCoverage.ProfileDirectory()
    #expect(fresh.path.hasPrefix(NSTemporaryDirectory() + "reducer-spec-code-coverage-"))
    _ = FileManager.default.createFile(atPath: fresh.path + "/b.profraw", contents: Data())
    _ = FileManager.default.createFile(atPath: fresh.path + "/a.profraw", contents: Data())
    #expect(fresh.profiles == [fresh.path + "/a.profraw", fresh.path + "/b.profraw"])
    fresh.remove()
    #expect(!FileManager.default.fileExists(atPath: fresh.path))

    // A directory cannot be made under a file.
    let error = #expect(throws: CodeCoverageError.self) {
      try CodeCoverage.ProfileDirectory(keeping: directory + "/notes.txt/profiles")
    }
    #expect(
      error?.description.hasPrefix("cannot use the directory '\(directory)/notes.txt/profiles' for coverage profiles: ")
        == true, "\(String(describing: error))")
  }

  @Test func notInstrumented() throws {
    #expect(ProfileRuntime.isInstrumented(executable: CommandLine.arguments[0]) == false)
    #expect(ProfileRuntime.isInstrumented(executable: #filePath) == nil)
    // This test process is not built for coverage: nothing to redirect.
    #expect(ProfileRuntime.redirectOwnProfile(to: "/dev/null") == false)
  }

  /// A file that starts as an ELF file and is cut short, or whose section headers point
  /// past its end, is not an executable to tell about: `nil`, not a crash.
  @Test func truncatedOrHostileELFFiles() throws {
    let directory = NSTemporaryDirectory() + "elf-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let real = try #require(FileManager.default.contents(atPath: CommandLine.arguments[0]))
    func write(_ name: String, _ bytes: [UInt8]) -> String {
      let path = directory + "/" + name
      _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
      return path
    }
    // The header alone: its section headers are past the end.
    #expect(ProfileRuntime.isInstrumented(executable: write("header", Array(real.prefix(64)))) == nil)
    // Shorter than a header, and empty.
    #expect(ProfileRuntime.isInstrumented(executable: write("short", Array(real.prefix(20)))) == nil)
    #expect(ProfileRuntime.isInstrumented(executable: write("empty", [])) == nil)
    // Section headers at an offset near the largest integer.
    var hostile = Array(real.prefix(4096))
    for index in 0..<8 { hostile[0x28 + index] = 0xFF }
    #expect(ProfileRuntime.isInstrumented(executable: write("hostile", hostile)) == nil)
    // A directory.
    #expect(ProfileRuntime.isInstrumented(executable: directory) == nil)
  }

  // MARK: - A real program

  /// The toolchain, or the reason to skip the tests that need it.
  static let toolchain: (tools: CodeCoverage.Tools, swiftc: String)? = {
    let environment = ProcessInfo.processInfo.environment
    guard let tools = try? CodeCoverage.locateTools(environment: environment),
      let swiftc = CodeCoverage.locate("swiftc", environment: environment).path
    else { return nil }
    return (tools, swiftc)
  }()

  static let program = """
    func classify(_ n: Int) -> String {
      if n < 0 {
        return "negative"
      } else if n == 0 {
        return "zero"
      }
      return "positive"
    }

    func neverCalled() -> Int {
      let a = 1
      return a + 1
    }

    if let value = CommandLine.arguments.dropFirst().first.flatMap({ Int($0) }) {
      print(classify(value))
    }

    """

  struct BuildFailed: Error, CustomStringConvertible {
    var description: String
  }

  /// Builds `sources` (name, text) for coverage into `directory`, on a thread of its own
  /// (swiftc takes seconds, which a cooperative thread must not spend waiting).
  static func build(_ sources: [(String, String)], into directory: String) async throws -> String {
    try await onThread { try buildWaiting(sources, into: directory) }
  }

  private static func buildWaiting(_ sources: [(String, String)], into directory: String) throws -> String {
    guard let swiftc = toolchain?.swiftc else { throw BuildFailed(description: "swiftc was not found") }
    for (name, text) in sources { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    let executable = directory + "/program"
    // A package name: the package's sources compiled in here declare `package` members.
    let build = try CodeCoverage.runTool(
      swiftc,
      ["-profile-generate", "-profile-coverage-mapping", "-package-name", "reducer_spec"]
        + sources.map { directory + "/" + $0.0 } + ["-o", executable],
      environment: ProcessInfo.processInfo.environment)
    guard build.status == .exited(0) else { throw BuildFailed(description: String(decoding: build.errors, as: UTF8.self)) }
    return executable
  }

  @Test(.enabled(if: toolchain != nil, "llvm-cov, llvm-profdata or swiftc was not found: the real measurement was NOT tested"))
  func aProgramBuiltForCoverageIsMeasuredAsLlvmCovReportsIt() async throws {
    let (tools, _) = try #require(Self.toolchain)
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let program = try await Self.build([("main.swift", Self.program)], into: directory)
    #expect(ProfileRuntime.isInstrumented(executable: program) == true)

    let profiles = try CodeCoverage.ProfileDirectory()
    defer { profiles.remove() }
    var environment = ProcessInfo.processInfo.environment.merging(profiles.environment) { $1 }
    for input in ["5", "-3"] {
      let run = try CodeCoverage.runTool(program, [input], environment: environment)
      #expect(run.status == .exited(0))
    }
    #expect(profiles.profiles.count == 2)
    let report = try CodeCoverage.measure(
      binary: program, profiles: profiles.profiles, tools: tools, mergedProfile: profiles.mergedProfile,
      currentDirectory: directory)

    environment = ProcessInfo.processInfo.environment
    let byHand = try CodeCoverage.runTool(
      tools.cov, ["report", "-instr-profile=" + profiles.mergedProfile, "-ignore-filename-regex=" + CodeCoverage.defaultIgnoreRegex, program],
      environment: environment)
    #expect(byHand.status == .exited(0))
    #expect(report.totals == (try Self.reportTotals(String(decoding: byHand.output, as: UTF8.self))))
    #expect(report.files.map(\.path) == ["main.swift"])
    // 5 and -3: "zero" never, nor neverCalled.
    #expect(report.totals.functions.total > report.totals.functions.covered)
    let hits = Dictionary(uniqueKeysWithValues: report.files[0].lines.map { ($0.line, $0.hits) })
    #expect(hits[1] == 2)
    #expect(hits[3] == 1)
    #expect(hits[5] == 0)
    #expect([10, 11, 12, 13].map { hits[$0] } == [0, 0, 0, 0])
    #expect(report.lcov.hasPrefix("TN:code\nSF:main.swift\n"))

    // Restricted: to the file, to its directory (relative to the current directory).
    for sources in [[directory + "/main.swift"], ["."]] {
      let restricted = try CodeCoverage.measure(
        binary: program, profiles: profiles.profiles, tools: tools, mergedProfile: profiles.mergedProfile,
        sources: sources, currentDirectory: directory)
      #expect(restricted == report, "\(sources)")
    }
    // To a source that the program does not have, or none: llvm-cov would report all.
    try "let x = 1".write(toFile: directory + "/other.swift", atomically: true, encoding: .utf8)
    #expect(throws: CodeCoverageError.sourcesNotMeasured(["other.swift"])) {
      try CodeCoverage.measure(
        binary: program, profiles: profiles.profiles, tools: tools, mergedProfile: profiles.mergedProfile,
        sources: ["other.swift"], currentDirectory: directory)
    }
    #expect(throws: CodeCoverageError.noSuchSource("Sources/Gone")) {
      try CodeCoverage.measure(
        binary: program, profiles: profiles.profiles, tools: tools, mergedProfile: profiles.mergedProfile,
        sources: ["Sources/Gone"], currentDirectory: directory)
    }
  }

  @Test(.enabled(if: toolchain != nil, "llvm-cov, llvm-profdata or swiftc was not found: the failures were NOT tested"))
  func failures() async throws {
    let (tools, _) = try #require(Self.toolchain)
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(throws: CodeCoverageError.noProfiles(executable: "/bin/true")) {
      try CodeCoverage.measure(binary: "/bin/true", profiles: [], tools: tools, mergedProfile: directory + "/m.profdata")
    }
    let garbage = directory + "/worker-1.profraw"
    try "not a profile".write(toFile: garbage, atomically: true, encoding: .utf8)
    #expect(throws: CodeCoverageError.mergeFailed(stderr:
      "warning: \(garbage): truncated profile data / error: no profile can be merged"))
    {
      try CodeCoverage.measure(binary: "/bin/true", profiles: [garbage], tools: tools, mergedProfile: directory + "/m.profdata")
    }
    #expect(CodeCoverageError.mergeFailed(stderr: "error: no profile can be merged").description
      == "llvm-profdata could not merge the workers' profiles: error: no profile can be merged")

    // A good profile, and a binary without coverage mapping.
    let program = try await Self.build([("main.swift", Self.program)], into: directory)
    let run = try CodeCoverage.runTool(program, [], environment: ["LLVM_PROFILE_FILE": directory + "/good.profraw"])
    #expect(run.status == .exited(0))
    let error = #expect(throws: CodeCoverageError.self) {
      try CodeCoverage.measure(
        binary: CommandLine.arguments[0], profiles: [directory + "/good.profraw"], tools: tools,
        mergedProfile: directory + "/m.profdata")
    }
    #expect(error?.description == """
      llvm-cov export failed (exit status 1): error: failed to load coverage: \
      '\(CommandLine.arguments[0])': no coverage data found / error: could not load coverage information
      """)
  }

  /// An instrumented program that calls `redirectOwnProfile` writes its profile where it
  /// says, not where `LLVM_PROFILE_FILE` said when it started.
  @Test(.enabled(if: toolchain != nil, "swiftc was not found: redirectOwnProfile was NOT tested"))
  func anInstrumentedProgramRedirectsItsOwnProfile() async throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let runtime = try String(
      contentsOfFile: CodeCoverage.packageRoot + "/Sources/SpecAuthoring/ProfileRuntime.swift", encoding: .utf8)
    let main = """
      if CommandLine.arguments.count > 1 {
        print(ProfileRuntime.redirectOwnProfile(to: CommandLine.arguments[1]))
      }
      """
    let program = try await Self.build([("ProfileRuntime.swift", runtime), ("main.swift", main)], into: directory)
    #if os(Linux)
      let elf = try #require(ELFFile(path: program))
      #expect(elf.functionAddress("__llvm_profile_set_filename") != nil)
      // The same file with its symbols' string table said to start so near the largest
      // integer that the first function's name ends past it: no name is found, and nothing
      // overflows.
      var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: program)))
      func word(_ at: Int, _ size: Int) -> Int { (0..<size).reversed().reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
      let symbols = try #require(elf.sections.first { $0.type == 2 })
      let firstFunction = try #require(
        stride(from: symbols.offset, to: symbols.offset + symbols.size, by: symbols.entrySize).first { bytes[$0 + 4] & 0xF == 2 })
      let stringsAt = Int.max - word(firstFunction, 4) - 5
      let stringsHeader = word(0x28, 8) + symbols.link * word(0x3A, 2)
      for index in 0..<8 { bytes[stringsHeader + 24 + index] = UInt8(truncatingIfNeeded: stringsAt >> (8 * index)) }
      let hostile = directory + "/hostile"
      try Data(bytes).write(to: URL(fileURLWithPath: hostile))
      #expect(ELFFile(path: hostile)?.functionAddress("__llvm_profile_set_filename") == nil)
    #endif
    let environment = ["LLVM_PROFILE_FILE": directory + "/started.profraw"]
    let redirected = try CodeCoverage.runTool(program, [directory + "/redirected.profraw"], environment: environment)
    #expect(String(decoding: redirected.output, as: UTF8.self) == "true\n")
    #expect(redirected.errors.isEmpty)
    // The runtime created the file it was started with, empty, before main ran: removed.
    func profiles() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".profraw") }.sorted()
    }
    #expect(try profiles() == ["redirected.profraw"])
    #expect(try FileManager.default.attributesOfItem(atPath: directory + "/redirected.profraw")[.size] as? Int ?? 0 > 0)
    // To /dev/null, started without LLVM_PROFILE_FILE in the directory: no default.profraw
    // left there, no complaint.
    let discarded = try CodeCoverage.runTool(
      "/bin/sh", ["-c", #"cd "$1" && exec "$2" /dev/null"#, "sh", directory, program], environment: [:])
    #expect(discarded.status == .exited(0))
    #expect(discarded.errors.isEmpty)
    #expect(try profiles() == ["redirected.profraw"])
    // Without the call, it is there: the check has teeth.
    let plain = try CodeCoverage.runTool("/bin/sh", ["-c", #"cd "$1" && exec "$2""#, "sh", directory, program], environment: [:])
    #expect(plain.status == .exited(0))
    #expect(try profiles() == ["default.profraw", "redirected.profraw"])
  }

  /// A worker that writes its profile after each request keeps what it ran when it dies
  /// later, and what it writes at exit adds to it (the name has `%m`), counted once.
  @Test(.enabled(if: toolchain != nil, "the toolchain was not found: writeOwnProfile was NOT tested"))
  func aProgramWritesItsProfileAsItGoes() async throws {
    let (tools, _) = try #require(Self.toolchain)
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let runtime = try String(
      contentsOfFile: CodeCoverage.packageRoot + "/Sources/SpecAuthoring/ProfileRuntime.swift", encoding: .utf8)
    let main = """
      #if canImport(Glibc)
        import Glibc
      #elseif canImport(Darwin)
        import Darwin
      #endif
      func first() { print("first") }
      func second() { print("second") }
      first()
      print(ProfileRuntime.writeOwnProfile())
      second()
      if CommandLine.arguments.contains("die") {
        fflush(stdout)
        _exit(9)
      }

      """
    let program = try await Self.build([("ProfileRuntime.swift", runtime), ("main.swift", main)], into: directory)
    let profiles = try CodeCoverage.ProfileDirectory()
    defer { profiles.remove() }
    func measure() throws -> [Int: Int] {
      let report = try CodeCoverage.measure(
        binary: program, profiles: profiles.profiles, tools: tools, mergedProfile: profiles.mergedProfile,
        currentDirectory: directory)
      let main = try #require(report.files.first { $0.path == "main.swift" })
      return Dictionary(uniqueKeysWithValues: main.lines.map { ($0.line, $0.hits) })
    }
    let died = try CodeCoverage.runTool(program, ["die"], environment: profiles.environment)
    #expect(died.status == .exited(9))
    #expect(String(decoding: died.output, as: UTF8.self) == "first\ntrue\nsecond\n")
    // Lines 6 and 7: first() and second().
    var hits = try measure()
    #expect(hits[6] == 1)
    #expect(hits[7] == 0)
    let ended = try CodeCoverage.runTool(program, [], environment: profiles.environment)
    #expect(ended.status == .exited(0))
    hits = try measure()
    #expect(hits[6] == 2)
    #expect(hits[7] == 1)
  }
}
