import CasePaths
import Dependencies
import ExampleFeatures
import Foundation
import ReducerCore
import Testing

@MainActor
@Suite struct TicTacToeTests {
  @Test func aSuccessfulLoginOpensANewGameAndLogoutGoesBack() async {
    let requests = LockIsolated<[LoginRequest]>([])
    let store = TestStore(initialState: TicTacToe.State()) {
      TicTacToe.body
    } withDependencies: {
      $0.authenticationClient.login = { request in
        requests.withValue { $0.append(request) }
        return AuthenticationResponse(token: "deadbeef")
      }
    }
    await store.send(.login(.emailChanged("blob@example.com"))) {
      $0.modify(\.login) { $0.email = "blob@example.com" }
    }
    await store.send(.login(.passwordChanged("password"))) {
      $0.modify(\.login) {
        $0.password = "password"
        $0.isFormValid = true
      }
    }
    await store.send(.login(.loginButtonTapped)) {
      $0.modify(\.login) { $0.isLoginRequestInFlight = true }
    }
    await store.receive(.login(.loginResponse(.success(AuthenticationResponse(token: "deadbeef"))))) {
      $0 = .newGame(NewGame.State())
    }
    #expect(requests.value == [LoginRequest(email: "blob@example.com", password: "password")])

    await store.send(.newGame(.xPlayerNameChanged("Blob"))) {
      $0.modify(\.newGame) { $0.xPlayerName = "Blob" }
    }
    await store.send(.newGame(.oPlayerNameChanged("Blob Jr."))) {
      $0.modify(\.newGame) { $0.oPlayerName = "Blob Jr." }
    }
    await store.send(.newGame(.logoutButtonTapped)) {
      $0 = .login(Login.State())
    }
  }

  @Test func theFormIsValidOnlyWithAnEmailAndAPassword() async {
    let store = TestStore(initialState: TicTacToe.State()) { TicTacToe.body }
    await store.send(.login(.passwordChanged("password"))) {
      $0 = .login(Login.State(password: "password"))
    }
    await store.send(.login(.emailChanged("blob@example.com"))) {
      $0 = .login(Login.State(email: "blob@example.com", password: "password", isFormValid: true))
    }
    await store.send(.login(.passwordChanged(""))) {
      $0 = .login(Login.State(email: "blob@example.com"))
    }
  }

  @Test func aFailedLoginShowsTheErrorAndStaysOnLogin() async {
    let store = TestStore(
      initialState: TicTacToe.State.login(Login.State(email: "blob@example.com", password: "wrong", isFormValid: true))
    ) {
      TicTacToe.body
    } withDependencies: {
      $0.authenticationClient.login = { _ in throw TestError("Invalid email or password.") }
    }
    await store.send(.login(.loginButtonTapped)) {
      $0.modify(\.login) { $0.isLoginRequestInFlight = true }
    }
    await store.receive(.login(.loginResponse(.failure(TaskFailure("Invalid email or password."))))) {
      $0.modify(\.login) {
        $0.isLoginRequestInFlight = false
        $0.alert = "Invalid email or password."
      }
    }
    await store.send(.login(.alertDismissed)) {
      $0.modify(\.login) { $0.alert = nil }
    }
  }

  @Test func anActionForTheScreenNotOnShowIsReportedAsAnIssue() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: TicTacToe.State()) { TicTacToe.body }
      await store.send(.newGame(.xPlayerNameChanged("Blob")))
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("received a child action when child state was set to a different case") == true)
    #expect(issues.first?.contains("TicTacToe.swift") == true)
  }

  @Test func aLoginActionAfterLoginIsReportedAsAnIssue() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: TicTacToe.State.newGame(NewGame.State())) { TicTacToe.body }
      await store.send(.login(.emailChanged("blob@example.com")))
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("received a child action when child state was set to a different case") == true)
  }

  @Test func codableShapes() throws {
    try expectRoundTrip(
      TicTacToe.State(),
      json: #"{"login":{"_0":{"email":"","isFormValid":false,"isLoginRequestInFlight":false,"password":""}}}"#)
    try expectRoundTrip(
      TicTacToe.State.login(Login.State(email: "blob@example.com", alert: "Invalid email or password.")),
      json: """
        {"login":{"_0":{"alert":"Invalid email or password.","email":"blob@example.com","isFormValid":false,\
        "isLoginRequestInFlight":false,"password":""}}}
        """)
    try expectRoundTrip(
      TicTacToe.State.newGame(NewGame.State(xPlayerName: "Blob")),
      json: #"{"newGame":{"_0":{"oPlayerName":"","xPlayerName":"Blob"}}}"#)
    // A state's missing fields decode as their defaults: `self: { newGame: { xPlayerName: Blob } }`.
    #expect(
      try decode(TicTacToe.State.self, from: #"{"newGame":{"_0":{"xPlayerName":"Blob"}}}"#)
        == .newGame(NewGame.State(xPlayerName: "Blob")))

    try expectRoundTrip(
      TicTacToe.Action.login(.emailChanged("blob@example.com")),
      json: #"{"login":{"_0":{"emailChanged":{"_0":"blob@example.com"}}}}"#)
    try expectRoundTrip(
      TicTacToe.Action.login(.loginResponse(.success(AuthenticationResponse(token: "deadbeef")))),
      json: #"{"login":{"_0":{"loginResponse":{"_0":{"success":{"token":"deadbeef"}}}}}}"#)
    try expectRoundTrip(
      TicTacToe.Action.login(.loginResponse(.failure(TaskFailure("Invalid email or password.")))),
      json: #"{"login":{"_0":{"loginResponse":{"_0":{"failure":"Invalid email or password."}}}}}"#)
    try expectRoundTrip(TicTacToe.Action.newGame(.logoutButtonTapped), json: #"{"newGame":{"_0":{"logoutButtonTapped":{}}}}"#)
    try expectRoundTrip(
      LoginRequest(email: "blob@example.com", password: "password"),
      json: #"{"email":"blob@example.com","password":"password"}"#)
  }
}
