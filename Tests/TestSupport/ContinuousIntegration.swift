import Foundation

/// Whether the tests run in CI (`CI=true`, as `.ci/run` is run). A test that needs a tool
/// (`xmllint`, `jsonschema`, `tmux`) and does not find it is skipped on a developer's machine,
/// with a note that says what was not tested; in CI it runs and fails, so that a missing tool
/// never passes for a tested one.
public enum ContinuousIntegration {
  /// Whether to run a test that needs a tool: when the tool was found, and always in CI.
  public static func runs(
    whenFound found: Bool, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    found || environment["CI"] == "true"
  }
}

/// The error of a test that runs in CI without the tool it needs.
public struct MissingTool: Error, CustomStringConvertible {
  public let description: String

  /// `tool` is not installed (`package` on Debian), and CI runs every test that needs it.
  public init(_ tool: String, debianPackage package: String) {
    description = "\(tool) is not installed (Debian: \(package)), and with CI=true every test that needs it runs"
  }
}
