import ConcurrencyExtras
import Dependencies
import Foundation
import IdentifiedCollections
import ReducerCore
import TestSupport
import Testing

/// `@Shared` and `@SharedReader` without a store: the keys, references, derived shares and
/// coding, as swift-sharing 2 has them.
@Suite struct SharedKeyTests {
  // MARK: - In memory

  @Test func inMemoryKeysOfTheSameNameShareOneValue() {
    @Shared(.inMemory("a")) var first = 0
    @Shared(.inMemory("a")) var second = 10
    @Shared(.inMemory("b")) var other = 0
    // The second's initial value is not used: the key has a reference already.
    #expect(second == 0)
    $first.withLock { $0 = 3 }
    #expect(second == 3)
    #expect(other == 0)
  }

  @Test func anInMemoryValueOutlivesItsReferences() {
    do {
      @Shared(.inMemory("kept")) var value = 0
      $value.withLock { $0 = 42 }
    }
    @Shared(.inMemory("kept")) var again = 0
    #expect(again == 42)
  }

  @Test func inMemoryKeysInOtherStoragesAreApart() {
    @Shared(.inMemory("a")) var here = 1
    let there = withDependencies {
      $0.defaultInMemoryStorage = InMemoryStorage()
    } operation: {
      Shared(wrappedValue: 2, .inMemory("a"))
    }
    $here.withLock { $0 = 5 }
    #expect(there.wrappedValue == 2)
  }

  // MARK: - User defaults

  /// Runs `body` with in-memory user defaults, which it returns.
  private func withDefaults(_ body: () -> Void) -> UserDefaults {
    let defaults = UserDefaults.inMemory
    withDependencies { $0.defaultAppStorage = defaults } operation: { body() }
    return defaults
  }

  @Test func appStorageKeysOfEachType() {
    let date = Date(timeIntervalSince1970: 1_000)
    let url = URL(string: "https://www.pointfree.co/episodes")!
    let defaults = withDefaults {
      @Shared(.appStorage("bool")) var bool = false
      @Shared(.appStorage("int")) var int = 0
      @Shared(.appStorage("double")) var double = 0.0
      @Shared(.appStorage("string")) var string = ""
      @Shared(.appStorage("strings")) var strings: [String] = []
      @Shared(.appStorage("url")) var link = URL(string: "https://example.com")!
      @Shared(.appStorage("data")) var data = Data()
      @Shared(.appStorage("date")) var when = Date(timeIntervalSince1970: 0)
      @Shared(.appStorage("theme")) var theme = Theme.light
      @Shared(.appStorage("level")) var level = Level.low
      $bool.withLock { $0 = true }
      $int.withLock { $0 = 7 }
      $double.withLock { $0 = 2.5 }
      $string.withLock { $0 = "Blob" }
      $strings.withLock { $0 = ["a", "b"] }
      $link.withLock { $0 = url }
      $data.withLock { $0 = Data([1, 2]) }
      $when.withLock { $0 = date }
      $theme.withLock { $0 = .dark }
      $level.withLock { $0 = .high }
    }
    #expect(defaults.object(forKey: "bool") as? Bool == true)
    #expect(defaults.object(forKey: "int") as? Int == 7)
    #expect(defaults.object(forKey: "double") as? Double == 2.5)
    #expect(defaults.object(forKey: "string") as? String == "Blob")
    #expect(defaults.object(forKey: "strings") as? [String] == ["a", "b"])
    #expect(defaults.object(forKey: "url") as? String == "https://www.pointfree.co/episodes")
    #expect(defaults.object(forKey: "data") as? Data == Data([1, 2]))
    #expect(defaults.object(forKey: "date") as? Date == date)
    #expect(defaults.object(forKey: "theme") as? String == "dark")
    #expect(defaults.object(forKey: "level") as? Int == 2)
  }

  @Test func appStorageKeysReadWhatTheDefaultsHold() {
    let defaults = UserDefaults.inMemory
    defaults.set(true, forKey: "bool")
    defaults.set(9, forKey: "int")
    defaults.set("https://www.pointfree.co", forKey: "url")
    defaults.set("dark", forKey: "theme")
    defaults.set(2, forKey: "level")
    withDependencies { $0.defaultAppStorage = defaults } operation: {
      @Shared(.appStorage("bool")) var bool = false
      @Shared(.appStorage("int")) var int = 0
      @Shared(.appStorage("url")) var link = URL(string: "https://example.com")!
      @Shared(.appStorage("theme")) var theme = Theme.light
      @Shared(.appStorage("level")) var level = Level.low
      #expect(bool)
      #expect(int == 9)
      #expect(link == URL(string: "https://www.pointfree.co")!)
      #expect(theme == .dark)
      #expect(level == .high)
    }
  }

