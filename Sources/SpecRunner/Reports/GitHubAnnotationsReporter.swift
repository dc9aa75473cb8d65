import Foundation
import SpecYAML

/// Whether to write GitHub Actions annotations: the value of `--github-annotations`.
public enum GitHubAnnotationsMode: String, Sendable, Hashable, CaseIterable {
  /// Always write them.
  case on
  /// Never write them.
  case off
  /// Write them when running in GitHub Actions (`GITHUB_ACTIONS=true`).
  case auto
}

/// Writes a GitHub Actions `::error` workflow command for every failure when the run
/// finishes, so GitHub shows each one on the line of the spec file that failed:
///
/// ```
/// ::error file=specs/counter.yaml,line=14,col=9,title=Decrementing stops at zero::A state change does not match expectation.%0A%0A    − count: 0%0A    + count: -1%0A%0A(Expected: −, Actual: +)
/// ```
///
/// - One annotation per step failure (title: the scenario's name), per scenario that
///   could not finish (its error message), and per file that could not run (title:
///   `Spec file error`). The message is the whole text: heading, diff and legend.
/// - Paths are made relative to `workingDirectory` (in GitHub Actions, the repository's
///   root, `GITHUB_WORKSPACE`), which is what GitHub matches against the files it shows.
/// - Values are escaped as GitHub's runner expects: `%`, `\r`, `\n` in the message;
///   also `:` and `,` in the properties.
/// - At most 50 annotations; past that one plain line says how many failures were not
///   annotated (the console report still lists them all).
public final class GitHubAnnotationsReporter: RunReporter {
  /// The most annotations a run writes.
  public static let maximumAnnotations = 50

  private let workingDirectory: String
  private let currentDirectory: String
  private let sink: (String) -> Void

  /// - Parameters:
  ///   - workingDirectory: The directory paths are made relative to. Spec paths that the
  ///     run names relatively are taken from the current directory.
  ///   - sink: Receives each line, without its line break; standard output by default.
  public convenience init(workingDirectory: String, sink: @escaping (String) -> Void = StandardOutput.writeLine) {
    self.init(
      workingDirectory: workingDirectory, currentDirectory: FileManager.default.currentDirectoryPath, sink: sink)
  }

  init(workingDirectory: String, currentDirectory: String, sink: @escaping (String) -> Void) {
    self.workingDirectory = workingDirectory
    self.currentDirectory = currentDirectory
    self.sink = sink
  }

  /// Whether annotations are wanted: `on`, `off`, or for `auto` whether the environment
  /// says the run is in GitHub Actions (`GITHUB_ACTIONS` is `true`).
  public static func isEnabled(flag: GitHubAnnotationsMode, environment: [String: String]) -> Bool {
    switch flag {
    case .on: return true
    case .off: return false
    case .auto: return environment["GITHUB_ACTIONS"] == "true"
    }
  }

  /// The first ``maximumAnnotations`` annotations of the run, and how many came after them.
  private var annotations: [Annotation] = []
  private var more = 0

  public func suiteFinished(_ suite: SuiteResult) {
    for annotation in Self.annotations(of: suite) {
      if annotations.count < Self.maximumAnnotations {
        annotations.append(annotation)
      } else {
        more += 1
      }
    }
  }

  public func runFinished(_ summary: RunSummary) throws {
    for annotation in annotations {
      sink(command(for: annotation))
    }
    if more > 0 {
      sink(
        "\(more) more \(more == 1 ? "failure was" : "failures were") not annotated: "
          + "at most \(Self.maximumAnnotations) annotations are written.")
    }
  }

  // MARK: - Annotations

  private struct Annotation {
    var location: FileLocation
    var title: String
    var message: String
  }

  /// Every failure of a file, in report order: its errors, then its scenarios'.
  private static func annotations(of suite: SuiteResult) -> [Annotation] {
    var annotations: [Annotation] = []
    for error in suite.errors {
      annotations.append(Annotation(location: error.location, title: "Spec file error", message: error.message))
    }
    for scenario in suite.scenarios {
      for failure in scenario.failures {
        annotations.append(Annotation(location: failure.location, title: scenario.name, message: failure.message))
      }
      if scenario.outcome == .error {
        annotations.append(
          Annotation(
            location: scenario.location, title: scenario.name,
            message: scenario.errorMessage ?? "The scenario did not finish."))
      }
    }
    return annotations
  }

  /// `::error file=…,line=…,col=…,title=…::message`; `line` and `col` only when known.
  private func command(for annotation: Annotation) -> String {
    let file = RelativePath.make(
      annotation.location.file, relativeTo: workingDirectory, currentDirectory: currentDirectory)
    var properties = ["file=\(Self.escapeProperty(file))"]
    if annotation.location.line > 0 {
      properties.append("line=\(annotation.location.line)")
      if annotation.location.column > 0 { properties.append("col=\(annotation.location.column)") }
    }
    properties.append("title=\(Self.escapeProperty(annotation.title))")
    return "::error \(properties.joined(separator: ","))::\(Self.escapeData(annotation.message))"
  }

  /// A message as GitHub's runner reads it back: `%`, `\r`, `\n` escaped.
  static func escapeData(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": result += "%25"
      case "\r": result += "%0D"
      case "\n": result += "%0A"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A property value: as a message, and also `:` and `,`.
  static func escapeProperty(_ text: String) -> String {
    escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
  }
}
