import Foundation

// `record`'s diff (UnifiedDiff.editScript, the root package's file compiled in here) against
// the standard library's `difference(from:)`, on texts of numbered lines.

func now() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

struct Case {
  var name: String
  var old: [String]
  var new: [String]
}

func lines(_ count: Int) -> [String] { (0..<count).map { "line \($0)" } }

var cases: [Case] = []
for count in [2_000, 4_000, 8_000, 16_000] {
  cases.append(Case(name: "\(count) lines, all rewritten", old: lines(count), new: (0..<count).map { "new \($0)" }))
}
do {
  let old = lines(40_000)
  var far = old
  far[3] = "changed"
  far.insert("new", at: 39_000)
  cases.append(Case(name: "40000 lines, 2 changes far apart", old: old, new: far))
  var every16 = old
  for index in stride(from: 0, to: every16.count, by: 16) { every16[index] = "changed \(index)" }
  cases.append(Case(name: "40000 lines, every 16th changed", old: old, new: every16))
}

print("case | UnifiedDiff (edits, seconds) | difference(from:) (edits, seconds)")
for item in cases {
  var start = now()
  let ours = UnifiedDiff.editScript(item.old, item.new).count { $0.kind != .same }
  let oursTime = now() - start
  start = now()
  let library = item.new.difference(from: item.old).count
  let libraryTime = now() - start
  print(item.name, "|", ours, String(format: "%.3f", oursTime), "|", library, String(format: "%.3f", libraryTime))
}
