import Foundation
import SpecRunner
import SpecYAML

// MARK: - Wiring

/// The reporters of a run, from its options: the console or JSON lines on standard output,
/// a JUnit file with `--junit` (or Bazel's `XML_OUTPUT_FILE`), and GitHub annotations when
/// `--github-annotations on`, or `auto` under GitHub Actions.
///
/// - Parameters:
///   - writeLine: Where console and JSON reports write, a line at a time (without its line break).
///   - writeLineBytes: The same place, for a line given as UTF-8 bytes (the console's
///     lines for passing scenarios), if it takes them.
///   - isTerminal: Whether standard output is a terminal (for `--color auto`).
@MainActor
func makeReporters(
  _ settings: RunSettings, environment: [String: String], isTerminal: Bool,
  writeLine: @escaping (String) -> Void, writeLineBytes: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil
) -> [any RunReporter] {
  let workingDirectory = FileManager.default.currentDirectoryPath
  var reporters: [any RunReporter] = []
  switch settings.format {
  case .console:
    let color = ConsoleReporter.shouldUseColor(mode: settings.color, isTerminal: isTerminal, environment: environment)
    reporters.append(ConsoleReporter(color: color, isCheck: false, sink: writeLine, lineBytes: writeLineBytes))
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
