import Dependencies
import ExampleFeatures
import Foundation
import ReducerCore
import Testing

@MainActor
@Suite struct CounterTests {
  @Test func countsUpAndDownAndSetsTheCountFromText() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.increment) { $0.count = 2 }
    await store.send(.decrement) { $0.count = 1 }
    await store.send(.setCount("42")) { $0.count = 42 }
    await store.send(.setCount("-7")) { $0.count = -7 }
    // Text that is not an integer changes nothing.
    await store.send(.setCount("forty-two"))
    await store.send(.setCount(""))
    await store.send(.setCount("4.2"))
  }

  @Test func playNextResetsTheCountAndDrawsASecretInMinus100To100() async {
    let ranges = LockIsolated<[ClosedRange<Int>]>([])
    let store = TestStore(initialState: Counter.State(count: 5, secret: 1)) {
      Counter()
    } withDependencies: {
      $0.generateRandom.generateRandomInt = { range in
        ranges.withValue { $0.append(range) }
        return 4
      }
    }
    await store.send(.playNext) {
      $0.count = 0
      $0.secret = 4
    }
    #expect(ranges.value == [-100...100])
  }

  @Test func eachRoundDrawsANewSecret() async {
    let secrets = LockIsolated([4, -7])
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.generateRandom.generateRandomInt = { _ in secrets.withValue { $0.removeFirst() } }
    }
    await store.send(.playNext) { $0.secret = 4 }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.playNext) {
      $0.count = 0
      $0.secret = -7
    }
  }

  @Test func checkResultComparesTheCountWithTheSecret() {
    #expect(Counter.State(count: 3, secret: 4).checkResult == .lower)
    #expect(Counter.State(count: 4, secret: 4).checkResult == .equal)
    #expect(Counter.State(count: 5, secret: 4).checkResult == .higher)
    #expect(Counter.State().checkResult == .equal)
  }

  @Test func playNextWithoutAStubFailsNamingTheEndpoint() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.playNext)
    }
    #expect(issues == ["Unimplemented: 'GenerateRandom.generateRandomInt'"])
  }

  @Test func codableShapes() throws {
    try expectRoundTrip(Counter.State(count: 3, secret: -4), json: #"{"count":3,"secret":-4}"#)
    // The derived checkResult is not encoded; missing fields decode as their defaults.
    #expect(try decode(Counter.State.self, from: #"{"secret":4}"#) == Counter.State(count: 0, secret: 4))
    #expect(try decode(Counter.State.self, from: "{}") == Counter.State())

    try expectRoundTrip(Counter.Action.increment, json: #"{"increment":{}}"#)
    try expectRoundTrip(Counter.Action.decrement, json: #"{"decrement":{}}"#)
    try expectRoundTrip(Counter.Action.playNext, json: #"{"playNext":{}}"#)
    try expectRoundTrip(Counter.Action.setCount("42"), json: #"{"setCount":{"_0":"42"}}"#)
    try expectRoundTrip(Counter.CheckResult.higher, json: #""higher""#)
  }
}
