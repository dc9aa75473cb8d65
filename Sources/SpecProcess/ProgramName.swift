/// The name that the command's messages call it: the name it was invoked as.
///
/// A team builds its own executable with its features (`shopping-list-specs`), and its
/// usage, help and hints name that executable, as a user types it, not `reducer-spec`.
/// `ReducerSpecCommand.main(features:)` (ReducerSpecCLI) sets it once, from `argv[0]`,
/// before it parses the command line; ArgumentParser reads it through the subcommands'
/// configurations.
package enum ProgramName {
  /// The name: `reducer-spec` until the process sets it.
  nonisolated(unsafe) package static var current = "reducer-spec"

  /// The command's version: what `--version` prints (`ReducerSpecCommand.version`) and
  /// reports name.
  package static let version = "0.1.0"

  /// The name of a program invoked as `argument`: its last path component
  /// (`.build/debug/shopping-list-specs` → `shopping-list-specs`); `reducer-spec` for none.
  package static func name(invokedAs argument: String?) -> String {
    guard let argument, let last = argument.split(separator: "/").last, !last.isEmpty else { return "reducer-spec" }
    return String(last)
  }
}
