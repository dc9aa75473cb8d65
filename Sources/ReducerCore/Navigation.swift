import ConcurrencyExtras
import Dependencies
import IssueReporting

/// Identifies the effects of one child in a parent's state: a collection element, a presented
/// destination or a stack element, by the key path of the state that holds it and the child's
/// identity there.
struct NavigationID: Hashable, @unchecked Sendable {
  let keyPath: AnyKeyPath
  let identity: AnyHashable
}

/// What tells one presented child from another: its `id` when it is `Identifiable`, its case
/// (and the identity of the case's value) when it is an enum, else its type.
func navigationIdentity(of value: Any) -> AnyHashable {
  if let identifiable = value as? any Identifiable {
    return identity(of: identifiable)
  }
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .enum {
    guard let child = mirror.children.first else { return AnyHashable("\(value)") }
    return AnyHashable([AnyHashable(child.label ?? ""), navigationIdentity(of: child.value)])
  }
  return AnyHashable(ObjectIdentifier(type(of: value)))
}

private func identity<T: Identifiable>(of value: T) -> AnyHashable {
  AnyHashable(value.id)
}

// MARK: - Dismissal

extension DependencyValues {
  /// Dismisses the presented feature (or pops the stack element) whose reducer or effect
  /// uses it, as TCA's `dismiss` dependency.
  ///
  /// ```swift
  /// @Dependency(\.dismiss) var dismiss
  ///
  /// case .cancelButtonTapped:
  ///   return .run { _ in await dismiss() }
  /// ```
  ///
  /// The parent receives `.destination(.dismiss)` (for `ifLet`) or `.path(.popFrom(id:))` (for
  /// a stack's `forEach`), and the child's effects are cancelled.
  public var dismiss: DismissEffect {
    get { self[DismissKey.self] }
    set { self[DismissKey.self] = newValue }
  }
}

/// The `dismiss` dependency: `await dismiss()` in an effect of a presented child.
///
/// ```swift
/// return .run { send in
///   await send(.delegate(.saveContact(contact)))
///   await dismiss()
/// }
/// ```
///
/// Outside a presented child (a feature at the root of a store), calling it is reported as
/// an issue, as in TCA.
public struct DismissEffect: Sendable {
  var dismiss: (@MainActor @Sendable () -> Void)?

  /// A dismiss effect that runs `dismiss`: for tests of a child alone, to see that it dismisses.
  ///
  /// ```swift
  /// let isDismissed = LockIsolated(false)
  /// let store = TestStore(initialState: AddContact.State(…)) { AddContact() } withDependencies: {
  ///   $0.dismiss = DismissEffect { isDismissed.setValue(true) }
  /// }
  /// ```
  public init(_ dismiss: @escaping @MainActor @Sendable () -> Void) {
    self.dismiss = dismiss
  }

  init() {
    self.dismiss = nil
  }

  /// Dismisses the child that the effect belongs to.
  @MainActor
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    dismissOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Dismisses, or reports that there is nothing to dismiss, as TCA does.
  @MainActor
  func dismissOrReport(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    guard let dismiss else {
      reportIssue(
        """
        A reducer requested dismissal at "\(fileID):\(line)", but couldn't be dismissed.

        This is generally considered an application logic error, and can happen when a reducer \
        assumes it runs in a presentation context. If a reducer can run at both the root level \
        of an application, as well as in a presentation destination, use \
        @Dependency(\\.isPresented) to determine if the reducer is being presented before calling \
        @Dependency(\\.dismiss).
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    dismiss()
  }
}

extension DependencyValues {
  /// Whether the feature that reads it is presented (with `ifLet` on a `@Presents` field) or
  /// pushed on a stack (handled by `forEach`), as TCA's `isPresented`: whether
  /// ``dismiss`` can dismiss it.
  ///
  /// ```swift
  /// @Dependency(\.isPresented) var isPresented
  ///
  /// case .closeButtonTapped:
  ///   return isPresented ? .run { _ in await dismiss() } : .send(.delegate(.close))
  /// ```
  public var isPresented: Bool {
    dismiss.dismiss != nil
  }
}

private enum DismissKey: DependencyKey {
  static let liveValue = DismissEffect()
  static let testValue = DismissEffect()
}

/// How `dismiss` reaches the parent: a presented child's effects run with a sender for their
/// presentation (keyed by a token), which sends the parent's dismissal action.
enum DismissSenders {
  @TaskLocal static var current: [ObjectIdentifier: @MainActor @Sendable () -> Void] = [:]
}

/// One presentation (or stack element) as `dismiss` knows it.
final class DismissToken: Sendable {
  var key: ObjectIdentifier { ObjectIdentifier(self) }
}

extension Effect {
  /// The child's effect at the parent's level: actions embedded with `embed`, `dismiss()` in
  /// its operations sending `dismissAction`, cancellation scoped to `navigationID`
  /// (``scopingCancellationInOperations(to:)``), and the whole cancellable by `navigationID`.
  func navigationChild<ParentAction>(
    navigationID: NavigationID,
    token: DismissToken,
    embed: @escaping @Sendable (Action) -> ParentAction,
    dismissAction: @escaping @Sendable () -> ParentAction
  ) -> Effect<ParentAction> {
    if case .none = operation { return .none }
    return
      self
      .scopingCancellationInOperations(to: AnyHashableSendable(navigationID))
      .map(
        embed,
        aroundRun: { send, operation in
          // The closures hold the token, so that its key stays unique while they live.
          var senders = DismissSenders.current
          senders[token.key] = { send(dismissAction()) }
          await DismissSenders.$current.withValue(senders) { await operation() }
        }
      )
      .cancellable(id: navigationID)
  }
}

/// Runs a child reducer with a `dismiss` dependency that sends through the token's sender.
func reduceWithDismiss<R: Reducer>(
  _ reducer: R, into state: inout R.State, action: R.Action, token: DismissToken
) -> Effect<R.Action> {
  withDependencies {
    $0.dismiss = DismissEffect { DismissSenders.current[token.key]?() }
  } operation: {
    reducer.reduce(into: &state, action: action)
  }
}
