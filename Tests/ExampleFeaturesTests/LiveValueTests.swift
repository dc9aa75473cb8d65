import Dependencies
import ExampleFeatures
import Foundation
import ReducerCore
import Testing

/// The live values are demos that answer from memory; they must work without a network.
@Suite struct LiveValueTests {
  @Test func generateRandomStaysInTheRange() {
    for _ in 0..<100 {
      #expect((-100...100).contains(GenerateRandom.liveValue.generateRandomInt(-100...100)))
    }
  }

  @Test func repositoryClientSearchesItsBuiltInList() async throws {
    let found = try await RepositoryClient.liveValue.fetchRepositories("SWIFT")
    #expect(found.contains { $0.fullName == "apple/swift" })
    #expect(try await RepositoryClient.liveValue.fetchRepositories("") == [])
    #expect(try await RepositoryClient.liveValue.fetchRepositories("no such thing") == [])
  }

  @Test func weatherClientKnowsItsCities() async throws {
    let locations = try await WeatherClient.liveValue.searchLocation("lon")
    #expect(locations.map(\.title) == ["London"])
    let weather = try await WeatherClient.liveValue.weather(locations[0].id)
    #expect(weather.id == locations[0].id)
    #expect(weather.consolidatedWeather.count == 3)
    #expect(weather.consolidatedWeather.allSatisfy { $0.minTemp <= $0.theTemp && $0.theTemp <= $0.maxTemp })
    await #expect(throws: (any Error).self) { try await WeatherClient.liveValue.weather(-1) }
  }

  @Test func authenticationClientAcceptsOnlyTheDemoPassword() async throws {
    let response = try await AuthenticationClient.liveValue.login(
      LoginRequest(email: "blob@example.com", password: "password"))
    #expect(response == AuthenticationResponse(token: "demo-token"))
    do {
      _ = try await AuthenticationClient.liveValue.login(LoginRequest(email: "blob@example.com", password: "wrong"))
      Issue.record("A wrong password logged in.")
    } catch {
      #expect(error.localizedDescription == "Invalid email or password.")
    }
  }

  @Test func archiveClientFiltersByKeywordAndCategory() async throws {
    let all = try await ArchiveClient.liveValue.fetch(ArchiveQuery(keyword: "", category: ""))
    #expect(all.count == 5)
    let ramen = try await ArchiveClient.liveValue.fetch(ArchiveQuery(keyword: "", category: "Ramen"))
    #expect(ramen.allSatisfy { $0.category == "Ramen" } && ramen.count == 3)
    let tonkotsu = try await ArchiveClient.liveValue.fetch(ArchiveQuery(keyword: "TONKOTSU", category: "Ramen"))
    #expect(tonkotsu.map(\.id) == [1])
  }

  @Test func storedArchiveKeepsIdentifiersInMemory() async {
    let client = StoredArchiveClient.liveValue
    await client.add(101)
    await client.add(102)
    await client.add(101)
    #expect(await client.storedIds().filter { $0 > 100 } == [101, 102])
    await client.remove(101)
    await client.remove(102)
    #expect(await client.storedIds().filter { $0 > 100 } == [])
  }

  @Test func theScreenshotsStreamStaysOpenUntilItsListenerIsCancelled() async {
    let screenshots = await ScreenshotsClient.liveValue.screenshots()
    let listener = Task {
      var count = 0
      for await _ in screenshots { count += 1 }
      return count
    }
    try? await Task.sleep(for: .milliseconds(50))
    listener.cancel()
    #expect(await listener.value == 0)
  }

  @MainActor
  @Test func theArchiveRunsOnTheLiveValuesInALiveStore() async {
    let store = Store(initialState: Archive.State()) {
      Archive()
    } withDependencies: {
      $0.context = .live
    }
    await store.send(.categorySelected("Pizza")).finish()
    #expect(store.state.isLoading == false)
    #expect(store.state.items.map(\.dishName) == ["Margherita"])
  }
}
