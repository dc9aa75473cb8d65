import ReducerCore

// MARK: - Feature

/// A number-guessing counter: count up and down until the count meets a random secret.
///
/// ```swift
/// let store = TestStore(initialState: Counter.State()) {
///   Counter()
/// } withDependencies: {
///   $0.generateRandom.generateRandomInt = { _ in 4 }
/// }
/// await store.send(.playNext) { $0.secret = 4 }
/// await store.send(.setCount("4")) { $0.count = 4 }   // checkResult is now .equal
/// ```
///
/// Registered with `reducer-spec` as `Counter`; its dependency is ``GenerateRandom``
/// (`generateRandom`).
@Reducer
public struct Counter {
  /// The count and the secret it is compared with.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// The number the player moves up and down.
    public var count = 0
    /// The number to guess; `playNext` draws a new one.
    public var secret = 0

    /// A state; `State()` is the feature's default state (both zero).
    public init(count: Int = 0, secret: Int = 0) {
      self.count = count
      self.secret = secret
    }

    /// How the count compares with the secret. Derived: neither stored nor encoded.
    public var checkResult: CheckResult {
      if count < secret { return .lower }
      if count > secret { return .higher }
      return .equal
    }
  }

  /// How the count compares with the secret.
  public enum CheckResult: String, Codable, CaseIterable, Equatable, Hashable, Sendable {
    /// The count is below the secret.
    case lower
    /// The count is the secret.
    case equal
    /// The count is above the secret.
    case higher
  }

  /// What the player does.
  public enum Action: Codable, Equatable, Sendable {
    /// Adds one to the count.
    case increment
    /// Takes one from the count.
    case decrement
    /// Sets the count to the number the text holds; text that is not an integer changes nothing.
    case setCount(String)
    /// Starts a new round: the count goes back to zero and a new secret is drawn in -100...100.
    case playNext
  }

  @Dependency(\.generateRandom) var generateRandom

  /// The counter's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.count += 1
        return .none

      case .decrement:
        state.count -= 1
        return .none

      case .setCount(let text):
        if let count = Int(text) {
          state.count = count
        }
        return .none

      case .playNext:
        state.count = 0
        state.secret = generateRandom.generateRandomInt(-100...100)
        return .none
      }
    }
  }
}

// MARK: - Dependency

/// Draws random numbers: `generateRandom` in `DependencyValues`.
///
/// The live value uses the system's random number generator. In tests it is unimplemented:
/// stub it (`$0.generateRandom.generateRandomInt = { _ in 4 }`, or `generateRandom: 4` in a
/// spec), or the test fails.
@DependencyClient
public struct GenerateRandom: Sendable {
  /// A random integer in `range`.
  public var generateRandomInt: @Sendable (_ range: ClosedRange<Int>) -> Int = { _ in 0 }
}

extension GenerateRandom: DependencyKey {
  /// Numbers from the system's random number generator.
  public static let liveValue = GenerateRandom(generateRandomInt: { range in Int.random(in: range) })
  /// Unimplemented: a call reports an issue and returns 0.
  public static let testValue = GenerateRandom()
}

extension DependencyValues {
  /// Draws random numbers (``GenerateRandom``).
  public var generateRandom: GenerateRandom {
    get { self[GenerateRandom.self] }
    set { self[GenerateRandom.self] = newValue }
  }
}
