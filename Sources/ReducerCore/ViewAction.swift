/// An action with a case for the actions of its view, as TCA's `ViewAction`:
/// `case view(View)`. A reducer handles `.view(.loginButtonTapped)` as any other case.
///
/// ```swift
/// enum Action: ViewAction {
///   case loginResponse(Result<Token, any Error>)
///   case view(View)
///
///   @CasePathable
///   enum View { case loginButtonTapped }
/// }
/// ```
///
/// When `View` is a ``BindableAction``, `BindingReducer(action: \.view)` applies its binding
/// actions.
public protocol ViewAction<ViewAction> {
  /// The actions that the view sends.
  associatedtype ViewAction
  /// The action of the view's case.
  static func view(_ action: ViewAction) -> Self
}