  @Test func anAppStorageKeyWritesItsInitialValueWhenTheDefaultsHaveNone() {
    let defaults = UserDefaults.inMemory
    defaults.set("not a number", forKey: "count")
    withDependencies { $0.defaultAppStorage = defaults } operation: {
      @Shared(.appStorage("volume")) var volume = 5
      @Shared(.appStorage("count")) var count = 3
      #expect(volume == 5)
      // A value of another type counts as none.
      #expect(count == 3)
    }
    #expect(defaults.object(forKey: "volume") as? Int == 5)
    #expect(defaults.object(forKey: "count") as? Int == 3)
  }

  @Test func optionalAppStorageKeys() {
    let defaults = withDefaults {
      @Shared(.appStorage("name")) var name: String?
      @Shared(.appStorage("age")) var age: Int?
      @Shared(.appStorage("theme")) var theme: Theme?
      @Shared(.appStorage("site")) var site: URL?
      #expect(name == nil)
      $name.withLock { $0 = "Blob" }
      $age.withLock { $0 = 42 }
      $theme.withLock { $0 = .dark }
      $site.withLock { $0 = URL(string: "https://www.pointfree.co") }
      $age.withLock { $0 = nil }
    }
    #expect(defaults.object(forKey: "name") as? String == "Blob")
    #expect(defaults.object(forKey: "age") == nil)
    #expect(defaults.object(forKey: "theme") as? String == "dark")
    #expect(defaults.object(forKey: "site") as? String == "https://www.pointfree.co")
  }

  @Test func aCodableAppStorageKeyKeepsJSON() throws {
    let defaults = withDefaults {
      @Shared(.appStorage("member")) var member = Member(id: 1)
      $member.withLock { $0.name = "Blob" }
    }
    let data = try #require(defaults.object(forKey: "member") as? Data)
    #expect(try JSONDecoder().decode(Member.self, from: data) == Member(id: 1, name: "Blob"))
  }

  @Test func testsUseInMemoryUserDefaults() {
    @Dependency(\.defaultAppStorage) var defaults
    #expect(defaults !== UserDefaults.standard)
    @Shared(.appStorage("reducer-core-tests-flag")) var flag = false
    $flag.withLock { $0 = true }
    #expect(defaults.object(forKey: "reducer-core-tests-flag") as? Bool == true)
    #expect(UserDefaults.standard.object(forKey: "reducer-core-tests-flag") == nil)
  }

  // MARK: - Keys with a default

  @Test func aKeyWithADefaultNeedsNoValueAtTheShared() {
    @Shared(.teams) var teams
    #expect(teams == [])
    @Shared(.teams) var same
    $teams.withLock { _ = $0.append(Team(id: 1)) }
    #expect(same.ids == [1])
  }

  @Test func aKeyWithADefaultTakesAnotherInitialValue() {
    @Shared(.teams) var teams = [Team(id: 3)]
    #expect(teams.ids == [3])
  }

  @Test func aReaderOfAKeyWithADefault() {
    @SharedReader(.teams) var teams
    @Shared(.teams) var writable
    $writable.withLock { _ = $0.append(Team(id: 2)) }
    #expect(teams.ids == [2])
  }

  // MARK: - Values and derived shares

  @Test func aSharedValueIsAReference() {
    let first = Shared(value: 1)
    let copy = first
    copy.withLock { $0 += 1 }
    #expect(first.wrappedValue == 2)
    #expect(Shared(value: 2) == first)
  }

  @Test func aMemberIsASharedReferenceIntoTheValue() {
    let team = Shared(value: Team(id: 1))
    let members = team.members
    members.withLock { _ = $0.append(Member(id: 7)) }
    #expect(team.wrappedValue.members.ids == [7])
    team.withLock { $0.members[id: 7]?.name = "Blob" }
    #expect(members.wrappedValue.first?.name == "Blob")
    // A member that cannot be set is read-only.
    let count: SharedReader<Int> = team.members.count
    #expect(count.wrappedValue == 1)
  }

