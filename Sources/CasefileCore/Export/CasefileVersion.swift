/// The version `casefile --version` prints, and the versions of what it writes.
public enum CasefileVersion {
    /// This build.
    public static let current = "0.17.0"

    /// The layouts this build writes, for the version line. `indexMigrations` are the index's migration names in
    /// order (`v1-foundation` … `v15-…`); the line names the first and last numbers, so it cannot fall behind the
    /// schema. `indexDocuments` are the JSON documents read from the index (`show REPORT`, `groups --regroup`) with
    /// their schema versions, which this module cannot see.
    public static func interfaces(indexMigrations: [String], indexDocuments: [(name: String, version: Int)]) -> String {
        func number(_ name: String?) -> String { name.map { String($0.prefix { $0 != "-" }) } ?? "none" }
        return
            ([
                "index migrations \(number(indexMigrations.first))–\(number(indexMigrations.last))",
                "triage JSON schema \(TriageDocument.currentSchemaVersion)",
                "run JSON schema \(RunReport.currentSchemaVersion)",
                "groups JSON schema \(GroupListDocument.currentSchemaVersion)",
                "group JSON schema \(GroupDocument.currentSchemaVersion)",
            ] + indexDocuments.map { "\($0.name) JSON schema \($0.version)" } + [
                "outbox \(TrackerPayload.schema)",
                "pipeline version \(PipelineDefinition.supportedVersions.upperBound)",
                "crash detail blob 2",
            ]).joined(separator: ", ")
    }
}
