/// Puts the workers' answers about files back into the order of the files: an answer that
/// comes early waits until every file before it was answered. `check` and `record` hand
/// over their files' answers so (a run's results have ``OrderedDelivery``).
package struct AnswersInFileOrder<Answer> {
  private var waiting = IndexWindow<Answer>()
  /// The file whose answer is delivered next.
  private var next = 0
  private let deliver: (_ file: Int, _ answer: Answer) -> Void

  package init(deliver: @escaping (_ file: Int, _ answer: Answer) -> Void) {
    self.deliver = deliver
  }

  /// Takes the answer about the file at `index`, and delivers it and every answer it
  /// unblocks.
  package mutating func add(_ index: Int, _ answer: Answer) {
    waiting[index] = answer
    while let ready = waiting.removeValue(forKey: next) {
      deliver(next, ready)
      next += 1
    }
  }

  /// Delivers the answers still waiting (the run stopped before a file was answered), in
  /// file order.
  package mutating func finish() {
    for index in waiting.indices {
      if let answer = waiting.removeValue(forKey: index) { deliver(index, answer) }
    }
  }
}
