import Dependencies
import ExampleFeatures
import Foundation
import ReducerCore
import Testing

private let ramen = ArchiveEntry(
  id: 1, dishName: "Tonkotsu Ramen", shopName: "Ichiran", category: "Ramen", introduction: "Rich pork broth.")
private let pizza = ArchiveEntry(
  id: 2, dishName: "Margherita", shopName: "Da Michele", category: "Pizza", introduction: "Tomato and basil.")

@MainActor
@Suite struct ArchiveTests {
  @Test func appearingFetchesTheListAndMarksTheStoredEntries() async {
    let queries = LockIsolated<[ArchiveQuery]>([])
    let store = TestStore(initialState: Archive.State()) {
      Archive()
    } withDependencies: {
      $0.storedArchive.storedIds = { [2] }
      $0.archiveClient.fetch = { query in
        queries.withValue { $0.append(query) }
        return [ramen, pizza]
      }
    }
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(.archiveLoaded(entries: [ramen, pizza], storedIds: [2])) {
      $0.isLoading = false
      $0.items = [ArchiveItem(ramen, isStored: false), ArchiveItem(pizza, isStored: true)]
    }
    #expect(queries.value == [ArchiveQuery(keyword: "", category: "")])
  }

  @Test func typingAKeywordFetchesWithIt() async {
    let queries = LockIsolated<[ArchiveQuery]>([])
    let store = TestStore(initialState: Archive.State(selectedCategory: "Pizza")) {
      Archive()
    } withDependencies: {
      $0.storedArchive.storedIds = { [] }
      $0.archiveClient.fetch = { query in
        queries.withValue { $0.append(query) }
        return [pizza]
      }
    }
    await store.send(.inputTextChanged("marg")) {
      $0.inputText = "marg"
      $0.isLoading = true
    }
    await store.receive(.archiveLoaded(entries: [pizza], storedIds: [])) {
      $0.isLoading = false
      $0.items = [ArchiveItem(pizza, isStored: false)]
    }
    #expect(queries.value == [ArchiveQuery(keyword: "marg", category: "Pizza")])
  }

