import ReducerCoreMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@CodableDefaults` on plain models, and its diagnostics.
struct CodableDefaultsMacroTests {
  static let macros: [String: MacroSpec] = ["CodableDefaults": MacroSpec(type: CodableDefaultsMacro.self)]

  @Test func aModelWithDefaults() {
    assertExpansion(
      """
      @CodableDefaults
      public struct Item: Codable, Equatable {
        public var name: String
        public var quantity = 1
        public var note: String?
        public var tags: Set<String> = []
        public lazy var summary = name
      }
      """,
      expandsTo: """
      public struct Item: Codable, Equatable {
        public var name: String
        public var quantity = 1
        public var note: String?
        public var tags: Set<String> = []
        public lazy var summary = name
      }

      extension Item {
        private enum CodingKeys: String, CodingKey {
          case name
          case quantity
          case note
          case tags
        }
        public init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          self.name = try container.decode(String.self, forKey: .name)
          self.quantity = try container.decode(.quantity, default: 1)
          self.note = try container.decode(.note, default: nil)
          self.tags = try container.decode(.tags, default: [])
        }
        public func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.name, forKey: .name)
          try container.encode(self.quantity, forKey: .quantity)
          try container.encodeIfPresent(self.note, forKey: .note)
          try container.encode(self.tags, forKey: .tags)
        }
      }
      """,
      macros: Self.macros)
  }

  @Test func aModelWithoutProperties() {
    assertExpansion(
      """
      @CodableDefaults
      struct Empty: Codable {
        let kind = "empty"
      }
      """,
      expandsTo: """
      struct Empty: Codable {
        let kind = "empty"
      }

      extension Empty {
        private enum CodingKeys: CodingKey {
        }
        init(from decoder: any Decoder) throws {
          _ = try decoder.container(keyedBy: CodingKeys.self)
        }
        func encode(to encoder: any Encoder) throws {
          _ = encoder.container(keyedBy: CodingKeys.self)
        }
      }
      """,
      macros: Self.macros)
  }

  @Test func aModelThatIsNotCodableIsAnError() {
    assertExpansion(
      """
      @CodableDefaults
      struct Item {
        var quantity = 1
      }
      """,
      expandsTo: """
      struct Item {
        var quantity = 1
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@CodableDefaults' needs a struct that declares 'Codable', 'Decodable' or 'Encodable'", line: 1, column: 1, fixIts: [FixItSpec(message: "Add 'Codable'")]),
      ],
      fixed: """
      @CodableDefaults
      struct Item: Codable {
        var quantity = 1
      }
      """,
      macros: Self.macros)
    assertExpansion(
      """
      @CodableDefaults
      struct Item: Equatable, Sendable {
        var quantity = 1
      }
      """,
      expandsTo: """
      struct Item: Equatable, Sendable {
        var quantity = 1
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@CodableDefaults' needs a struct that declares 'Codable', 'Decodable' or 'Encodable'", line: 1, column: 1, fixIts: [FixItSpec(message: "Add 'Codable'")]),
      ],
      fixed: """
      @CodableDefaults
      struct Item: Equatable, Sendable, Codable {
        var quantity = 1
      }
      """,
      macros: Self.macros)
  }

  @Test func anEnumIsAnError() {
    assertExpansion(
      """
      @CodableDefaults
      enum Kind: Codable {
        case small, large
      }
      """,
      expandsTo: """
      enum Kind: Codable {
        case small, large
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@CodableDefaults' can only be applied to a struct, not to an enum", line: 1, column: 1),
      ],
      macros: Self.macros)
  }
}
