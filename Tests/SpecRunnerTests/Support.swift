import Foundation
import Testing
@testable import SpecRunner

/// The one-line description of the error that parsing `text` throws, or a note that it did not throw.
func parseError(_ text: String, path: String = "spec.yaml", limits: YAMLParser.Limits = .default) -> String {
  do {
    let node = try YAMLParser.parse(text, path: path, limits: limits)
    return "no error: \(YAMLEmitter.flow(node))"
  } catch let error as YAMLError {
    return error.description
  } catch {
    return "unexpected error: \(error)"
  }
}

/// The description of the error that decoding `text` as `T` throws.
func decodeError<T: Decodable>(_ type: T.Type, _ text: String, path: String = "spec.yaml") -> String {
  do {
    let value = try YAMLDecoder().decode(T.self, from: text, path: path)
    return "no error: \(value)"
  } catch let error as YAMLError {
    return error.description
  } catch {
    return "unexpected error: \(error)"
  }
}

func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
  try YAMLDecoder().decode(T.self, from: text, path: "spec.yaml")
}

/// A temporary file with the given bytes, removed when the test's scope ends.
final class TemporaryFile {
  let path: String
  init(_ bytes: [UInt8], name: String = "spec.yaml") throws {
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
