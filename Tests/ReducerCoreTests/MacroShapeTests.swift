import Foundation
import ReducerCore
import Testing

// Features in the shapes that TCA's examples give the macros: every access level, types
// nested in private ones, stored properties the macros cannot type, `BindingReducer(action:)`
// on a view action, and a public enum reducer with a body of its own. That this file compiles
// is half of what it tests; the tests at its end run the features (the private ones are
// visible in this file only).

// MARK: - Access levels

/// A sign-up flow as CaseStudies' shared-state onboarding writes it: a `private` reducer whose
/// nested state, path and children are as private as it is.
@Reducer
private struct PrivateSignUp {
  @Reducer
  enum Path {
    case basics(PrivateBasics)
    case summary(PrivateSummary)
  }
  @ObservableState
  struct State: Equatable, Codable {
    var path = StackState<Path.State>()
    var email = ""
  }
  enum Action: BindableAction {
    case binding(BindingAction<State>)
    case path(StackActionOf<Path>)
  }
  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .path(.element(id: _, action: .basics(.nextButtonTapped))):
        state.path.append(.summary(PrivateSummary.State(email: state.email)))
        return .none
      case .binding, .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path)
  }
}

extension PrivateSignUp.Path.State: Equatable, Codable {}

@Reducer
private struct PrivateBasics {
  @ObservableState
  struct State: Equatable, Codable {
    var email = ""
  }
  enum Action: BindableAction {
    case binding(BindingAction<State>)
    case nextButtonTapped
  }
  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

@Reducer
private struct PrivateSummary {
  @Reducer
  enum Destination {
    case alert(AlertState<Never>)
    case basics(PrivateBasics)
  }
  @ObservableState
  struct State: Equatable, Codable {
    var email: String
    @Presents var destination: Destination.State?
  }
  enum Action {
    case destination(PresentationAction<Destination.Action>)
    case editButtonTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editButtonTapped:
        state.destination = .basics(PrivateBasics.State(email: state.email))
        return .none
      case .destination:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

extension PrivateSummary.Destination.State: Equatable, Codable {}

/// A `fileprivate` feature with a `fileprivate` model nested in it.
@Reducer
fileprivate struct FileprivateCounter {
  @CodableDefaults
  fileprivate struct Settings: Codable, Equatable {
    var step = 1
  }
  @ObservableState
  fileprivate struct State: Equatable, Codable {
    var count = 0
    var settings = Settings()
  }
  fileprivate enum Action: BindableAction {
    case binding(BindingAction<State>)
    case incrementButtonTapped
  }
  fileprivate var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      if case .incrementButtonTapped = action {
        state.count += state.settings.step
      }
      return .none
    }
  }
}

/// A `private` model nested in an internal type, and one nested in a `private` type.
struct Catalog {
  @CodableDefaults
  fileprivate struct Entry: Codable, Equatable {
    var name: String
    var stock = 0
  }
  @ObservableState
  fileprivate struct Filter: Equatable, Codable {
    var query = ""
  }
}

private enum Shelf {
  @CodableDefaults
  struct Item: Codable, Equatable {
    var label = "?"
  }
}

/// A `package` feature with a `package` enum destination.
@Reducer
package struct PackageEditor {
  @Reducer
  package enum Destination {
    case basics(PackageBasics)
  }
  @ObservableState
  package struct State: Equatable, Codable {
    package var title = ""
    @Presents package var destination: Destination.State?
    package init(title: String = "") { self.title = title }
  }
  package enum Action: BindableAction {
    case binding(BindingAction<State>)
    case destination(PresentationAction<Destination.Action>)
  }
  package var body: some ReducerOf<Self> {
    BindingReducer()
      .ifLet(\.$destination, action: \.destination)
  }
}

extension PackageEditor.Destination.State: Equatable, Codable {}

/// The child of ``PackageEditor``, as `package` as its parent.
@Reducer
package struct PackageBasics {
  @ObservableState
  package struct State: Equatable, Codable {
    package var email = ""
  }
  package enum Action: BindableAction {
    case binding(BindingAction<State>)
  }
  package var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

// MARK: - TicTacToe's shapes

/// A two-factor form as TicTacToe's: its view actions carry the bindings, which
/// `BindingReducer(action: \.view)` applies.
@Reducer
public struct PublicTwoFactor: Sendable {
  @ObservableState
  public struct State: Equatable, Codable {
    public var code = ""
    public var isFormValid = false
    public let token: String
    public init(token: String) {
      self.token = token
    }
  }

  public enum Action: Sendable, ViewAction {
    case submitted(String)
    case view(View)

    @CasePathable
    public enum View: BindableAction, Sendable {
      case binding(BindingAction<State>)
      case submitButtonTapped
    }
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      switch action {
      case .view(.binding):
        state.isFormValid = state.code.count >= 4
        return .none
      case .view(.submitButtonTapped):
        return .send(.submitted(state.code))
      case .submitted:
        return .none
      }
    }
  }
}

/// A login screen for ``PublicGame``.
@Reducer
public struct PublicLogin: Sendable {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var email = ""
    public init(email: String = "") { self.email = email }
  }
  public enum Action: BindableAction, Sendable {
    case binding(BindingAction<State>)
    case loginButtonTapped
  }
  public init() {}
  public var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

/// A new-game screen for ``PublicGame``.
@Reducer
public struct PublicNewGame: Sendable {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var players = 2
    public init(players: Int = 2) { self.players = players }
  }
  public enum Action: Sendable {
    case logoutButtonTapped
    case morePlayersButtonTapped
  }
  public init() {}
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .morePlayersButtonTapped = action {
        state.players += 1
      }
      return .none
    }
  }
}

