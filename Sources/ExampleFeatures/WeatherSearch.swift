import Foundation
import ReducerCore

// MARK: - Models

/// A place that a location search found.
public struct Location: Codable, Equatable, Hashable, Identifiable, Sendable {
  /// The location's identifier, which ``WeatherClient/weather`` takes.
  public var id: Int
  /// Its name, as `London`.
  public var title: String

  /// A location.
  public init(id: Int, title: String) {
    self.id = id
    self.title = title
  }
}

/// The forecast of a location: one ``ConsolidatedWeather`` a day.
public struct LocationWeather: Codable, Equatable, Hashable, Identifiable, Sendable {
  /// The identifier of the location.
  public var id: Int
  /// The forecast, a day each.
  public var consolidatedWeather: [ConsolidatedWeather]

  /// A forecast.
  public init(id: Int, consolidatedWeather: [ConsolidatedWeather]) {
    self.id = id
    self.consolidatedWeather = consolidatedWeather
  }
}

/// The weather of one day.
public struct ConsolidatedWeather: Codable, Equatable, Hashable, Sendable {
  /// The day.
  public var applicableDate: Date
  /// The highest temperature, in °C.
  public var maxTemp: Double
  /// The lowest temperature, in °C.
  public var minTemp: Double
  /// The temperature now (or the day's typical one), in °C.
  public var theTemp: Double
  /// A name for the weather, as `Showers`, if there is one.
  public var weatherStateName: String?

  /// A day's weather.
  public init(
    applicableDate: Date, maxTemp: Double, minTemp: Double, theTemp: Double, weatherStateName: String? = nil
  ) {
    self.applicableDate = applicableDate
    self.maxTemp = maxTemp
    self.minTemp = minTemp
    self.theTemp = theTemp
    self.weatherStateName = weatherStateName
  }
}

// MARK: - Feature

/// Searches locations as the user types (debounced by 300 ms), and shows the weather of the
/// location tapped.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: WeatherSearch.State()) {
///   WeatherSearch()
/// } withDependencies: {
///   $0.continuousClock = clock
///   $0.weatherClient.searchLocation = { _ in [Location(id: 1, title: "London")] }
/// }
/// await store.send(.searchQueryChanged("Lon")) { $0.searchQuery = "Lon" }
/// await clock.advance(by: .milliseconds(300))
/// await store.receive(.locationsResponse(.success([Location(id: 1, title: "London")]))) { … }
/// ```
///
/// Registered with `reducer-spec` as `WeatherSearch`; its dependencies are ``WeatherClient``
/// (`weatherClient`) and the continuous clock.
@Reducer
public struct WeatherSearch {
  /// The query, the locations found and the weather shown.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// The text of the search field.
    public var searchQuery = ""
    /// The locations the last search found.
    public var locations: [Location] = []
    /// The weather of the location tapped last, once it has arrived.
    public var locationWeather: LocationWeather?
    /// The location whose weather is being fetched, if any.
    public var locationWeatherRequestInFlight: Location?

