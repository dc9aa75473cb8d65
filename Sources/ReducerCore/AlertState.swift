#if canImport(SwiftUI)
  import SwiftUI
#endif
import CustomDump

/// Text in an alert or a button, as TCA's `TextState`: here, a string. `Codable` as the string.
///
/// ```swift
/// let title: TextState = "Are you sure?"
/// ```
public struct TextState: Equatable, Hashable, Sendable, Codable, ExpressibleByStringInterpolation,
  CustomStringConvertible, CustomDumpStringConvertible
{
  /// The text.
  public var string: String

  /// Text from a string: `TextState("Delete")`.
  public init(_ string: String) {
    self.string = string
  }

  public init(stringLiteral value: String) {
    self.string = value
  }

  public init(from decoder: any Decoder) throws {
    self.string = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(string)
  }

  public var description: String { string }
  public var customDumpDescription: String { String(reflecting: string) }
}

/// How a button is shown: TCA's `ButtonStateRole`. `Codable` as `cancel` / `destructive`.
public enum ButtonStateRole: String, Equatable, Hashable, Sendable, Codable {
  /// The button that dismisses without doing anything.
  case cancel
  /// A button that deletes or otherwise destroys something.
  case destructive
}

/// A button of an alert or a confirmation dialog: a label, an optional role, and the action
/// it sends (none: it only dismisses).
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
/// ButtonState(role: .destructive, action: .send(.confirmDeletion, animation: .default)) {
///   TextState("Delete")
/// }
/// ButtonState(label: "Cancel", role: .cancel)
/// ```
///
/// `Codable` as `{ label: TEXT, role: destructive, action: ACTION }` (`role` and `action` optional).
public struct ButtonState<Action>: Identifiable {
  /// The button's text.
  public var label: TextState
  /// How the button is shown.
  public var role: ButtonStateRole?
  /// The action the button sends, if any.
  public var action: Action?

  /// Buttons are told apart by their label (they have no other identity here).
  public var id: String { label.string }

  /// A button with a label, a role and an action.
  public init(label: TextState, role: ButtonStateRole? = nil, action: Action? = nil) {
    self.label = label
    self.role = role
    self.action = action
  }

  /// A button in TCA's style: `ButtonState(role: .destructive, action: .delete) { TextState("Delete") }`.
  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(label: label(), role: role, action: action)
  }

  /// A button in TCA's style whose action is a ``ButtonStateAction``:
  /// `ButtonState(role: .cancel) { TextState("Cancel") }` (no action), or
  /// `ButtonState(action: .send(.delete, animation: .default)) { TextState("Delete") }`.
  ///
  /// The button keeps the action; the animation of `.send(_:animation:)` is not kept, as a
  /// store of ReducerCore drives no views.
  public init(role: ButtonStateRole? = nil, action: ButtonStateAction<Action> = .send(nil), label: () -> TextState) {
    self.init(label: label(), role: role, action: action.action)
  }

  /// The same button, sending a transformed action.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> ButtonState<NewAction> {
    ButtonState<NewAction>(label: label, role: role, action: action.map(transform))
  }
}

/// The action of a button, as TCA's `ButtonStateAction`: an action to send (or `nil`), with an
/// animation or without.
///
/// ```swift
/// ButtonState(role: .destructive, action: .send(.confirm)) { TextState("Delete") }
/// ButtonState(role: .destructive, action: .send(.confirm, animation: .default)) { TextState("Delete") }
/// ```
public struct ButtonStateAction<Action> {
  /// How the action is sent.
  public let type: _ActionType

  /// Sends `action` (`nil`: sends nothing, and only dismisses).
  public static func send(_ action: Action?) -> Self {
    Self(type: .send(action))
  }

  /// Sends `action` with an animation.
  public static func send(_ action: Action?, animation: Animation?) -> Self {
    Self(type: .animatedSend(action, animation: animation))
  }

  /// The action that the button sends.
  public var action: Action? {
    switch type {
    case .send(let action), .animatedSend(let action, animation: _): return action
    }
  }

  /// The same button action, sending a transformed action.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> ButtonStateAction<NewAction> {
    switch type {
    case .send(let action): return .send(transform(action))
    case .animatedSend(let action, let animation): return .send(transform(action), animation: animation)
    }
  }

  /// How a button sends its action: without or with an animation.
  public enum _ActionType {
    case send(Action?)
    case animatedSend(Action?, animation: Animation?)
  }
}

extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction._ActionType: Equatable where Action: Equatable {}
extension ButtonStateAction: Sendable where Action: Sendable {}
extension ButtonStateAction._ActionType: Sendable where Action: Sendable {}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}
extension ButtonState: Codable where Action: Codable {
  enum CodingKeys: String, CodingKey { case label, role, action }
}

/// An alert as state, as TCA's `AlertState`: a title, an optional message and its buttons.
/// Presented through `@Presents`, it is dismissed by any action sent from it.
///
/// ```swift
/// state.alert = AlertState(
///   title: "Are you sure?",
///   buttons: [
///     ButtonState(label: "Delete", role: .destructive, action: .confirmDeletion),
///     ButtonState(label: "Cancel", role: .cancel),
///   ])
/// ```
///
/// `Codable` as `{ title: TEXT, message: TEXT, buttons: [BUTTON] }` (`message` optional).
public struct AlertState<Action>: _EphemeralState, Identifiable {
  /// What tells this alert from another with the same content, as in TCA: each alert made
  /// gets a new one. Presenting a new alert in place of this one (from one of its buttons)
  /// keeps the new one presented. Equality, hashing, dumps and coding leave it out.
  public internal(set) var id: UUID
  /// The title.
  public var title: TextState
  /// The message under the title.
  public var message: TextState?
  /// The buttons, in order. An alert without buttons shows an OK button that sends nothing.
  public var buttons: [ButtonState<Action>]

