import Foundation
import ReducerCore

// MARK: - App

/// The Tic-Tac-Toe app's flow: log in, then set up a new game; log out to go back.
///
/// An enum of the two screens' features: its `State` is `login(Login.State)` or
/// `newGame(NewGame.State)`, and each screen's reducer runs on its case (`ifCaseLet`). An
/// action for the screen that is not on show is reported as an issue, so a test or spec that
/// sends one fails:
///
/// ```swift
/// let store = TestStore(initialState: TicTacToe.State()) {
///   TicTacToe.body
/// } withDependencies: {
///   $0.authenticationClient.login = { _ in AuthenticationResponse(token: "deadbeef") }
/// }
/// await store.send(.login(.loginButtonTapped)) { $0 = .login(…) }
/// await store.receive(.login(.loginResponse(.success(…)))) { $0 = .newGame(NewGame.State()) }
/// ```
///
/// Registered with `reducer-spec` as `TicTacToe`; its dependency is
/// ``AuthenticationClient`` (`authenticationClient`).
@Reducer
public enum TicTacToe {
  /// The login screen, where the app starts.
  case login(Login)
  /// The new-game screen, after a successful login.
  case newGame(NewGame)

  /// The screens' reducers, and the moves between the screens.
  public static var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .login(.loginResponse(.success)):
        state = .newGame(NewGame.State())
        return .none

      case .login:
        return .none

      case .newGame(.logoutButtonTapped):
        state = .login(Login.State())
        return .none

      case .newGame:
        return .none
      }
    }
    .ifCaseLet(\.login, action: \.login) {
      Login()
    }
    .ifCaseLet(\.newGame, action: \.newGame) {
      NewGame()
    }
  }
}

extension TicTacToe.State: Codable, Equatable, Sendable {
  /// The feature's default state: the login screen, empty.
  public init() {
    self = .login(Login.State())
  }
}

extension TicTacToe.Action: Codable, Equatable, Sendable {}

// MARK: - Login

/// The login screen: an email and a password, checked by ``AuthenticationClient``.
///
/// A successful login is handled by ``TicTacToe``, which moves to the new-game screen; a
/// failed one shows the error's message as an alert.
@Reducer
public struct Login {
  /// The form and the login request.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// The email typed.
    public var email = ""
    /// The password typed.
    public var password = ""
    /// Whether both the email and the password are filled in.
    public var isFormValid = false
    /// Whether a login request is running.
    public var isLoginRequestInFlight = false
    /// The message of the alert on show, if any: the error of a failed login.
    public var alert: String?

    /// A state; `Login.State()` is the screen's first state.
    public init(
      email: String = "",
      password: String = "",
      isFormValid: Bool = false,
      isLoginRequestInFlight: Bool = false,
      alert: String? = nil
    ) {
      self.email = email
      self.password = password
      self.isFormValid = isFormValid
      self.isLoginRequestInFlight = isLoginRequestInFlight
      self.alert = alert
    }
  }

  /// What the user does, and the answer of the login request.
  public enum Action: Codable, Equatable, Sendable {
    /// The email field changed.
    case emailChanged(String)
    /// The password field changed.
    case passwordChanged(String)
    /// The login button was tapped: sends the email and password to ``AuthenticationClient``.
    case loginButtonTapped
    /// The answer of the login request.
    case loginResponse(TaskResult<AuthenticationResponse>)
    /// The alert was dismissed.
    case alertDismissed
  }

  @Dependency(\.authenticationClient) var authenticationClient

  /// The login screen's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .emailChanged(let email):
        state.email = email
        state.isFormValid = !state.email.isEmpty && !state.password.isEmpty
        return .none

      case .passwordChanged(let password):
        state.password = password
        state.isFormValid = !state.email.isEmpty && !state.password.isEmpty
        return .none

      case .loginButtonTapped:
        state.isLoginRequestInFlight = true
        let request = LoginRequest(email: state.email, password: state.password)
        return .run { [authenticationClient] send in
          await send(.loginResponse(TaskResult { try await authenticationClient.login(request) }))
        }

      case .loginResponse(.success):
        // The app moves on to the new-game screen (see `TicTacToe`).
        state.isLoginRequestInFlight = false
        return .none

      case .loginResponse(.failure(let error)):
        state.isLoginRequestInFlight = false
        state.alert = message(of: error)
        return .none

      case .alertDismissed:
        state.alert = nil
        return .none
      }
    }
  }
}

// MARK: - New game

/// The new-game screen: the two players' names, and logging out.
///
/// Logging out is handled by ``TicTacToe``, which goes back to the login screen.
@Reducer
public struct NewGame {
  /// The players' names.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// The name of the player who plays O.
    public var oPlayerName = ""
    /// The name of the player who plays X.
    public var xPlayerName = ""

    /// A state; `NewGame.State()` is the screen's first state.
    public init(oPlayerName: String = "", xPlayerName: String = "") {
      self.oPlayerName = oPlayerName
      self.xPlayerName = xPlayerName
    }
  }

  /// What the user does.
  public enum Action: Codable, Equatable, Sendable {
    /// The O player's name changed.
    case oPlayerNameChanged(String)
    /// The X player's name changed.
    case xPlayerNameChanged(String)
    /// The logout button was tapped.
    case logoutButtonTapped
  }

  /// The new-game screen's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .oPlayerNameChanged(let name):
        state.oPlayerName = name
        return .none

      case .xPlayerNameChanged(let name):
        state.xPlayerName = name
        return .none

      case .logoutButtonTapped:
        // The app goes back to the login screen (see `TicTacToe`).
        return .none
      }
    }
  }
}

// MARK: - Dependency

/// The credentials that ``AuthenticationClient/login`` checks.
public struct LoginRequest: Codable, Equatable, Hashable, Sendable {
  /// The email.
  public var email: String
  /// The password.
  public var password: String

  /// A login request.
  public init(email: String, password: String) {
    self.email = email
    self.password = password
  }
}

/// The answer of a successful login.
public struct AuthenticationResponse: Codable, Equatable, Hashable, Sendable {
  /// The session's token.
  public var token: String

  /// A response.
  public init(token: String) {
    self.token = token
  }
}

/// Logs users in: `authenticationClient` in `DependencyValues`.
///
/// The live value is a demo, with no server: it accepts any email with an `@` and the
/// password `password`, and answers every other request with the error
/// `Invalid email or password.` In tests it is unimplemented: a call fails the test.
@DependencyClient
public struct AuthenticationClient: Sendable {
  /// Logs in with an email and a password.
  public var login: @Sendable (_ request: LoginRequest) async throws -> AuthenticationResponse
}

extension AuthenticationClient: DependencyKey {
  /// A demo that accepts an email with an `@` and the password `password`, in memory.
  public static let liveValue = AuthenticationClient(login: { request in
    guard request.email.contains("@"), request.password == "password" else {
      throw DemoError("Invalid email or password.")
    }
    return AuthenticationResponse(token: "demo-token")
  })
  /// Unimplemented: a call reports an issue and throws.
  public static let testValue = AuthenticationClient()
}

extension DependencyValues {
  /// Logs users in (``AuthenticationClient``).
  public var authenticationClient: AuthenticationClient {
    get { self[AuthenticationClient.self] }
    set { self[AuthenticationClient.self] = newValue }
  }
}
