import Foundation
import TestSupport

/// Runs the executables that every end-to-end test drives, as built for the tests:
/// `reducer-spec` (the example features), `reducer-spec-fixtures` (the features of
/// Tests/SpecFixtures) and, by default, `reducer-spec-pool-fixture` (the command with an
/// engine that fails, traps and hangs on purpose; see Tests/PoolFixture/main.swift), from
/// the package's root, so that paths print as `Tests/Fixtures/pool/…`.
enum BuiltCommand {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The build products directory: where the test binary is, next to the executables.
  static var productsDirectory: URL {
    #if os(macOS)
      for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
      }
    #endif
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
  }

  static var executable: URL { productsDirectory.appendingPathComponent("reducer-spec-pool-fixture") }

  /// Whether the executables are built with ThreadSanitizer or AddressSanitizer, as this
  /// test binary is (`scripts/sanitize`): their runtimes are in it.
  static let isSanitized: Bool = {
    let handle = dlopen(nil, RTLD_NOW)
    defer { if let handle { dlclose(handle) } }
    return dlsym(handle, "__tsan_init") != nil || dlsym(handle, "__asan_init") != nil
  }()

  /// Runs blocking work (waiting for a process) on a thread of its own (TestSupport's
  /// `onThread`). While a `TestStore` of another suite is alive, every task runs on the main
  /// thread (its serial executor), so a test that blocked its task would stall every other
  /// test, and their wall-clock timeouts with them.
  static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await TestSupport.onThread(body)
  }

  /// A temporary directory with a copy of each of `paths` (files, or directories and every
  /// file in them) at the same relative path, each file with comment lines added at its
  /// end up to `bytes` bytes: spec files as they are, only larger (for `check`, which starts
  /// workers only for enough YAML). The caller removes the directory.
  static func paddedCopy(of paths: [String], toBytes bytes: Int) throws -> URL {
    let manager = FileManager.default
    let directory = manager.temporaryDirectory.appendingPathComponent("padded-\(UUID().uuidString)")
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      _ = manager.fileExists(atPath: packageRoot.appendingPathComponent(path).path, isDirectory: &isDirectory)
      if isDirectory.boolValue {
        let found = try manager.subpathsOfDirectory(atPath: packageRoot.appendingPathComponent(path).path)
        files += found.map { path + "/" + $0 }.filter { !$0.hasSuffix("/") }
      } else {
        files.append(path)
      }
    }
    for file in files {
      let source = packageRoot.appendingPathComponent(file)
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: source.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
      var data = try Data(contentsOf: source)
      data.append(contentsOf: Array("\n".utf8))
      let line = Array("# padding: a comment line that every reader of the file skips\n".utf8)
      while data.count < bytes { data.append(contentsOf: line) }
      let target = directory.appendingPathComponent(file)
      try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: target)
    }
    return directory
  }

  /// What a finished run printed, and its exit status.
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Wall-clock seconds.
    var duration: Double

    /// Standard output with every `(1.234s)` written as `(TIME)`.
    var output: String { normalized(stdout) }
  }

  /// Variables of the environment that would change what the command does. CI services set
  /// some of them (`CI`, `GITHUB_ACTIONS`), so a test that wants one passes it explicitly.
  static let controlledVariables = [
    "TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX", "TEST_SHARD_STATUS_FILE", "XML_OUTPUT_FILE", "TESTBRIDGE_TEST_ONLY",
    "GITHUB_ACTIONS", "NO_COLOR", "TERM", "CI", "SWIFT_BACKTRACE", "COLUMNS",
  ]

  static func process(
    _ arguments: [String], environment: [String: String] = [:], executable: URL = executable,
    directory: URL = packageRoot
  ) -> Process {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var inherited = ProcessInfo.processInfo.environment
    for name in controlledVariables { inherited[name] = nil }
    process.environment = inherited.merging(environment) { $1 }
    return process
  }

  /// Runs an executable of the products directory (the pool fixture by default) to its end.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], executable: URL = executable,
    directory: URL = packageRoot
  ) async throws -> Run {
    try await onThread {
      try runBlocking(arguments, environment: environment, executable: executable, directory: directory)
    }
  }

  private static func runBlocking(
    _ arguments: [String], environment: [String: String], executable: URL, directory: URL
  ) throws -> Run {
    let process = process(arguments, environment: environment, executable: executable, directory: directory)
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    let started = Date()
    try process.run()
    let errors = Collected()
    let reader = Thread { errors.append(stderr.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errors.isDone { usleep(1000) }
    return Run(
      status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: errors.text, duration: Date().timeIntervalSince(started))
  }

  #if os(Linux)
    /// The child processes of `pid` (its workers).
    static func children(of pid: Int32) -> [Int32] {
      let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
      return text.split(separator: " ").compactMap { Int32($0) }
    }

    /// The signals that process `pid` ignores, from `SigIgn` in /proc/PID/status.
    static func ignoredSignals(of pid: Int32) -> Set<Int32> {
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigIgn:") }),
        let mask = UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16)
      else { return [] }
      return Set((1...64).filter { mask & (1 << UInt64($0 - 1)) != 0 }.map { Int32($0) })
    }
  #endif

  /// `(0.206s)` → `(TIME)`, the line of a Swift fatal error → `LINE`, and the addresses
  /// of a stack trace → `0xADDRESS`.
  static func normalized(_ text: String) -> String {
    text.replacing(#/\(\d+(\.\d+)?s\)/#, with: "(TIME)")
      .replacing(#/main\.swift:\d+:/#, with: "main.swift:LINE:")
      .replacing(#/0x[0-9a-f]+/#, with: "0xADDRESS")
  }
}

/// Bytes that a reader thread collects.
final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  private var done = false

  func append(_ more: Data, done isDone: Bool = true) {
    lock.withLock {
      data.append(more)
      if isDone { done = true }
    }
  }

  var isDone: Bool { lock.withLock { done } }
  var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

/// Validates JUnit files against the repository's copy of the schema with `xmllint`
/// (Debian's libxml2-utils, which the README's set-up and `.ci/run` install).
enum JUnitSchema {
  static let schema = BuiltCommand.packageRoot.appendingPathComponent("Tests/Fixtures/junit-10-file-line.xsd").path

  struct Invalid: Error, CustomStringConvertible {
    var description: String
  }

  /// Validates on a thread of its own: waiting for `xmllint` must not hold a thread that
  /// tasks need (while a `TestStore` lives, every task runs on the main thread).
  static func validate(_ path: String) async throws {
    try await BuiltCommand.onThread { try validateWaiting(path) }
  }

  private static func validateWaiting(_ path: String) throws {
    let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      let xmllint = searchPath.split(separator: ":").map({ "\($0)/xmllint" })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
      throw Invalid(description: "xmllint is not installed (Debian: apt-get install libxml2-utils): \(path) was not validated")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: xmllint)
    process.arguments = ["--noout", "--schema", schema, path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw Invalid(description: output) }
  }
}
