import Foundation
import Testing
@testable import SpecYAML

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
