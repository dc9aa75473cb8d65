import Dependencies
import ExampleFeatures
import Foundation
import ReducerCore
import Testing

private let london = Location(id: 44418, title: "London")
private let lisbon = Location(id: 742_676, title: "Lisbon")
private let may1 = Date(timeIntervalSince1970: 1_714_521_600)  // 2024-05-01T00:00:00Z
private let londonWeather = LocationWeather(
  id: 44418,
  consolidatedWeather: [
    ConsolidatedWeather(applicableDate: may1, maxTemp: 18.5, minTemp: 9, theTemp: 14.25, weatherStateName: "Showers")
  ])
private let lisbonWeather = LocationWeather(
  id: 742_676,
  consolidatedWeather: [ConsolidatedWeather(applicableDate: may1, maxTemp: 24, minTemp: 15, theTemp: 21)])

@MainActor
@Suite struct WeatherSearchTests {
  @Test func typingSearchesAfter300msAndTappingALocationShowsItsWeather() async {
    let clock = TestClock()
    let queries = LockIsolated<[String]>([])
    let ids = LockIsolated<[Int]>([])
    let store = TestStore(initialState: WeatherSearch.State()) {
      WeatherSearch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.searchLocation = { query in
        queries.withValue { $0.append(query) }
        return [london, lisbon]
      }
      $0.weatherClient.weather = { id in
        ids.withValue { $0.append(id) }
        return londonWeather
      }
    }
    await store.send(.searchQueryChanged("L")) { $0.searchQuery = "L" }
    await clock.advance(by: .milliseconds(299))
    #expect(queries.value == [])
    await clock.advance(by: .milliseconds(1))
    await store.receive(.locationsResponse(.success([london, lisbon]))) { $0.locations = [london, lisbon] }
    await store.send(.locationTapped(london)) { $0.locationWeatherRequestInFlight = london }
    await store.receive(.locationWeatherResponse(.success(londonWeather))) {
      $0.locationWeatherRequestInFlight = nil
      $0.locationWeather = londonWeather
    }
    #expect(queries.value == ["L"])
    #expect(ids.value == [44418])
  }

  @Test func twoQuickChangesGiveOneSearch() async {
    let clock = TestClock()
    let queries = LockIsolated<[String]>([])
    let store = TestStore(initialState: WeatherSearch.State()) {
      WeatherSearch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.searchLocation = { query in
        queries.withValue { $0.append(query) }
        return [london]
      }
    }
    await store.send(.searchQueryChanged("Lo")) { $0.searchQuery = "Lo" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.searchQueryChanged("Lon")) { $0.searchQuery = "Lon" }
    // 300 ms after the first change, but only 100 ms after the last one.
    await clock.advance(by: .milliseconds(100))
    #expect(queries.value == [])
    await clock.advance(by: .milliseconds(200))
    await store.receive(.locationsResponse(.success([london]))) { $0.locations = [london] }
    #expect(queries.value == ["Lon"])
  }

  @Test func aNewerChangeCancelsARunningSearch() async {
    let clock = TestClock()
    let queries = LockIsolated<[String]>([])
    let store = TestStore(initialState: WeatherSearch.State()) {
      WeatherSearch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.searchLocation = { query in
        queries.withValue { $0.append(query) }
        try await clock.sleep(for: .seconds(1))
        return query == "Lo" ? [london, lisbon] : [london]
      }
    }
    await store.send(.searchQueryChanged("Lo")) { $0.searchQuery = "Lo" }
    await clock.advance(by: .milliseconds(300))  // the search for "Lo" starts and waits 1 s
    #expect(queries.value == ["Lo"])
    await store.send(.searchQueryChanged("Lon")) { $0.searchQuery = "Lon" }
    await clock.advance(by: .milliseconds(1300))
    await store.receive(.locationsResponse(.success([london]))) { $0.locations = [london] }
    #expect(queries.value == ["Lo", "Lon"])
  }

