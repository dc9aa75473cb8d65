import ReducerCoreMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Reducer` on structs and on enums of child features, and its diagnostics. The case marks
/// (`@ReducerCaseEphemeral`, `@ReducerCaseIgnored`) are left unexpanded, to show where
/// `@Reducer` adds them; they expand to nothing.
struct ReducerMacroTests {
  static let macros: [String: MacroSpec] = [
    "Reducer": MacroSpec(type: ReducerMacro.self, conformances: ["Reducer", "CaseReducer"])
  ]

  // MARK: Structs

  @Test func aStructReducer() {
    assertExpansion(
      """
      @Reducer
      struct Feature {
        @ObservableState
        struct State {
          var count = 0
        }
        enum Action {
          case incrementButtonTapped
        }
        var body: some ReducerOf<Self> {
          Reduce { state, action in
            state.count += 1
            return .none
          }
        }
      }
      """,
      expandsTo: """
      struct Feature {
        @ObservableState
        struct State {
          var count = 0
        }
        @CasePathable
        enum Action {
          case incrementButtonTapped
        }
        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          Reduce { state, action in
            state.count += 1
            return .none
          }
        }
      }

      extension Feature: ReducerCore.Reducer {
      }
      """,
      macros: Self.macros)
  }

  @Test func anEnumStateGetsCasePathsAndDynamicMemberLookup() {
    assertExpansion(
      """
      @Reducer
      struct Feature {
        enum State {
          case loggedIn(LoggedIn.State)
          case loggedOut(LoggedOut.State)
        }
        enum Action {
          case loggedIn(LoggedIn.Action)
          case loggedOut(LoggedOut.Action)
        }
        var body: some Reducer<State, Action> {
          EmptyReducer()
        }
      }
      """,
      expandsTo: """
      struct Feature {
        @CasePathable @dynamicMemberLookup
        enum State {
          case loggedIn(LoggedIn.State)
          case loggedOut(LoggedOut.State)
        }
        @CasePathable
        enum Action {
          case loggedIn(LoggedIn.Action)
          case loggedOut(LoggedOut.Action)
        }
        @ReducerCore.ReducerBuilder<State, Action>
        var body: some Reducer<State, Action> {
          EmptyReducer()
        }
      }

      extension Feature: ReducerCore.Reducer {
      }
      """,
      macros: Self.macros)
  }

  @Test func whatIsAlreadyThereIsNotAddedAgain() {
    assertExpansion(
      """
      @Reducer
      struct Feature: Reducer, Sendable {
        @CasePathable
        @dynamicMemberLookup
        enum State {
        }
        enum Action: CasePathable {
          struct AllCasePaths {}
          static var allCasePaths: AllCasePaths { AllCasePaths() }
        }
        @ReducerBuilder<State, Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """,
      expandsTo: """
      struct Feature: Reducer, Sendable {
        @CasePathable
        @dynamicMemberLookup
        enum State {
        }
        enum Action: CasePathable {
          struct AllCasePaths {}
          static var allCasePaths: AllCasePaths { AllCasePaths() }
        }
        @ReducerBuilder<State, Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """,
      macros: Self.macros)
  }

  @Test func aStructWithoutStateActionOrBodyGetsEmptyOnes() {
    assertExpansion(
      """
      @Reducer
      public struct Feature {
      }
      """,
      expandsTo: """
      public struct Feature {

        @ObservableState
        public struct State: Codable, Equatable, Hashable, Sendable {
          public init() {
          }
        }

        public enum Action: Equatable, Hashable, Sendable {
        }

        public let body = ReducerCore.EmptyReducer<State, Action>()
      }

      extension Feature: ReducerCore.Reducer {
      }
      """,
      macros: Self.macros)
  }

  @Test func aStructWhoseStateAndActionAreTypeAliasesGetsABody() {
    assertExpansion(
      """
      @Reducer
      struct Feature {
        typealias State = Int
        typealias Action = Bool
      }
      """,
      expandsTo: """
      struct Feature {
        typealias State = Int
        typealias Action = Bool

        let body = ReducerCore.EmptyReducer<State, Action>()
      }

      extension Feature: ReducerCore.Reducer {
      }
      """,
      macros: Self.macros)
  }

  @Test func aBodyOfOtherTypesGetsTheirBuilder() {
    assertExpansion(
      """
      @Reducer
      struct Feature {
        var body: some Reducer<Int, Bool> { EmptyReducer() }
      }
      """,
      expandsTo: """
      struct Feature {
        @ReducerCore.ReducerBuilder<Int, Bool>
        var body: some Reducer<Int, Bool> { EmptyReducer() }
      }

      extension Feature: ReducerCore.Reducer {
      }
      """,
      macros: Self.macros)
    assertExpansion(
      """
      @Reducer
      struct Feature {
        var body: some ReducerOf<Base> { EmptyReducer() }
      }
      """,
      expandsTo: """
      struct Feature {
        @ReducerCore.ReducerBuilder<Base.State, Base.Action>
        var body: some ReducerOf<Base> { EmptyReducer() }
      }

      extension Feature: ReducerCore.Reducer {
      }
      """,
      macros: Self.macros)
  }

  @Test func availabilityCarriesOverToTheConformance() {
    assertExpansion(
      """
      @available(macOS 14, *)
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        var body: some ReducerOf<Self> { EmptyReducer() }
      }
      """,
      expandsTo: """
      @available(macOS 14, *)
      struct Feature {
        struct State {}
        @CasePathable
        enum Action {}
        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> { EmptyReducer() }
      }

      @available(macOS 14, *) extension Feature: ReducerCore.Reducer {
      }
      """,
      macros: Self.macros)
  }

  // MARK: Enums

  @Test func anEnumOfChildFeaturesWithAnAlert() {
    assertExpansion(
      """
      @Reducer
      enum Destination {
        case addContact(AddContact)
        case alert(AlertState<Alert>)
        case detail(Detail)

        enum Alert {
          case confirmDeletion
        }
      }
      """,
      expandsTo: #"""
      enum Destination {
        case addContact(AddContact)
        @ReducerCaseEphemeral
        case alert(AlertState<Alert>)
        case detail(Detail)

        enum Alert {
          case confirmDeletion
        }

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        enum State: ReducerCore.CaseReducerState {
          typealias StateReducer = Destination
          case addContact(AddContact.State)
          case alert(AlertState<Alert>)
          case detail(Detail.State)
        }

        @CasePathable
        enum Action {
          case addContact(AddContact.Action)
          case alert(Alert)
          case detail(Detail.Action)
        }

        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        static var body: ReducerCore.Reduce<Self.State, Self.Action> {
          ReducerCore.Reduce(
            ReducerCore.EmptyReducer<Self.State, Self.Action>()
            .ifCaseLet(\Self.State.Cases.addContact, action: \Self.Action.Cases.addContact) {
              AddContact()
            }
            .ifCaseLet(\Self.State.Cases.detail, action: \Self.Action.Cases.detail) {
              Detail()
            }
          )
        }
      }

      extension Destination: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }
      """#,
      macros: Self.macros)
  }

  @Test func casesThatHoldPlainValues() {
    assertExpansion(
      """
      @Reducer
      enum Path {
        case detail(SyncUpDetail)
        case dialog(ConfirmationDialogState<Dialog>)
        case meeting(Meeting, syncUp: SyncUp)
        case empty
        @ReducerCaseIgnored
        case record(RecordMeeting)
        case values([Int])
      }
      """,
      expandsTo: #"""
      enum Path {
        case detail(SyncUpDetail)
        @ReducerCaseEphemeral
        case dialog(ConfirmationDialogState<Dialog>)
        @ReducerCaseIgnored
        case meeting(Meeting, syncUp: SyncUp)
        @ReducerCaseIgnored
        case empty
        @ReducerCaseIgnored
        case record(RecordMeeting)
        case values([Int])

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        enum State: ReducerCore.CaseReducerState {
          typealias StateReducer = Path
          case detail(SyncUpDetail.State)
          case dialog(ConfirmationDialogState<Dialog>)
          case meeting(Meeting, syncUp: SyncUp)
          case empty
          case record(RecordMeeting)
          case values([Int])
        }

        @CasePathable
        enum Action {
          case detail(SyncUpDetail.Action)
          case dialog(Dialog)
          case meeting(Swift.Never)
          case empty(Swift.Never)
          case record(Swift.Never)
          case values(Swift.Never)
        }

        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        static var body: ReducerCore.Reduce<Self.State, Self.Action> {
          ReducerCore.Reduce(
            ReducerCore.EmptyReducer<Self.State, Self.Action>()
            .ifCaseLet(\Self.State.Cases.detail, action: \Self.Action.Cases.detail) {
              SyncUpDetail()
            }
          )
        }
      }

      extension Path: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }
      """#,
      macros: Self.macros)
  }

  @Test func anExplicitActionIsKept() {
    assertExpansion(
      """
      @Reducer
      enum Destination {
        @ReducerCaseIgnored case alert(AlertState<Alert>)
        case edit(SyncUpForm)

        @CasePathable
        enum Action {
          case alert(Alert)
          case edit(SyncUpForm.Action)
        }
      }
      """,
      expandsTo: #"""
      enum Destination {
        @ReducerCaseIgnored
        @ReducerCaseEphemeral case alert(AlertState<Alert>)
        case edit(SyncUpForm)

        @CasePathable
        enum Action {
          case alert(Alert)
          case edit(SyncUpForm.Action)
        }

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        enum State: ReducerCore.CaseReducerState {
          typealias StateReducer = Destination
          case alert(AlertState<Alert>)
          case edit(SyncUpForm.State)
        }

        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        static var body: ReducerCore.Reduce<Self.State, Self.Action> {
          ReducerCore.Reduce(
            ReducerCore.EmptyReducer<Self.State, Self.Action>()
            .ifCaseLet(\Self.State.Cases.edit, action: \Self.Action.Cases.edit) {
              SyncUpForm()
            }
          )
        }
      }

      extension Destination: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }
      """#,
      macros: Self.macros)
  }

  @Test func aCaseBuildsItsReducerWithItsDefaultValue() {
    assertExpansion(
      """
      @Reducer
      enum Destination {
        case timeline(Timeline)
        case meeting(Meeting = Meeting(context: .sheet))
        case nested(Nested.Feature)
      }
      """,
      expandsTo: #"""
      enum Destination {
        case timeline(Timeline)
        case meeting(Meeting = Meeting(context: .sheet))
        case nested(Nested.Feature)

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        enum State: ReducerCore.CaseReducerState {
          typealias StateReducer = Destination
          case timeline(Timeline.State)
          case meeting(Meeting.State)
          case nested(Nested.Feature.State)
        }

        @CasePathable
        enum Action {
          case timeline(Timeline.Action)
          case meeting(Meeting.Action)
          case nested(Nested.Feature.Action)
        }

        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        static var body: ReducerCore.Reduce<Self.State, Self.Action> {
          ReducerCore.Reduce(
            ReducerCore.EmptyReducer<Self.State, Self.Action>()
            .ifCaseLet(\Self.State.Cases.timeline, action: \Self.Action.Cases.timeline) {
              Timeline()
            }
            .ifCaseLet(\Self.State.Cases.meeting, action: \Self.Action.Cases.meeting) {
              Meeting(context: .sheet)
            }
            .ifCaseLet(\Self.State.Cases.nested, action: \Self.Action.Cases.nested) {
              Nested.Feature()
            }
          )
        }
      }

      extension Destination: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }
      """#,
      macros: Self.macros)
  }

  @Test func aPublicEnumHasPublicMembers() {
    assertExpansion(
      """
      @Reducer
      public enum Destination {
        case counter(Counter)
      }
      """,
      expandsTo: #"""
      public enum Destination {
        case counter(Counter)

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        public enum State: ReducerCore.CaseReducerState {
          public typealias StateReducer = Destination
          case counter(Counter.State)
        }

        @CasePathable
        public enum Action {
          case counter(Counter.Action)
        }

        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        public static var body: ReducerCore.Reduce<Self.State, Self.Action> {
          ReducerCore.Reduce(
            ReducerCore.EmptyReducer<Self.State, Self.Action>()
            .ifCaseLet(\Self.State.Cases.counter, action: \Self.Action.Cases.counter) {
              Counter()
            }
          )
        }
      }

      extension Destination: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }
      """#,
      macros: Self.macros)
  }

  /// TicTacToe's root: a `public` enum reducer whose static `body` is its own. The body gets
  /// its builder, and only `State` and `Action` are generated, `public` as the enum.
  @Test func aPublicEnumWithABodyOfItsOwn() {
    assertExpansion(
      #"""
      @Reducer
      public enum TicTacToe {
        case login(Login)
        case newGame(NewGame)

        public static var body: some ReducerOf<Self> {
          Reduce { state, action in
            .none
          }
          .ifCaseLet(\.login, action: \.login) {
            Login()
          }
        }
      }
      """#,
      expandsTo: #"""
      public enum TicTacToe {
        case login(Login)
        case newGame(NewGame)
        @ReducerCore.ReducerBuilder<Self.State, Self.Action>

        public static var body: some ReducerOf<Self> {
          Reduce { state, action in
            .none
          }
          .ifCaseLet(\.login, action: \.login) {
            Login()
          }
        }

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        public enum State: ReducerCore.CaseReducerState {
          public typealias StateReducer = TicTacToe
          case login(Login.State)
          case newGame(NewGame.State)
        }

        @CasePathable
        public enum Action {
          case login(Login.Action)
          case newGame(NewGame.Action)
        }
      }

      extension TicTacToe: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }
      """#,
      macros: Self.macros)
  }

  /// The access levels of a reducer, and what they give the members it generates: `public`
  /// and `package` carry over; `internal`, `fileprivate` and `private` give none, so that the
  /// members are as visible as the type.
  static let accessLevels: [(declared: String, members: String)] = [
    ("private ", ""), ("fileprivate ", ""), ("", ""), ("package ", "package "), ("public ", "public "),
  ]

  @Test(arguments: accessLevels)
  func theMembersOfAStructAreAsVisibleAsIt(access: (declared: String, members: String)) {
    assertExpansion(
      """
      @Reducer
      \(access.declared)struct Feature {
      }
      """,
      expandsTo: """
      \(access.declared)struct Feature {

        @ObservableState
        \(access.members)struct State: Codable, Equatable, Hashable, Sendable {
          \(access.members)init() {
          }
        }

        \(access.members)enum Action: Equatable, Hashable, Sendable {
        }

        \(access.members)let body = ReducerCore.EmptyReducer<State, Action>()
      }

      extension Feature: ReducerCore.Reducer {
      }
      """,
      macros: Self.macros)
  }

  @Test(arguments: accessLevels)
  func theMembersOfAnEnumAreAsVisibleAsIt(access: (declared: String, members: String)) {
    assertExpansion(
      """
      @Reducer
      \(access.declared)enum Destination {
        case counter(Counter)
      }
      """,
      expandsTo: #"""
      \#(access.declared)enum Destination {
        case counter(Counter)

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        \#(access.members)enum State: ReducerCore.CaseReducerState {
          \#(access.members)typealias StateReducer = Destination
          case counter(Counter.State)
        }

        @CasePathable
        \#(access.members)enum Action {
          case counter(Counter.Action)
        }

        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        \#(access.members)static var body: ReducerCore.Reduce<Self.State, Self.Action> {
          ReducerCore.Reduce(
            ReducerCore.EmptyReducer<Self.State, Self.Action>()
            .ifCaseLet(\Self.State.Cases.counter, action: \Self.Action.Cases.counter) {
              Counter()
            }
          )
        }
      }

      extension Destination: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }
      """#,
      macros: Self.macros)
  }

  /// CaseStudies' onboarding: reducers nested in a `private` one. Their conformances are
  /// extensions of the nested types; their members carry no modifier.
  @Test func reducersNestedInAPrivateReducer() {
    assertExpansion(
      """
      private struct SignUpFeature {
        @Reducer
        enum Path {
          case basics(BasicsFeature)
        }
        @Reducer
        struct Step {
        }
      }
      """,
      expandsTo: #"""
      private struct SignUpFeature {
        enum Path {
          case basics(BasicsFeature)

          @CasePathable
          @dynamicMemberLookup
          @ObservableState
          enum State: ReducerCore.CaseReducerState {
            typealias StateReducer = Path
            case basics(BasicsFeature.State)
          }

          @CasePathable
          enum Action {
            case basics(BasicsFeature.Action)
          }

          @ReducerCore.ReducerBuilder<Self.State, Self.Action>
          static var body: ReducerCore.Reduce<Self.State, Self.Action> {
            ReducerCore.Reduce(
              ReducerCore.EmptyReducer<Self.State, Self.Action>()
              .ifCaseLet(\Self.State.Cases.basics, action: \Self.Action.Cases.basics) {
                BasicsFeature()
              }
            )
          }
        }
        struct Step {

          @ObservableState
          struct State: Codable, Equatable, Hashable, Sendable {
            init() {
            }
          }

          enum Action: Equatable, Hashable, Sendable {
          }

          let body = ReducerCore.EmptyReducer<State, Action>()
        }
      }

      extension SignUpFeature.Path: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }

      extension SignUpFeature.Step: ReducerCore.Reducer {
      }
      """#,
      macros: Self.macros)
  }

  @Test func anEmptyEnum() {
    assertExpansion(
      """
      @Reducer
      enum Destination {}
      """,
      expandsTo: """
      enum Destination {

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        enum State: ReducerCore.CaseReducerState {
          typealias StateReducer = Destination

        }

        @CasePathable
        enum Action {

        }

        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        static var body: ReducerCore.EmptyReducer<Self.State, Self.Action> {
          ReducerCore.EmptyReducer<Self.State, Self.Action>()
        }
      }

      extension Destination: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }
      """,
      macros: Self.macros)
  }

  @Test func casesUnderIfConfig() {
    assertExpansion(
      """
      @Reducer
      enum Destination {
        case counter(Counter)
        #if DEBUG
        case debug(DebugMenu)
        #elseif TESTING
        case empty
        #else
        #endif
      }
      """,
      expandsTo: #"""
      enum Destination {
        case counter(Counter)
        #if DEBUG
        case debug(DebugMenu)
        #elseif TESTING
        case empty
        #else
        #endif

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        enum State: ReducerCore.CaseReducerState {
          typealias StateReducer = Destination
          case counter(Counter.State)
          #if DEBUG
          case debug(DebugMenu.State)
          #elseif TESTING
          case empty
          #else
          #endif
        }

        @CasePathable
        enum Action {
          case counter(Counter.Action)
          #if DEBUG
          case debug(DebugMenu.Action)
          #elseif TESTING
          case empty(Swift.Never)
          #else
          #endif
        }

        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        static var body: ReducerCore.Reduce<Self.State, Self.Action> {
          ReducerCore.Reduce(
            ReducerCore.EmptyReducer<Self.State, Self.Action>()
            .ifCaseLet(\Self.State.Cases.counter, action: \Self.Action.Cases.counter) {
              Counter()
            }
            #if DEBUG
            .ifCaseLet(\Self.State.Cases.debug, action: \Self.Action.Cases.debug) {
              DebugMenu()
            }
            #elseif TESTING
            #else
            #endif
          )
        }
      }

      extension Destination: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }
      """#,
      macros: Self.macros)
  }

  @Test func theDeprecatedArgumentsAddConformances() {
    assertExpansion(
      """
      @Reducer(state: .equatable, .hashable, action: .equatable)
      enum Destination {
        case counter(Counter)
      }
      """,
      expandsTo: #"""
      enum Destination {
        case counter(Counter)

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        enum State: ReducerCore.CaseReducerState, Equatable, Hashable {
          typealias StateReducer = Destination
          case counter(Counter.State)
        }

        @CasePathable
        enum Action: Equatable {
          case counter(Counter.Action)
        }

        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        static var body: ReducerCore.Reduce<Self.State, Self.Action> {
          ReducerCore.Reduce(
            ReducerCore.EmptyReducer<Self.State, Self.Action>()
            .ifCaseLet(\Self.State.Cases.counter, action: \Self.Action.Cases.counter) {
              Counter()
            }
          )
        }
      }

      extension Destination: ReducerCore.CaseReducer, ReducerCore.Reducer {
      }
      """#,
      macros: Self.macros)
  }

  // MARK: Diagnostics

  @Test func aReduceMethodIsDeprecated() {
    assertExpansion(
      """
      @Reducer
      struct Feature {
        struct State {
        }
        enum Action {
        }
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
          .none
        }
      }
      """,
      expandsTo: """
      struct Feature {
        struct State {
        }
        @CasePathable
        enum Action {
        }
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
          .none
        }
      }

      extension Feature: ReducerCore.Reducer {
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'reduce(into:action:)' is deprecated: Reducers should be defined using the 'body' property and a 'Reduce'.", line: 7, column: 8, severity: .warning, fixIts: [FixItSpec(message: "Use 'body' instead")]),
      ],
      fixed: """
      @Reducer
      struct Feature {
        struct State {
        }
        enum Action {
        }
        var body: some Reducer<State, Action> {
      Reduce { state, action in
      .none
      }
      }
      }
      """,
      macros: Self.macros)
  }

  @Test func argumentsOnAStructAreAnError() {
    assertExpansion(
      """
      @Reducer(state: .equatable)
      struct Feature {
        struct State {}
        enum Action {}
        var body: some ReducerOf<Self> { EmptyReducer() }
      }
      """,
      expandsTo: """
      struct Feature {
        struct State {}
        @CasePathable
        enum Action {}
        @ReducerCore.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> { EmptyReducer() }
      }

      extension Feature: ReducerCore.Reducer {
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "Argument passed to call that takes no arguments when applied to a struct", line: 1, column: 10, fixIts: [FixItSpec(message: "Remove '(state: .equatable)'")]),
      ],
      fixed: """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        var body: some ReducerOf<Self> { EmptyReducer() }
      }
      """,
      macros: Self.macros)
  }

  @Test func aClassIsNotAReducer() {
    assertExpansion(
      """
      @Reducer
      class Feature {
      }
      """,
      expandsTo: """
      class Feature {
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@Reducer' can only be applied to a struct or an enum, not to a class", line: 1, column: 1, fixIts: [FixItSpec(message: "Replace 'class' with 'struct'")]),
      ],
      fixed: """
      @Reducer
      struct Feature {
      }
      """,
      macros: Self.macros)
  }

  @Test func aProtocolIsNotAReducer() {
    assertExpansion(
      """
      @Reducer
      protocol Feature {
      }
      """,
      expandsTo: """
      protocol Feature {
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@Reducer' can only be applied to a struct or an enum, not to a protocol", line: 1, column: 1),
      ],
      macros: Self.macros)
  }
}