  /// An alert with a title, a message and buttons.
  public init(title: TextState, message: TextState? = nil, buttons: [ButtonState<Action>] = []) {
    self.id = UUID()
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// An alert in TCA's style: `AlertState { TextState("Oops") } actions: { … } message: { … }`.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(title: title(), message: message?(), buttons: actions())
  }

  /// The same alert, its buttons sending transformed actions.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> AlertState<NewAction> {
    var alert = AlertState<NewAction>(title: title, message: message, buttons: buttons.map { $0.map(transform) })
    alert.id = id
    return alert
  }
}

extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension AlertState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    Mirror(self, children: ["title": title, "message": message as Any, "buttons": buttons], displayStyle: .struct)
  }
}
extension AlertState: Sendable where Action: Sendable {}
extension AlertState: Codable where Action: Codable {
  enum CodingKeys: String, CodingKey { case title, message, buttons }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      title: try container.decode(TextState.self, forKey: .title),
      message: try container.decodeIfPresent(TextState.self, forKey: .message),
      buttons: try container.decodeIfPresent([ButtonState<Action>].self, forKey: .buttons) ?? [])
  }
}

/// A confirmation dialog (an action sheet) as state, as TCA's `ConfirmationDialogState`.
/// Presented through `@Presents`, it is dismissed by any action sent from it.
///
/// ```swift
/// state.dialog = ConfirmationDialogState(
///   title: "Share",
///   buttons: [ButtonState(label: "Copy link", action: .copyLink), ButtonState(label: "Cancel", role: .cancel)])
/// ```
///
/// `Codable` as `{ title: TEXT, message: TEXT, buttons: [BUTTON] }` (`message` optional), as
/// ``AlertState``.
public struct ConfirmationDialogState<Action>: _EphemeralState, Identifiable {
  /// What tells this dialog from another with the same content, as in TCA: each dialog made
  /// gets a new one. Presenting a new dialog in place of this one (from one of its buttons)
  /// keeps the new one presented. Equality, hashing, dumps and coding leave it out.
  public internal(set) var id: UUID
  /// The title.
  public var title: TextState
  /// The message under the title.
  public var message: TextState?
  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]

  /// A dialog with a title, a message and buttons.
  public init(title: TextState, message: TextState? = nil, buttons: [ButtonState<Action>] = []) {
    self.id = UUID()
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// A dialog in TCA's style: `ConfirmationDialogState { TextState("Share") } actions: { … }`.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(title: title(), message: message?(), buttons: actions())
  }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension ConfirmationDialogState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    Mirror(self, children: ["title": title, "message": message as Any, "buttons": buttons], displayStyle: .struct)
  }
}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
extension ConfirmationDialogState: Codable where Action: Codable {
  enum CodingKeys: String, CodingKey { case title, message, buttons }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      title: try container.decode(TextState.self, forKey: .title),
      message: try container.decodeIfPresent(TextState.self, forKey: .message),
      buttons: try container.decodeIfPresent([ButtonState<Action>].self, forKey: .buttons) ?? [])
  }
}

/// Builds the buttons of an alert or a dialog: `actions: { ButtonState(…); ButtonState(…) }`.
@resultBuilder
public enum ButtonStateBuilder<Action> {
  public static func buildBlock(_ buttons: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    buttons.flatMap { $0 }
  }

  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] {
    [button]
  }

  public static func buildOptional(_ buttons: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    buttons ?? []
  }

  public static func buildEither(first buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons
  }

  public static func buildEither(second buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons
  }

  public static func buildArray(_ buttons: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    buttons.flatMap { $0 }
  }
}

/// State that goes away by itself once it sends an action: alerts and confirmation dialogs.
/// `ifLet` dismisses such a child after any of its actions, as TCA does.
public protocol _EphemeralState {}

/// Whether a presented state is an alert or a dialog, directly or in an enum case.
func isEphemeral(_ state: Any) -> Bool {
  if state is any _EphemeralState { return true }
  let mirror = Mirror(reflecting: state)
  guard mirror.displayStyle == .enum, let child = mirror.children.first else { return false }
  return child.value is any _EphemeralState
}

/// Whether an action of a presented child is one its alert or dialog sends, which dismisses it:
/// any action of an alert or a dialog; for an enum destination in a case holding one, an
/// action of that case (an action of another case leaves the alert presented).
func isEphemeralAction(_ action: Any, of state: Any) -> Bool {
  if state is any _EphemeralState { return true }
  let stateMirror = Mirror(reflecting: state)
  let actionMirror = Mirror(reflecting: action)
  guard stateMirror.displayStyle == .enum, actionMirror.displayStyle == .enum,
    let stateCase = stateMirror.children.first, stateCase.value is any _EphemeralState
  else { return false }
  return actionMirror.children.first?.label == stateCase.label
}