  @Test func anEmptyQueryCancelsThePendingSearchAndClearsTheResults() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: WeatherSearch.State(searchQuery: "Lo", locations: [london], locationWeather: londonWeather)
    ) {
      WeatherSearch()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.searchQueryChanged("L")) { $0.searchQuery = "L" }
    await clock.advance(by: .milliseconds(100))
    await store.send(.searchQueryChanged("")) {
      $0.searchQuery = ""
      $0.locations = []
      $0.locationWeather = nil
    }
    #expect(store.effectsInFlight.isEmpty)
    // The search is never made: the client is not stubbed, so a call would fail the test.
    await clock.advance(by: .seconds(1))
  }

  @Test func aFailedSearchEmptiesTheLocations() async {
    let clock = TestClock()
    let store = TestStore(initialState: WeatherSearch.State(locations: [london])) {
      WeatherSearch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.searchLocation = { _ in throw TestError("offline") }
    }
    await store.send(.searchQueryChanged("Lis")) { $0.searchQuery = "Lis" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.locationsResponse(.failure(TaskFailure("offline")))) { $0.locations = [] }
  }

  @Test func aFailedWeatherRequestClearsTheWeather() async {
    let store = TestStore(initialState: WeatherSearch.State(locations: [london], locationWeather: lisbonWeather)) {
      WeatherSearch()
    } withDependencies: {
      $0.weatherClient.weather = { _ in throw TestError("No weather today.") }
    }
    await store.send(.locationTapped(london)) { $0.locationWeatherRequestInFlight = london }
    await store.receive(.locationWeatherResponse(.failure(TaskFailure("No weather today.")))) {
      $0.locationWeatherRequestInFlight = nil
      $0.locationWeather = nil
    }
  }

  @Test func aNewTapCancelsTheWeatherRequestInFlight() async {
    let clock = TestClock()
    let ids = LockIsolated<[Int]>([])
    let store = TestStore(initialState: WeatherSearch.State(locations: [london, lisbon])) {
      WeatherSearch()
    } withDependencies: {
      $0.weatherClient.weather = { id in
        ids.withValue { $0.append(id) }
        try await clock.sleep(for: .seconds(1))
        return id == london.id ? londonWeather : lisbonWeather
      }
    }
    await store.send(.locationTapped(london)) { $0.locationWeatherRequestInFlight = london }
    await clock.advance(by: .milliseconds(500))
    await store.send(.locationTapped(lisbon)) { $0.locationWeatherRequestInFlight = lisbon }
    #expect(store.effectsInFlight.count == 1)
    await clock.advance(by: .seconds(1))
    await store.receive(.locationWeatherResponse(.success(lisbonWeather))) {
      $0.locationWeatherRequestInFlight = nil
      $0.locationWeather = lisbonWeather
    }
    #expect(ids.value == [london.id, lisbon.id])
  }

  @Test func codableShapes() throws {
    try expectRoundTrip(
      WeatherSearch.State(searchQuery: "Lon", locations: [london], locationWeather: londonWeather),
      json: """
        {"locationWeather":{"consolidatedWeather":[{"applicableDate":"2024-05-01T00:00:00Z","maxTemp":18.5,\
        "minTemp":9,"theTemp":14.25,"weatherStateName":"Showers"}],"id":44418},\
        "locations":[{"id":44418,"title":"London"}],"searchQuery":"Lon"}
        """)
    try expectRoundTrip(
      WeatherSearch.State(searchQuery: "Lon", locationWeatherRequestInFlight: london),
      json: #"{"locationWeatherRequestInFlight":{"id":44418,"title":"London"},"locations":[],"searchQuery":"Lon"}"#)
    #expect(try decode(WeatherSearch.State.self, from: "{}") == WeatherSearch.State())

    try expectRoundTrip(
      WeatherSearch.Action.searchQueryChanged("Lon"), json: #"{"searchQueryChanged":{"_0":"Lon"}}"#)
    try expectRoundTrip(
      WeatherSearch.Action.locationTapped(london), json: #"{"locationTapped":{"_0":{"id":44418,"title":"London"}}}"#)
    try expectRoundTrip(
      WeatherSearch.Action.locationsResponse(.success([london])),
      json: #"{"locationsResponse":{"_0":{"success":[{"id":44418,"title":"London"}]}}}"#)
    try expectRoundTrip(
      WeatherSearch.Action.locationWeatherResponse(.failure(TaskFailure("offline"))),
      json: #"{"locationWeatherResponse":{"_0":{"failure":"offline"}}}"#)
    try expectRoundTrip(WeatherSearch.Action.locationWeatherResponse(.success(lisbonWeather)))
  }
}
