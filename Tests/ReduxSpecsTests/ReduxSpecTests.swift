import Clocks
import Dependencies
import ExampleFeatureRegistry
import Foundation
import Redux
import ReduxSpecs
import SpecAuthoring
import Testing
import TestSupport

@testable import SpecRunner

// MARK: - A small Redux feature

/// A ping that a middleware answers with a pong from a task, after a second on the
/// continuous clock: the shape of a seed app's middleware, `Task { … dispatch(…) }`.
struct PingState: ReduxState, Codable, Equatable {
  var pings = 0
  var pongs = 0
}

struct PingAction: Action, Codable, Equatable {}
struct PongAction: Action, Codable, Equatable {}
/// Dispatched by the middleware for a `StrayAction`, but not registered.
struct UnregisteredAction: Action, Codable, Equatable {}
struct StrayAction: Action, Codable, Equatable {}
/// Dispatched by the middleware for a `LoudAction`: specs cannot read or compare it.
struct ShapelessAction: Action {}
struct LoudAction: Action, Codable, Equatable {}
/// Answered with a pong from a task that first sleeps for real, as a network call would.
struct SlowPingAction: Action, Codable, Equatable {}

let pingReducer: Reducer<PingState> = { state, action in
  var state = state
  switch action {
  case is PingAction: state.pings += 1
  case is PongAction: state.pongs += 1
  default: break
  }
  return state
}

let pingMiddleware: Middleware<PingState> = { _, action, dispatch in
  switch action {
  case is PingAction:
    Task {
      @Dependency(\.continuousClock) var clock
      try await clock.sleep(for: .seconds(1))
      dispatch(PongAction())
    }
  case is StrayAction:
    dispatch(UnregisteredAction())
  case is LoudAction:
    dispatch(ShapelessAction())
  case is SlowPingAction:
    Task {
      try? await Task.sleep(for: .milliseconds(10))
      dispatch(PongAction())
    }
  default:
    break
  }
}

let pingFeature = Feature(
  "Ping", initialState: PingState(), reducer: pingReducer, middlewares: [pingMiddleware],
  actions: [PingAction.self, PongAction.self, StrayAction.self, LoudAction.self, SlowPingAction.self])

/// Ping with a store that waits up to a minute for its tasks. In `swift test`, while another
/// test's `TestStore` lives, every task runs on the main queue, behind the other tests' work:
/// a middleware's task may start seconds after it is made.
let patientPingFeature: Feature = {
  let types = ReduxActionTypes(
    feature: "Ping",
    types: [PingAction.self, PongAction.self, StrayAction.self, LoudAction.self, SlowPingAction.self])
  return Feature("Ping", initialState: PingState(), userInfo: [.reduxActionTypes: types]) {
    initialState, prepareDependencies, location in
    let store = ReduxTestStore(
      initialState: initialState, reducer: pingReducer, middlewares: [pingMiddleware], actionTypes: types,
      prepareDependencies: prepareDependencies, at: location)
    store.timeout = .seconds(60)
    return store
  }
}()

let reduxArchiveFeature = exampleFeatures.first { $0.name == "ReduxArchive" }!

/// Runs every scenario of a spec; returns the file's errors and each scenario's failures, as
/// `LINE:COLUMN: MESSAGE`.
@MainActor
func runRedux(_ text: String, feature: Feature) async throws -> (errors: [String], failures: [[String]]) {
  let spec = try TemporaryFile(Array(text.utf8))
  defer { withExtendedLifetime(spec) {} }
  let engine = SpecEngine(features: [feature])
  let loaded = engine.load(files: [spec.path])[0]
  var failures: [[String]] = []
  for scenario in loaded.scenarios {
    let result = await engine.run(scenario.id, timeout: .seconds(60)) { _ in }
    failures.append(result.failures.map { "\($0.location.line):\($0.location.column): \($0.message)" })
  }
  return (loaded.errors.map { "\($0.location.line):\($0.location.column): \($0.message)" }, failures)
}

// MARK: - Tests

