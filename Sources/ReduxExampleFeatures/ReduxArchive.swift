import Redux

/// The Redux archive screen as a registration needs it: the reducer, the middlewares, the
/// initial state and the action types.
///
/// ```swift
/// let store = Store(
///   reducer: ReduxArchive.reducer,
///   state: ReduxArchive.initialState,
///   middlewares: ReduxArchive.middlewares
/// )
/// store.dispatch(action: RequestArchiveWithNoConditionsAction())
/// ```
///
/// The middlewares use `requestArchiveRepository` and `storedArchiveDataRepository`
/// (``RequestArchiveRepository``, ``StoredArchiveDataRepository``).
public enum ReduxArchive {
  /// The app's reducer, ``appReducer(_:_:)``.
  public static let reducer: Reducer<AppState> = appReducer

  /// ``archiveMiddleware`` then ``storedArchiveMiddleware``.
  public static let middlewares: [Middleware<AppState>] = [archiveMiddleware, storedArchiveMiddleware]

  /// `AppState()`.
  public static let initialState = AppState()

  /// Every action type of the screen; each is `Codable` and `Equatable`.
  public static let actionTypes: [any Action.Type] = [
    RequestArchiveWithInputTextAction.self,
    RequestArchiveWithSelectedCategoryAction.self,
    RequestArchiveWithNoConditionsAction.self,
    SuccessArchiveAction.self,
    FailureArchiveAction.self,
    AddArchiveObjectAction.self,
    DeleteArchiveObjectAction.self,
  ]
}
