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

        static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("query", \.query), .property("results", \.results), .property("isLoading", \.isLoading), .property("secret", \.secret))
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
      }
      """#,
      macros: Self.macros)
  }

  /// The access levels of a state, and what they give its members: `public` and `package`
  /// carry over; `internal`, `fileprivate` and `private` give none, so that the members are as
  /// visible as the type.
  static let accessLevels: [(declared: String, members: String)] = [
    ("private ", ""), ("fileprivate ", ""), ("", ""), ("package ", "package "), ("public ", "public "),
  ]

  @Test(arguments: accessLevels)
  func theMembersAreAsVisibleAsTheStruct(access: (declared: String, members: String)) {
    assertExpansion(
      """
      @ObservableState
      \(access.declared)struct State: Codable {
        var count = 0
      }
      """,
      expandsTo: #"""
      \#(access.declared)struct State: Codable {
        var count = 0

        \#(access.members)static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("count", \.count))
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
      }

      extension State {
        private enum CodingKeys: String, CodingKey {
          case count
        }
        \#(access.members)init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          try container.decode(.count, into: &self.count)
        }
        \#(access.members)func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.count, forKey: .count)
        }
      }
      """#,
      macros: Self.macros)
  }

  /// CaseStudies' onboarding: the state of a `private` reducer. Its fields are listed in its
  /// body, where they may name `Self`: in an extension, a member without a modifier would be
  /// `internal`, more visible than the type it names.
  @Test func aStateNestedInAPrivateReducerListsItsFieldsInItsBody() {
    assertExpansion(
      """
      private struct SignUpFeature {
        @ObservableState
        struct State {
          var path = StackState<Path.State>()
          @Shared var signUpData: SignUpData
        }
      }
      """,
      expandsTo: #"""
      private struct SignUpFeature {
        struct State {
          var path = StackState<Path.State>()
          @Shared var signUpData: SignUpData

          static var bindableFields: [ReducerCore.BindableField<Self>] {
            ReducerCore.BindableField<Self>.writable(.property("path", \.path), .property("signUpData", \.signUpData))
          }
        }
      }

      extension SignUpFeature.State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
      }
      """#,
      macros: Self.macros)
  }

  /// A `Codable` state nested in its feature: the extension, at file scope, cannot name
  /// `Path` or `Child` unqualified, so its decoding names neither the types nor the initial
  /// values, which the properties have when `init(from:)` starts.
  @Test func theDecodingNamesNothingFromAroundTheState() {
    assertExpansion(
      """
      struct Feature {
        @ObservableState
        struct State: Codable {
          var path = StackState<Path.State>()
          var child: Child.State
          var filter: Filter = .all
          var limits: [Int] = [1, -2]
          var id = Self.makeID()
          var title = "Untitled"
        }
      }
      """,
      expandsTo: #"""
      struct Feature {
        struct State: Codable {
          var path = StackState<Path.State>()
          var child: Child.State
          var filter: Filter = .all
          var limits: [Int] = [1, -2]
          var id = Self.makeID()
          var title = "Untitled"

          static var bindableFields: [ReducerCore.BindableField<Self>] {
            ReducerCore.BindableField<Self>.writable(.property("path", \.path), .property("child", \.child), .property("filter", \.filter), .property("limits", \.limits), .property("id", \.id), .property("title", \.title))
          }
        }
      }

      extension Feature.State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
      }

      extension Feature.State {
        private enum CodingKeys: String, CodingKey {
          case path
          case child
          case filter
          case limits
          case id
          case title
        }
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          try container.decode(.path, into: &self.path)
          self.child = try container.decode(.child)
          try container.decode(.filter, into: &self.filter)
          try container.decode(.limits, into: &self.limits)
          try container.decode(.id, into: &self.id)
          try container.decode(.title, into: &self.title)
        }
        func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.path, forKey: .path)
          try container.encode(self.child, forKey: .child)
          try container.encode(self.filter, forKey: .filter)
          try container.encode(self.limits, forKey: .limits)
          try container.encode(self.id, forKey: .id)
          try container.encode(self.title, forKey: .title)
        }
      }
      """#,
      macros: Self.macros)
  }

  /// The stored properties of TCA's states that the macro cannot type or cannot set: the
  /// fields leave out a `let` and a `lazy var` (a key path cannot name it), and list a
  /// property wrapper's property, which the generated list drops when the program runs if its
  /// key path is not writable; the coding leaves out the properties that their wrapper's
  /// attribute initializes (a wrapper with arguments and no initial value), but codes shared
  /// state: decoding writes through a `@Shared` key's reference, checks a `@SharedReader`'s
  /// value (first, before a `@Shared` writes the key), and makes a keyless `@Shared` a
  /// reference of its own.
  @Test func storedPropertiesOfEveryKind() {
    assertExpansion(
      """
      @ObservableState
      struct State: Codable {
        let id: UUID
        private(set) var total = 0
        lazy var cache = 0
        @Shared(.syncUps) var syncUps
        @SharedReader(.count) var count: Int
        @Shared var draft: Draft
        @Clamped(0...10) var level = 5
        @Wrapped var name: String
        @ObservationStateIgnored var ignored = 0
      }
      """,
      expandsTo: #"""
      struct State: Codable {
        let id: UUID
        private(set) var total = 0
        lazy var cache = 0
        @Shared(.syncUps) var syncUps
        @SharedReader(.count) var count: Int
        @Shared var draft: Draft
        @Clamped(0...10) var level = 5
        @Wrapped var name: String
        var ignored = 0

        static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("total", \.total), .property("syncUps", \.syncUps), .property("count", \.count), .property("draft", \.draft), .property("level", \.level), .property("name", \.name), .property("ignored", \.ignored))
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
      }

      extension State {
        private enum CodingKeys: String, CodingKey {
          case id
          case total
          case syncUps
          case count
          case draft
          case level
          case name
          case ignored
        }
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          try container.decode(.count, matching: self._count)
          self.id = try container.decode(.id)
          try container.decode(.total, into: &self.total)
          try container.decode(.syncUps, into: self._syncUps)
          self._draft = try container.decode(.draft)
          try container.decode(.level, into: &self.level)
          self.name = try container.decode(.name)
          try container.decode(.ignored, into: &self.ignored)
        }
        func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(self.id, forKey: .id)
          try container.encode(self.total, forKey: .total)
          try container.encode(self.syncUps, forKey: .syncUps)
          try container.encode(self.count, forKey: .count)
          try container.encode(self.draft, forKey: .draft)
          try container.encode(self.level, forKey: .level)
          try container.encode(self.name, forKey: .name)
          try container.encode(self.ignored, forKey: .ignored)
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

        static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("count", \.count), .property("name", \.name), .property("note", \.note), .property("filter", \.filter), .property("first", \.first), .property("second", \.second), .property("default", \.`default`))
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
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
          self.id = try container.decode(.id)
          try container.decode(.count, into: &self.count)
          self.name = try container.decode(.name)
          self.note = try container.decode(.note, default: nil)
          try container.decode(.filter, into: &self.filter)
          try container.decode(.first, into: &self.first)
          self.second = try container.decode(.second)
          try container.decode(.`default`, into: &self.`default`)
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

        static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("count", \.count))
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
      }

      extension State {
        private enum CodingKeys: String, CodingKey {
          case count
        }
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          try container.decode(.count, into: &self.count)
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

        static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("count", \.count), .property("note", \.note))
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
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

        public static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("contacts", \.contacts), .property("destination", \.destination))
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
      }

      extension State {
        private enum CodingKeys: String, CodingKey {
          case contacts
          case destination
        }
        public init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          try container.decode(.contacts, into: &self.contacts)
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

        static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("count", \.count))
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
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

        static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("contacts", \.contacts), .property("destination", \.destination))
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
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

        static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("count", \.count))
        }
      }

      @available(macOS 14, *) extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
      }

      @available(macOS 14, *) extension State {
        private enum CodingKeys: String, CodingKey {
          case count
        }
        init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          try container.decode(.count, into: &self.count)
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

        static var bindableFields: [ReducerCore.BindableField<Self>] {
          ReducerCore.BindableField<Self>.writable(.property("count", \.count), .property("destination", \.destination))
        }
      }

      extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {
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
