import Foundation
import SpecYAML

/// Where reporters write by default: the process's standard output, one line at a time.
///
/// Each line is written at once (not through `print`'s buffer), so a run's progress shows
/// as it happens even when the output is a pipe or a CI log.
public enum StandardOutput {
  /// Writes `line` and a line feed to standard output.
  public static func writeLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}
