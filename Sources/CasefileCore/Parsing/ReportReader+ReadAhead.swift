extension ReportReader.Parts {
    /// The parts, each read (``next()``) and given to `then` on a thread of its own while the caller works on the part
    /// before: the run's index writer stores a part's rows on one thread, and the other core sat idle meanwhile. What
    /// is held is two parts' reports instead of one.
    package func readingAhead(then: @escaping @Sendable ([Report]) -> [Report] = { $0 }) -> ReadAhead {
        ReadAhead(self, then: then)
    }

    /// The parts of one input read one part ahead (``readingAhead(then:)``), for one caller at a time.
    package final class ReadAhead: @unchecked Sendable {
        private let parts: ReportReader.Parts
        private let then: @Sendable ([Report]) -> [Report]
        /// The part after the last one given, being read.
        private var ahead: SideBySide.Ahead<Result<[Report]?, InputError>>?

        fileprivate init(_ parts: ReportReader.Parts, then: @escaping @Sendable ([Report]) -> [Report]) {
            self.parts = parts
            self.then = then
        }

        /// The next part, as ``ReportReader/Parts/next()`` gives it and handed to `then`, the one after it begun before
        /// it is returned (where second threads are on: ``SideBySide/ahead(_:)``). A part that cannot be read throws
        /// when it is asked for, not before.
        package func next() throws(InputError) -> [Report]? {
            let (parts, then) = (parts, then)
            let read = { @Sendable in Result { () throws(InputError) in try parts.next().map(then) } }
            let part = ahead.map { $0.value() } ?? read()
            ahead = nil
            if case .success(.some) = part {
                ahead = SideBySide.ahead(read)
            }
            return try part.get()
        }
    }
}
