import CasefileCore

/// What the parallel stages made for the index writer — crash-detail blobs, event summaries, a report's event blob —
/// looked up by position or by report. An empty value stands for one that failed there: the writer makes it again and
/// reports the error.
enum Prepared {
    /// The value made for position `index`, or `nil` when none was made or it failed.
    static func value<Value: Collection>(_ values: [Value]?, at index: Int) -> Value? {
        guard let values, index < values.count, !values[index].isEmpty else { return nil }
        return values[index]
    }

    /// The blob made for a whole report (its events'), or `nil` when none was made or it failed.
    static func value(_ blob: [UInt8]?) -> [UInt8]? {
        guard let blob, !blob.isEmpty else { return nil }
        return blob
    }

    /// The crash detail made for position `index`, or `nil` when none was made or it failed.
    static func value(_ values: [CrashDetail]?, at index: Int) -> CrashDetail? {
        guard let values, index < values.count, !values[index].blob.isEmpty else { return nil }
        return values[index]
    }
}
