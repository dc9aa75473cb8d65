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
    // The usual case, a clean relative path (`specs/a.yaml`) from the directory itself, is
    // itself, without resolving the components of both.
    if directory == currentDirectory, isClean(relative: path) { return path }
    // So is a clean absolute path from a clean absolute directory: the part after the
    // directory's, or the path itself when it is outside.
    if isClean(absolute: path), isClean(absolute: directory) {
      let prefix = directory + "/"
      return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
    let file = components(of: path, from: currentDirectory)
    let base = components(of: directory, from: currentDirectory)
    if file.count > base.count, Array(file.prefix(base.count)) == base {
      return file.dropFirst(base.count).joined(separator: "/")
    }
    return "/" + file.joined(separator: "/")
  }

  /// Whether `path` is relative, not empty, and has no `.`, `..` or empty component.
  private static func isClean(relative path: String) -> Bool {
    var path = path
    return path.withUTF8 { bytes in
      guard let first = bytes.first, first != UInt8(ascii: "/") else { return false }
      var start = 0
      for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
        let length = index - start
        if length == 0 { return false }
        if bytes[start] == UInt8(ascii: "."), length == 1 || (length == 2 && bytes[start + 1] == UInt8(ascii: ".")) {
          return false
        }
        start = index + 1
      }
      return true
    }
  }

  /// Whether `path` is `/` and a clean relative path (see ``isClean(relative:)``).
  private static func isClean(absolute path: String) -> Bool {
    guard path.utf8.first == UInt8(ascii: "/") else { return false }
    return isClean(relative: String(path.dropFirst()))
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
