import ReducerCore

/// The sheet that adds an item: a name and a quantity, bound to their fields, then Add or
/// Cancel.
@Reducer
public struct AddItem {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public var name = ""
    public var quantity = 1

    public init(name: String = "", quantity: Int = 1) {
      self.name = name
      self.quantity = quantity
    }
  }

  public enum Action: BindableAction, Codable, Equatable, Sendable {
    case addButtonTapped
    case binding(BindingAction<State>)
    case cancelButtonTapped
    case delegate(Delegate)

    @CasePathable
    public enum Delegate: Codable, Equatable, Sendable {
      case add(name: String, quantity: Int)
    }
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        return .run { [name = state.name, quantity = state.quantity, dismiss] send in
          await send(.delegate(.add(name: name, quantity: quantity)))
          await dismiss()
        }
      case .cancelButtonTapped:
        return .run { [dismiss] _ in await dismiss() }
      case .binding, .delegate:
        return .none
      }
    }
  }
}