  @Test func anOptionalUnwrapsToASharedReference() throws {
    @Shared(.teams) var teams = [Team(id: 1, title: "Core")]
    #expect(Shared($teams[id: 2]) == nil)
    let team = try #require(Shared($teams[id: 1]))
    team.withLock { $0.title = "Platform" }
    #expect(teams[id: 1]?.title == "Platform")
    // Once the element is gone, the unwrapped reference keeps its last value.
    $teams.withLock { $0 = [] }
    #expect(team.wrappedValue.title == "Platform")
  }

  @Test func readingAValueWhileChangingItReadsTheValueBefore() throws {
    // SyncUps' delete: `$syncUps.withLock { _ = $0.remove(id: state.syncUp.id) }`, with
    // `state.syncUp` derived from `$syncUps`.
    @Shared(.teams) var teams = [Team(id: 1), Team(id: 2)]
    let team = try #require(Shared($teams[id: 1]))
    let plain = Shared(value: 1)
    $teams.withLock {
      #expect(teams.count == 2)
      _ = $0.remove(id: team.wrappedValue.id)
    }
    plain.withLock { $0 += plain.wrappedValue }
    #expect(teams.ids == [2])
    #expect(plain.wrappedValue == 2)
  }

  @Test func theElementsOfASharedCollection() {
    @Shared(.teams) var teams = [Team(id: 1), Team(id: 2)]
    let elements = Array($teams)
    #expect(elements.map(\.wrappedValue.id) == [1, 2])
    elements[1].withLock { $0.title = "Second" }
    #expect(teams[id: 2]?.title == "Second")
  }

  @Test func readersReadTheSharedValue() throws {
    @Shared(.inMemory("count")) var count = 1
    let reader = SharedReader($count)
    let doubled = $count.read { $0 * 2 }
    @SharedReader(.inMemory("count")) var byKey = 0
    $count.withLock { $0 = 4 }
    #expect(reader.wrappedValue == 4)
    #expect(doubled.wrappedValue == 8)
    #expect(byKey == 4)
    #expect(SharedReader(value: 4) == reader)
    let optional = Shared<Int?>(value: 3)
    #expect(try #require(SharedReader(optional)).wrappedValue == 3)
  }

  @Test func replacingTheReference() async throws {
    @Shared(.inMemory("a")) var a = 1
    @Shared(.inMemory("b")) var b = 2
    let copy = $a
    $a = $b
    #expect(a == 2)
    // The copies of a `Shared` share its reference.
    #expect(copy.wrappedValue == 2)
    try await $a.load(.inMemory("c"))
    #expect(a == 2)
    $a.withLock { $0 = 9 }
    @Shared(.inMemory("c")) var c = 0
    #expect(c == 9)
  }

  @Test func descriptions() {
    #expect(Shared(value: 1).description == "Shared<Int>(value: 1)")
    #expect(Shared(wrappedValue: 1, .inMemory("count")).description == #"Shared<Int>(.inMemory("count"))"#)
    #expect(String(describing: InMemoryKey<Int>.inMemory("count")) == #".inMemory("count")"#)
    #expect(String(describing: AppStorageKey<Int>.appStorage("count")) == #".appStorage("count")"#)
  }

  // MARK: - Coding

  @Test func aSharedValueCodesAsItsValue() throws {
    let data = try JSONEncoder().encode(Shared(value: [1, 2]))
    #expect(String(decoding: data, as: UTF8.self) == "[1,2]")
    let decoded = try JSONDecoder().decode(Shared<[Int]>.self, from: data)
    #expect(decoded.wrappedValue == [1, 2])
    let reader = try JSONDecoder().decode(SharedReader<[Int]>.self, from: data)
    #expect(reader.wrappedValue == [1, 2])
  }

  @Test func aDecodedSharedValueIsAReferenceOfItsOwn() throws {
    @Shared(.inMemory("count")) var count = 1
    let decoded = try JSONDecoder().decode(Shared<Int>.self, from: Data("5".utf8))
    decoded.withLock { $0 += 1 }
    #expect(decoded.wrappedValue == 6)
    #expect(count == 1)
  }

