/// The JSON document `casefile show GROUP --format json` prints: what the group's page says, versioned and documented
/// by `Schemas/group-v1.schema.json`.
public struct GroupDocument: Sendable, Codable {
    /// The document's schema version; it changes only when a field changes meaning or goes away.
    public static let currentSchemaVersion = 1

    /// One report holding an occurrence.
    public struct Report: Sendable, Codable, Equatable {
        /// The report id (SHA-256, hex).
        public var id: String
        /// The report's format (`ips`, `apple-crash`, `kscrash`, `metrickit`, `clue`, …).
        public var format: String
        /// The run that indexed it.
        public var run: Int64
        /// Its summary, relative to the output folder.
        public var summaryPath: String?
        /// `2.3.1 (412)`.
        public var appVersion: String?
        /// The OS version.
        public var osVersion: String?
        /// The device model.
        public var device: String?
    }

    /// ``currentSchemaVersion`` when written.
    public var schemaVersion: Int
    /// Always `casefile`.
    public var generator: String
    /// The group.
    public var group: GroupEntry
    /// Fingerprints merged into the group.
    public var aliases: [String]
    /// App versions seen (`2.3.1 (412)`), most occurrences first.
    public var appVersions: [BugGroupDetail.Count]
    /// OS versions seen, most occurrences first.
    public var osVersions: [BugGroupDetail.Count]
    /// Device models seen, most occurrences first.
    public var devices: [BugGroupDetail.Count]
    /// The reports holding occurrences, newest first (at most 50).
    public var reports: [Report]
    /// How the group's first occurrence was keyed: the frames used, the rule that skipped each other frame, the
    /// rule-set version (the shape of `grouping` in the triage document).
    public var grouping: Fingerprint?

    /// The document of a group's detail.
    public init(_ detail: BugGroupDetail) {
        schemaVersion = Self.currentSchemaVersion
        generator = "casefile"
        group = GroupEntry(detail.group)
        aliases = detail.aliases
        appVersions = detail.appVersionCounts
        osVersions = detail.osVersions
        devices = detail.devices
        reports = detail.reports.map { occurrence in
            Report(
                id: occurrence.reportID, format: occurrence.format, run: occurrence.run,
                summaryPath: occurrence.summaryPath, appVersion: occurrence.appVersion,
                osVersion: occurrence.osVersion, device: occurrence.device)
        }
        grouping = detail.group.explanation
    }
}