@MainActor @Suite struct ReduxSpecTests {
  /// A middleware's task runs on a thread of its own: `record` waits for what it dispatches
  /// before it writes the next `send:`, however long the task takes to get going.
  @Test func recordWaitsForWhatAMiddlewareTaskDispatchesBeforeTheNextSend() async throws {
    let spec = try TemporaryFile(
      Array(
        """
        feature: Ping
        scenarios:
          - name: two slow pings
            steps:
              - send: SlowPingAction
              - send: PingAction
              - skipInFlightEffects: true

        """.utf8))
    let recorded = await SpecRecorder.record(
      spec.path, filter: nil, engine: SpecEngine(features: [patientPingFeature]), onScenario: {}, onStep: { _ in })
    #expect(recorded.errors == "")
    #expect(
      String(decoding: recorded.rewritten ?? [], as: UTF8.self) == """
        feature: Ping
        scenarios:
          - name: two slow pings
            steps:
              - send: SlowPingAction
              - receive: PongAction
                state: { pongs: 1 }
              - send: PingAction
                state: { pings: 1 }
              - skipInFlightEffects: true

        """)
  }

  @Test func aMiddlewareTaskIsAnEffectThatTheClockAndReceiveWaitFor() async throws {
    let run = try await runRedux(
      """
      feature: Ping
      scenarios:
        - name: a pong a second later
          steps:
            - send: PingAction
              state: { pings: 1 }
            - advance: 1s
            - receive: PongAction
              state: { pongs: 1 }
      """, feature: pingFeature)
    #expect(run.errors == [])
    #expect(run.failures == [[]])
  }

  @Test func aMiddlewareTaskStillRunningFailsAtTheSendThatStartedIt() async throws {
    let run = try await runRedux(
      """
      feature: Ping
      scenarios:
        - name: the clock never moves
          steps:
            - send: PingAction
              state: { pings: 1 }
      """, feature: pingFeature)
    #expect(
      run.failures == [
        [
          """
          5:9: An effect returned for this action is still running. It must complete before the end of the test.

          To fix, make every task that the middlewares start for this action finish by the end of the scenario:

          • If a task sleeps on a test clock, add an "advance:" step that moves the clock far enough for it to wake up.

          • If a task waits for a response held with "after:", add an "advance:" step past it.

          • If a task only needs a moment, add a "finish: true" step.

          To leave the tasks running unchecked, add a "skipInFlightEffects: true" step, or check less with "exhaustivity: off".
          """
        ]
      ])
  }

  @Test func aReceiveThatNothingAnswersFailsAfterItsTimeout() async throws {
    let run = try await runRedux(
      """
      feature: Ping
      scenarios:
        - name: the pong waits for the clock
          steps:
            - send: PingAction
              state: { pings: 1 }
            - receive: PongAction
              timeout: 50ms
              state: { pongs: 1 }
            - skipInFlightEffects: true
      """, feature: pingFeature)
    #expect(
      run.failures == [
        [
          """
          7:9: Expected to receive an action, but received none after 0.05 seconds.

          There are effects in-flight. If the task that dispatches this action sleeps on a clock, add an "advance:" step that moves the test clock far enough for it to wake up; if it only needs more time, give the step a longer "timeout:".
          """,
          """
          7:9: Expected to receive the following action, but didn't:

            PongAction()
          """,
        ]
      ])
  }

  @Test func cancelStopsWaitingForASendsTasksAndDropsWhatTheyDispatch() async throws {
    let run = try await runRedux(
      """
      feature: Ping
      scenarios:
        - name: a cancelled ping
          steps:
            - send: PingAction
              as: ping
              state: { pings: 1 }
            - cancel: ping
            - advance: 1s
            - finish: true
      """, feature: pingFeature)
    #expect(run.failures == [[]])
  }

  @Test func anActionThatTheFeatureDoesNotRegisterFailsWhereItIsDispatched() async throws {
    let run = try await runRedux(
      """
      feature: Ping
      scenarios:
        - name: a stray action
          steps:
            - send: StrayAction
        - name: an action specs cannot read
          steps:
            - send: LoudAction
      """, feature: pingFeature)
    #expect(
      run.failures == [
        ["5:9: A middleware dispatched `UnregisteredAction`, which Ping does not register: add `UnregisteredAction.self` to its `actions:`"],
        ["8:9: A middleware dispatched `ShapelessAction`, which specs cannot receive: declare it `Codable` and `Equatable`, and add `ShapelessAction.self` to the `actions:` of Ping"],
      ])
  }

  @Test func theArchiveFailsAtTheStepWithTestStoresWords() async throws {
    let run = try await runRedux(
      """
      feature: ReduxArchive
      dependencies:
        storedArchiveDataRepository.getAllObjectsFromRealm: { returns: [] }
        requestArchiveRepository.getArchiveResponse: { returns: { result: [] } }
      scenarios:
        - name: a wrong state
          steps:
            - send: RequestArchiveWithNoConditionsAction
              state: { archiveState.isLoading: false }
            - receive: { SuccessArchiveAction: { archiveSceneEntities: [], storedIds: [] } }
              state: { archiveState.isLoading: false }
              note: The state after a failed step is the one the reducer left, so this step passes.
        - name: an action left unreceived
          steps:
            - send: RequestArchiveWithNoConditionsAction
              state: { archiveState.isLoading: true }
        - name: another action received
          steps:
            - send: RequestArchiveWithNoConditionsAction
              state: { archiveState.isLoading: true }
            - receive: FailureArchiveAction
      """, feature: reduxArchiveFeature)
    #expect(run.errors == [])
    let expected = [
        [
          """
          8:9: A state change does not match expectation.

              \u{2007} AppState(
              \u{2007}   archiveState: ArchiveState(
              \u{2007}     inputText: "",
              \u{2007}     selectedCategory: "",
              \u{2007}     archiveCellViewObjects: [],
              −     isLoading: false,
              +     isLoading: true,
              \u{2007}     isError: false
              \u{2007}   )
              \u{2007} )

          (Expected: −, Actual: +)
          """
        ],
        [
          """
          13:5: The store received 1 unexpected action.

            Unhandled actions:
              SuccessArchiveAction

          To fix, receive these actions with "receive:" steps, skip them with "skipReceivedActions: true", or check less with "exhaustivity: off".
          """
        ],
        [
          """
          21:9: Received unexpected action:

              − FailureArchiveAction()
              + SuccessArchiveAction(
              +   archiveSceneEntities: [],
              +   storedIds: []
              + )

          (Expected: −, Received: +)
          """
        ],
      ]
    #expect(run.failures.count == expected.count)
    for (actual, expected) in zip(run.failures, expected) { #expect(actual == expected) }
  }

  @Test func exhaustivityOffChecksOnlyWhatTheStepsSay() async throws {
    let run = try await runRedux(
      """
      feature: ReduxArchive
      dependencies:
        storedArchiveDataRepository.getAllObjectsFromRealm: { returns: [] }
        requestArchiveRepository.getArchiveResponse: { returns: { result: [] } }
      scenarios:
        - name: only the keyword
          exhaustivity: off
          steps:
            - send: { RequestArchiveWithInputTextAction: { inputText: a } }
              state: { archiveState.inputText: a }
            - finish: true
        - name: a wrong keyword
          exhaustivity: off
          steps:
            - send: { RequestArchiveWithInputTextAction: { inputText: a } }
              state: { archiveState.inputText: b }
            - finish: true
      """, feature: reduxArchiveFeature)
    #expect(run.errors == [])
    #expect(run.failures.count == 2)
    #expect(run.failures[0] == [])
    #expect(run.failures[1].map { $0.prefix(50) } == ["15:9: A state change does not match expectation.\n\n"])
  }

  @Test func misspeltActionTypesGetTheClosestRegisteredOne() async throws {
    let run = try await runRedux(
      """
      feature: ReduxArchive
      scenarios:
        - name: typos
          steps:
            - send: RequestArchiveWithNoConditionAction
            - send: { RequestArchiveWithInputTxtAction: { inputText: a } }
            - send: RequestArchiveWithInputTextAction
            - receive: .SucessArchiveAction
      """, feature: reduxArchiveFeature)
    let actions =
      "`RequestArchiveWithInputTextAction`, `RequestArchiveWithSelectedCategoryAction`, `RequestArchiveWithNoConditionsAction`, "
      + "`SuccessArchiveAction`, `FailureArchiveAction`, `AddArchiveObjectAction`, `DeleteArchiveObjectAction`"
    #expect(
      run.errors == [
        "5:15: unknown action `RequestArchiveWithNoConditionAction` for ReduxArchive; did you mean `RequestArchiveWithNoConditionsAction`?; the actions of ReduxArchive are \(actions)",
        "6:17: unknown action `RequestArchiveWithInputTxtAction` for ReduxArchive; did you mean `RequestArchiveWithInputTextAction`?; the actions of ReduxArchive are \(actions)",
        "7:15: `RequestArchiveWithInputTextAction` has fields: write them as `{ RequestArchiveWithInputTextAction: { … } }`",
        "8:18: unknown case `SucessArchiveAction` for ReduxAction in the case path `.SucessArchiveAction`; did you mean `SuccessArchiveAction`?; the cases of ReduxAction are \(actions)",
      ])
  }

  @Test func anActionIsWrittenBackAsTheSpecWritesIt() throws {
    let types = ReduxActionTypes(feature: "Ping", types: [PingAction.self, PongAction.self])
    var decoder = YAMLDecoder()
    decoder.userInfo = [.reduxActionTypes: types]
    let ping = try decoder.decode(ReduxAction.self, from: "PingAction")
    #expect(ping == ReduxAction(PingAction()))
    #expect(ping != ReduxAction(PongAction()))
    #expect(YAMLEmitter.flow(try YAMLEncoder().encode(ping)) == "PingAction")
  }
}
