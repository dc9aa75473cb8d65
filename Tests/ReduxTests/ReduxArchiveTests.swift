import ConcurrencyExtras
import Dependencies
import Redux
import ReduxExampleFeatures
import Testing

private let gratin = ArchiveSceneEntity(
  id: 17, category: "洋食", dishName: "熱々が嬉しいマカロニグラタン", shopName: "洋食屋",
  introduction: "チーズがとろける")
private let pizza = ArchiveSceneEntity(
  id: 33, category: "洋食", dishName: "シーフードミックスピザ", shopName: "ピザ屋",
  introduction: "チーズと魚介")
private let cheeseRisotto = ArchiveSceneEntity(
  id: 40, category: "イタリアン", dishName: "チーズリゾット", shopName: "リゾット屋")

/// A search that the stub repository answered.
private struct Search: Equatable {
  var keyword: String
  var category: String
}

private struct ArchiveUnavailable: Error {}

private func makeStore(state: AppState = ReduxArchive.initialState) -> Store<AppState> {
  Store(reducer: ReduxArchive.reducer, state: state, middlewares: ReduxArchive.middlewares)
}

// On the main actor, as `eventually` is: while a ReducerCore `TestStore` of another test
// lives, every task runs on the main queue, behind the jobs of every test there.
@MainActor @Suite struct ReduxArchiveTests {
  @Test func aKeywordThenACategoryFetchWithBothAndMarkTheStoredCells() async {
    let searches = LockIsolated<[Search]>([])
    let store = makeStore()
    func dispatch(_ action: any Action) {
      withDependencies {
        $0.storedArchiveDataRepository.getAllObjectsFromRealm = {
          [StockArchiveRealmEntity(id: 17), StockArchiveRealmEntity(id: 99)]
        }
        $0.requestArchiveRepository.getArchiveResponse = { keyword, category in
          searches.withValue { $0.append(Search(keyword: keyword, category: category)) }
          return ArchiveSceneResponse(
            result: category == "洋食" ? [gratin, pizza] : [gratin, pizza, cheeseRisotto])
        }
      } operation: {
        store.dispatch(action: action)
      }
    }

    dispatch(RequestArchiveWithInputTextAction(inputText: "チーズ"))
    #expect(store.state == AppState(archiveState: ArchiveState(inputText: "チーズ", isLoading: true)))
    #expect(await store.eventually { !$0.archiveState.isLoading })
    #expect(searches.value == [Search(keyword: "チーズ", category: "")])
    #expect(store.state.archiveState.archiveCellViewObjects.map(\.id) == [17, 33, 40])

    dispatch(RequestArchiveWithSelectedCategoryAction(selectedCategory: "洋食"))
    #expect(store.state.archiveState.isLoading)
    #expect(store.state.archiveState.selectedCategory == "洋食")
    #expect(await store.eventually { !$0.archiveState.isLoading })

    #expect(searches.value == [Search(keyword: "チーズ", category: ""), Search(keyword: "チーズ", category: "洋食")])
    #expect(
      store.state
        == AppState(
          archiveState: ArchiveState(
            inputText: "チーズ",
            selectedCategory: "洋食",
            archiveCellViewObjects: [
              ArchiveCellViewObject(archiveSceneEntity: gratin, isStored: true),
              ArchiveCellViewObject(archiveSceneEntity: pizza, isStored: false),
            ]
          )
        ))
  }

  @Test func noConditionsFetchWithAnEmptyKeywordAndCategory() async {
    let searches = LockIsolated<[Search]>([])
    let store = makeStore(
      state: AppState(archiveState: ArchiveState(inputText: "チーズ", selectedCategory: "洋食")))
    withDependencies {
      $0.storedArchiveDataRepository.getAllObjectsFromRealm = { [] }
      $0.requestArchiveRepository.getArchiveResponse = { keyword, category in
        searches.withValue { $0.append(Search(keyword: keyword, category: category)) }
        return ArchiveSceneResponse(result: [pizza])
      }
    } operation: {
      store.dispatch(action: RequestArchiveWithNoConditionsAction())
    }

    #expect(await store.eventually { !$0.archiveState.isLoading })
    #expect(searches.value == [Search(keyword: "", category: "")])
    #expect(
      store.state.archiveState
        == ArchiveState(
          inputText: "チーズ",
          selectedCategory: "洋食",
          archiveCellViewObjects: [ArchiveCellViewObject(archiveSceneEntity: pizza, isStored: false)]
        ))
  }

  @Test func aFailedFetchSetsIsError() async {
    let store = makeStore()
    withDependencies {
      $0.storedArchiveDataRepository.getAllObjectsFromRealm = { [] }
      $0.requestArchiveRepository.getArchiveResponse = { _, _ in throw ArchiveUnavailable() }
    } operation: {
      store.dispatch(action: RequestArchiveWithNoConditionsAction())
    }

    #expect(await store.eventually { !$0.archiveState.isLoading })
    #expect(store.state == AppState(archiveState: ArchiveState(isError: true)))
  }

  @Test func aSuccessAfterAFailureClearsIsError() {
    let store = makeStore(state: AppState(archiveState: ArchiveState(isLoading: true, isError: true)))

    store.dispatch(action: SuccessArchiveAction(archiveSceneEntities: [gratin], storedIds: []))

    #expect(
      store.state.archiveState
        == ArchiveState(archiveCellViewObjects: [ArchiveCellViewObject(archiveSceneEntity: gratin)]))
  }

  @Test func addingACellMarksItStoredAndCreatesItInTheRepository() async {
    let created = LockIsolated<[ArchiveCellViewObject]>([])
    let gratinCell = ArchiveCellViewObject(archiveSceneEntity: gratin, isStored: false)
    let pizzaCell = ArchiveCellViewObject(archiveSceneEntity: pizza, isStored: false)
    let store = makeStore(
      state: AppState(archiveState: ArchiveState(archiveCellViewObjects: [gratinCell, pizzaCell])))

    withDependencies {
      $0.storedArchiveDataRepository.createToRealm = { cell in created.withValue { $0.append(cell) } }
    } operation: {
      store.dispatch(action: AddArchiveObjectAction(archiveCellViewObject: pizzaCell))
    }

    var storedPizza = pizzaCell
    storedPizza.isStored = true
    #expect(store.state.archiveState.archiveCellViewObjects == [gratinCell, storedPizza])
    #expect(await eventually { !created.value.isEmpty })
    #expect(created.value == [pizzaCell])
  }

  @Test func deletingACellMarksItNotStoredAndDeletesItFromTheRepository() async {
    let deleted = LockIsolated<[ArchiveCellViewObject]>([])
    let gratinCell = ArchiveCellViewObject(archiveSceneEntity: gratin, isStored: true)
    let pizzaCell = ArchiveCellViewObject(archiveSceneEntity: pizza, isStored: true)
    let store = makeStore(
      state: AppState(archiveState: ArchiveState(archiveCellViewObjects: [gratinCell, pizzaCell])))

    withDependencies {
      $0.storedArchiveDataRepository.deleteFromRealm = { cell in deleted.withValue { $0.append(cell) } }
    } operation: {
      store.dispatch(action: DeleteArchiveObjectAction(archiveCellViewObject: gratinCell))
    }

    var unstoredGratin = gratinCell
    unstoredGratin.isStored = false
    #expect(store.state.archiveState.archiveCellViewObjects == [unstoredGratin, pizzaCell])
    #expect(await eventually { !deleted.value.isEmpty })
    #expect(deleted.value == [gratinCell])
  }

  @Test func theDependenciesOfTheDispatchReachTheFetchTask() async {
    // The fetch's Task runs after `withDependencies` has returned, where this test's
    // dependencies are the unimplemented test values: the middleware resolves the stubs when
    // the action is dispatched and captures them in its Task.
    let store = makeStore()
    withDependencies {
      $0.storedArchiveDataRepository.getAllObjectsFromRealm = {
        await Task.yield()
        return [StockArchiveRealmEntity(id: 33)]
      }
      $0.requestArchiveRepository.getArchiveResponse = { _, _ in
        await Task.yield()
        return ArchiveSceneResponse(result: [pizza])
      }
    } operation: {
      store.dispatch(action: RequestArchiveWithNoConditionsAction())
    }

    #expect(await store.eventually { !$0.archiveState.isLoading })
    #expect(
      store.state.archiveState.archiveCellViewObjects
        == [ArchiveCellViewObject(archiveSceneEntity: pizza, isStored: true)])
  }

  @Test func theActionTypesAreNamedByTheirTypeNames() {
    #expect(
      ReduxArchive.actionTypes.map { String(describing: $0) } == [
        "RequestArchiveWithInputTextAction",
        "RequestArchiveWithSelectedCategoryAction",
        "RequestArchiveWithNoConditionsAction",
        "SuccessArchiveAction",
        "FailureArchiveAction",
        "AddArchiveObjectAction",
        "DeleteArchiveObjectAction",
      ])
  }

  @Test func theInitialStateIsEmpty() {
    #expect(ReduxArchive.initialState == AppState(archiveState: ArchiveState()))
    #expect(ReduxArchive.middlewares.count == 2)
  }
}

