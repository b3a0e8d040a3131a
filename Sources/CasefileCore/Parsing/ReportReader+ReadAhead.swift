extension ReportReader.Parts {
    /// The parts, each read (``next()``) on a thread of its own while the caller works on the part before: the run's
    /// index writer stores a part's rows, and enriches its reports, on one thread, and the other core sat idle
    /// meanwhile. What is held is two parts' reports instead of one.
    package func readingAhead() -> ReadAhead {
        ReadAhead(self)
    }

    /// The parts of one input read one part ahead (``readingAhead()``), for one caller at a time.
    package final class ReadAhead: @unchecked Sendable {
        private let parts: ReportReader.Parts
        /// The part after the last one given, being read.
        private var ahead: SideBySide.Ahead<Result<[Report]?, InputError>>?

        fileprivate init(_ parts: ReportReader.Parts) {
            self.parts = parts
        }

        /// The next part, as ``ReportReader/Parts/next()`` gives it, the one after it begun before it is returned
        /// (where second threads are on: ``SideBySide/ahead(_:)``). A part that cannot be read throws when it is asked
        /// for, not before.
        package func next() throws(InputError) -> [Report]? {
            let parts = parts
            let read = { @Sendable in Result { () throws(InputError) in try parts.next() } }
            let part = ahead.map { $0.value() } ?? read()
            ahead = nil
            if case .success(.some) = part {
                ahead = SideBySide.ahead(read)
            }
            return try part.get()
        }
    }
}
