import ArgumentParser
import Foundation
import SpecRunner
import SpecYAML

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
      for relative in specFiles(under: path) {
        files.insert(prefix + relative)
      }
    }
    return sorted(Array(files))
  }

  /// `paths` in byte order, compared as bytes (String's own comparison is by Unicode rules).
  static func sorted(_ paths: [String]) -> [String] {
    paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The spec files that `roots` name now (as ``expand(_:defaultDirectory:fileManager:)``
  /// names them), with their stamps: `--watch` looks again after every burst of file
  /// events. A root that no longer exists has no files (it is no error here).
  static func snapshot(_ roots: [String]) -> [String: FileStamp] {
    var stamps: [String: FileStamp] = [:]
    for root in roots {
      guard let files = try? expand([root]) else { continue }
      for file in files { stamps[file] = FileStamp.of(file) }
    }
    return stamps
  }

  /// The `*.yaml` and `*.yml` files under `directory`, as paths relative to it. Symbolic
  /// links count as what they point to, except that a link to a directory is not followed
  /// (so that a link cycle cannot loop). Read with `readdir`, which gives each entry's type
  /// with its name.
  private static func specFiles(under directory: String) -> [String] {
    var found: [String] = []
    collect(directory, relative: "", into: &found)
    return found
  }

  private static func collect(_ directory: String, relative: String, into found: inout [String]) {
    guard let stream = opendir(directory) else { return }
    defer { closedir(stream) }
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasPrefix(".") { continue }  // `.`, `..` and hidden files and directories
      let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
      let inside = relative.isEmpty ? name : relative + "/" + name
      var kind = Int32(entry.pointee.d_type)
      if kind == Int32(DT_UNKNOWN) {
        var status = stat()
        guard lstat(path, &status) == 0 else { continue }
        kind = status.st_mode & S_IFMT == S_IFDIR ? Int32(DT_DIR) : status.st_mode & S_IFMT == S_IFLNK ? Int32(DT_LNK) : Int32(DT_REG)
      }
      if kind == Int32(DT_DIR) {
        collect(path, relative: inside, into: &found)
        continue
      }
      guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") else { continue }
      if kind == Int32(DT_REG) {
        found.append(inside)
        continue
      }
      var status = stat()
      if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {  // follows a link
        found.append(inside)
      }
    }
  }
}
