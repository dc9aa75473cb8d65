import Clocks
import Dependencies
import Foundation
import ReducerCore
import Testing

/// Each store has its own dependencies, its effects use them, and the built-ins that a test
/// must control fail when used without an override.
@MainActor
@Suite struct DependencyTests {
  @Test func overridesBelongToOneStore() async {
    let issues = await collectIssues {
      let four = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.generateRandom.generateRandomInt = { _ in 4 }
      }
      let nine = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.generateRandom.generateRandomInt = { _ in 9 }
      }
      await four.send(.playNext) { $0.secret = 4 }
      await nine.send(.playNext) { $0.secret = 9 }
      await four.send(.playNext)
    }
    #expect(issues.isEmpty)
  }

  @Test func dependenciesCanChangeMidTest() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.generateRandom.generateRandomInt = { _ in 4 }
      }
      await store.send(.playNext) { $0.secret = 4 }
      store.dependencies.generateRandom.generateRandomInt = { _ in -7 }
      await store.send(.playNext) { $0.secret = -7 }
    }
    #expect(issues.isEmpty)
  }

  @Test func effectsUseTheStoresClock() async {
    let clock = TestClock()
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.incrementLater)
      await clock.advance(by: .milliseconds(999))
      await store.receive(.incremented, timeout: .milliseconds(10)) { $0.count = 1 }
      await store.skipInFlightEffects(strict: false)
    }
    // Not yet: the effect sleeps for a whole second. As in TCA: the wait timed out, then the
    // action was not received.
    #expect(issues.count == 2)
    #expect(issues.first?.message.hasPrefix("Expected to receive an action, but received none after") == true)

    let later = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.incrementLater)
      await clock.advance(by: .seconds(1))
      await store.receive(.incremented) { $0.count = 1 }
    }
    #expect(later.isEmpty)
  }

  @Test func theBuiltInsFailWhenUsedWithoutAnOverride() async {
    struct UsesEverything: Reducer {
      @Dependency(\.uuid) var uuid
      @Dependency(\.date) var date
      @Dependency(\.withRandomNumberGenerator) var random
      @Dependency(\.suspendingClock) var clock

      func reduce(into state: inout Int, action: Void) -> Effect<Void> {
        _ = uuid()
        _ = date.now
        _ = random { Int.random(in: 0...9, using: &$0) }
        _ = clock.now
        state += 1
        return .none
      }
    }
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { UsesEverything() }
      await store.send(()) { $0 = 1 }
    }
    let names = issues.compactMap { issue in
      issue.message.split(separator: "\n").first.map(String.init)
    }
    #expect(names.first == "Unimplemented: @Dependency(\\.uuid) …")
    #expect(names.contains("Unimplemented: @Dependency(\\.date) …"))
    #expect(names.contains("Unimplemented: @Dependency(\\.withRandomNumberGenerator) …"))
    #expect(names.contains("Unimplemented: @Dependency(\\.suspendingClock) …"))
  }

  @Test func overriddenBuiltInsDoNotFail() async {
    struct MakesIDs: Reducer {
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout [UUID], action: Void) -> Effect<Void> {
        state.append(uuid())
        return .none
      }
    }
    let issues = await collectIssues {
      let store = TestStore(initialState: [UUID]()) { MakesIDs() } withDependencies: {
        $0.uuid = .incrementing
      }
      await store.send(()) { $0 = [UUID(0)] }
      await store.send(()) { $0 = [UUID(0), UUID(1)] }
    }
    #expect(issues.isEmpty)
  }

  /// An `Effect.run` keeps the dependencies of the moment the reducer made it: an override
  /// scoped to the reducer (as a parent gives a child) reaches the effect's operation, which
  /// runs later in a task of its own, and the store's own value does not.
  @Test func anEffectRunsWithTheDependenciesItWasMadeWith() async {
    struct Child: Reducer {
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout [UUID], action: UUID?) -> Effect<UUID?> {
        if let id = action {
          state.append(id)
          return .none
        }
        return .run { send in
          @Dependency(\.uuid) var uuid
          await Task.yield()
          await send(uuid())
        }
      }
    }
    struct Parent: Reducer {
      func reduce(into state: inout [UUID], action: UUID?) -> Effect<UUID?> {
        withDependencies { $0.uuid = .constant(UUID(7)) } operation: { Child().reduce(into: &state, action: action) }
      }
    }
    let issues = await collectIssues {
      let store = TestStore(initialState: [UUID]()) { Parent() } withDependencies: {
        $0.uuid = .constant(UUID(1))
      }
      await store.send(nil)
      await store.receive(UUID(7)) { $0 = [UUID(7)] }
    }
    #expect(issues.isEmpty, "\(issues.map(\.message))")
  }

  @Test func droppingTheStoreEndsTheTest() async {
    var line: UInt = 0
    let issues = await collectIssues {
      do {
        let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
          $0.continuousClock = TestClock()
        }
        line = #line + 1
        await store.send(.incrementLater)
      }
    }
    #expect(issues.map(\.line) == [line])
    #expect(issues.first?.message.hasPrefix("An effect returned for this action is still running.") == true)
  }
}
