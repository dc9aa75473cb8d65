import Foundation
import SpecRunner
import SpecYAML

// MARK: - Wiring

/// The reporters of a run, from its options: the console or JSON lines on standard output,
/// a JUnit file with `--junit` (or Bazel's `XML_OUTPUT_FILE`), and GitHub annotations when
/// `--github-annotations on`, or `auto` under GitHub Actions.
///
/// - Parameters:
///   - standardOutput: Where console and JSON reports write (text with its line breaks).
///   - isTerminal: Whether standard output is a terminal (for `--color auto`).
@MainActor
func makeReporters(
  _ settings: RunSettings, environment: [String: String], isTerminal: Bool,
  standardOutput: @escaping (String) -> Void
) -> [any RunReporter] {
  let writeLine: (String) -> Void = { standardOutput($0 + "\n") }
  let workingDirectory = FileManager.default.currentDirectoryPath
  var reporters: [any RunReporter] = []
  switch settings.format {
  case .console:
    let color = ConsoleReporter.shouldUseColor(mode: settings.color, isTerminal: isTerminal, environment: environment)
    reporters.append(ConsoleReporter(color: color, sink: writeLine))
  case .json:
    reporters.append(JSONLinesReporter(sink: writeLine))
  }
  if let path = settings.junitPath {
    reporters.append(JUnitReporter(path: path, relativeTo: workingDirectory))
  }
  if GitHubAnnotationsReporter.isEnabled(flag: settings.githubAnnotations, environment: environment) {
    reporters.append(GitHubAnnotationsReporter(workingDirectory: workingDirectory, sink: writeLine))
  }
  return reporters
}
