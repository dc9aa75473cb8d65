import Foundation
import ReducerCore
import SpecYAML
import Testing

// MARK: - Features written with the macros, as a TCA feature is

/// A list of items, each edited through bindings, with a sheet that edits one and an alert
/// that clears the bought ones: `@Reducer`, `@ObservableState`, `@Presents` and an enum
/// destination.
@Reducer
struct ShoppingList {
  @ObservableState
  struct State: Equatable, Codable {
    var items: IdentifiedArrayOf<ShoppingItem.State> = []
    var title = "Groceries"
    var note: String?
    @Presents var destination: Destination.State?
  }

  enum Action: BindableAction, Equatable, Codable {
    case addButtonTapped
    case binding(BindingAction<State>)
    case clearBoughtButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case editButtonTapped(id: UUID)
    case items(IdentifiedActionOf<ShoppingItem>)

    @CasePathable
    enum Alert: Equatable, Codable {
      case confirmClear
    }
  }

  @Reducer
  enum Destination {
    case edit(ShoppingItem)
    case alert(AlertState<ShoppingList.Action.Alert>)
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.items.append(ShoppingItem.State(id: uuid()))
        return .none
      case .clearBoughtButtonTapped:
        state.destination = .alert(
          AlertState(
            title: "Clear the bought items?",
            buttons: [ButtonState(label: "Clear", role: .destructive, action: .confirmClear)]))
        return .none
      case .destination(.presented(.alert(.confirmClear))):
        state.items.removeAll(where: \.isBought)
        return .none
      case .editButtonTapped(let id):
        guard let item = state.items[id: id] else { return .none }
        state.destination = .edit(item)
        return .none
      case .binding, .destination, .items:
        return .none
      }
    }
    .forEach(\.items, action: \.items) { ShoppingItem() }
    .ifLet(\.$destination, action: \.destination)
  }
}

extension ShoppingList.Destination.State: Equatable, Codable {}
extension ShoppingList.Destination.Action: Equatable, Codable {}

/// One item of ``ShoppingList``: its action is only its bindings, and `binding` has no
/// hand-written getter.
@Reducer
struct ShoppingItem {
  @ObservableState
  struct State: Equatable, Codable, Identifiable {
    let id: UUID
    var name = ""
    var quantity = 1
    var isBought = false
  }

  enum Action: BindableAction, Equatable, Codable {
    case binding(BindingAction<State>)
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

/// A page that presents a page of its own kind: a recursive `@Presents`.
@Reducer
struct Outline {
  @ObservableState
  struct State: Equatable, Codable {
    var depth = 0
    @Presents var child: State?
  }

  enum Action: Equatable {
    case child(PresentationAction<Action>)
    case pushButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .pushButtonTapped:
        state.child = State(depth: state.depth + 1)
        return .none
      case .child:
        return .none
      }
    }
    .ifLet(\.$child, action: \.child) { Outline() }
  }
}

/// A navigation stack of an enum reducer's screens, and a feature without a body.
@Reducer
struct Wizard {
  @Reducer
  enum Path {
    case item(ShoppingItem)
    case summary(Summary)
    @ReducerCaseIgnored
    case note(String)
  }

  @ObservableState
  struct State: Equatable {
    var path = StackState<Path.State>()
  }

  enum Action: Equatable {
    case path(StackActionOf<Path>)
    case showNote(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .path(.element(id: _, action: .summary(.doneButtonTapped))):
        state.path.removeAll()
        return .none
      case .showNote(let text):
        state.path.append(.note(text))
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path)
  }
}

extension Wizard.Path.State: Equatable {}
extension Wizard.Path.Action: Equatable {}

/// The last screen of ``Wizard``.
@Reducer
struct Summary {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }

  enum Action: Equatable {
    case doneButtonTapped
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
  }
}

/// A feature that is only its generated `State`, `Action` and `body`.
@Reducer
struct Placeholder {}

/// A plain model decoded with defaults.
@CodableDefaults
struct Recipe: Codable, Equatable {
  var name: String
  var servings = 2
  var tags: [String] = []
  var source: URL?
  let version = 1
}

/// A state with fields whose values are neither `Codable` nor `Equatable`.
@ObservableState
struct Canvas: Equatable {
  struct Color: Equatable {
    var red = 0
  }
  struct Stroke: Codable {
    var width = 1
  }
  var color = Color()
  var stroke = Stroke()
  var title = ""

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.color == rhs.color && lhs.title == rhs.title }
}

