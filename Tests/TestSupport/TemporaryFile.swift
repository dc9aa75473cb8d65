import Foundation

/// A temporary file with the given bytes, removed when the test's scope ends.
public final class TemporaryFile {
  public let path: String
  public init(_ bytes: [UInt8], name: String = "spec.yaml") throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reducer-spec-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    self.path = path
  }
  deinit {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }
}
