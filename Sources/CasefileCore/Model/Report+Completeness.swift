extension Report {
    /// How much this copy of the report holds: its crashes' frames (every thread's and the exception backtrace's) and
    /// images, and its timeline events. Two inputs can hold copies of one report — an incident mailed as `.ips` and as
    /// a truncated `.crash`, a recording zipped twice — and the index keeps the more complete copy, so that which copy
    /// a run keeps does not depend on which input its parallel tasks finished first.
    public var completeness: Int {
        var count = timeline.events.count
        for crash in crashes {
            count += crash.images.count + crash.exceptionBacktrace.count
            for thread in crash.threads {
                count += thread.frames.count
            }
        }
        return count
    }

    /// One copy of each report of `reports`, in the order each report first appears: the most complete, the first of
    /// them when several are as complete. That is the copy the index keeps of copies one input holds (an archive of a
    /// truncated report and the complete one), so the input's summary, digest line and counts are that copy's.
    public static func keptCopies(_ reports: [Report]) -> [Report] {
        // Most inputs hold one report.
        guard reports.count > 1 else { return reports }
        var kept: [Report] = []
        var positions: [String: Int] = [:]
        for report in reports {
            if let position = positions[report.id] {
                if report.completeness > kept[position].completeness { kept[position] = report }
            } else {
                positions[report.id] = kept.count
                kept.append(report)
            }
        }
        return kept
    }
}
