import CasePaths
import Dependencies
import Foundation
import ReducerCore
import ReducerCoreSpecs

// A feature for the authoring commands' tests of ReducerCore's collections and navigation:
// an identified list of members with bindable fields (`IdentifiedArrayOf`, `forEach`,
// `BindingAction`), a sheet in an enum destination that saves through a delegate action and
// dismisses itself (`@Presents`, `ifLet`, `@Dependency(\.dismiss)`), an alert
// (`AlertState`), and a stack of details (`StackState`, `StackAction`).

/// A member of the roster: fields that specs bind by name.
public struct RosterMember: Reducer, Sendable {
  public struct State: Codable, Equatable, Identifiable, Sendable, BindableStateFields {
    public var id: UUID
    public var name: String
    public var isFavorite = false

    public init(id: UUID, name: String, isFavorite: Bool = false) {
      self.id = id
      self.name = name
      self.isFavorite = isFavorite
    }

    public static let bindableFields: [BindableField<Self>] = [
      .field("name", \.name),
      .field("isFavorite", \.isFavorite),
    ]
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable, BindableAction {
    case binding(BindingAction<State>)

    public var binding: BindingAction<State>? {
      if case .binding(let action) = self { return action }
      return nil
    }
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    BindingReducer()
  }
}

/// A sheet that adds a member: saves through a delegate action, then dismisses itself.
public struct AddMember: Reducer, Sendable {
  public struct State: Codable, Equatable, Sendable {
    public var member: RosterMember.State
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case cancelButtonTapped
    case delegate(Delegate)
    case saveButtonTapped
    case setName(String)

    @CasePathable
    public enum Delegate: Codable, Equatable, Sendable {
      case saveMember(RosterMember.State)
    }
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cancelButtonTapped:
      return .run { _ in await dismiss() }
    case .delegate:
      return .none
    case .saveButtonTapped:
      return .run { [member = state.member] send in
        await send(.delegate(.saveMember(member)))
        await dismiss()
      }
    case .setName(let name):
      state.member.name = name
      return .none
    }
  }
}

/// A member's screen on the stack.
public struct MemberDetail: Reducer, Sendable {
  public struct State: Codable, Equatable, Sendable {
    public var member: RosterMember.State
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case closeButtonTapped
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in await dismiss() }
  }
}

public struct Roster: Reducer, Sendable {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public var members: IdentifiedArrayOf<RosterMember.State> = []
    @Presents public var destination: Destination.State? = nil
    public var path = StackState<MemberDetail.State>()
    public init() {}
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case addButtonTapped
    case clearButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case members(IdentifiedActionOf<RosterMember>)
    case memberTapped(id: UUID)
    case path(StackActionOf<MemberDetail>)

    @CasePathable
    public enum Alert: Codable, Equatable, Sendable {
      case confirmClear
    }
  }

  public struct Destination: Reducer, Sendable {
    @CasePathable
    public enum State: Codable, Equatable, Sendable {
      case addMember(AddMember.State)
      case alert(AlertState<Roster.Action.Alert>)
    }

    @CasePathable
    public enum Action: Codable, Equatable, Sendable {
      case addMember(AddMember.Action)
      case alert(Roster.Action.Alert)
    }

    public init() {}

    public var body: some Reducer<State, Action> {
      Scope(state: \.addMember, action: \.addMember) { AddMember() }
    }
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .addMember(AddMember.State(member: RosterMember.State(id: uuid(), name: "")))
        return .none
      case .clearButtonTapped:
        state.destination = .alert(
          AlertState(
            title: "Remove everyone?",
            buttons: [
              ButtonState(label: "Remove", role: .destructive, action: .confirmClear),
              ButtonState(label: "Cancel", role: .cancel),
            ]))
        return .none
      case .destination(.presented(.addMember(.delegate(.saveMember(let member))))):
        state.members.append(member)
        return .none
      case .destination(.presented(.alert(.confirmClear))):
        state.members.removeAll()
        return .none
      case .destination, .members, .path:
        return .none
      case .memberTapped(let id):
        guard let member = state.members[id: id] else { return .none }
        state.path.append(MemberDetail.State(member: member))
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination) { Destination() }
    .forEach(\.members, action: \.members) { RosterMember() }
    .forEach(\.path, action: \.path) { MemberDetail() }
  }
}

public let rosterFeature = Feature("Roster", initialState: Roster.State()) { Roster() }
