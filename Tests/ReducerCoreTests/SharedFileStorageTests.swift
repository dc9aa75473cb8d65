import ConcurrencyExtras
import Dependencies
import Foundation
import IdentifiedCollections
import ReducerCore
import TestSupport
import Testing

/// `.fileStorage`: reading, writing (at once, then together a second later), atomic writes,
/// and a file that does not decode.
@Suite struct SharedFileStorageTests {
  private static let url = URL(fileURLWithPath: "/reducer-core-tests/teams.json")

  /// A file system in memory whose waiting writes wait until ``runWaiting()``.
  final class Files: Sendable {
    let files = LockIsolated<[URL: Data]>([:])
    let waiting = LockIsolated<[@Sendable () -> Void]>([])
    let delays = LockIsolated<[Duration]>([])

    /// Holds `waiting` weakly: a write left waiting holds its key, which holds this storage,
    /// and a strong hold would keep all three alive after the test.
    var storage: FileStorage {
      FileStorage.inMemory(files: files) { [weak waiting, delays] delay, work in
        delays.withValue { $0.append(delay) }
        waiting?.withValue { $0.append(work) }
      }
    }

    func runWaiting() {
      let works = waiting.withValue { works in
        defer { works = [] }
        return works
      }
      for work in works { work() }
    }

    /// The file's value, decoded (`nil` without a file, or with one that does not decode).
    func teams(at url: URL) -> [Team]? {
      files.withValue { $0[url] }.flatMap { try? JSONDecoder().decode([Team].self, from: $0) }
    }
  }

  @Test func aFileIsReadByTheFirstSharedOfItsKey() {
    let files = Files()
    files.files.withValue { $0[Self.url] = try! JSONEncoder().encode([Team(id: 1, title: "Core")]) }
    withDependencies { $0.defaultFileStorage = files.storage } operation: {
      @Shared(.fileStorage(Self.url)) var teams: [Team] = []
      #expect(teams == [Team(id: 1, title: "Core")])
    }
  }

  @Test func aMissingOrEmptyFileGivesTheInitialValue() {
    let files = Files()
    files.files.withValue { $0[URL(fileURLWithPath: "/empty.json")] = Data() }
    withDependencies { $0.defaultFileStorage = files.storage } operation: {
      @Shared(.fileStorage(Self.url)) var teams = [Team(id: 9)]
      @Shared(.fileStorage(URL(fileURLWithPath: "/empty.json"))) var empty = [Team(id: 8)]
      #expect(teams.map(\.id) == [9])
      #expect(empty.map(\.id) == [8])
    }
    // Nothing is written until the value changes.
    #expect(files.files.value[Self.url] == nil)
  }

  @Test func theFirstChangeIsWrittenAtOnceAndTheNextOnesTogetherASecondLater() {
    let files = Files()
    withDependencies { $0.defaultFileStorage = files.storage } operation: {
      @Shared(.fileStorage(Self.url)) var teams: [Team] = []
      $teams.withLock { $0.append(Team(id: 1)) }
      #expect(files.teams(at: Self.url)?.map(\.id) == [1])
      #expect(files.delays.value == [.seconds(1)])

      $teams.withLock { $0.append(Team(id: 2)) }
      $teams.withLock { $0.append(Team(id: 3)) }
      #expect(files.teams(at: Self.url)?.map(\.id) == [1])

      files.runWaiting()
      #expect(files.teams(at: Self.url)?.map(\.id) == [1, 2, 3])

      // After the second, a change is written at once again.
      $teams.withLock { $0.append(Team(id: 4)) }
      #expect(files.teams(at: Self.url)?.map(\.id) == [1, 2, 3, 4])
    }
  }

  @Test func aChangeWaitingIsWrittenAfterItsSharedIsReleased() {
    let files = Files()
    withDependencies { $0.defaultFileStorage = files.storage } operation: {
      // As a reducer's local `@Shared(.syncUps) var syncUps` is released when it returns.
      @Shared(.fileStorage(Self.url)) var teams: [Team] = []
      $teams.withLock { $0.append(Team(id: 1)) }
      $teams.withLock { $0.append(Team(id: 2)) }
    }
    #expect(files.teams(at: Self.url)?.map(\.id) == [1])
    files.runWaiting()
    #expect(files.teams(at: Self.url)?.map(\.id) == [1, 2])
  }

  @Test func saveWritesAtOnce() async throws {
    let files = Files()
    let teams = withDependencies { $0.defaultFileStorage = files.storage } operation: {
      Shared(wrappedValue: [Team](), .fileStorage(Self.url))
    }
    teams.withLock { $0.append(Team(id: 1)) }
    teams.withLock { $0.append(Team(id: 2)) }
    #expect(files.teams(at: Self.url)?.map(\.id) == [1])
    try await teams.save()
    #expect(files.teams(at: Self.url)?.map(\.id) == [1, 2])
    // The write that waited has nothing left to write.
    files.files.withValue { $0[Self.url] = nil }
    files.runWaiting()
    #expect(files.files.value[Self.url] == nil)
  }

  @Test func loadReadsTheFileAgain() async throws {
    let files = Files()
    let teams = withDependencies { $0.defaultFileStorage = files.storage } operation: {
      Shared(wrappedValue: [Team](), .fileStorage(Self.url))
    }
    files.files.withValue { $0[Self.url] = try! JSONEncoder().encode([Team(id: 5)]) }
    try await teams.load()
    #expect(teams.wrappedValue.map(\.id) == [5])
  }

