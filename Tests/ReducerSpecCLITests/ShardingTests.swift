import ArgumentParser
import SpecFixtures
import Testing
@testable import ReducerSpecCLI
@testable import SpecRunner

@Suite struct ShardingTests {
  @Test(arguments: 1...4)
  func shardsPartitionThePlan(count: Int) {
    for size in [0, 1, 2, 3, 7, 10, 25] {
      let plan = plannedScenarios(size)
      let shards = (1...count).map { Shard(index: $0, count: count).select(plan) }
      // Every scenario is in exactly one shard, and each shard keeps run order.
      let union = shards.flatMap { $0 }
      #expect(union.count == plan.count)
      #expect(Set(union.map(\.id)) == Set(plan.map(\.id)))
      for shard in shards { #expect(shard.map(\.id) == shard.map(\.id).sorted()) }
      // Shards differ in size by at most one.
      let sizes = shards.map(\.count)
      #expect(sizes.max()! - sizes.min()! <= 1)
      // Deterministic: the same plan gives the same shards.
      #expect((1...count).map { Shard(index: $0, count: count).select(plan) } == shards)
    }
  }

  @Test func roundRobinOverTheSelection() {
    let plan = plannedScenarios(7)
    #expect(Shard(index: 1, count: 3).select(plan).map(\.name) == ["s0", "s3", "s6"])
    #expect(Shard(index: 2, count: 3).select(plan).map(\.name) == ["s1", "s4"])
    #expect(Shard(index: 3, count: 3).select(plan).map(\.name) == ["s2", "s5"])
    #expect(Shard(index: 4, count: 4).select(plannedScenarios(3)).isEmpty)
  }

  @Test func parsesKOfN() throws {
    #expect(try Shard(parsing: "1/1") == Shard(index: 1, count: 1))
    #expect(try Shard(parsing: "2/4") == Shard(index: 2, count: 4))
    #expect(try Shard(parsing: "4/4").description == "4/4")
  }

  @Test func malformedShardsSayWhatIsWrong() {
    #expect(shardError("x") == "--shard expects K/N, shard K of N counted from 1 (like 2/4); got 'x'")
    #expect(shardError("1/") == "--shard expects K/N, shard K of N counted from 1 (like 2/4); got '1/'")
    #expect(shardError("1/2/3") == "--shard expects K/N, shard K of N counted from 1 (like 2/4); got '1/2/3'")
    #expect(shardError("0/3") == "--shard 0/3: K must be between 1 and 3 (shards are counted from 1)")
    #expect(shardError("4/3") == "--shard 4/3: K must be between 1 and 3 (shards are counted from 1)")
    #expect(shardError("1/0") == "--shard 1/0: the number of shards must be at least 1")
  }

  @Test func bazelShardVariables() throws {
    #expect(try Shard.fromBazel([:]) == nil)
    #expect(try Shard.fromBazel(["TEST_TOTAL_SHARDS": ""]) == nil)
    #expect(try Shard.fromBazel(["TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "0"]) == Shard(index: 1, count: 3))
    #expect(try Shard.fromBazel(["TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "2"]) == Shard(index: 3, count: 3))
    #expect(
      bazelError(["TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "3"])
        == "TEST_SHARD_INDEX must be between 0 and 2 when TEST_TOTAL_SHARDS is 3; got '3'")
    #expect(
      bazelError(["TEST_TOTAL_SHARDS": "3"])
        == "TEST_SHARD_INDEX must be between 0 and 2 when TEST_TOTAL_SHARDS is 3; got ''")
    #expect(
      bazelError(["TEST_TOTAL_SHARDS": "0", "TEST_SHARD_INDEX": "0"])
        == "TEST_TOTAL_SHARDS must be a number of shards, at least 1; got '0'")
  }

  private func shardError(_ text: String) -> String {
    do {
      return "no error: \(try Shard(parsing: text))"
    } catch {
      return error.message
    }
  }

  private func bazelError(_ environment: [String: String]) -> String {
    do {
      return "no error: \(String(describing: try Shard.fromBazel(environment)))"
    } catch {
      return error.message
    }
  }
}