/// TicTacToe's root: a `public` enum reducer with a static `body` of its own, whose generated
/// `State` gets its conformances in an extension.
@Reducer
public enum PublicGame {
  case login(PublicLogin)
  case newGame(PublicNewGame)

  public static var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .login(.loginButtonTapped):
        state = .newGame(PublicNewGame.State())
        return .none
      case .newGame(.logoutButtonTapped):
        state = .login(PublicLogin.State())
        return .none
      case .login, .newGame:
        return .none
      }
    }
    .ifCaseLet(\.login, action: \.login) {
      PublicLogin()
    }
    .ifCaseLet(\.newGame, action: \.newGame) {
      PublicNewGame()
    }
  }
}

extension PublicGame.State: Codable, Equatable, Sendable {}

// MARK: - Stored properties the macros cannot see through

/// A property wrapper whose value can be set, with an argument.
@propertyWrapper
struct Clamped: Equatable, Sendable {
  private var value: Int
  let range: ClosedRange<Int>

  init(wrappedValue: Int, _ range: ClosedRange<Int>) {
    self.range = range
    self.value = min(max(wrappedValue, range.lowerBound), range.upperBound)
  }

  var wrappedValue: Int {
    get { value }
    set { value = min(max(newValue, range.lowerBound), range.upperBound) }
  }
}

/// A property wrapper whose value cannot be set, which its argument initializes: the shape of
/// swift-sharing's `@SharedReader(.key) var value`.
@propertyWrapper
struct Constant<Value: Equatable & Sendable>: Equatable, Sendable {
  let wrappedValue: Value

  init(_ value: Value) {
    self.wrappedValue = value
  }
}

/// A state with every kind of stored property TCA's states have: a `let`, a `private(set)`, a
/// `lazy var`, a property wrapper whose value can be set, one whose value cannot, and one that
/// its attribute initializes without a type.
@ObservableState
struct Gauge: Equatable, Codable {
  let id: Int
  var title = ""
  private(set) var total = 0
  @Clamped(0...10) var level = 5
  @Constant(3) var limit: Int
  @Constant("kg") var unit
  lazy var cache = 0
}

/// Counts the initial values that ``Stamped`` makes.
enum Stamp {
  nonisolated(unsafe) static var made = 0

  static func make() -> Int {
    made += 1
    return made * 100
  }
}

/// A model whose initial values have an effect: decoding makes each once, as any initializer
/// of the struct does.
@CodableDefaults
struct Stamped: Codable, Equatable {
  var first = Stamp.make()
  var second = Stamp.make()
}

// MARK: - Tests

@MainActor
@Suite struct MacroShapeTests {
  @Test func bindingReducerAppliesTheBindingsOfAViewAction() async {
    let store = TestStore(initialState: PublicTwoFactor.State(token: "deadbeef")) {
      PublicTwoFactor()
    }
    await store.send(.view(.binding(.set(\.code, "12")))) {
      $0.code = "12"
    }
    await store.send(\.view.binding.code, "1234") {
      $0.code = "1234"
      $0.isFormValid = true
    }
    await store.send(.view(.submitButtonTapped))
    await store.receive(\.submitted, "1234")
  }