// On the main actor, as `eventually` is: while a ReducerCore `TestStore` of another test
// lives, every task runs on the main queue, behind the jobs of every test there.
@MainActor @Suite struct ReduxArchiveLiveValueTests {
  @Test func theLiveRequestRepositoryFiltersByKeywordAndCategory() async throws {
    let repository = RequestArchiveRepository.liveValue
    let cheeseInWestern = try await repository.getArchiveResponse("チーズ", "洋食")
    #expect(cheeseInWestern.result.map(\.id) == [2, 5])
    let all = try await repository.getArchiveResponse("", "")
    #expect(all.result.map(\.id) == [1, 2, 3, 4, 5, 6])
    let japanese = try await repository.getArchiveResponse("", "和食")
    #expect(japanese.result.map(\.dishName) == ["鯖の味噌煮"])
  }

  @Test func theLiveStoredRepositoryCreatesAndDeletesByIdentifier() async {
    let repository = StoredArchiveDataRepository.liveValue
    let cell = ArchiveCellViewObject(archiveSceneEntity: gratin)
    await repository.createToRealm(cell)
    await repository.createToRealm(cell)
    #expect(
      await repository.getAllObjectsFromRealm()
        == [
          StockArchiveRealmEntity(
            id: 17, category: "洋食", dishName: "熱々が嬉しいマカロニグラタン", shopName: "洋食屋",
            introduction: "チーズがとろける")
        ])
    await repository.deleteFromRealm(cell)
    #expect(await repository.getAllObjectsFromRealm() == [])
  }
}
