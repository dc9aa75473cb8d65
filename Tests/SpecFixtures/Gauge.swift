import CasePaths
import Dependencies
import IssueReporting
import ReducerCore
import ReducerCoreSpecs

// A feature for `reducer-spec coverage`'s tests: a gauge whose specs (Tests/Fixtures/coverage)
// leave on purpose an action case unsent (`lower`), a state field unchecked (`label`), a
// nested case unreceived (`readResponse.failure`), a stub unstubbed (`gauge.save`) and a stub
// stubbed that nothing calls (`gauge.calibrate`, which `calibrateTapped` would call).

public struct GaugeClient: Sendable {
  public var read: @Sendable (String) async throws -> Int
  public var save: @Sendable (Int) async -> Void
  public var calibrate: @Sendable () async throws -> Int
}

extension GaugeClient: TestDependencyKey {
  public static let testValue = GaugeClient(
    read: { _ in
      reportIssue("Unimplemented: GaugeClient.read")
      return 0
    },
    save: { _ in reportIssue("Unimplemented: GaugeClient.save") },
    calibrate: {
      reportIssue("Unimplemented: GaugeClient.calibrate")
      return 0
    })
}

extension DependencyValues {
  public var gauge: GaugeClient {
    get { self[GaugeClient.self] }
    set { self[GaugeClient.self] = newValue }
  }
}

public struct Gauge: Reducer, Sendable {
  public struct State: Codable, Equatable, Sendable {
    public var level = 0
    public var label = "Pressure"
    public var settings = Settings()
    public init() {}
  }

  public struct Settings: Codable, Equatable, Sendable {
    public var unit = "bar"
    public var step = 1
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case raise
    case lower
    case readTapped(String)
    case readResponse(TaskResult<Int>)
    case settings(SettingsAction)
    case saveTapped
    case calibrateTapped

    @CasePathable
    public enum SettingsAction: Codable, Equatable, Sendable {
      case setUnit(String)
      case setStep(Int)
    }
  }

  @Dependency(\.gauge) var gauge

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .raise:
      state.level += state.settings.step
      return .none
    case .lower:
      state.level -= state.settings.step
      return .none
    case .readTapped(let sensor):
      return .run { send in
        await send(.readResponse(TaskResult { try await gauge.read(sensor) }))
      }
    case .readResponse(.success(let level)):
      state.level = level
      return .none
    case .readResponse(.failure):
      return .none
    case .settings(.setUnit(let unit)):
      state.settings.unit = unit
      return .none
    case .settings(.setStep(let step)):
      state.settings.step = step
      return .none
    case .saveTapped:
      return .run { [level = state.level] _ in await gauge.save(level) }
    case .calibrateTapped:
      return .run { send in await send(.readResponse(TaskResult { try await gauge.calibrate() })) }
    }
  }
}

public let gaugeFeature = Feature(
  "Gauge", initialState: Gauge.State(),
  stubs: [
    .endpoint("gauge.read", \.gauge.read),
    .endpoint("gauge.save", \.gauge.save),
    .endpoint("gauge.calibrate", \.gauge.calibrate),
  ]
) {
  Gauge()
}
