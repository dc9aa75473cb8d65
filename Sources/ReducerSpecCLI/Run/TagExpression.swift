import ArgumentParser
import SpecRunner
import SpecYAML

/// The `--tag` options of a run: `--tag smoke --tag '!slow'` selects the scenarios that
/// have every tag named plainly and none of the tags named with a leading `!`.
struct TagExpression: Hashable, Sendable {
  /// Tags a scenario must all have.
  var required: [String] = []
  /// Tags a scenario must have none of.
  var excluded: [String] = []

  init(required: [String] = [], excluded: [String] = []) {
    self.required = required
    self.excluded = excluded
  }

  /// Reads the values of `--tag`, in order.
  init(parsing values: [String]) throws(ValidationError) {
    for value in values {
      let negated = value.hasPrefix("!")
      let tag = negated ? String(value.dropFirst()) : value
      guard !tag.isEmpty, !tag.contains(where: \.isWhitespace), !tag.hasPrefix("!") else {
        throw ValidationError("--tag expects a tag, or !tag to leave out the scenarios that have it; got '\(value)'")
      }
      if negated { excluded.append(tag) } else { required.append(tag) }
    }
  }

  /// `true` when no `--tag` was given.
  var isEmpty: Bool { required.isEmpty && excluded.isEmpty }

  /// Whether a scenario with `tags` is selected.
  func matches(_ tags: [String]) -> Bool {
    required.allSatisfy(tags.contains) && !excluded.contains(where: tags.contains)
  }
}
