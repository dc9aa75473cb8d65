import ArgumentParser
import Foundation

/// Turns the paths given on the command line into the spec files of a run.
enum SpecPaths {
  /// The directory read when no path is given.
  static let defaultDirectory = "specs"

  /// The spec files that `paths` name, each once, sorted by path (byte order).
  ///
  /// A file is taken as given, whatever its extension. A directory is searched
  /// recursively for `*.yaml` and `*.yml` files, skipping files and directories whose
  /// names start with a dot; its files are named by joining the directory as given and
  /// their path inside it (`specs/` and `specs` both give `specs/counter.yaml`).
  ///
  /// - Throws: A `ValidationError` (a usage error) for a path that does not exist.
  static func expand(
    _ paths: [String], defaultDirectory: String = defaultDirectory, fileManager: FileManager = .default
  ) throws(ValidationError) -> [String] {
    var files: Set<String> = []
    for path in paths.isEmpty ? [defaultDirectory] : paths {
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ValidationError(
          paths.isEmpty
            ? "no spec paths given, and there is no '\(defaultDirectory)' directory here"
            : "no such file or directory: '\(path)'")
      }
      guard isDirectory.boolValue else {
        files.insert(path)
        continue
      }
      let prefix = path.hasSuffix("/") ? path : path + "/"
      for relative in specFiles(under: path, fileManager: fileManager) {
        files.insert(prefix + relative)
      }
    }
    return files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The `*.yaml` and `*.yml` files under `directory`, as paths relative to it.
  private static func specFiles(under directory: String, fileManager: FileManager) -> [String] {
    guard let enumerator = fileManager.enumerator(atPath: directory) else { return [] }
    var found: [String] = []
    while let relative = enumerator.nextObject() as? String {
      let name = (relative as NSString).lastPathComponent
      if name.hasPrefix(".") {
        enumerator.skipDescendants()
        continue
      }
      guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") else { continue }
      var isDirectory: ObjCBool = false
      let full = (directory as NSString).appendingPathComponent(relative)
      if fileManager.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
        found.append(relative)
      }
    }
    return found
  }
}
