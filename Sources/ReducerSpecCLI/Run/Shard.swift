import ArgumentParser
import SpecRunner
import SpecYAML

/// One of N parts of a run, so that N machines (or N Bazel shards) share the scenarios.
///
/// The partition is round-robin over the selected scenarios in run order: scenario `i`
/// (from 0) belongs to shard `i % N + 1`. Every scenario is in exactly one shard, shards
/// differ in size by at most one, and the same files always give the same partition.
struct Shard: Hashable, Sendable, CustomStringConvertible {
  /// The shard, from 1.
  var index: Int
  /// How many shards there are, at least 1.
  var count: Int

  init(index: Int, count: Int) {
    precondition(count >= 1 && (1...count).contains(index), "invalid shard \(index)/\(count)")
    self.index = index
    self.count = count
  }

  /// `2/4`.
  var description: String { "\(index)/\(count)" }

  // MARK: - Parsing

  /// Reads `--shard K/N`.
  init(parsing text: String) throws(ValidationError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
      throw ValidationError("--shard expects K/N, shard K of N counted from 1 (like 2/4); got '\(text)'")
    }
    guard n >= 1 else {
      throw ValidationError("--shard \(text): the number of shards must be at least 1")
    }
    guard (1...n).contains(k) else {
      throw ValidationError("--shard \(text): K must be between 1 and \(n) (shards are counted from 1)")
    }
    self.init(index: k, count: n)
  }

  /// The shard that Bazel's test protocol asks for: `TEST_TOTAL_SHARDS` and the 0-based
  /// `TEST_SHARD_INDEX`; `nil` when `TEST_TOTAL_SHARDS` is not set.
  static func fromBazel(_ environment: [String: String]) throws(ValidationError) -> Shard? {
    guard let totalText = environment["TEST_TOTAL_SHARDS"], !totalText.isEmpty else { return nil }
    guard let total = Int(totalText), total >= 1 else {
      throw ValidationError("TEST_TOTAL_SHARDS must be a number of shards, at least 1; got '\(totalText)'")
    }
    let indexText = environment["TEST_SHARD_INDEX"] ?? ""
    guard let index = Int(indexText), (0..<total).contains(index) else {
      throw ValidationError(
        "TEST_SHARD_INDEX must be between 0 and \(total - 1) when TEST_TOTAL_SHARDS is \(total); got '\(indexText)'")
    }
    return Shard(index: index + 1, count: total)
  }

  // MARK: - Partition

  /// Whether the scenario at `position` (from 0) of the selected scenarios is in this shard.
  func contains(position: Int) -> Bool { position % count == index - 1 }

  /// The elements of `items` (in run order) that belong to this shard, in the same order.
  func select<Element>(_ items: [Element]) -> [Element] {
    items.enumerated().filter { contains(position: $0.offset) }.map(\.element)
  }
}
