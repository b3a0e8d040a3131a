/// The version `casefile --version` prints, and the versions of what it writes.
public enum CasefileVersion {
    /// This build.
    public static let current = "0.15.0"

    /// The layouts this build writes, for the version line. `indexMigrations` are the index's migration names in
    /// order (`v1-foundation` … `v14-…`); the line names the first and last numbers, so it cannot fall behind the
    /// schema. `reportSchemaVersion` is the version of the report document the index writes (`show REPORT`).
    public static func interfaces(indexMigrations: [String], reportSchemaVersion: Int) -> String {
        func number(_ name: String?) -> String { name.map { String($0.prefix { $0 != "-" }) } ?? "none" }
        return [
            "index migrations \(number(indexMigrations.first))–\(number(indexMigrations.last))",
            "triage JSON schema \(TriageDocument.currentSchemaVersion)",
            "run JSON schema \(RunReport.currentSchemaVersion)",
            "groups JSON schema \(GroupListDocument.currentSchemaVersion)",
            "group JSON schema \(GroupDocument.currentSchemaVersion)",
            "report JSON schema \(reportSchemaVersion)",
            "outbox \(TrackerPayload.schema)", "pipeline version \(PipelineDefinition.supportedVersions.upperBound)",
            "crash detail blob 2",
        ].joined(separator: ", ")
    }
}