/// A state whose stored properties are not all visible outside the file.
@ObservableState
struct Ledger: Equatable, Codable {
  private(set) var total = 0
  private var entries: [Int] = []

  var count: Int { entries.count }

  mutating func add(_ amount: Int) {
    entries.append(amount)
    total += amount
  }
}

/// A state that lists no bindable fields.
struct Unlisted: Equatable {
  var name = ""
}

// MARK: - Tests

/// Features written with `@Reducer`, `@ObservableState`, `@Presents`, `@CodableDefaults` and
/// enum reducers, run through `TestStore`, and the `Codable` forms the macros generate.
@MainActor
@Suite struct MacroFeatureTests {
  @Test func aListWithBindingsASheetAndAnAlert() async {
    let store = TestStore(initialState: ShoppingList.State()) {
      ShoppingList()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addButtonTapped) {
      $0.items = [ShoppingItem.State(id: UUID(0))]
    }
    await store.send(.items(.element(id: UUID(0), action: .binding(.set(\.name, "Milk"))))) {
      $0.items[id: UUID(0)]?.name = "Milk"
    }
    await store.send(\.binding.title, "Market") {
      $0.title = "Market"
    }
    await store.send(.editButtonTapped(id: UUID(0))) {
      $0.destination = .edit(ShoppingItem.State(id: UUID(0), name: "Milk"))
    }
    await store.send(\.destination.edit.binding.isBought, true) {
      $0.destination?.modify(\.edit) { $0.isBought = true }
    }
    await store.send(.destination(.presented(.edit(.binding(.set(\.quantity, 3)))))) {
      $0.$destination[case: \.edit]?.quantity = 3
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
    }
    await store.send(.items(.element(id: UUID(0), action: .binding(.set(\.isBought, true))))) {
      $0.items[id: UUID(0)]?.isBought = true
    }
    await store.send(.clearBoughtButtonTapped) {
      $0.destination = .alert(
        AlertState(
          title: "Clear the bought items?",
          buttons: [ButtonState(label: "Clear", role: .destructive, action: .confirmClear)]))
    }
    await store.send(.destination(.presented(.alert(.confirmClear)))) {
      $0.items = []
      $0.destination = nil
    }
  }

  @Test func aRecursivePresentation() async {
    let store = TestStore(initialState: Outline.State()) { Outline() }
    await store.send(.pushButtonTapped) {
      $0.child = Outline.State(depth: 1)
    }
    await store.send(.child(.presented(.pushButtonTapped))) {
      $0.child?.child = Outline.State(depth: 2)
    }
    await store.send(.child(.presented(.child(.dismiss)))) {
      $0.child?.child = nil
    }
    let copy = store.state
    var changed = copy
    changed.child?.depth = 5
    #expect(copy.child?.depth == 1)
    #expect(changed.child?.depth == 5)
  }

  @Test func aStackOfAnEnumReducersScreens() async {
    let store = TestStore(initialState: Wizard.State()) { Wizard() }
    await store.send(.path(.push(id: 0, state: .item(ShoppingItem.State(id: UUID(0)))))) {
      $0.path[id: 0] = .item(ShoppingItem.State(id: UUID(0)))
    }
    await store.send(.path(.element(id: 0, action: .item(.binding(.set(\.name, "Eggs")))))) {
      $0.path[id: 0, case: \.item]?.name = "Eggs"
    }
    await store.send(.showNote("Remember the bags")) {
      $0.path[id: 1] = .note("Remember the bags")
    }
    await store.send(.path(.push(id: 2, state: .summary(Summary.State())))) {
      $0.path[id: 2] = .summary(Summary.State())
    }
    await store.send(.path(.element(id: 2, action: .summary(.doneButtonTapped)))) {
      $0.path = StackState()
    }
  }

  @Test func aFeatureWithoutStateActionOrBody() async throws {
    let store = TestStore(initialState: Placeholder.State()) { Placeholder() }
    #expect(store.state == Placeholder.State())
    let data = try JSONEncoder().encode(Placeholder.State())
    #expect(String(decoding: data, as: UTF8.self) == "{}")
  }