  @Test func aPublicEnumReducerWithABodyOfItsOwn() async throws {
    let store = TestStore(initialState: PublicGame.State.login(PublicLogin.State())) {
      PublicGame.body
    }
    await store.send(.login(.binding(.set(\.email, "blob@pointfree.co")))) {
      $0.modify(\.login) { $0.email = "blob@pointfree.co" }
    }
    await store.send(.login(.loginButtonTapped)) {
      $0 = .newGame(PublicNewGame.State())
    }
    await store.send(.newGame(.morePlayersButtonTapped)) {
      $0.modify(\.newGame) { $0.players = 3 }
    }
    await store.send(.newGame(.logoutButtonTapped)) {
      $0 = .login(PublicLogin.State())
    }
    let encoded = try JSONEncoder().encode(PublicGame.State.newGame(PublicNewGame.State(players: 4)))
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"newGame":{"_0":{"players":4}}}"#)
    #expect(try JSONDecoder().decode(PublicGame.State.self, from: encoded) == .newGame(PublicNewGame.State(players: 4)))
  }

  @Test func privateFeaturesAndTheirNestedTypes() async throws {
    let store = TestStore(initialState: PrivateSignUp.State()) { PrivateSignUp() }
    await store.send(.binding(.set(\.email, "blob@pointfree.co"))) {
      $0.email = "blob@pointfree.co"
    }
    await store.send(.path(.push(id: 0, state: .basics(PrivateBasics.State())))) {
      $0.path[id: 0] = .basics(PrivateBasics.State())
    }
    await store.send(.path(.element(id: 0, action: .basics(.nextButtonTapped)))) {
      $0.path[id: 1] = .summary(PrivateSummary.State(email: "blob@pointfree.co"))
    }
    await store.send(.path(.element(id: 1, action: .summary(.editButtonTapped)))) {
      $0.path[id: 1, case: \.summary]?.destination = .basics(PrivateBasics.State(email: "blob@pointfree.co"))
    }
    #expect(PrivateSignUp.State.bindableFields.map(\.name) == ["path", "email"])
    #expect(PrivateSummary.State.bindableFields.map(\.name) == ["email", "destination"])
    let decoded = try JSONDecoder().decode(PrivateSummary.State.self, from: Data(#"{"email":"a"}"#.utf8))
    #expect(decoded == PrivateSummary.State(email: "a"))
  }

  @Test func fileprivateAndPackageFeatures() async throws {
    let counter = TestStore(initialState: FileprivateCounter.State()) { FileprivateCounter() }
    await counter.send(.binding(.set(\.settings, FileprivateCounter.Settings(step: 5)))) {
      $0.settings.step = 5
    }
    await counter.send(.incrementButtonTapped) {
      $0.count = 5
    }
    let editor = TestStore(initialState: PackageEditor.State()) { PackageEditor() }
    await editor.send(\.binding.title, "Draft") {
      $0.title = "Draft"
    }
    #expect(PackageEditor.State.bindableFields.map(\.name) == ["title", "destination"])

    let decoder = JSONDecoder()
    #expect(try decoder.decode(FileprivateCounter.State.self, from: Data("{}".utf8)) == FileprivateCounter.State())
    #expect(try decoder.decode(Catalog.Entry.self, from: Data(#"{"name":"Tea"}"#.utf8)) == Catalog.Entry(name: "Tea"))
    #expect(try decoder.decode(Catalog.Filter.self, from: Data("{}".utf8)) == Catalog.Filter())
    #expect(Catalog.Filter.bindableFields.map(\.name) == ["query"])
    #expect(try decoder.decode(Shelf.Item.self, from: Data("{}".utf8)) == Shelf.Item(label: "?"))
  }

  @Test func anInitialValueIsMadeOnceAndKeptWhenItsKeyIsMissing() throws {
    Stamp.made = 0
    let stamped = try JSONDecoder().decode(Stamped.self, from: Data(#"{"first":1}"#.utf8))
    #expect(Stamp.made == 2)
    #expect(stamped == Stamped(first: 1, second: 200))
  }

  @Test func onlyPropertiesWhoseKeyPathsAreWritableAreFields() throws {
    #expect(Gauge.bindableFields.map(\.name) == ["title", "total", "level"])
    do {
      _ = try JSONDecoder().decode(BindingAction<Gauge>.self, from: Data(#"{"limit":4}"#.utf8))
      Issue.record("decoded a binding of a property that cannot be set")
    } catch DecodingError.keyNotFound(_, let context) {
      #expect(
        context.debugDescription
          == #""limit" is not a bindable field of Gauge; the bindable fields are title, total, level."#)
    }
    var gauge = Gauge(id: 1)
    let binding = try JSONDecoder().decode(BindingAction<Gauge>.self, from: Data(#"{"level":20}"#.utf8))
    binding.apply(to: &gauge)
    #expect(gauge.level == 10)
  }

  @Test func propertyWrappersThatTheirAttributesInitializeAreNotCoded() throws {
    let decoder = JSONDecoder()
    var gauge = try decoder.decode(Gauge.self, from: Data(#"{"id":1}"#.utf8))
    #expect(gauge == Gauge(id: 1))
    #expect(gauge.limit == 3)
    #expect(gauge.unit == "kg")
    #expect(gauge.cache == 0)
    gauge = try decoder.decode(Gauge.self, from: Data(#"{"id":2,"title":"Flour","total":4,"level":12}"#.utf8))
    #expect(gauge.title == "Flour")
    #expect(gauge.total == 4)
    #expect(gauge.level == 10)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(Gauge(id: 1)), as: UTF8.self)
        == #"{"id":1,"level":5,"title":"","total":0}"#)
  }
}
