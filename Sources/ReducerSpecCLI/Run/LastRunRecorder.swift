import Foundation
import SpecRunner

/// The reporter that keeps `.reducer-spec/last-run.json` (``LastRunRecord``): when the run
/// ends, also when it was interrupted or stopped by `--fail-fast`, it merges every result that
/// had finished into the record it found and writes the record back atomically.
///
/// A record that cannot be written does not fail the run: ``warn`` says why, and the run's
/// exit status stays what its scenarios made it.
final class LastRunRecorder: RunReporter {
  let path: String
  /// The record the run started from; `nil` when there was none, or it could not be read
  /// (then the run's results replace it).
  let previous: LastRunRecord?
  /// Writes a line on standard error.
  let warn: (String) -> Void

  /// The current directory, which the record's file names are relative to.
  let directory: String

  init(
    path: String = LastRunRecord.path, previous: LastRunRecord?,
    directory: String = FileManager.default.currentDirectoryPath, warn: @escaping (String) -> Void
  ) {
    self.path = path
    self.directory = directory
    self.previous = previous
    self.warn = warn
  }

  func runFinished(_ result: RunResult) throws {
    let record = (previous ?? LastRunRecord()).merging(result) { LastRunRecord.fileName($0, in: directory) }
    do {
      try record.write(to: path)
    } catch {
      warn("reducer-spec: warning: could not write the record of this run to \(path): \(error.localizedDescription)")
    }
  }
}