  @Test func theGeneratedTypesConform() {
    #expect(ShoppingList.Destination.State.StateReducer.self == ShoppingList.Destination.self)
    #expect((ShoppingList.Destination.self as Any.Type) is any CaseReducer.Type)
    #expect((ShoppingList.State.self as Any.Type) is any ObservableState.Type)
    #expect((ShoppingList.Destination.State.self as Any.Type) is any ObservableState.Type)
    #expect(ShoppingItem.State.bindableFields.map(\.name) == ["name", "quantity", "isBought"])
    #expect(ShoppingList.State.bindableFields.map(\.name) == ["items", "title", "note", "destination"])
  }

  // MARK: Decoding with defaults

  @Test func aStateDecodesWithItsDefaultsForMissingFields() throws {
    let decoder = JSONDecoder()
    #expect(try decoder.decode(ShoppingList.State.self, from: Data("{}".utf8)) == ShoppingList.State())
    let state = try decoder.decode(
      ShoppingList.State.self,
      from: Data(
        #"{"items":[{"id":"00000000-0000-0000-0000-000000000000","name":"Milk"}],"destination":{"alert":{"_0":{"title":"Sure?"}}}}"#
          .utf8))
    #expect(
      state
        == ShoppingList.State(
          items: [ShoppingItem.State(id: UUID(0), name: "Milk")],
          destination: .alert(AlertState(title: "Sure?"))))
  }

  @Test func aRequiredFieldMustBeThere() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(ShoppingItem.State.self, from: Data(#"{"name":"Milk"}"#.utf8))
    }
  }

  @Test func aNullOptionalIsNilAndAPresentedChildEncodesAsNull() throws {
    let decoder = JSONDecoder()
    let state = try decoder.decode(ShoppingList.State.self, from: Data(#"{"note":null,"destination":null}"#.utf8))
    #expect(state.note == nil)
    #expect(state.destination == nil)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(ShoppingList.State(title: "Market"))
    #expect(String(decoding: data, as: UTF8.self) == #"{"destination":null,"items":[],"title":"Market"}"#)
    let recursive = try encoder.encode(Outline.State(depth: 0, child: Outline.State(depth: 1)))
    #expect(
      String(decoding: recursive, as: UTF8.self) == #"{"child":{"child":null,"depth":1},"depth":0}"#)
    #expect(try decoder.decode(Outline.State.self, from: recursive) == Outline.State(child: Outline.State(depth: 1)))
  }

  /// A model whose optional has an initial value other than `nil`.
  @CodableDefaults
  struct Reminder: Codable, Equatable {
    var title = "Call"
    var note: String? = "after lunch"
  }

  @Test func anOptionalWithAnInitialValueKeepsItWhenMissingAndIsNilWhenNull() throws {
    let decoder = JSONDecoder()
    #expect(try decoder.decode(Reminder.self, from: Data("{}".utf8)) == Reminder())
    #expect(try decoder.decode(Reminder.self, from: Data(#"{"note":null}"#.utf8)) == Reminder(note: nil))
    #expect(try decoder.decode(Reminder.self, from: Data(#"{"note":"now"}"#.utf8)) == Reminder(note: "now"))
  }

  @Test func theYAMLDecoderStillRejectsUnknownKeys() throws {
    let decoded = try YAMLDecoder().decode(ShoppingItem.State.self, from: "id: 0\nquantity: 3")
    #expect(decoded == ShoppingItem.State(id: UUID(0), quantity: 3))
    do {
      _ = try YAMLDecoder().decode(ShoppingItem.State.self, from: "id: 0\nquantiy: 3")
      Issue.record("decoded an unknown key")
    } catch {
      #expect(
        "\(error)" == "<string>:2:1: error: unknown key `quantiy` in ShoppingItem.State; did you mean `quantity`?")
    }
  }

  @Test func privatePropertiesAreFieldsAndAreCoded() throws {
    #expect(Ledger.bindableFields.map(\.name) == ["total", "entries"])
    var ledger = try JSONDecoder().decode(Ledger.self, from: Data(#"{"total":3,"entries":[1,2]}"#.utf8))
    #expect(ledger.total == 3)
    #expect(ledger.count == 2)
    ledger.add(4)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(String(decoding: try encoder.encode(ledger), as: UTF8.self) == #"{"entries":[1,2,4],"total":7}"#)
    let binding = try JSONDecoder().decode(BindingAction<Ledger>.self, from: Data(#"{"total":10}"#.utf8))
    binding.apply(to: &ledger)
    #expect(ledger.total == 10)
  }

  @Test func aPlainModelDecodesWithDefaults() throws {
    let decoder = JSONDecoder()
    #expect(try decoder.decode(Recipe.self, from: Data(#"{"name":"Soup"}"#.utf8)) == Recipe(name: "Soup"))
    #expect(
      try decoder.decode(Recipe.self, from: Data(#"{"name":"Soup","servings":4,"tags":["hot"]}"#.utf8))
        == Recipe(name: "Soup", servings: 4, tags: ["hot"]))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(Recipe(name: "Soup")), as: UTF8.self)
        == #"{"name":"Soup","servings":2,"tags":[]}"#)
  }

  // MARK: Binding actions

  @Test func aBindingActionDecodesByItsFieldName() throws {
    let decoder = JSONDecoder()
    let action = try decoder.decode(BindingAction<ShoppingItem.State>.self, from: Data(#"{ "isBought": true }"#.utf8))
    #expect(action == .set(\.isBought, true))
    let wrapped = try decoder.decode(
      ShoppingItem.Action.self, from: Data(#"{"binding":{"_0":{"quantity":2}}}"#.utf8))
    #expect(wrapped == .binding(.set(\.quantity, 2)))
    #expect(wrapped.binding == .set(\.quantity, 2))
    guard case .binding(\.quantity) = wrapped else {
      Issue.record("a binding action of quantity did not match its key path")
      return
    }
    if case .binding(\.isBought) = wrapped { Issue.record("a binding action of quantity matched isBought") }
    let encoded = try JSONEncoder().encode(ShoppingList.Action.binding(.set(\.title, "Market")))
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"binding":{"_0":{"title":"Market"}}}"#)
    #expect(BindingAction<ShoppingItem.State>.set(\.isBought, true).description == #".set(\.isBought, true)"#)
  }

  @Test func aFieldWhoseTypeIsNotCodableFailsWithItsName() throws {
    do {
      _ = try JSONDecoder().decode(BindingAction<Canvas>.self, from: Data(#"{"color":{"red":1}}"#.utf8))
      Issue.record("decoded a field that is not Decodable")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(
        context.debugDescription
          == #"The field "color" of Canvas is of type Color, which is not Decodable: its binding actions cannot be decoded."#
      )
    }
    do {
      _ = try JSONEncoder().encode(BindingAction<Canvas>.set(\.color, Canvas.Color(red: 1)))
      Issue.record("encoded a field that is not Encodable")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(
        context.debugDescription
          == #"The field "color" of Canvas is of type Color, which is not Encodable: its binding actions cannot be encoded."#
      )
    }
    let title = try JSONDecoder().decode(BindingAction<Canvas>.self, from: Data(#"{"title":"Sky"}"#.utf8))
    #expect(title == .set(\.title, "Sky"))
  }

  @Test func aFieldWhoseTypeIsNotEquatableComparesByItsDump() throws {
    let decoder = JSONDecoder()
    let wide = try decoder.decode(BindingAction<Canvas>.self, from: Data(#"{"stroke":{"width":3}}"#.utf8))
    var state = Canvas()
    wide.apply(to: &state)
    #expect(state.stroke.width == 3)
    #expect(wide == (try decoder.decode(BindingAction<Canvas>.self, from: Data(#"{"stroke":{"width":3}}"#.utf8))))
    #expect(wide != (try decoder.decode(BindingAction<Canvas>.self, from: Data(#"{"stroke":{"width":1}}"#.utf8))))
    #expect(Canvas.bindableFields.map(\.name) == ["color", "stroke", "title"])
  }

  @Test func aStateWithoutFieldsSaysWhatToAdd() {
    do {
      _ = try JSONDecoder().decode(BindingAction<Unlisted>.self, from: Data(#"{"name":"x"}"#.utf8))
      Issue.record("decoded a binding of a state without fields")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(
        context.debugDescription
          == "Unlisted lists no bindable fields, so its binding actions cannot be decoded: mark the struct @ObservableState, which lists its stored properties."
      )
    } catch {
      Issue.record("unexpected error: \(error)")
    }
    do {
      _ = try JSONEncoder().encode(BindingAction<Unlisted>.set(\.name, "x"))
      Issue.record("encoded a binding of a state without fields")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(
        context.debugDescription
          == "Unlisted lists no bindable fields, so its binding actions cannot be encoded: mark the struct @ObservableState, which lists its stored properties."
      )
    } catch {
      Issue.record("unexpected error: \(error)")
    }
  }
}
