import ExampleFeatures
import ReducerCoreSpecs
import SpecRunner

/// The example features, each with a stub for every dependency it uses (`uuid` is a
/// built-in stub, and `dismiss` is the architecture's own): what the `reducer-spec`
/// executable registers, and what `ExampleSpecsTests` runs `specs/` with. A module of its
/// own because ExampleFeatures must not know SpecRunner.
public let exampleFeatures: [Feature] = [
  Feature(
    "Counter", initialState: Counter.State(),
    stubs: [
      .value("generateRandom", as: Int.self) { dependencies, next in
        dependencies.generateRandom.generateRandomInt = { _ in next() }
      }
    ]
  ) {
    Counter()
  },
  Feature(
    "RepositorySearch", initialState: RepositorySearch.State(),
    stubs: [
      .endpoint("repositoryClient.fetchRepositories", \.repositoryClient.fetchRepositories)
    ]
  ) {
    RepositorySearch()
  },
  Feature(
    "WeatherSearch", initialState: WeatherSearch.State(),
    stubs: [
      .endpoint("weatherClient.searchLocation", \.weatherClient.searchLocation),
      .endpoint("weatherClient.weather", \.weatherClient.weather),
    ]
  ) {
    WeatherSearch()
  },
  Feature(
    "TicTacToe", initialState: TicTacToe.State(),
    stubs: [
      .endpoint("authenticationClient.login", \.authenticationClient.login)
    ]
  ) {
    TicTacToe.body
  },
  Feature(
    "Archive", initialState: Archive.State(),
    stubs: [
      .endpoint("archiveClient.fetch", \.archiveClient.fetch),
      .endpoint("storedArchive.storedIds", \.storedArchive.storedIds),
      .endpoint("storedArchive.add", \.storedArchive.add),
      .endpoint("storedArchive.remove", \.storedArchive.remove),
    ]
  ) {
    Archive()
  },
  Feature("Todos", initialState: Todos.State()) {
    Todos()
  },
  Feature(
    "Stopwatch", initialState: Stopwatch.State(),
    stubs: [
      .stream("screenshots.screenshots", \.screenshots.screenshots)
    ]
  ) {
    Stopwatch()
  },
  Feature("Contacts", initialState: Contacts.State()) {
    Contacts()
  },
  Feature("ReadingList", initialState: ReadingList.State()) {
    ReadingList()
  },
  reduxArchive,
]
