import Foundation

/// The inputs of a replay: files, and the files of directories (recursively, sorted).
public enum FuzzInputs {
  public static func files(at paths: [String]) -> [String] {
    paths.flatMap { path -> [String] in
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
      guard isDirectory.boolValue else { return [path] }
      let names = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
      return names.sorted().map { path + "/" + $0 }.filter { name in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory) && !isDirectory.boolValue
      }
    }
  }

  public static func read(_ path: String) -> [UInt8] {
    FileManager.default.contents(atPath: path).map(Array.init) ?? []
  }
}
