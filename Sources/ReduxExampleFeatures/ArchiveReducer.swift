import Redux

/// The app's reducer: each screen's reducer on its sub-state.
public func appReducer(_ state: AppState, _ action: any Action) -> AppState {
  var state = state
  state.archiveState = archiveReducer(state.archiveState, action)
  return state
}

/// The archive screen's reducer.
///
/// | action | change |
/// | --- | --- |
/// | ``RequestArchiveWithInputTextAction`` | `inputText`; `isLoading` true |
/// | ``RequestArchiveWithSelectedCategoryAction`` | `selectedCategory`; `isLoading` true |
/// | ``RequestArchiveWithNoConditionsAction`` | `isLoading` true |
/// | ``SuccessArchiveAction`` | the cells, each stored when its id is a stored id; `isLoading` and `isError` false |
/// | ``FailureArchiveAction`` | `isLoading` false, `isError` true |
/// | ``AddArchiveObjectAction`` | the cell of that id stored |
/// | ``DeleteArchiveObjectAction`` | the cell of that id not stored |
public func archiveReducer(_ state: ArchiveState, _ action: any Action) -> ArchiveState {
  var state = state
  switch action {
  case let action as RequestArchiveWithInputTextAction:
    state.inputText = action.inputText
    state.isLoading = true
  case let action as RequestArchiveWithSelectedCategoryAction:
    state.selectedCategory = action.selectedCategory
    state.isLoading = true
  case _ as RequestArchiveWithNoConditionsAction:
    state.isLoading = true
  case let action as SuccessArchiveAction:
    let storedIds = Set(action.storedIds)
    state.archiveCellViewObjects = action.archiveSceneEntities.map {
      ArchiveCellViewObject(archiveSceneEntity: $0, isStored: storedIds.contains($0.id))
    }
    state.isLoading = false
    state.isError = false
  case _ as FailureArchiveAction:
    state.isLoading = false
    state.isError = true
  case let action as AddArchiveObjectAction:
    state.archiveCellViewObjects = setStored(true, id: action.archiveCellViewObject.id, in: state.archiveCellViewObjects)
  case let action as DeleteArchiveObjectAction:
    state.archiveCellViewObjects = setStored(false, id: action.archiveCellViewObject.id, in: state.archiveCellViewObjects)
  default:
    break
  }
  return state
}

/// The cells, with `isStored` set on the one whose identifier is `id`.
private func setStored(
  _ isStored: Bool, id: Int, in cells: [ArchiveCellViewObject]
) -> [ArchiveCellViewObject] {
  cells.map { cell in
    var cell = cell
    if cell.id == id { cell.isStored = isStored }
    return cell
  }
}
