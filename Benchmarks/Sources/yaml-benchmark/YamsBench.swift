// Only this file imports Yams, so `YAMLDecoder` here is Yams'.
import Yams

/// Yams 6: `YAMLDecoder().decode(_:from: String)`, and `compose` for its parse alone.
enum YamsBench {
  static func decodeSpec(_ text: String) throws -> SpecFile {
    try YAMLDecoder().decode(SpecFile.self, from: text)
  }

  static func decodeDictionary(_ text: String) throws -> [String: Int] {
    try YAMLDecoder().decode([String: Int].self, from: text)
  }

  /// Parse into Yams' node tree only; returns the number of top-level keys as a checksum.
  static func compose(_ text: String) throws -> Int {
    try Yams.compose(yaml: text)?.mapping?.count ?? 0
  }
}