  @Test func aFileThatDoesNotDecodeIsReportedAndKeepsTheInitialValue() {
    let files = Files()
    files.files.withValue { $0[Self.url] = Data("not json".utf8) }
    var line: UInt = 0
    let collector = IssueCollector()
    withIssueReporters([collector]) {
      withDependencies { $0.defaultFileStorage = files.storage } operation: {
        line = #line + 1
        @Shared(.fileStorage(Self.url)) var teams = [Team(id: 1)]
        #expect(teams.map(\.id) == [1])
        #expect($teams.loadError != nil)
        // A change writes over the file.
        $teams.withLock { $0.append(Team(id: 2)) }
        #expect(files.teams(at: Self.url)?.map(\.id) == [1, 2])
      }
    }
    #expect(
      collector.issues == [
        ReportedIssue(
          message: """
            Could not load the shared value of '.fileStorage(file:///reducer-core-tests/teams.json)'.

            The given data was not valid JSON.
            """, line: line)
      ])
  }

  @Test func aFileWithAValueOfTheWrongTypeSaysWhere() {
    let files = Files()
    files.files.withValue {
      $0[Self.url] = Data(
        #"[{"id": 1, "members": [], "title": ""}, {"id": "two", "members": [], "title": ""}]"#.utf8)
    }
    let collector = IssueCollector()
    withIssueReporters([collector]) {
      withDependencies { $0.defaultFileStorage = files.storage } operation: {
        @Shared(.fileStorage(Self.url)) var teams: [Team] = []
        #expect(teams == [])
      }
    }
    #expect(
      collector.issues.map(\.message) == [
        """
        Could not load the shared value of '.fileStorage(file:///reducer-core-tests/teams.json)'.

        At [1].id: Expected to decode Int but found a string instead.
        """
      ])
  }

  @Test func aFileWithAMissingKeySaysWhich() {
    let files = Files()
    files.files.withValue { $0[Self.url] = Data(#"[{"id": 1, "title": ""}]"#.utf8) }
    let collector = IssueCollector()
    withIssueReporters([collector]) {
      withDependencies { $0.defaultFileStorage = files.storage } operation: {
        @Shared(.fileStorage(Self.url)) var teams: [Team] = []
        #expect(teams == [])
      }
    }
    #expect(
      collector.issues.map(\.message) == [
        """
        Could not load the shared value of '.fileStorage(file:///reducer-core-tests/teams.json)'.

        At [0]: No value for the key "members".
        """
      ])
  }

  @Test func aValueThatCannotBeWrittenIsReported() {
    let files = Files()
    var line: UInt = 0
    let collector = IssueCollector()
    withIssueReporters([collector]) {
      withDependencies { $0.defaultFileStorage = files.storage } operation: {
        // Reported at the attribute.
        line = #line + 1
        @Shared(.fileStorage(Self.url, decode: { @Sendable _ in 0 }, encode: { @Sendable (_: Int) in throw Unwritable() }))
        var count = 0
        $count.withLock { $0 += 1 }
        #expect(count == 1)
        #expect($count.saveError is Unwritable)
      }
    }
    #expect(
      collector.issues == [
        ReportedIssue(
          message: """
            Could not save the shared value of '.fileStorage(file:///reducer-core-tests/teams.json)'.

            Unwritable()
            """, line: line)
      ])
  }

  @Test func theFileSystemWritesAtomicallyAndMakesTheDirectory() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reducer-core-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("nested/teams.json")
    try withDependencies { $0.defaultFileStorage = .fileSystem } operation: {
      @Shared(.fileStorage(url)) var teams: [Team] = []
      $teams.withLock { $0.append(Team(id: 1, title: "Core")) }
      let data = try Data(contentsOf: url)
      #expect(try JSONDecoder().decode([Team].self, from: data) == [Team(id: 1, title: "Core")])
      // Written whole: sorted keys, pretty printed, and no temporary file left beside it.
      #expect(String(decoding: data, as: UTF8.self).hasPrefix("[\n  {\n    \"id\" : 1,"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["teams.json"])
    }
  }

  @Test func theFileSystemReportsACorruptFile() throws {
    let file = try TemporaryFile(Array("{".utf8), name: "teams.json")
    let url = URL(fileURLWithPath: file.path)
    let collector = IssueCollector()
    withIssueReporters([collector]) {
      withDependencies { $0.defaultFileStorage = .fileSystem } operation: {
        @Shared(.fileStorage(url)) var teams = [Team(id: 1)]
        #expect(teams.map(\.id) == [1])
      }
    }
    #expect(
      collector.issues.map(\.message) == [
        """
        Could not load the shared value of '.fileStorage(\(url.absoluteString))'.

        The given data was not valid JSON.
        """
      ])
  }

  @Test func theDocumentsDirectoryIsTheUsersDocuments() {
    #expect(URL.documentsDirectory.lastPathComponent == "Documents")
    #expect(URL.documentsDirectory.deletingLastPathComponent().path == NSHomeDirectory())
  }

  @Test func testsUseAFileSystemInMemory() {
    @Dependency(\.defaultFileStorage) var storage
    #expect(storage != .fileSystem)
    @Shared(.teams) var teams
    $teams.withLock { _ = $0.append(Team(id: 1)) }
    #expect(!FileManager.default.fileExists(atPath: URL.teamsFile.path))
  }
}

/// The error of a value that cannot be written.
struct Unwritable: Error {}
