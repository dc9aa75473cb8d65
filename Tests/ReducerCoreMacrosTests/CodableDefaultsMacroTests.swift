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
          self.name = try container.decode(.name)
          try container.decode(.quantity, into: &self.quantity)
          self.note = try container.decode(.note, default: nil)
          try container.decode(.tags, into: &self.tags)
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

  /// The access levels of a model, and what they give the coding: `public` and `package`
  /// carry over; `internal`, `fileprivate` and `private` give none, so that the members are as
  /// visible as the type.
  static let accessLevels: [(declared: String, members: String)] = [
    ("private ", ""), ("fileprivate ", ""), ("", ""), ("package ", "package "), ("public ", "public "),
  ]

  @Test(arguments: accessLevels)
  func theCodingIsAsVisibleAsTheModel(access: (declared: String, members: String)) {
    assertExpansion(
      """
      @CodableDefaults
      \(access.declared)struct Item: Codable {
        var quantity = 1
      }
      """,
      expandsTo: """
      \(access.declared)struct Item: Codable {
        var quantity = 1
      }

      extension Item {
        private enum CodingKeys: String, CodingKey {
          case quantity
        }
        \(access.members)init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          try container.decode(.quantity, into: &self.quantity)
        }
        \(access.members)func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.quantity, forKey: .quantity)
        }
      }
      """,
      macros: Self.macros)
  }

  /// A model nested in a `private` type: its coding names no type, so an extension of it
  /// needs no modifier.
  @Test func aModelNestedInAPrivateType() {
    assertExpansion(
      """
      private enum Shelf {
        @CodableDefaults
        struct Item: Codable {
          var label = "?"
        }
      }
      """,
      expandsTo: """
      private enum Shelf {
        struct Item: Codable {
          var label = "?"
        }
      }

      extension Shelf.Item {
        private enum CodingKeys: String, CodingKey {
          case label
        }
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          try container.decode(.label, into: &self.label)
        }
        func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.label, forKey: .label)
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
