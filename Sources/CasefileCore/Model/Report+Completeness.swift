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
}
