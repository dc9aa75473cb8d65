// Only this file imports SpecRunner, so `YAMLDecoder` here is SpecRunner's.
import SpecRunner

/// SpecRunner's YAML layer: `YAMLParser` and `YAMLDecoder`.
enum Layer {
  /// Parse only; returns the number of top-level keys as a checksum.
  static func parse(_ bytes: [UInt8], path: String) throws -> Int {
    try YAMLParser().parse(bytes: bytes, path: path).mapping?.count ?? 0
  }

  static func decodeSpec(_ bytes: [UInt8], path: String) throws -> SpecFile {
    try YAMLDecoder().decode(SpecFile.self, from: YAMLParser().parse(bytes: bytes, path: path))
  }

  static func decodeDictionary(_ bytes: [UInt8], path: String) throws -> [String: Int] {
    try YAMLDecoder().decode([String: Int].self, from: YAMLParser().parse(bytes: bytes, path: path))
  }

  /// The error as the layer renders it (with the source line and a caret), for reports.
  static func describe(_ error: any Error) -> String {
    (error as? YAMLError)?.rendered ?? String(describing: error)
  }
}
