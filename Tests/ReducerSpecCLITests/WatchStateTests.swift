import ArgumentParser
import Foundation
import TestSupport
import Testing
@testable import ReducerSpecCLI
@testable import SpecRunner

/// `--watch`'s logic without a terminal or file events: what a change reruns, what `f`
/// reruns, the status line, and the debouncing of bursts of events.
@Suite struct WatchStateTests {
  static func stamp(_ n: Int) -> FileStamp { FileStamp(seconds: n, nanoseconds: 0, size: 10, inode: 1) }

  @Test func changesAreTheFilesWhoseStampsDifferOrThatAnEventNamed() {
    var state = WatchState(files: ["specs/a.yaml": Self.stamp(1), "specs/b.yaml": Self.stamp(1), "specs/c.yaml": Self.stamp(1)])
    let changes = state.update(
      to: ["specs/a.yaml": Self.stamp(2), "specs/b.yaml": Self.stamp(1), "specs/d.yaml": Self.stamp(1)])
    #expect(changes == WatchState.Changes(changed: ["specs/a.yaml"], added: ["specs/d.yaml"], removed: ["specs/c.yaml"]))
    #expect(changes.toRun == ["specs/a.yaml", "specs/d.yaml"])
    #expect(changes.summary == "Changed: specs/a.yaml · Added: specs/d.yaml · Removed: specs/c.yaml")
    #expect(state.files.count == 3)

    // Same stamps, but an event named the file: it changed (written twice within a tick).
    let touched = state.update(to: state.files, touched: ["specs/b.yaml", "specs/notes.txt"])
    #expect(touched == WatchState.Changes(changed: ["specs/b.yaml"]))
    // Nothing at all.
    #expect(state.update(to: state.files).isEmpty)
  }

  @Test func theStatusLineCountsFailedScenariosAndBrokenFiles() {
    var state = WatchState(files: ["a.yaml": Self.stamp(1), "b.yaml": Self.stamp(1)])
    #expect(state.statusLine == "Watching 2 files · all passed · press a (all), f (failed), q (quit)")
    #expect(state.failedRun == nil)

    state.record(
      failed: [ScenarioID(file: "a.yaml", scenario: 1), ScenarioID(file: "a.yaml", scenario: 2)], broken: ["b.yaml"],
      files: ["a.yaml", "b.yaml"])
    #expect(state.statusLine == "Watching 2 files · 3 failed · press a (all), f (failed), q (quit)")
    let failed = state.failedRun
    #expect(failed?.files == ["a.yaml", "b.yaml"])
    #expect(failed?.scenarios == [ScenarioID(file: "a.yaml", scenario: 1), ScenarioID(file: "a.yaml", scenario: 2)])
    #expect(failed?.wholeFiles == ["b.yaml"])

    // `f` reran scenario 1 (now passes) and b.yaml (fixed); scenario 2 did not run (say a
    // filter left it out): it still counts as failed.
    state.record(failed: [], broken: [], files: ["b.yaml"], scenarios: [ScenarioID(file: "a.yaml", scenario: 1)])
    #expect(state.failedCount == 1)

    // A whole-file rerun replaces what the file had.
    state.record(failed: [], broken: [], files: ["a.yaml"])
    #expect(state.statusLine == "Watching 2 files · all passed · press a (all), f (failed), q (quit)")

    // A removed file no longer counts.
    state.record(failed: [ScenarioID(file: "b.yaml", scenario: 0)], broken: [], files: ["b.yaml"])
    #expect(state.failedCount == 1)
    _ = state.update(to: ["a.yaml": Self.stamp(1)])
    #expect(state.statusLine == "Watching 1 file · all passed · press a (all), f (failed), q (quit)")
  }

  @Test func aBurstOfEventsIsDueOnceQuietOrAfterTheLongestWait() {
    let start = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
    var debouncer = Debouncer(quiet: .milliseconds(100), longest: .seconds(1))
    #expect(debouncer.pollTimeout(at: at(0)) == -1)
    #expect(debouncer.take(at: at(0)) == nil)

    // An editor's save: write, rename, attributes, 30 ms apart.
    debouncer.note(["specs/a.yaml.swp"], at: at(0))
    debouncer.note(["specs/a.yaml"], at: at(30))
    debouncer.note([], at: at(60))
    #expect(debouncer.pollTimeout(at: at(60)) == 100)
    #expect(debouncer.take(at: at(159)) == nil)
    #expect(debouncer.take(at: at(160)) == ["specs/a.yaml.swp", "specs/a.yaml"])
    #expect(debouncer.take(at: at(400)) == nil)
    #expect(debouncer.pollTimeout(at: at(400)) == -1)

    // Events that never stop are taken a second after the first.
    for milliseconds in stride(from: 1000, through: 2200, by: 50) {
      debouncer.note(["specs/b.yaml"], at: at(milliseconds))
      if milliseconds < 2000 { #expect(debouncer.take(at: at(milliseconds)) == nil) }
    }
    #expect(debouncer.pollTimeout(at: at(1950)) == 50)
    #expect(debouncer.take(at: at(2000)) == ["specs/b.yaml"])

    // A run of every file makes a burst moot.
    debouncer.note(["specs/c.yaml"], at: at(3000))
    debouncer.reset()
    #expect(debouncer.take(at: at(5000)) == nil)
  }

  @Test func watchIsAFlagOfRunThatListRefuses() throws {
    let directory = try TemporaryDirectory(files: ["specs/a.yaml", "other/b.yaml"])
    let options = try RunCommand.parse(["--watch", directory.path("specs")])
    #expect(try RunSettings(options: options, environment: [:]).watchRoots == [directory.path("specs")])
    #expect(try RunSettings(options: RunCommand.parse([directory.path("specs")]), environment: [:]).watchRoots == nil)
    #expect(throws: ValidationError.self) {
      try RunSettings(options: RunCommand.parse(["--watch", "--list", directory.path("specs")]), environment: [:])
    }
  }

  @Test func aSnapshotIsTheSpecFilesOfTheRootsThatExist() throws {
    let directory = try TemporaryDirectory(files: ["specs/a.yaml", "specs/sub/b.yml", "specs/notes.md", "one.yaml"])
    let snapshot = SpecPaths.snapshot([directory.path("specs"), directory.path("one.yaml"), directory.path("gone")])
    #expect(
      SpecPaths.sorted(Array(snapshot.keys))
        == [directory.path("one.yaml"), directory.path("specs") + "/a.yaml", directory.path("specs") + "/sub/b.yml"])
  }
}
