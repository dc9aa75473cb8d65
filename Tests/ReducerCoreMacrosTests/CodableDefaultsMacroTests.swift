import MacroTesting
import ReducerCoreMacros
import Testing

/// `@CodableDefaults` on plain models, and its diagnostics.
@Suite(.macros(["CodableDefaults": CodableDefaultsMacro.self]))
struct CodableDefaultsMacroTests {
  @Test func aModelWithDefaults() {
    assertMacro {
      """
      @CodableDefaults
      public struct Item: Codable, Equatable {
        public var name: String
        public var quantity = 1
        public var note: String?
        public var tags: Set<String> = []
        public lazy var summary = name
      }
      """
    } expansion: {
      """
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
      """
    }
  }

  @Test func aModelWithoutProperties() {
    assertMacro {
      """
      @CodableDefaults
      struct Empty: Codable {
        let kind = "empty"
      }
      """
    } expansion: {
      """
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
      """
    }
  }

  @Test func aModelThatIsNotCodableIsAnError() {
    assertMacro {
      """
      @CodableDefaults
      struct Item {
        var quantity = 1
      }
      """
    } diagnostics: {
      """
      @CodableDefaults
      ┬───────────────
      ╰─ 🛑 '@CodableDefaults' needs a struct that declares 'Codable', 'Decodable' or 'Encodable'
         ✏️ Add 'Codable'
      struct Item {
        var quantity = 1
      }
      """
    } fixes: {
      """
      @CodableDefaults
      struct Item: Codable {
        var quantity = 1
      }
      """
    } expansion: {
      """
      struct Item: Codable {
        var quantity = 1
      }

      extension Item {
        private enum CodingKeys: String, CodingKey {
          case quantity
        }
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          self.quantity = try container.decode(.quantity, default: 1)
        }
        func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.quantity, forKey: .quantity)
        }
      }
      """
    }
    assertMacro {
      """
      @CodableDefaults
      struct Item: Equatable, Sendable {
        var quantity = 1
      }
      """
    } diagnostics: {
      """
      @CodableDefaults
      ┬───────────────
      ╰─ 🛑 '@CodableDefaults' needs a struct that declares 'Codable', 'Decodable' or 'Encodable'
         ✏️ Add 'Codable'
      struct Item: Equatable, Sendable {
        var quantity = 1
      }
      """
    } fixes: {
      """
      @CodableDefaults
      struct Item: Equatable, Sendable, Codable {
        var quantity = 1
      }
      """
    } expansion: {
      """
      struct Item: Equatable, Sendable, Codable {
        var quantity = 1
      }

      extension Item {
        private enum CodingKeys: String, CodingKey {
          case quantity
        }
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          self.quantity = try container.decode(.quantity, default: 1)
        }
        func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.quantity, forKey: .quantity)
        }
      }
      """
    }
  }

  @Test func anEnumIsAnError() {
    assertMacro {
      """
      @CodableDefaults
      enum Kind: Codable {
        case small, large
      }
      """
    } diagnostics: {
      """
      @CodableDefaults
      ┬───────────────
      ╰─ 🛑 '@CodableDefaults' can only be applied to a struct, not to an enum
      enum Kind: Codable {
        case small, large
      }
      """
    }
  }
}
