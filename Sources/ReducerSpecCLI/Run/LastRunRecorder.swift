import Foundation
import SpecProcess
import SpecRunner

/// The reporter that keeps `.reducer-spec/last-run.json` (``LastRunRecord``): it puts each
/// file's outcomes aside as the file finishes (in a temporary file), and when the run ends,
/// also when it was interrupted or stopped by `--fail-fast`, merges them into the record it
/// finds, a file at a time, and writes the record back atomically. Neither the record nor
/// the run's outcomes are held whole, however large the suite.
///
/// A record that cannot be read is replaced. One that cannot be written does not fail the
/// run: ``warn`` says why, and the run's exit status stays what its scenarios made it.
final class LastRunRecorder: RunReporter {
  let path: String
  /// Writes a line on standard error.
  let warn: (String) -> Void

  /// The current directory, which the record's file names are relative to.
  let directory: String

  init(
    path: String = LastRunRecord.path, directory: String = FileManager.default.currentDirectoryPath,
    warn: @escaping (String) -> Void
  ) {
    self.path = path
    self.directory = directory
    self.warn = warn
  }

  /// What the run did so far: made with the first file that finishes.
  private var ran: LastRunRecord.Ran?

  func suiteFinished(_ suite: SuiteResult) {
    let ran = self.ran ?? LastRunRecord.Ran()
    self.ran = ran
    ran.add(suite, name: LastRunRecord.fileName(suite.file, in: directory))
  }

  func runFinished(_ summary: RunSummary) throws {
    let ran = self.ran ?? LastRunRecord.Ran()
    self.ran = nil
    do {
      try LastRunRecord.write(merging: ran, into: path)
    } catch {
      warn("\(ProgramName.current): warning: could not write the record of this run to \(path): \(error)")
    }
  }
}
