import ArgumentParser
import Foundation
import SpecAuthoring
import SpecRunner
import SpecYAML

/// `reducer-spec doc [PATH…] -o DIR [--results FILE]`: living documentation of the spec
/// files in Markdown. `DIR/README.md` indexes the features; `DIR/<Feature>.md` shows each
/// feature's files and scenarios, each scenario's steps as a table, and with `--results`
/// the outcome of each scenario in a run's JUnit file.
///
/// Exit status: 0 when every file was documented, 1 when a file could not be read (it is
/// listed in the index with its first error) or a page could not be written, 64 for a
/// usage error.
struct DocCommand: Subcommand {
  static let configuration = CommandConfiguration(
    commandName: "doc",
    abstract: "Writes Markdown documentation of spec files.",
    discussion: """
      Writes DIR/README.md, an index of the features, and DIR/<Feature>.md for each \
      feature: its files' descriptions and each scenario's steps as a table. With \
      --results, each scenario shows its outcome in that JUnit file (a run's --junit).
      """)

  @Argument(help: "Spec files, or directories to search for *.yaml and *.yml files (default: specs).")
  var paths: [String] = []

  @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The directory to write the pages into.", valueName: "directory"))
  var directory: String

  @Option(name: .customLong("results"), help: ArgumentHelp("A run's JUnit XML file (--junit), for each scenario's outcome.", valueName: "file"))
  var resultsFile: String?

  @MainActor
  func run(in context: CommandContext) throws -> Int32 {
    let files = try SpecPaths.expand(paths)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
      throw ValidationError("'\(directory)' is a file: -o names the directory to write the pages into")
    }
    var results: (path: String, results: JUnitResults)?
    if let resultsFile {
      do {
        results = (resultsFile, try JUnitResults.read(path: resultsFile))
      } catch {
        throw ValidationError(error.description)
      }
    }

    let project = DocProject.load(files, engine: context.engine)
    let writer = DocWriter(project: project, results: results)
    var pages = [("README.md", writer.index())]
    for feature in project.features { pages.append((feature.page, writer.page(for: feature))) }

    if let reason = Self.makeDirectory(directory) {
      context.errorOutput("Error: cannot create the directory '\(directory)': \(reason)\n")
      return 1
    }
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    for (name, text) in pages {
      if let reason = FileOutput.replace(Array(text.utf8), at: prefix + name) {
        context.errorOutput("Error: cannot write '\(prefix + name)': \(reason)\n")
        return 1
      }
    }
    // The pages of the last run that this one did not write again: features gone.
    let written = pages.map(\.0)
    for name in Self.pagesOfLastRun(in: prefix) where !written.contains(name) {
      var status = stat()
      guard lstat(prefix + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      if unlink(prefix + name) == 0 {
        context.output("Removed \(prefix + name): no spec file describes its feature now.\n")
      }
    }
    let manifest = Self.manifestHeader + written.map { $0 + "\n" }.joined()
    if let reason = FileOutput.replace(Array(manifest.utf8), at: prefix + Self.manifestName) {
      context.errorOutput("Error: cannot write '\(prefix + Self.manifestName)': \(reason)\n")
      return 1
    }

    for file in project.brokenFiles {
      let more = file.errorCount > 1 ? " (and \(file.errorCount - 1) more)" : ""
      context.errorOutput("\(file.error.location): error: \(file.error.message)\(more)\n")
    }
    let documented = project.fileCount - project.brokenFiles.count
    var summary = "Wrote \(prefix)README.md and \(counted(project.features.count, "feature page"))"
    summary += " for \(counted(documented, "spec file"))"
    if !project.brokenFiles.isEmpty {
      summary += "; \(counted(project.brokenFiles.count, "file")) with errors"
    }
    context.output(summary + ".\n")
    return project.brokenFiles.isEmpty ? 0 : 1
  }

  /// The list of the pages a run wrote, in the output directory: the next run removes the
  /// ones it does not write again, and nothing else.
  static let manifestName = ".reducer-spec-doc"
  static let manifestHeader = "# The pages that `reducer-spec doc` wrote here; it removes those it no longer writes.\n"

  /// The pages that the manifest in `prefix` names: file names ending in `.md`, without a
  /// `/` or a leading `.`, so that an edited manifest cannot point outside the directory.
  private static func pagesOfLastRun(in prefix: String) -> [String] {
    guard let text = try? String(contentsOfFile: prefix + manifestName, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").map(String.init).filter {
      $0.hasSuffix(".md") && !$0.hasPrefix(".") && !$0.contains("/")
    }
  }

  /// Creates `path` and its missing parents; returns why it could not, as the system says it.
  private static func makeDirectory(_ path: String) -> String? {
    var current = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      current += "/" + component
      if mkdir(current, 0o777) != 0 {
        let error = errno
        var status = stat()
        guard error == EEXIST, stat(current, &status) == 0 else { return String(cString: strerror(error)) }
        if status.st_mode & S_IFMT != S_IFDIR { return String(cString: strerror(ENOTDIR)) }
      }
    }
    return nil
  }
}
