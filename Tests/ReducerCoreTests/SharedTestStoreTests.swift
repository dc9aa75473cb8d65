import Dependencies
import Foundation
import IdentifiedCollections
import ReducerCore
import TestSupport
import Testing

/// How a test store asserts shared state (`@Shared`): exhaustively, as TCA's does, with its
/// messages word for word.
@MainActor
@Suite struct SharedTestStoreTests {
  // MARK: - Asserting a change

  @Test func aSharedChangeIsAssertedWithWithLock() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.increment) { $0.$count.withLock { $0 = 1 } }
      await store.send(.increment) { $0.$count.withLock { $0 += 1 } }
      #expect(store.state.count == 2)
    }
    #expect(issues == [])
  }

  @Test func aSharedChangeNotAssertedFails() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      line = #line + 1
      await store.send(.increment)
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            State was not expected to change, but a change occurred.

                \u{2007} SharedCounter.State(
                −   _count: 0,
                +   _count: 1,
                \u{2007}   title: ""
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func aSharedChangeAssertedWronglyFails() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      line = #line + 1
      await store.send(.increment) { $0.$count.withLock { $0 = 5 } }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            A state change does not match expectation.

                \u{2007} SharedCounter.State(
                −   _count: 5,
                +   _count: 1,
                \u{2007}   title: ""
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func aSharedChangeThatDidNotHappenFails() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      line = #line + 1
      await store.send(.setTitle("Blob")) {
        $0.title = "Blob"
        $0.$count.withLock { $0 = 1 }
      }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            A state change does not match expectation.

                \u{2007} SharedCounter.State(
                −   _count: 1,
                +   _count: 0,
                \u{2007}   title: "Blob"
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func theAssertionClosureDoesNotChangeTheSharedValue() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      // Wrong on purpose: the closure says what is expected, and the value stays 1.
      await store.send(.increment) { $0.$count.withLock { $0 = 5 } }
      #expect(store.state.count == 1)
      await store.send(.increment) { $0.$count.withLock { $0 = 2 } }
    }
    #expect(issues.count == 1)
  }

  @Test func aStepThatChangesTheSameValueTwiceStartsFromTheValueBeforeIt() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.incrementTwice) { $0.$count.withLock { $0 += 2 } }
    }
    #expect(issues == [])
  }

  @Test func anAssertionOfOnlyASharedChangeIsAChange() async {
    // "Expected state to change, but no change occurred." is not reported for a step whose
    // shared state changed: the closure that asserts it is needed.
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.increment) { $0.$count.withLock { $0 = 1 } }
    }
    #expect(issues == [])
  }

  @Test func anAssertionThatChangesNothingStillFails() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      line = #line + 1
      await store.send(.incremented) { $0.$count.withLock { $0 = 0 } }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Expected state to change, but no change occurred.

            The trailing closure made no observable modifications to state. If no change to state is \
            expected, omit the trailing closure.
            """, line: line)
      ])
  }

  // MARK: - Effects

  @Test func aChangeInAnEffectIsAssertedAtTheReceiveThatFollows() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.incrementInEffect)
      await store.receive(.incremented) { $0.$count.withLock { $0 = 1 } }
    }
    #expect(issues == [])
  }

  @Test func aChangeInAnEffectNotAssertedFailsAtTheReceive() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.incrementInEffect)
      line = #line + 1
      await store.receive(.incremented)
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            State was not expected to change, but a change occurred.

                \u{2007} SharedCounter.State(
                −   _count: 0,
                +   _count: 1,
                \u{2007}   title: ""
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func aReceivedActionThatChangesSharedStateIsAssertedAtItsReceive() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.incrementFromEffect)
      await store.receive(.increment) { $0.$count.withLock { $0 = 1 } }
    }
    #expect(issues == [])
  }

  @Test func queuedActionsShowTheirSharedChangesAtTheFirstReceive() async {
    // As in TCA: a shared value is a reference, and the reducer has run both actions when the
    // first is received, so that receive sees the value both left.
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.incrementTwiceFromEffect)
      await store.receive(.increment) { $0.$count.withLock { $0 = 2 } }
      await store.receive(.increment)
    }
    #expect(issues == [])
  }

  @Test func aChangeLeftUnassertedFailsAtFinish() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.incrementInEffectQuietly)
      line = #line + 1
      await store.finish()
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Test store finished before asserting against changes to shared state.

                \u{2007} SharedCounter.State(
                −   _count: 0,
                +   _count: 1,
                \u{2007}   title: ""
                \u{2007} )

            (Expected: −, Actual: +)

            Invoke "TestStore.assert" at the end of this test to assert against changes to shared state.
            """, line: line)
      ])
  }

  @Test func aChangeLeftUnassertedFailsAtTheEndOfTheTest() async {
    var line: UInt = 0
    let issues = await collectIssues {
      line = #line + 1
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.incrementInEffectQuietly)
      store.completed()
    }
    #expect(issues.map(\.line) == [line])
    #expect(issues.first?.message.hasPrefix("Test store finished before asserting against changes to shared state.") == true)
  }

  @Test func storeAssertAssertsTheChangesOfEffects() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.incrementInEffectQuietly)
      store.assert { $0.$count.withLock { $0 = 1 } }
      await store.finish()
    }
    #expect(issues == [])
  }

  @Test func storeAssertReportsTheChangesOfEffectsItDoesNotAssert() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await store.send(.incrementInEffectQuietly)
      line = #line + 1
      store.assert { $0.title = "" }
      await store.finish()
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            A state change does not match expectation.

                \u{2007} SharedCounter.State(
                −   _count: 0,
                +   _count: 1,
                \u{2007}   title: ""
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func aNonExhaustiveStoreChecksOnlyWhatItIsTold() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      store.exhaustivity = .off
      await store.send(.increment)
      await store.send(.increment) { $0.$count.withLock { $0 = 2 } }
      await store.send(.incrementInEffectQuietly)
      await store.finish()
    }
    #expect(issues == [])
  }

  @Test func aNonExhaustiveStoreStillReportsAWrongAssertion() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      store.exhaustivity = .off
      line = #line + 1
      await store.send(.increment) { $0.$count.withLock { $0 = 3 } }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            A state change does not match expectation.

                \u{2007} SharedCounter.State(
                −   _count: 3,
                +   _count: 1,
                \u{2007}   title: ""
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  // MARK: - One value per key

  @Test func twoFeaturesWithTheSameKeySeeOneValue() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedTabs.State()) { SharedTabs() }
      await store.send(.counter(.increment)) { $0.counter.$count.withLock { $0 = 1 } }
      #expect(store.state.viewer.count == 1)
      // Asserted through either feature: it is one value.
      await store.send(.counter(.increment)) { $0.viewer.$count.withLock { $0 = 2 } }
      await store.send(.viewer(.reset)) { $0.viewer.$count.withLock { $0 = 0 } }
      #expect(store.state.counter.count == 0)
    }
    #expect(issues == [])
  }

  @Test func aFailureShowsASharedValueOnceWhereTwoFeaturesHoldIt() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedTabs.State()) { SharedTabs() }
      line = #line + 1
      await store.send(.counter(.increment))
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            State was not expected to change, but a change occurred.

                \u{2007} SharedTabs.State(
                \u{2007}   counter: SharedCounter.State(
                −     _count: 0,
                +     _count: 1,
                \u{2007}     title: ""
                \u{2007}   ),
                \u{2007}   viewer: SharedCountViewer.State(
                \u{2007}     _count: Int(↩︎)
                \u{2007}   )
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func aKeyHeldBeforeTheStoreIsMadeIsTheStoresToo() async {
    // As TCA's tests do: `@Shared(.key) var value = …` before the store, in the same test.
    @Shared(.sharedCount) var count = 5
    let issues = await collectIssues {
      let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      #expect(store.state.count == 5)
      await store.send(.increment) { $0.$count.withLock { $0 = 6 } }
    }
    #expect(issues == [])
    #expect(count == 6)
  }

  // MARK: - Isolation

  /// Runs the same steps in two tests: each starts from its own storage, so both pass in
  /// any order, and neither touches the real user defaults.
  private func incrementAndToggleFromScratch() async {
    let issues = await collectIssues {
      let counter = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await counter.send(.increment) { $0.$count.withLock { $0 = 1 } }
      let settings = TestStore(initialState: Settings.State()) { Settings() }
      await settings.send(.toggle) { $0.$isOn.withLock { $0 = true } }
      await settings.send(.setTheme(.dark)) { $0.$theme.withLock { $0 = .dark } }
    }
    #expect(issues == [])
    #expect(UserDefaults.standard.object(forKey: "isOn") == nil)
    #expect(UserDefaults.standard.object(forKey: "theme") == nil)
  }

  @Test func eachTestStartsFromItsOwnStorage() async {
    await incrementAndToggleFromScratch()
  }

  @Test func eachTestStartsFromItsOwnStorageToo() async {
    await incrementAndToggleFromScratch()
  }

  @Test func aStoreInOtherDependenciesHasOtherStorage() async {
    let issues = await collectIssues {
      let first = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      await first.send(.increment) { $0.$count.withLock { $0 = 1 } }
      let second = withDependencies {
        $0.defaultInMemoryStorage = InMemoryStorage()
      } operation: {
        TestStore(initialState: SharedCounter.State()) { SharedCounter() }
      }
      await second.send(.increment) { $0.$count.withLock { $0 = 1 } }
      #expect(first.state.count == 1)
    }
    #expect(issues == [])
  }

  // MARK: - Files and derived shares

  @Test func aFileStorageKeyInATestWritesNoFile() async throws {
    let team = Team(id: 1, title: "Core")
    let issues = await collectIssues {
      let store = TestStore(initialState: TeamsList.State()) { TeamsList() }
      await store.send(.add(team)) { $0.$teams.withLock { _ = $0.append(team) } }
      await store.send(.remove(id: 1)) { $0.$teams.withLock { $0 = [] } }
    }
    #expect(issues == [])
    #expect(!FileManager.default.fileExists(atPath: URL.teamsFile.path))
  }

  @Test func aDerivedShareChangesTheValueItComesFrom() async {
    let team = Shared(value: Team(id: 1, title: "Core"))
    let issues = await collectIssues {
      let store = TestStore(initialState: TeamDetail.State(team: team)) { TeamDetail() }
      await store.send(.editMembers) {
        $0.members = MembersEditor.State(members: $0.$team.members)
      }
      let blob = Member(id: 7, name: "Blob")
      // The editor's members are the team's: asserted through either.
      await store.send(.members(.add(blob))) { $0.$team.withLock { _ = $0.members.append(blob) } }
      await store.send(.members(.add(Member(id: 8)))) {
        $0.members?.$members.withLock { _ = $0.append(Member(id: 8)) }
      }
      await store.send(.rename("Platform")) { $0.$team.withLock { $0.title = "Platform" } }
    }
    #expect(issues == [])
    #expect(team.wrappedValue.members.map(\.id) == [7, 8])
    #expect(team.wrappedValue.title == "Platform")
  }

  @Test func aDerivedShareThatChangesUnassertedFails() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(
        initialState: TeamDetail.State(
          team: Shared(value: Team(id: 1)),
          members: nil)
      ) { TeamDetail() }
      await store.send(.editMembers) {
        $0.members = MembersEditor.State(members: $0.$team.members)
      }
      line = #line + 1
      await store.send(.members(.add(Member(id: 7))))
    }
    #expect(issues.map(\.line) == [line])
    #expect(issues.first?.message.hasPrefix("State was not expected to change, but a change occurred.") == true)
  }
}
