import Dependencies
import Redux

/// Fetches the archive when a search condition changes, and dispatches
/// ``SuccessArchiveAction`` or ``FailureArchiveAction``.
///
/// It fetches with the keyword and the category that the action gives, and takes the other
/// condition from the state: ``RequestArchiveWithInputTextAction`` with the selected
/// category, ``RequestArchiveWithSelectedCategoryAction`` with the keyword typed,
/// ``RequestArchiveWithNoConditionsAction`` with neither.
///
/// A fetch reads the stored identifiers from `storedArchiveDataRepository`, then asks
/// `requestArchiveRepository` for the dishes, in a `Task`. The repositories are resolved
/// when the action is dispatched, so a `withDependencies` around the dispatch reaches the
/// `Task`.
public let archiveMiddleware: Middleware<AppState> = { state, action, dispatch in
  switch action {
  case let action as RequestArchiveWithInputTextAction:
    requestArchiveScenes(
      inputText: action.inputText,
      selectedCategory: state.archiveState.selectedCategory,
      dispatch: dispatch
    )
  case let action as RequestArchiveWithSelectedCategoryAction:
    requestArchiveScenes(
      inputText: state.archiveState.inputText,
      selectedCategory: action.selectedCategory,
      dispatch: dispatch
    )
  case _ as RequestArchiveWithNoConditionsAction:
    requestArchiveScenes(inputText: "", selectedCategory: "", dispatch: dispatch)
  default:
    break
  }
}

/// Adds a cell to `storedArchiveDataRepository` on ``AddArchiveObjectAction``, and deletes it
/// on ``DeleteArchiveObjectAction``, in a `Task`. It dispatches nothing.
public let storedArchiveMiddleware: Middleware<AppState> = { _, action, _ in
  @Dependency(\.storedArchiveDataRepository) var storedArchiveDataRepository
  switch action {
  case let action as AddArchiveObjectAction:
    Task { [storedArchiveDataRepository] in
      await storedArchiveDataRepository.createToRealm(action.archiveCellViewObject)
    }
  case let action as DeleteArchiveObjectAction:
    Task { [storedArchiveDataRepository] in
      await storedArchiveDataRepository.deleteFromRealm(action.archiveCellViewObject)
    }
  default:
    break
  }
}

/// Reads the stored identifiers, then fetches the dishes for the conditions, and dispatches
/// the result.
private func requestArchiveScenes(
  inputText: String,
  selectedCategory: String,
  dispatch: @escaping Dispatcher
) {
  @Dependency(\.requestArchiveRepository) var requestArchiveRepository
  @Dependency(\.storedArchiveDataRepository) var storedArchiveDataRepository
  Task { [requestArchiveRepository, storedArchiveDataRepository] in
    let storedIds = await storedArchiveDataRepository.getAllObjectsFromRealm().map(\.id)
    do {
      let response = try await requestArchiveRepository.getArchiveResponse(inputText, selectedCategory)
      dispatch(SuccessArchiveAction(archiveSceneEntities: response.result, storedIds: storedIds))
    } catch {
      dispatch(FailureArchiveAction())
    }
  }
}
