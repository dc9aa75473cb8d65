import ReduxExampleFeatures
import ReduxSpecs

/// The archive screen of the Redux app, driven through its own Redux store: its reducer,
/// its middlewares, and the action types its specs send and receive.
let reduxArchive = Feature(
  "ReduxArchive", initialState: ReduxArchive.initialState,
  stubs: [
    .endpoint("requestArchiveRepository.getArchiveResponse", \.requestArchiveRepository.getArchiveResponse),
    .endpoint("storedArchiveDataRepository.getAllObjectsFromRealm", \.storedArchiveDataRepository.getAllObjectsFromRealm),
    .endpoint("storedArchiveDataRepository.createToRealm", \.storedArchiveDataRepository.createToRealm),
    .endpoint("storedArchiveDataRepository.deleteFromRealm", \.storedArchiveDataRepository.deleteFromRealm),
  ],
  reducer: ReduxArchive.reducer,
  middlewares: ReduxArchive.middlewares,
  actions: [
    RequestArchiveWithInputTextAction.self,
    RequestArchiveWithSelectedCategoryAction.self,
    RequestArchiveWithNoConditionsAction.self,
    SuccessArchiveAction.self,
    FailureArchiveAction.self,
    AddArchiveObjectAction.self,
    DeleteArchiveObjectAction.self,
  ]
)
