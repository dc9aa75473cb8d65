// Only this file imports SpecRunner, so `YAMLDecoder` here is SpecRunner's.
import SpecYAML

/// SpecRunner's YAML layer: `YAMLParser` and `YAMLDecoder`.
enum Layer {
  /// Parse into the flat document that the decoder reads; returns the number of nodes as a checksum.
  static func parseDocument(_ bytes: [UInt8], path: String) throws -> Int {
    try YAMLParser().parseDocument(bytes: bytes, path: path).nodeCount
  }

  /// Parse into a `YAMLNode` tree; returns the number of top-level keys as a checksum.
  static func parseTree(_ bytes: [UInt8], path: String) throws -> Int {
    try YAMLParser().parse(bytes: bytes, path: path).mapping?.count ?? 0
  }

  static func document(_ bytes: [UInt8], path: String) throws -> YAMLDocument {
    try YAMLParser().parseDocument(bytes: bytes, path: path)
  }

  static func decodeSpec(from document: YAMLDocument) throws -> SpecFile {
    try YAMLDecoder().decode(SpecFile.self, from: document)
  }

  static func decodeSpec(_ bytes: [UInt8], path: String) throws -> SpecFile {
    try YAMLDecoder().decode(SpecFile.self, from: bytes, path: path)
  }

  static func decodeDictionary(_ bytes: [UInt8], path: String) throws -> [String: Int] {
    try YAMLDecoder().decode([String: Int].self, from: bytes, path: path)
  }

  /// The error as the layer renders it (with the source line and a caret), for reports.
  static func describe(_ error: any Error) -> String {
    (error as? YAMLError)?.rendered ?? String(describing: error)
  }
}