  @Test func decodingIntoASharedValueWritesThroughItsKey() throws {
    @Shared(.inMemory("count")) var other = 0
    let state = try JSONDecoder().decode(KeyedCount.self, from: Data(#"{"count": 5, "draft": "a"}"#.utf8))
    #expect(state.count == 5)
    #expect(state.seen == 5)
    #expect(other == 5)
    let missing = try JSONDecoder().decode(KeyedCount.self, from: Data(#"{"draft": "b"}"#.utf8))
    #expect(missing.count == 5)
    #expect(missing.draft == "b")
  }

  @Test func aStateWithSharedFieldsEncodesTheirValues() throws {
    let state = KeyedCount(draft: "note")
    state.$count.withLock { $0 = 3 }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(state), as: UTF8.self)
        == #"{"count":3,"draft":"note","names":[],"seen":3,"title":""}"#)
  }

  @Test func aKeylessSharedFieldDecodesAsAReferenceOfItsOwn() throws {
    let first = try JSONDecoder().decode(KeyedCount.self, from: Data(#"{"draft": "a"}"#.utf8))
    let second = try JSONDecoder().decode(KeyedCount.self, from: Data(#"{"draft": "a"}"#.utf8))
    first.$draft.withLock { $0 = "changed" }
    #expect(second.draft == "a")
  }

  @Test func aReaderFieldIsCheckedAgainstItsKeysValue() throws {
    @Shared(.inMemory("count")) var count = 4
    let same = try JSONDecoder().decode(KeyedCount.self, from: Data(#"{"seen": 4, "draft": ""}"#.utf8))
    #expect(same.seen == 4)
    #expect {
      try JSONDecoder().decode(KeyedCount.self, from: Data(#"{"seen": 9, "draft": ""}"#.utf8))
    } throws: { error in
      guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
      return context.debugDescription
        == "`seen` follows its key (`@SharedReader`) and cannot be set: leave it out, and set the field that writes the key, or the key's value with `shared:`"
    }
    #expect(count == 4)
  }

  // MARK: - Keys of your own

  @Test func aKeyThatResumesTwiceIsReported() {
    let issues = collectIssuesNow {
      @SharedReader(ResumingTwice()) var value = 0
      // The first value counts.
      #expect(value == 1)
    }
    #expect(
      issues == [ReportedIssue(message: "'ResumingTwice()' tried to resume its continuation more than once.", line: 0)])
  }

  @Test func aKeyThatNeverResumesIsReported() {
    let issues = collectIssuesNow {
      @SharedReader(NeverResuming()) var value = 3
      #expect(value == 3)
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            'NeverResuming()' leaked its continuation without one of its resume methods being invoked. \
            This will cause tasks waiting on it to resume immediately.
            """, line: 0)
      ])
  }
}

/// A level kept as an integer user default.
enum Level: Int, Sendable {
  case low = 1
  case high = 2
}

/// A state that decodes its keyed shared count as generated coding does.
/// A state with shared fields of every kind, coded by `@ObservableState`: no decoder is
/// written by hand.
@ObservableState
struct KeyedCount: Codable, Equatable {
  var title = ""
  @Shared(.inMemory("count")) var count = 0
  @SharedReader(.inMemory("count")) var seen = 0
  @Shared var draft: String
  @Shared(.inMemory("names")) var names: [String] = []

  init(draft: String) {
    self._draft = Shared(value: draft)
  }
}

/// A key that resumes its load twice.
struct ResumingTwice: SharedReaderKey, Hashable, CustomStringConvertible {
  typealias Value = Int
  var description: String { "ResumingTwice()" }
  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    continuation.resume(returning: 1)
    continuation.resume(returning: 2)
  }
  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    SharedSubscription {}
  }
}

/// A key that never resumes its load.
struct NeverResuming: SharedReaderKey, Hashable, CustomStringConvertible {
  typealias Value = Int
  var description: String { "NeverResuming()" }
  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {}
  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    SharedSubscription {}
  }
}

/// Runs `body` with the issues it reports collected, and returns them, with their lines
/// left out (issues reported by a library without a location take the library's line).
func collectIssuesNow(_ body: () -> Void) -> [ReportedIssue] {
  let collector = IssueCollector()
  withIssueReporters([collector]) { body() }
  return collector.issues.map { ReportedIssue(message: $0.message, line: 0, isExpected: $0.isExpected) }
}
