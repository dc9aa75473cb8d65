#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import SpecProcess

/// Code coverage of the feature sources, for `reducer-spec coverage --code`: measured by the
/// toolchain, not by us. An instrumented build of the spec executable (`swift build
/// --enable-code-coverage`) writes an LLVM profile from every worker (``ProfileDirectory``);
/// ``measure(binary:profiles:tools:mergedProfile:sources:ignoring:currentDirectory:)`` merges
/// them with `llvm-profdata merge -sparse` and reads `llvm-cov export` for the numbers that
/// `llvm-cov report` prints, with the same `-ignore-filename-regex` (``defaultIgnoreRegex``).
package enum CodeCoverage {
  /// What a user types to get an instrumented build of an executable (`reducer-spec`, or
  /// the team's own spec executable, named by its path) and run it.
  package static func oneLine(executable: String) -> String {
    let product = URL(fileURLWithPath: executable).lastPathComponent
    return "swift build --scratch-path .build-coverage --enable-code-coverage --product \(product)"
      + " && .build-coverage/debug/\(product) coverage --code specs/"
  }

  // MARK: - Tools

  /// `llvm-profdata` and `llvm-cov`, absolute paths.
  package struct Tools: Equatable {
    package var profdata: String
    var cov: String
  }

  /// Finds `llvm-profdata` and `llvm-cov`: beside the real path (symlinks resolved) of
  /// `swiftc`, then of `swift`, found on PATH; on macOS with `xcrun --find`; then on PATH.
  ///
  /// The toolchain's own come first: they read the profile format of the compiler that built
  /// the executable, and an older LLVM's on PATH does not (Debian's llvm-14 in /usr/bin says
  /// "unsupported instrumentation profile format version" to a Swift 6.3 profile).
  package static func locateTools(environment: [String: String]) throws(CodeCoverageError) -> Tools {
    let profdata = locate("llvm-profdata", environment: environment)
    let cov = locate("llvm-cov", environment: environment)
    guard let profdataPath = profdata.path else {
      throw .toolNotFound(tool: "llvm-profdata", searched: profdata.searched)
    }
    guard let covPath = cov.path else { throw .toolNotFound(tool: "llvm-cov", searched: cov.searched) }
    return Tools(profdata: profdataPath, cov: covPath)
  }

  /// One tool: its path, or `nil`, and the places looked at, in order.
  static func locate(_ tool: String, environment: [String: String]) -> (path: String?, searched: [String]) {
    let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
    var searched: [String] = []
    func executable(in directory: String) -> String? {
      let candidate = directory + "/" + tool
      return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }
    for compiler in ["swiftc", "swift"] {
      guard let found = path.lazy.map({ $0 + "/" + compiler })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
      else { continue }
      let directory = (URL(fileURLWithPath: found).resolvingSymlinksInPath().path as NSString)
        .deletingLastPathComponent
      if !searched.contains(directory) { searched.append(directory) }
      if let tool = executable(in: directory) { return (tool, searched) }
    }
    #if os(macOS)
      searched.append("xcrun --find \(tool)")
      if let run = try? runTool("/usr/bin/xcrun", ["--find", tool], environment: environment),
        run.status == .exited(0)
      {
        let found = String(decoding: run.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if FileManager.default.isExecutableFile(atPath: found) { return (found, searched) }
      }
    #endif
    searched.append("PATH")
    for directory in path { if let tool = executable(in: directory) { return (tool, searched) } }
    return (nil, searched)
  }

  // MARK: - Profiles

  /// Where the workers write their profiles: `LLVM_PROFILE_FILE=DIR/worker-%p-%m.profraw`.
  ///
  /// `%p` gives each worker its own file, so a worker killed while writing spoils only its
  /// own. `%m` turns on the runtime's merging: a worker whose pid an earlier one had adds to
  /// that file instead of truncating it, and a worker killed before it wrote leaves no file
  /// (with `%p` alone, the runtime creates an empty file when the worker starts).
  package final class ProfileDirectory {
    package let path: String
    /// A directory that the user asked to keep: ``remove()`` leaves it.
    let isKept: Bool

    /// A fresh temporary directory; or `keeping`, created if needed, with the profiles and
    /// `merged.profdata` of an earlier run taken out of it.
    package init(keeping: String? = nil) throws(CodeCoverageError) {
      if let keeping {
        do {
          try FileManager.default.createDirectory(atPath: keeping, withIntermediateDirectories: true)
          for name in try FileManager.default.contentsOfDirectory(atPath: keeping)
          where name.hasSuffix(".profraw") || name == "merged.profdata" {
            try FileManager.default.removeItem(atPath: keeping + "/" + name)
          }
        } catch {
          throw .cannotUseDirectory(path: keeping, reason: error.localizedDescription)
        }
        path = keeping.hasSuffix("/") && keeping.count > 1 ? String(keeping.dropLast()) : keeping
        isKept = true
      } else {
        var template = Array((NSTemporaryDirectory() + "reducer-spec-code-coverage-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
          throw .cannotUseDirectory(path: NSTemporaryDirectory(), reason: String(cString: strerror(errno)))
        }
        path = String(cString: made)
        isKept = false
      }
    }

    /// The environment entry for every worker.
    package var environment: [String: String] { ["LLVM_PROFILE_FILE": path + "/worker-%p-%m.profraw"] }

    /// Where ``measure(binary:profiles:tools:mergedProfile:sources:ignoring:currentDirectory:)``
    /// writes the merged profile.
    package var mergedProfile: String { path + "/merged.profdata" }

    /// The profiles written so far, sorted.
    package var profiles: [String] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return names.filter { $0.hasSuffix(".profraw") }.sorted().map { path + "/" + $0 }
    }

    /// Removes the directory, unless it is kept.
    package func remove() {
      if !isKept { try? FileManager.default.removeItem(atPath: path) }
    }
  }

  // MARK: - Selection

  /// This package's root, from where this file was compiled.
  static let packageRoot: String = {
    var path = #filePath
    for _ in 0..<3 { path = (path as NSString).deletingLastPathComponent }  // Sources/SpecAuthoring/
    return path
  }()

  /// reducer-spec's own library modules, never counted as feature sources.
  static let ownModules = [
    "CYAML", "CSwiftTaskHook", "CCloseOnExecPipe", "SpecYAML", "SpecRunner", "SpecProcess", "SpecAuthoring",
    "SpecWorkers", "ReducerSpecCLI", "SpecTesting", "ReducerCore", "ReducerCoreSpecs", "Redux", "ReduxSpecs",
  ]

  /// The files that are not feature sources: those in any `.build*` folder (dependencies'
  /// checkouts, generated sources), and reducer-spec's own modules' sources.
  static func ignoreRegex(packageRoot: String) -> String {
    #"(^|/)\.build[^/]*/|^"# + regexEscaped(packageRoot) + "/Sources/(" + ownModules.joined(separator: "|") + ")/"
  }

  static let defaultIgnoreRegex = ignoreRegex(packageRoot: packageRoot)

  /// Text that an extended regular expression (llvm::Regex) matches literally.
  static func regexEscaped(_ text: String) -> String {
    var out = ""
    for character in text {
      if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
      out.append(character)
    }
    return out
  }

  // MARK: - Measuring

  /// Covered and total: of lines, regions or functions.
  package struct Counts: Equatable, Sendable {
    package var covered: Int
    package var total: Int
    /// `nil` when there is nothing to cover.
    package var percent: Double? { total == 0 ? nil : Double(covered) * 100 / Double(total) }
  }

  package struct Summary: Equatable, Sendable {
    package var lines: Counts
    var regions: Counts
    package var functions: Counts
  }

  package struct LineHits: Equatable, Sendable {
    package var line: Int
    var hits: Int
  }

  package struct FileCoverage: Equatable, Sendable {
    /// Relative to the current directory when inside it, else absolute.
    package var path: String
    package var summary: Summary
    /// The `DA` lines of llvm-cov's lcov export: every line with code, in order.
    package var lines: [LineHits] = []
  }

  /// What ``measure(binary:profiles:tools:mergedProfile:sources:ignoring:currentDirectory:)`` found.
  package struct Report: Equatable, Sendable {
    package var files: [FileCoverage]
    /// As `llvm-cov report` prints them in its TOTAL row.
    package var totals: Summary
    /// llvm-cov's lcov export, `SF:` paths as in ``FileCoverage/path``.
    package var lcov: String
    /// The `-ignore-filename-regex` used.
    var ignoreRegex: String
  }

  /// Merges `profiles` into `mergedProfile` and reads the coverage of `binary`'s sources:
  /// those under `sources` (files or directories; all when empty) that `ignoring` does not
  /// match. The totals are those that `llvm-cov report -instr-profile MERGED BINARY
  /// -ignore-filename-regex=IGNORING SOURCES…` prints.
  package static func measure(
    binary: String, profiles: [String], tools: Tools, mergedProfile: String, sources: [String] = [],
    ignoring: String = defaultIgnoreRegex,
    currentDirectory: String = FileManager.default.currentDirectoryPath
  ) throws(CodeCoverageError) -> Report {
    guard !profiles.isEmpty else { throw .noProfiles(executable: binary) }
    // llvm-cov reports every file when none of the sources is in the coverage data, and
    // when they do not exist.
    let absoluteSources = sources.map { $0.hasPrefix("/") ? $0 : currentDirectory + "/" + $0 }
    for (source, absolute) in zip(sources, absoluteSources) where !FileManager.default.fileExists(atPath: absolute) {
      throw .noSuchSource(source)
    }
    let environment = ProcessInfo.processInfo.environment
    let merge = try runTool(
      tools.profdata, ["merge", "-sparse"] + profiles + ["-o", mergedProfile], environment: environment)
    guard merge.status == .exited(0) else { throw .mergeFailed(stderr: lastLines(merge.errors)) }

    // Absolute: llvm-cov runs in this process's directory, which need not be `currentDirectory`,
    // and reads every file under a directory it is given.
    let common = ["-instr-profile=" + mergedProfile, "-ignore-filename-regex=" + ignoring, binary] + absoluteSources
    func export(_ arguments: [String]) throws(CodeCoverageError) -> [UInt8] {
      let run = try runTool(tools.cov, ["export"] + arguments + common, environment: environment)
      guard run.status == .exited(0) else {
        throw .toolFailed(tool: "llvm-cov export", status: describe(run.status), stderr: lastLines(run.errors))
      }
      return run.output
    }
    var report = try parseSummary(
      export(["-summary-only", "-format=text"]), currentDirectory: currentDirectory)
    report.ignoreRegex = ignoring
    if !sources.isEmpty {
      let prefixes = absoluteSources.flatMap { source in
        [source, URL(fileURLWithPath: source).resolvingSymlinksInPath().path].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
      }
      let outside = report.files.map { $0.path.hasPrefix("/") ? $0.path : currentDirectory + "/" + $0.path }
        .filter { file in !prefixes.contains { file == $0 || file.hasPrefix($0 + "/") } }
      if !outside.isEmpty { throw .sourcesNotMeasured(sources) }
    }
    let lcov = try parseLcov(String(decoding: export(["-format=lcov"]), as: UTF8.self), currentDirectory: currentDirectory)
    report.lcov = lcov.text
    for index in report.files.indices { report.files[index].lines = lcov.lines[report.files[index].path] ?? [] }
    return report
  }

  /// `path` relative to `directory` when inside it.
  package static func relative(_ path: String, to directory: String) -> String {
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
  }

  /// The files and totals of `llvm-cov export -summary-only -format=text`.
  static func parseSummary(_ json: [UInt8], currentDirectory: String) throws(CodeCoverageError) -> Report {
    struct Export: Decodable {
      struct Data: Decodable {
        var files: [File]
        var totals: Totals
      }
      struct File: Decodable {
        var filename: String
        var summary: Totals
      }
      struct Totals: Decodable {
        var lines: Count
        var regions: Count
        var functions: Count
      }
      struct Count: Decodable {
        var count: Int
        var covered: Int
      }
      var data: [Data]
    }
    guard let export = try? JSONDecoder().decode(Export.self, from: Foundation.Data(json)), export.data.count == 1
    else { throw .unreadableOutput(tool: "llvm-cov export -summary-only", excerpt: excerpt(json)) }
    func summary(_ totals: Export.Totals) -> Summary {
      Summary(
        lines: Counts(covered: totals.lines.covered, total: totals.lines.count),
        regions: Counts(covered: totals.regions.covered, total: totals.regions.count),
        functions: Counts(covered: totals.functions.covered, total: totals.functions.count))
    }
    let data = export.data[0]
    return Report(
      files: data.files.map {
        FileCoverage(path: relative($0.filename, to: currentDirectory), summary: summary($0.summary))
      },
      totals: summary(data.totals), lcov: "", ignoreRegex: "")
  }

  /// llvm-cov's lcov export with `TN:code` before each record (a tracefile that also holds
  /// the behaviour's `TN:behaviour` records keeps them apart) and relative `SF:` paths, and
  /// each file's `DA` lines.
  static func parseLcov(
    _ text: String, currentDirectory: String
  ) throws(CodeCoverageError) -> (text: String, lines: [String: [LineHits]]) {
    var out = ""
    var lines: [String: [LineHits]] = [:]
    var file: String?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("SF:") {
        let path = relative(String(line.dropFirst(3)), to: currentDirectory)
        file = path
        lines[path, default: []] = []
        out += "TN:code\nSF:\(path)\n"
        continue
      }
      if line.hasPrefix("DA:") {
        let fields = line.dropFirst(3).split(separator: ",")
        guard let file, fields.count >= 2, let number = Int(fields[0]), let hits = Int(fields[1]) else {
          throw .unreadableOutput(tool: "llvm-cov export -format=lcov", excerpt: String(line))
        }
        lines[file, default: []].append(LineHits(line: number, hits: hits))
      } else if line == "end_of_record" {
        file = nil
      }
      if !line.isEmpty { out += line + "\n" }
    }
    return (out, lines)
  }

  // MARK: - Running the tools

  package struct ToolRun {
    package var status: WorkerProcess.Termination
    package var output: [UInt8]
    package var errors: [UInt8]
  }

  /// Runs `executable` to its end (with the workers' `WorkerProcess`), reading its standard
  /// output and error as they come.
  static func runTool(
    _ executable: String, _ arguments: [String], environment: [String: String]
  ) throws(CodeCoverageError) -> ToolRun {
    let process: WorkerProcess
    do {
      process = try WorkerProcess.spawn(executable: executable, arguments: arguments, environment: environment)
    } catch {
      throw .toolFailed(tool: (executable as NSString).lastPathComponent, status: "not started", stderr: error.description)
    }
    process.closeInput()
    var output: [UInt8] = []
    var errors: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while process.output >= 0 || process.errors >= 0 {
      var fds = [process.output, process.errors].filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      if poll(&fds, nfds_t(fds.count), -1) < 0, errno != EINTR { break }
      buffer.withUnsafeMutableBytes { raw in
        if process.output >= 0, let bytes = process.readAvailable(from: .output, buffer: raw) { output += bytes }
        if process.errors >= 0, let bytes = process.readAvailable(from: .errors, buffer: raw) { errors += bytes }
      }
    }
    // Both pipes are at their end: the tool has ended, or is about to.
    return ToolRun(status: process.wait(grace: .seconds(60)), output: output, errors: errors)
  }

  /// The last lines of a tool's standard error, on one line.
  static func lastLines(_ bytes: [UInt8], count: Int = 3) -> String {
    let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    return lines.suffix(count).joined(separator: " / ")
  }

  static func excerpt(_ bytes: [UInt8]) -> String {
    let text = String(decoding: bytes.prefix(80), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
    return text.isEmpty ? "nothing" : text
  }

  package static func describe(_ status: WorkerProcess.Termination) -> String {
    switch status {
    case .exited(let code): "exit status \(code)"
    case .signaled(let signal): "signal \(signal)"
    }
  }

  // MARK: - Console

  /// A table with a source file per row and a TOTAL row, as the behaviour table is laid out.
  package static func console(_ report: Report, headings: (String) -> String = { $0 }) -> String {
    func cells(_ summary: Summary) -> [String] {
      [summary.lines, summary.regions, summary.functions].map { counts in
        counts.percent.map { "\(counts.covered)/\(counts.total) " + CoverageReports.percentText($0) } ?? "-"
      }
    }
    let header = ["file", "lines", "regions", "functions"]
    let rows = report.files.map { [$0.path] + cells($0.summary) } + [["TOTAL"] + cells(report.totals)]
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      var text = cells[0].padding(toLength: widths[0], withPad: " ", startingAt: 0)
      for column in 1..<cells.count {
        text += "   " + String(repeating: " ", count: widths[column] - cells[column].count) + cells[column]
      }
      return text + "\n"
    }
    var out = headings(line(header))
    for row in rows { out += line(row) }
    if report.files.isEmpty { out += "No feature source files were measured.\n" }
    return out
  }

  // MARK: - JSON

  package static func json(_ report: Report) -> JSONValue {
    func counts(_ counts: Counts) -> JSONValue {
      .object([
        ("covered", .integer(counts.covered)), ("total", .integer(counts.total)),
        // Tenths of a percent as text, as the behaviour's JSON has them.
        ("percent", counts.percent.map { .string(String(format: "%.1f", $0)) } ?? .null),
      ])
    }
    func summary(_ summary: Summary) -> [(String, JSONValue)] {
      [("lines", counts(summary.lines)), ("regions", counts(summary.regions)), ("functions", counts(summary.functions))]
    }
    return .object([
      ("files", .array(report.files.map { .object([("path", .string($0.path))] + summary($0.summary)) })),
      ("totals", .object(summary(report.totals))),
      ("ignoreFilenameRegex", .string(report.ignoreRegex)),
    ])
  }

  // MARK: - Cobertura

  /// A `<package name="code">` for the `<packages>` of `CoverageReports.cobertura`'s
  /// document (indented to sit there): a class per source file, its lines with their hits
  /// from the lcov export. The line counts are what the document's `lines-covered` and
  /// `lines-valid` add up.
  package static func coberturaPackage(_ report: Report) -> (xml: String, linesCovered: Int, linesValid: Int) {
    func rate(_ lines: [LineHits]) -> String {
      lines.isEmpty ? "1" : String(format: "%.4f", Double(lines.filter { $0.hits > 0 }.count) / Double(lines.count))
    }
    func escaped(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
    let all = report.files.flatMap(\.lines)
    var out = "    <package name=\"code\" line-rate=\"\(rate(all))\" branch-rate=\"1\" complexity=\"0\">\n"
    out += "      <classes>\n"
    for file in report.files {
      out += "        <class name=\"\(escaped(file.path))\" filename=\"\(escaped(file.path))\""
        + " line-rate=\"\(rate(file.lines))\" branch-rate=\"1\" complexity=\"0\">\n"
      out += "          <methods/>\n          <lines>\n"
      for line in file.lines {
        out += "            <line number=\"\(line.line)\" hits=\"\(line.hits)\" branch=\"false\"/>\n"
      }
      out += "          </lines>\n        </class>\n"
    }
    out += "      </classes>\n    </package>\n"
    return (out, all.filter { $0.hits > 0 }.count, all.count)
  }
}

/// What can go wrong in measuring code coverage; each a line for the user.
package enum CodeCoverageError: Error, Equatable, CustomStringConvertible {
  case toolNotFound(tool: String, searched: [String])
  /// The executable has no coverage instrumentation.
  case notInstrumented(executable: String)
  /// The workers of this executable wrote no profile.
  case noProfiles(executable: String)
  case mergeFailed(stderr: String)
  case toolFailed(tool: String, status: String, stderr: String)
  case unreadableOutput(tool: String, excerpt: String)
  case cannotUseDirectory(path: String, reason: String)
  /// A source path that the user gave does not exist.
  case noSuchSource(String)
  /// None of the source paths that the user gave has code in the executable.
  case sourcesNotMeasured([String])

  package var description: String {
    switch self {
    case .toolNotFound(let tool, let searched):
      "cannot find \(tool), which comes with the Swift toolchain; looked in: \(searched.joined(separator: ", "))"
    case .notInstrumented(let executable):
      "--code needs an executable built for code coverage, and \(executable) was not;"
        + " build and run it with: \(CodeCoverage.oneLine(executable: executable))"
    case .noProfiles(let executable):
      "the workers wrote no coverage profile: the executable is probably not built for code coverage;"
        + " build and run it with: \(CodeCoverage.oneLine(executable: executable))"
    case .mergeFailed(let stderr):
      "llvm-profdata could not merge the workers' profiles: \(stderr)"
    case .toolFailed(let tool, let status, let stderr):
      "\(tool) failed (\(status)): \(stderr)"
    case .unreadableOutput(let tool, let excerpt):
      "cannot read what \(tool) printed: \(excerpt)"
    case .cannotUseDirectory(let path, let reason):
      "cannot use the directory '\(path)' for coverage profiles: \(reason)"
    case .noSuchSource(let path):
      "no such source file or directory: \(path)"
    case .sourcesNotMeasured(let paths):
      "the executable has no code from \(paths.joined(separator: ", ")); give source files or directories of the features it registers"
    }
  }
}
