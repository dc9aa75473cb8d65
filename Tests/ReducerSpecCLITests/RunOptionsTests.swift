import ArgumentParser
import Foundation
import TestSupport
import Testing
@testable import ReducerSpecCLI
@testable import SpecRunner

@Suite struct RunOptionsTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory(files: [
      "specs/counter.yaml", "specs/b/search.yml", "specs/a/todos.yaml", "specs/notes.md",
      "specs/.hidden/secret.yaml", "specs/.dotfile.yaml", "other/extra.yaml", "other/README",
    ])
  }

  @Test func defaults() throws {
    let settings = try resolve([directory.path("specs")], processorCount: 6)
    #expect(settings.jobs == 6)
    #expect(settings.timeout == .seconds(10))
    #expect(settings.selection == ScenarioSelection())
    #expect(!settings.list && !settings.failFast)
    #expect(settings.junitPath == nil)
    #expect(settings.format == .console && settings.color == .auto && settings.githubAnnotations == .auto)
    #expect(settings.shardStatusFile == nil)
  }

  @Test func everyOption() throws {
    let settings = try resolve([
      "--jobs", "3", "--timeout", "300ms", "--filter", "search", "--tag", "smoke", "--tag", "!slow", "--list",
      "--fail-fast", "--shard", "2/3", "--junit", "out.xml", "--format", "json", "--color", "never",
      "--github-annotations", "on", directory.path("specs"),
    ])
    #expect(settings.jobs == 3)
    #expect(settings.timeout == .milliseconds(300))
    #expect(settings.selection.filters == ["search"])
    #expect(settings.selection.tags == TagExpression(required: ["smoke"], excluded: ["slow"]))
    #expect(settings.selection.shard == Shard(index: 2, count: 3))
    #expect(settings.list && settings.failFast)
    #expect(settings.junitPath == "out.xml")
    #expect(settings.format == .json && settings.color == .never && settings.githubAnnotations == .on)
    #expect(GitHubAnnotationsMode(argument: "on") == .on)
    #expect(GitHubAnnotationsMode(argument: "off") == .off)
    #expect(GitHubAnnotationsMode(argument: "auto") == .auto)
  }

  @Test func directoriesAreSearchedRecursivelyAndSortedByPath() throws {
    let specs = directory.path("specs")
    #expect(try resolve([specs]).files == ["\(specs)/a/todos.yaml", "\(specs)/b/search.yml", "\(specs)/counter.yaml"])
    // A trailing slash names the same files; a file given twice (or inside a directory
    // given too) runs once; a file is taken as given, whatever its extension.
    let other = directory.path("other")
    #expect(
      try resolve([other + "/README", specs + "/", "\(specs)/counter.yaml", other]).files == [
        "\(other)/README", "\(other)/extra.yaml", "\(specs)/a/todos.yaml", "\(specs)/b/search.yml",
        "\(specs)/counter.yaml",
      ])
  }

  @Test func checkStartsAWorkerFor512KBOfSpecsAndNoMoreThanJobs() throws {
    let kb = 1024
    #expect(CheckCommand.processes(jobs: 1, bytes: 100_000 * kb) == 1)
    #expect(CheckCommand.processes(jobs: 2, bytes: 0) == 1)
    #expect(CheckCommand.processes(jobs: 2, bytes: 1024 * kb - 1) == 1)
    #expect(CheckCommand.processes(jobs: 2, bytes: 1024 * kb) == 2)
    #expect(CheckCommand.processes(jobs: 2, bytes: 100_000 * kb) == 2)
    #expect(CheckCommand.processes(jobs: 8, bytes: 3 * 1024 * kb) == 6)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sizes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(count: 1000).write(to: directory.appendingPathComponent("a.yaml"))
    try Data(count: 24).write(to: directory.appendingPathComponent("b.yaml"))
    let files = ["a.yaml", "b.yaml", "missing.yaml"].map { directory.appendingPathComponent($0).path }
    #expect(CheckCommand.size(of: files) == 1024)
  }

  @Test func bazelEnvironment() throws {
    let specs = directory.path("specs")
    let bazel = [
      "TEST_TOTAL_SHARDS": "4", "TEST_SHARD_INDEX": "1", "TEST_SHARD_STATUS_FILE": "/tmp/status",
      "XML_OUTPUT_FILE": "/tmp/test.xml", "TESTBRIDGE_TEST_ONLY": "counter",
    ]
    let settings = try resolve([specs], environment: bazel)
    #expect(settings.selection.shard == Shard(index: 2, count: 4))
    #expect(settings.shardStatusFile == "/tmp/status")
    #expect(settings.junitPath == "/tmp/test.xml")
    #expect(settings.selection.filters == ["counter"])
    // The command line wins over the environment; --filter and TESTBRIDGE_TEST_ONLY both apply.
    let overridden = try resolve(["--shard", "1/2", "--junit", "mine.xml", "--filter", "Incr", specs], environment: bazel)
    #expect(overridden.selection.shard == Shard(index: 1, count: 2))
    #expect(overridden.junitPath == "mine.xml")
    #expect(overridden.selection.filters == ["Incr", "counter"])
    // Empty variables are as good as unset.
    let empty = try resolve([specs], environment: bazel.mapValues { _ in "" })
    #expect(empty.selection == ScenarioSelection() && empty.junitPath == nil && empty.shardStatusFile == nil)
  }

  @Test func usageErrorsSayWhatIsWrong() {
    let specs = directory.path("specs")
    #expect(usageError(["--jobs", "0", specs]) == "Error: --jobs must be at least 1; got 0")
    #expect(usageError(["--jobs=-2", specs]) == "Error: --jobs must be at least 1; got -2")
    #expect(usageError(["--jobs", "many", specs]) == "Error: The value 'many' is invalid for '--jobs <n>'")
    for timeout in ["5x", "0", "0ms", "-1s", "1.5.2s"] {
      #expect(
        usageError(["--timeout=\(timeout)", specs])
          == "Error: --timeout expects a duration longer than zero, like 300ms, 1.5s, 2m or 10 (seconds); got '\(timeout)'")
    }
    #expect(usageError(["--shard", "0/3", specs]) == "Error: --shard 0/3: K must be between 1 and 3 (shards are counted from 1)")
    #expect(usageError(["--shard", "4/3", specs]) == "Error: --shard 4/3: K must be between 1 and 3 (shards are counted from 1)")
    #expect(usageError(["--shard", "x", specs]) == "Error: --shard expects K/N, shard K of N counted from 1 (like 2/4); got 'x'")
    #expect(usageError(["--tag", "!", specs]) == "Error: --tag expects a tag, or !tag to leave out the scenarios that have it; got '!'")
    #expect(
      usageError(["--format", "xml", specs])
        == "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'console' and 'json'.")
    #expect(usageError(["--frobnicate", specs]) == "Error: Unknown option '--frobnicate'")
    #expect(usageError([directory.path("nope")]) == "Error: no such file or directory: '\(directory.path("nope"))'")
    #expect(
      usageError([specs], environment: ["TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "2"])
        == "Error: TEST_SHARD_INDEX must be between 0 and 1 when TEST_TOTAL_SHARDS is 2; got '2'")
  }

  @MainActor
  @Test func aUsageErrorPrintsTheSubcommandsUsageAndExits64() async {
    #expect(
      await command(["--jobs", "0", directory.path("specs")]) == (64, "", """
        Error: --jobs must be at least 1; got 0
        Usage: reducer-spec [run] [<options>] [<path> ...]
          See 'reducer-spec run --help' for more information.

        """))
    #expect(
      await command(["check", directory.path("nope")]) == (64, "", """
        Error: no such file or directory: '\(directory.path("nope"))'
        Usage: reducer-spec check [<options>] [<path> ...]
          See 'reducer-spec check --help' for more information.

        """))
    #expect(
      await command(["features", "--colour", "never"]) == (64, "", """
        Error: Unknown option '--colour'. Did you mean '--color'?
        Usage: reducer-spec features [<name>] [--color <mode>]
          See 'reducer-spec features --help' for more information.

        """))
    #expect(await command(["--frobnicate"]).status == 64)
    #expect(await command(["--version"]) == (0, ReducerSpecCommand.version + "\n", ""))
    // `--version` alone skips ArgumentParser: it must print what ArgumentParser prints.
    do {
      _ = try RootCommand.parseAsRoot(["--version"])
      Issue.record("`--version` parsed as a command")
    } catch {
      #expect(RootCommand.exitCode(for: error).rawValue == 0)
      #expect(RootCommand.fullMessage(for: error) == ReducerSpecCommand.version)
    }
    #expect(await command(["--version", "--help"]).status == 0)
    let help = await command(["--help"])
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("OVERVIEW: Runs YAML spec files as exhaustive TestStore tests."))
    #expect(help.error == "")
    #expect(await command(["record", "--help"]).output.hasPrefix("OVERVIEW: Runs scenarios and rewrites"))
    #expect(await command(["help", "check"]).output.hasPrefix("OVERVIEW: Checks spec files without running them."))
  }

  /// `--color` is the same option on every subcommand that writes for a person to read.
  @MainActor
  @Test func colorIsAcceptedByEverySubcommandThatWritesText() async {
    #expect(await command(["features", "--color", "never"]) == (0, """
      No features are registered.

      Describe one with `reducer-spec features NAME`.

      """, ""))
    #expect(await command(["features", "--color", "sometimes"]).error.hasPrefix(
      "Error: The value 'sometimes' is invalid for '--color <mode>'. Please provide one of 'auto', 'always' or 'never'."))
    for subcommand in ["run", "check", "record"] {
      let help = await command([subcommand, "--help"]).output
      #expect(help.contains("--color <mode>"), "\(subcommand) --help")
    }
  }

  @Test func withoutPathsTheSpecsDirectory() throws {
    #expect(
      try SpecPaths.expand([], defaultDirectory: directory.path("specs")).map { $0.replacingOccurrences(of: directory.path(""), with: "") }
        == ["specs/a/todos.yaml", "specs/b/search.yml", "specs/counter.yaml"])
    let missing = directory.path("specs-missing")
    #expect(throws: ValidationError.self) { try SpecPaths.expand([], defaultDirectory: missing) }
    do {
      _ = try SpecPaths.expand([], defaultDirectory: missing)
    } catch {
      #expect(error.message == "no spec paths given, and there is no '\(missing)' directory here")
    }
  }

  @Test func aDirectoryIsSearchedForYAMLFilesSkippingHiddenOnesAndLinkedDirectories() throws {
    let tree = try TemporaryDirectory(files: [
      "real/a.yaml", "specs/b.yml", "specs/deep/er/c.yaml", "specs/notes.txt", "specs/.hidden.yaml",
      "specs/.git/d.yaml", "specs/dir.yaml/e.yaml", "specs/Z.yaml", "specs/é.yaml",
    ])
    let fileManager = FileManager.default
    try fileManager.createSymbolicLink(atPath: tree.path("specs/link.yaml"), withDestinationPath: "../real/a.yaml")
    try fileManager.createSymbolicLink(atPath: tree.path("specs/linked"), withDestinationPath: "../real")
    try fileManager.createSymbolicLink(atPath: tree.path("specs/broken.yaml"), withDestinationPath: "../nowhere.yaml")
    let specs = tree.path("specs")
    // Byte order: "Z" before "b", and "é" (0xC3…) after every ASCII name; a linked file
    // counts, a linked directory and a broken link do not; `dir.yaml` is searched as a
    // directory.
    #expect(
      try SpecPaths.expand([specs]) == [
        "\(specs)/Z.yaml", "\(specs)/b.yml", "\(specs)/deep/er/c.yaml", "\(specs)/dir.yaml/e.yaml",
        "\(specs)/link.yaml", "\(specs)/é.yaml",
      ])
    #expect(try SpecPaths.expand([specs + "/"]) == SpecPaths.expand([specs]))
    // A file named on the command line is taken whatever its name; each file once.
    #expect(
      try SpecPaths.expand([tree.path("specs/notes.txt"), specs + "/b.yml", specs]).first == "\(specs)/Z.yaml")
    #expect(try SpecPaths.expand([tree.path("specs/notes.txt"), specs]).contains("\(specs)/notes.txt"))
    #expect(try SpecPaths.expand([specs + "/b.yml", specs]).count(where: { $0.hasSuffix("/b.yml") }) == 1)
  }

  @Test func pathsSortInByteOrderAShorterPrefixFirst() {
    #expect(
      SpecPaths.sorted(["b.yaml", "a/b.yaml", "a", "", "a.yaml", "ab", "A", "é", "a\u{0}"])
        == ["", "A", "a", "a\u{0}", "a.yaml", "a/b.yaml", "ab", "b.yaml", "é"])
  }

  // MARK: - Helpers

  private func resolve(
    _ arguments: [String], environment: [String: String] = [:], processorCount: Int = 2
  ) throws -> RunSettings {
    try RunSettings(options: try RunCommand.parse(arguments), environment: environment, processorCount: processorCount)
  }

  /// What the command prints for `arguments` (that must not run anything): its exit
  /// status, standard output and standard error.
  @MainActor
  private func command(_ arguments: [String]) async -> (status: Int32, output: String, error: String) {
    var output = ""
    var error = ""
    let context = CommandContext(
      engine: SpecEngine(features: []), makeScenarioEngine: { SpecEngine(features: []) }, environment: [:],
      isTerminal: false, output: { output += $0 }, errorOutput: { error += $0 })
    let status = await ReducerSpecCommand.run(arguments: arguments, in: context)
    return (status, output, error)
  }

  /// The first line of the message that the command prints for `arguments`.
  private func usageError(_ arguments: [String], environment: [String: String] = [:]) -> String {
    do {
      _ = try RunSettings(options: try RunCommand.parse(arguments), environment: environment)
      return "no error"
    } catch {
      let message = RunCommand.fullMessage(for: error)
      #expect(RunCommand.exitCode(for: error).rawValue == 64)
      return String(message.prefix { $0 != "\n" })
    }
  }
}

/// A temporary directory with empty files at the given relative paths, removed when the
/// value's last copy goes away.
final class TemporaryDirectory: Sendable {
  let root: String

  init(files: [String]) throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("reducer-spec-tests-\(UUID().uuidString)").path
    for file in files {
      let path = (root as NSString).appendingPathComponent(file)
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: path, contents: Data())
    }
  }

  /// The absolute path of `relative` inside the directory (with a trailing slash for "").
  func path(_ relative: String) -> String { relative.isEmpty ? root + "/" : root + "/" + relative }

  deinit { try? FileManager.default.removeItem(atPath: root) }
}