  @Test func selectingACategoryFiltersAndSelectingItAgainClearsIt() async {
    let queries = LockIsolated<[ArchiveQuery]>([])
    let store = TestStore(initialState: Archive.State(inputText: "a")) {
      Archive()
    } withDependencies: {
      $0.storedArchive.storedIds = { [] }
      $0.archiveClient.fetch = { query in
        queries.withValue { $0.append(query) }
        return query.category == "Ramen" ? [ramen] : [ramen, pizza]
      }
    }
    await store.send(.categorySelected("Ramen")) {
      $0.selectedCategory = "Ramen"
      $0.isLoading = true
    }
    await store.receive(.archiveLoaded(entries: [ramen], storedIds: [])) {
      $0.isLoading = false
      $0.items = [ArchiveItem(ramen, isStored: false)]
    }
    await store.send(.categorySelected("Ramen")) {
      $0.selectedCategory = ""
      $0.isLoading = true
    }
    await store.receive(.archiveLoaded(entries: [ramen, pizza], storedIds: [])) {
      $0.isLoading = false
      $0.items = [ArchiveItem(ramen, isStored: false), ArchiveItem(pizza, isStored: false)]
    }
    await store.send(.categorySelected("Pizza")) {
      $0.selectedCategory = "Pizza"
      $0.isLoading = true
    }
    await store.receive(.archiveLoaded(entries: [ramen, pizza], storedIds: []))  {
      $0.isLoading = false
    }
    #expect(
      queries.value == [
        ArchiveQuery(keyword: "a", category: "Ramen"),
        ArchiveQuery(keyword: "a", category: ""),
        ArchiveQuery(keyword: "a", category: "Pizza"),
      ])
  }

  @Test func aFailedFetchShowsTheErrorAndANewFetchClearsIt() async {
    let responses = LockIsolated<[Result<[ArchiveEntry], TestError>]>([.failure(TestError("offline")), .success([ramen])])
    let store = TestStore(initialState: Archive.State(items: [ArchiveItem(pizza, isStored: false)])) {
      Archive()
    } withDependencies: {
      $0.storedArchive.storedIds = { [] }
      $0.archiveClient.fetch = { _ in try responses.withValue { $0.removeFirst() }.get() }
    }
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(.archiveFailed) {
      $0.isLoading = false
      $0.isError = true
      $0.items = []
    }
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(.archiveLoaded(entries: [ramen], storedIds: [])) {
      $0.isLoading = false
      $0.isError = false
      $0.items = [ArchiveItem(ramen, isStored: false)]
    }
  }

  @Test func aNewFetchCancelsTheOneInFlight() async {
    let clock = TestClock()
    let queries = LockIsolated<[ArchiveQuery]>([])
    let store = TestStore(initialState: Archive.State()) {
      Archive()
    } withDependencies: {
      $0.storedArchive.storedIds = { [] }
      $0.archiveClient.fetch = { query in
        queries.withValue { $0.append(query) }
        try await clock.sleep(for: .seconds(1))
        return query.keyword == "p" ? [ramen, pizza] : [pizza]
      }
    }
    await store.send(.inputTextChanged("p")) {
      $0.inputText = "p"
      $0.isLoading = true
    }
    await clock.advance(by: .milliseconds(500))
    await store.send(.inputTextChanged("pi")) { $0.inputText = "pi" }
    #expect(store.effectsInFlight.count == 1)
    await clock.advance(by: .seconds(1))
    await store.receive(.archiveLoaded(entries: [pizza], storedIds: [])) {
      $0.isLoading = false
      $0.items = [ArchiveItem(pizza, isStored: false)]
    }
    #expect(queries.value == [ArchiveQuery(keyword: "p", category: ""), ArchiveQuery(keyword: "pi", category: "")])
  }

  @Test func storingAndUnstoringAnItemRecordsTheCalls() async {
    let added = LockIsolated<[Int]>([])
    let removed = LockIsolated<[Int]>([])
    let store = TestStore(
      initialState: Archive.State(items: [ArchiveItem(ramen, isStored: false), ArchiveItem(pizza, isStored: true)])
    ) {
      Archive()
    } withDependencies: {
      $0.storedArchive.add = { id in added.withValue { $0.append(id) } }
      $0.storedArchive.remove = { id in removed.withValue { $0.append(id) } }
    }
    await store.send(.toggleStored(id: 1)) { $0.items[0].isStored = true }
    await store.finish()
    #expect(added.value == [1])
    #expect(removed.value == [])

    await store.send(.toggleStored(id: 1)) { $0.items[0].isStored = false }
    await store.send(.toggleStored(id: 2)) { $0.items[1].isStored = false }
    await store.finish()
    #expect(added.value == [1])
    #expect(removed.value == [1, 2])

    // An identifier that is not in the list changes nothing and calls nothing.
    await store.send(.toggleStored(id: 99))
  }

  @Test func codableShapes() throws {
    try expectRoundTrip(
      Archive.Action.archiveLoaded(entries: [ramen], storedIds: [1]),
      json: """
        {"archiveLoaded":{"entries":[{"category":"Ramen","dishName":"Tonkotsu Ramen","id":1,\
        "introduction":"Rich pork broth.","shopName":"Ichiran"}],"storedIds":[1]}}
        """)
    try expectRoundTrip(Archive.Action.toggleStored(id: 1), json: #"{"toggleStored":{"id":1}}"#)
    try expectRoundTrip(Archive.Action.archiveFailed, json: #"{"archiveFailed":{}}"#)
    try expectRoundTrip(Archive.Action.onAppear, json: #"{"onAppear":{}}"#)
    try expectRoundTrip(Archive.Action.categorySelected("Ramen"), json: #"{"categorySelected":{"_0":"Ramen"}}"#)
    try expectRoundTrip(Archive.Action.inputTextChanged("pizza"), json: #"{"inputTextChanged":{"_0":"pizza"}}"#)

    try expectRoundTrip(
      Archive.State(selectedCategory: "Pizza", items: [ArchiveItem(pizza, isStored: true)], isLoading: true),
      json: """
        {"inputText":"","isError":false,"isLoading":true,"items":[{"category":"Pizza","dishName":"Margherita",\
        "id":2,"introduction":"Tomato and basil.","isStored":true,"shopName":"Da Michele"}],"selectedCategory":"Pizza"}
        """)
    #expect(try decode(Archive.State.self, from: #"{"isError":true}"#) == Archive.State(isError: true))
    try expectRoundTrip(
      ArchiveQuery(keyword: "pizza", category: ""), json: #"{"category":"","keyword":"pizza"}"#)
  }
}
