import SpecYAML

/// Paths as a reader of a report expects them: relative to a directory such as the
/// repository's root.
package enum RelativePath {
  /// `path` relative to `directory`, when it is inside it; otherwise `path` made absolute.
  /// Relative inputs are taken from `currentDirectory`; `.` and `..` are resolved.
  ///
  /// ```
  /// make("/repo/specs/a.yaml", relativeTo: "/repo", currentDirectory: "/") == "specs/a.yaml"
  /// make("./specs/a.yaml", relativeTo: "/repo", currentDirectory: "/repo") == "specs/a.yaml"
  /// make("/elsewhere/a.yaml", relativeTo: "/repo", currentDirectory: "/") == "/elsewhere/a.yaml"
  /// ```
  package static func make(_ path: String, relativeTo directory: String, currentDirectory: String) -> String {
    let file = components(of: path, from: currentDirectory)
    let base = components(of: directory, from: currentDirectory)
    if file.count > base.count, Array(file.prefix(base.count)) == base {
      return file.dropFirst(base.count).joined(separator: "/")
    }
    return "/" + file.joined(separator: "/")
  }

  /// The components of the absolute path, with `.`, `..` and empty components resolved.
  private static func components(of path: String, from currentDirectory: String) -> [String] {
    let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
    var result: [String] = []
    for component in absolute.split(separator: "/", omittingEmptySubsequences: true) {
      switch component {
      case ".": continue
      case "..": if !result.isEmpty { result.removeLast() }
      default: result.append(String(component))
      }
    }
    return result
  }
}
