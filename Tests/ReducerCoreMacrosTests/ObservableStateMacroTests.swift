import ReducerCoreMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@ObservableState` on structs (bindable fields, decoding with defaults, with `@Presents`) and
/// enums, and its diagnostics.
struct ObservableStateMacroTests {
  static let macros: [String: MacroSpec] = [
    "ObservableState": MacroSpec(
      type: ObservableStateMacro.self, conformances: ["ObservableState", "BindableStateFields"]),
    "ObservationStateIgnored": MacroSpec(type: ObservationStateIgnoredMacro.self),
    "Presents": MacroSpec(type: PresentsMacro.self),
  ]

  @Test func aStructListsItsStoredVarsAsBindableFields() {
    assertExpansion(
      """
      @ObservableState
      struct State: Equatable {
        var query = ""
        var results: [String] = []
        var isLoading: Bool
        let id: UUID
        static var shared = 0
        var count: Int { results.count }
        @ObservationStateIgnored var secret = 0
      }
      """,
      expandsTo: #"""
      struct State: Equatable {
        var query = ""
        var results: [String] = []
        var isLoading: Bool
        let id: UUID
        static var shared = 0
        var count: Int { results.count }
        var secret = 0
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
        static var bindableFields: [ReducerCore.BindableField<Self>] {
          [.field("query", \.query), .field("results", \.results), .field("isLoading", \.isLoading), .field("secret", \.secret)]
        }
      }
      """#,
      macros: Self.macros)
  }

  @Test func aCodableStructDecodesMissingPropertiesAsTheirDefaults() {
    assertExpansion(
      """
      @ObservableState
      struct State: Codable, Equatable {
        let id: UUID
        var count = 0
        var name: String
        var note: String?
        var filter: Filter = .all
        let version = 1
        var first = 0, second: Int
        var `default` = true
      }
      """,
      expandsTo: #"""
      struct State: Codable, Equatable {
        let id: UUID
        var count = 0
        var name: String
        var note: String?
        var filter: Filter = .all
        let version = 1
        var first = 0, second: Int
        var `default` = true
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
        static var bindableFields: [ReducerCore.BindableField<Self>] {
          [.field("count", \.count), .field("name", \.name), .field("note", \.note), .field("filter", \.filter), .field("first", \.first), .field("second", \.second), .field("default", \.`default`)]
        }
      }

      extension State {
        private enum CodingKeys: String, CodingKey {
          case id
          case count
          case name
          case note
          case filter
          case first
          case second
          case `default`
        }
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          self.id = try container.decode(UUID.self, forKey: .id)
          self.count = try container.decode(.count, default: 0)
          self.name = try container.decode(String.self, forKey: .name)
          self.note = try container.decode(.note, default: nil)
          self.filter = try container.decode(.filter, default: .all)
          self.first = try container.decode(.first, default: 0)
          self.second = try container.decode(Int.self, forKey: .second)
          self.`default` = try container.decode(.`default`, default: true)
        }
        func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.id, forKey: .id)
          try container.encode(self.count, forKey: .count)
          try container.encode(self.name, forKey: .name)
          try container.encodeIfPresent(self.note, forKey: .note)
          try container.encode(self.filter, forKey: .filter)
          try container.encode(self.first, forKey: .first)
          try container.encode(self.second, forKey: .second)
          try container.encode(self.`default`, forKey: .`default`)
        }
      }
      """#,
      macros: Self.macros)
  }

  @Test func aDecodableOrEncodableStruct() {
    assertExpansion(
      """
      @ObservableState
      struct State: Decodable {
        var count = 0
      }
      """,
      expandsTo: #"""
      struct State: Decodable {
        var count = 0
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
        static var bindableFields: [ReducerCore.BindableField<Self>] {
          [.field("count", \.count)]
        }
      }

      extension State {
        private enum CodingKeys: String, CodingKey {
          case count
        }
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          self.count = try container.decode(.count, default: 0)
        }
      }
      """#,
      macros: Self.macros)
    assertExpansion(
      """
      @ObservableState
      struct State: Swift.Encodable {
        var count = 0
        var note: Optional<String>
      }
      """,
      expandsTo: #"""
      struct State: Swift.Encodable {
        var count = 0
        var note: Optional<String>
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
        static var bindableFields: [ReducerCore.BindableField<Self>] {
          [.field("count", \.count), .field("note", \.note)]
        }
      }

      extension State {
        private enum CodingKeys: String, CodingKey {
          case count
          case note
        }
        func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.count, forKey: .count)
          try container.encodeIfPresent(self.note, forKey: .note)
        }
      }
      """#,
      macros: Self.macros)
  }

  @Test func aPresentedChildIsCodedUnderItsName() {
    assertExpansion(
      """
      @ObservableState
      public struct State: Codable, Equatable {
        public var contacts: IdentifiedArrayOf<Contact> = []
        @Presents public var destination: Destination.State?
      }
      """,
      expandsTo: #"""
      public struct State: Codable, Equatable {
        public var contacts: IdentifiedArrayOf<Contact> = []
        public var destination: Destination.State? {
          @storageRestrictions(initializes: _destination)
          init(initialValue) {
            _destination = ReducerCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _destination.wrappedValue
          }
          set {
            _destination.wrappedValue = newValue
          }
        }

        public var $destination: ReducerCore.PresentationState<Destination.State> {
          get {
            _destination
          }
          set {
            _destination = newValue
          }
        }

        private var _destination = ReducerCore.PresentationState<Destination.State>(wrappedValue: nil)
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
        public static var bindableFields: [ReducerCore.BindableField<Self>] {
          [.field("contacts", \.contacts), .field("destination", \.destination)]
        }
      }

      extension State {
        private enum CodingKeys: String, CodingKey {
          case contacts
          case destination
        }
        public init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          self.contacts = try container.decode(.contacts, default: [])
          self.destination = try container.decode(.destination, default: nil)
        }
        public func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.contacts, forKey: .contacts)
          try container.encode(self.destination, forKey: .destination)
        }
      }
      """#,
      macros: Self.macros)
  }

  @Test func aStructWithItsOwnCodingKeysIsCodedByIt() {
    assertExpansion(
      """
      @ObservableState
      struct State: Codable {
        var count = 0
        enum CodingKeys: String, CodingKey {
          case count = "total"
        }
      }
      """,
      expandsTo: #"""
      struct State: Codable {
        var count = 0
        enum CodingKeys: String, CodingKey {
          case count = "total"
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
        static var bindableFields: [ReducerCore.BindableField<Self>] {
          [.field("count", \.count)]
        }
      }
      """#,
      macros: Self.macros)
  }

  @Test func aStructWithItsOwnDecodingGetsKeysAndEncoding() {
    assertExpansion(
      """
      @ObservableState
      struct State: Codable {
        var contacts: [Contact]
        @Presents var destination: Destination.State? = nil
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          self.contacts = try container.decode([Contact].self, forKey: .contacts)
          self.destination = try container.decodeIfPresent(Destination.State.self, forKey: .destination)
        }
      }
      """,
      expandsTo: #"""
      struct State: Codable {
        var contacts: [Contact]
        var destination: Destination.State? {
          @storageRestrictions(initializes: _destination)
          init(initialValue) {
            _destination = ReducerCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _destination.wrappedValue
          }
          set {
            _destination.wrappedValue = newValue
          }
        }

        var $destination: ReducerCore.PresentationState<Destination.State> {
          get {
            _destination
          }
          set {
            _destination = newValue
          }
        }

        private var _destination = ReducerCore.PresentationState<Destination.State>(wrappedValue: nil)
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          self.contacts = try container.decode([Contact].self, forKey: .contacts)
          self.destination = try container.decodeIfPresent(Destination.State.self, forKey: .destination)
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
        static var bindableFields: [ReducerCore.BindableField<Self>] {
          [.field("contacts", \.contacts), .field("destination", \.destination)]
        }
      }

      extension State {
        private enum CodingKeys: String, CodingKey {
          case contacts
          case destination
        }
        func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.contacts, forKey: .contacts)
          try container.encode(self.destination, forKey: .destination)
        }
      }
      """#,
      macros: Self.macros)
  }

  @Test func aStructWithItsOwnFieldsKeepsThem() {
    assertExpansion(
      """
      @ObservableState
      struct State: BindableStateFields {
        var name = ""
        var secret = 0
        static let bindableFields: [BindableField<Self>] = [.field("name", \\.name)]
      }
      """,
      expandsTo: #"""
      struct State: BindableStateFields {
        var name = ""
        var secret = 0
        static let bindableFields: [BindableField<Self>] = [.field("name", \.name)]
      }

      extension State: ReducerCore.ObservableState {

      }
      """#,
      macros: Self.macros)
  }

  @Test func anEnumState() {
    assertExpansion(
      """
      @ObservableState
      enum State {
        case loggedIn(LoggedIn.State)
        case loggedOut(LoggedOut.State)
      }
      """,
      expandsTo: """
      enum State {
        case loggedIn(LoggedIn.State)
        case loggedOut(LoggedOut.State)
      }

      extension State: ReducerCore.ObservableState {
      }
      """,
      macros: Self.macros)
  }

  @Test func availabilityCarriesOverToTheExtensions() {
    assertExpansion(
      """
      @available(macOS 14, *)
      @ObservableState
      struct State: Codable {
        var count = 0
      }
      """,
      expandsTo: #"""
      @available(macOS 14, *)
      struct State: Codable {
        var count = 0
      }

      @available(macOS 14, *) extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
        static var bindableFields: [ReducerCore.BindableField<Self>] {
          [.field("count", \.count)]
        }
      }

      @available(macOS 14, *) extension State {
        private enum CodingKeys: String, CodingKey {
          case count
        }
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          self.count = try container.decode(.count, default: 0)
        }
        func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.count, forKey: .count)
        }
      }
      """#,
      macros: Self.macros)
  }

  @Test func aClassOrAnActorIsAnError() {
    assertExpansion(
      """
      @ObservableState
      class Model {
      }
      """,
      expandsTo: """
      class Model {
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@ObservableState' cannot be applied to class type 'Model'", line: 1, column: 1),
      ],
      macros: Self.macros)
    assertExpansion(
      """
      @ObservableState
      actor Model {
      }
      """,
      expandsTo: """
      actor Model {
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@ObservableState' cannot be applied to actor type 'Model'", line: 1, column: 1),
      ],
      macros: Self.macros)
  }

  @Test func observationAttributesHaveTheirObservableStateNames() {
    assertExpansion(
      """
      @ObservableState
      struct State {
        @ObservationIgnored var count = 0
        @PresentationState var destination: Destination.State?
      }
      """,
      expandsTo: #"""
      struct State {
        @ObservationIgnored var count = 0
        @PresentationState var destination: Destination.State?
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
        static var bindableFields: [ReducerCore.BindableField<Self>] {
          [.field("count", \.count), .field("destination", \.destination)]
        }
      }
      """#,
      diagnostics: [
        DiagnosticSpec(message: "'@ObservationIgnored' cannot be used in '@ObservableState'", line: 3, column: 3, fixIts: [FixItSpec(message: "Use '@ObservationStateIgnored' instead")]),
        DiagnosticSpec(message: "'@PresentationState' cannot be used in '@ObservableState'", line: 4, column: 3, fixIts: [FixItSpec(message: "Use '@Presents' instead")]),
      ],
      fixed: """
      @ObservableState
      struct State {
        @ObservationStateIgnored var count = 0
        @Presents var destination: Destination.State?
      }
      """,
      macros: Self.macros)
  }
}