    /// A state; `State()` is the feature's default state.
    public init(
      searchQuery: String = "",
      locations: [Location] = [],
      locationWeather: LocationWeather? = nil,
      locationWeatherRequestInFlight: Location? = nil
    ) {
      self.searchQuery = searchQuery
      self.locations = locations
      self.locationWeather = locationWeather
      self.locationWeatherRequestInFlight = locationWeatherRequestInFlight
    }
  }

  /// What the user does, and the answers of the weather service.
  public enum Action: Codable, Equatable, Sendable {
    /// The search field's text changed: searches it 300 ms after the last change; an empty
    /// text clears the results and cancels the pending search.
    case searchQueryChanged(String)
    /// The answer of a location search.
    case locationsResponse(TaskResult<[Location]>)
    /// A location was tapped: fetches its weather, cancelling a request in flight.
    case locationTapped(Location)
    /// The answer of a weather request.
    case locationWeatherResponse(TaskResult<LocationWeather>)
  }

  private enum CancelID: Hashable, Sendable {
    case search
    case weather
  }

  @Dependency(\.weatherClient) var weatherClient
  @Dependency(\.continuousClock) var clock

  /// The search's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .searchQueryChanged(let query):
        state.searchQuery = query
        guard !query.isEmpty else {
          state.locations = []
          state.locationWeather = nil
          return .cancel(id: CancelID.search)
        }
        // Read into a constant: Swift 6.3 opens the `any Clock<Duration>` for `debounce` from a
        // constant, but not from the `@Dependency` property itself (in a file that imports
        // Foundation).
        let clock = self.clock
        return .run { [weatherClient] send in
          await send(.locationsResponse(TaskResult { try await weatherClient.searchLocation(query) }))
        }
        // Searched once the query has stayed unchanged for 300 ms; a newer change cancels it.
        .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)

      case .locationsResponse(.success(let locations)):
        state.locations = locations
        return .none

      case .locationsResponse(.failure):
        state.locations = []
        return .none

      case .locationTapped(let location):
        state.locationWeatherRequestInFlight = location
        return .run { [weatherClient] send in
          await send(.locationWeatherResponse(TaskResult { try await weatherClient.weather(location.id) }))
        }
        .cancellable(id: CancelID.weather, cancelInFlight: true)

      case .locationWeatherResponse(.success(let weather)):
        state.locationWeatherRequestInFlight = nil
        state.locationWeather = weather
        return .none

      case .locationWeatherResponse(.failure):
        state.locationWeatherRequestInFlight = nil
        state.locationWeather = nil
        return .none
      }
    }
  }
}

// MARK: - Dependency

/// Finds locations and their weather: `weatherClient` in `DependencyValues`.
///
/// The live value is a demo: it searches a small built-in list of cities and makes up a
/// three-day forecast from the location's identifier, with no network. In tests it is
/// unimplemented: a call fails the test.
@DependencyClient
public struct WeatherClient: Sendable {
  /// The locations whose name matches `query`.
  public var searchLocation: @Sendable (_ query: String) async throws -> [Location]
  /// The forecast of the location with identifier `id`.
  public var weather: @Sendable (_ id: Int) async throws -> LocationWeather
}

extension WeatherClient: DependencyKey {
  /// A demo that answers from a built-in list of cities, in memory.
  public static let liveValue = WeatherClient(
    searchLocation: { query in
      let query = query.lowercased()
      return demoLocations.filter { $0.title.lowercased().contains(query) }
    },
    weather: { id in
      guard demoLocations.contains(where: { $0.id == id }) else {
        throw DemoError("No weather is known for the location \(id).")
      }
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC")!
      let today = calendar.startOfDay(for: Date())
      let names = ["Clear", "Light Cloud", "Showers"]
      let forecast = (0..<3).map { day in
        let base = Double(10 + (id * 7 + day * 3) % 15)
        return ConsolidatedWeather(
          applicableDate: calendar.date(byAdding: .day, value: day, to: today)!,
          maxTemp: base + 4, minTemp: base - 4, theTemp: base,
          weatherStateName: names[(id + day) % names.count])
      }
      return LocationWeather(id: id, consolidatedWeather: forecast)
    })
  /// Unimplemented: a call reports an issue and throws.
  public static let testValue = WeatherClient()
}

extension DependencyValues {
  /// Finds locations and their weather (``WeatherClient``).
  public var weatherClient: WeatherClient {
    get { self[WeatherClient.self] }
    set { self[WeatherClient.self] = newValue }
  }
}

/// The cities that the demo live client knows.
private let demoLocations = [
  Location(id: 44418, title: "London"),
  Location(id: 742_676, title: "Lisbon"),
  Location(id: 2_442_047, title: "Los Angeles"),
  Location(id: 615_702, title: "Paris"),
  Location(id: 1_118_370, title: "Tokyo"),
]
