import ReducerCore

/// A shopping list: items added through a sheet, ticked off and deleted, and suggestions for
/// what the user types, fetched 300 ms after the last keystroke.
@Reducer
public struct ShoppingList {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public var items: IdentifiedArrayOf<Item> = []
    public var query = ""
    public var suggestions: [String] = []
    @Presents public var addItem: AddItem.State?

    public init() {}
  }

  public enum Action: BindableAction, Codable, Equatable, Sendable {
    case addItem(PresentationAction<AddItem.Action>)
    case binding(BindingAction<State>)
    case deleteButtonTapped(id: Item.ID)
    case itemTapped(id: Item.ID)
    case newItemButtonTapped
    case suggestionsResponse([String])
  }

  enum CancelID { case suggestions }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.groceryClient) var groceryClient
  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addItem(.presented(.delegate(.add(let name, let quantity)))):
        state.items.append(Item(id: uuid(), name: name, quantity: quantity))
        return .none

      case .addItem:
        return .none

      case .binding(\.query):
        guard !state.query.isEmpty else {
          state.suggestions = []
          return .cancel(id: CancelID.suggestions)
        }
        return .run { [query = state.query, groceryClient] send in
          await send(.suggestionsResponse(try await groceryClient.suggestions(query)))
        }
        .debounce(id: CancelID.suggestions, for: .milliseconds(300), clock: clock)

      case .binding:
        return .none

      case .deleteButtonTapped(let id):
        state.items.remove(id: id)
        return .none

      case .itemTapped(let id):
        state.items[id: id]?.isBought.toggle()
        return .none

      case .newItemButtonTapped:
        state.addItem = AddItem.State()
        return .none

      case .suggestionsResponse(let suggestions):
        state.suggestions = suggestions
        return .none
      }
    }
    .ifLet(\.$addItem, action: \.addItem) {
      AddItem()
    }
  }
}
