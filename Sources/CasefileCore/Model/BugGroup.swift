public import Foundation

/// One group of the index: every crash or failure with the same fingerprint, across formats, builds, devices and
/// runs — one bug.
public struct BugGroup: Sendable, Hashable {
    /// Where a group stands.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// First seen in the latest run that saw it.
        case new
        /// Seen in earlier runs and not resolved.
        case ongoing
        /// Seen again in a newer app version after it was resolved.
        case regressed
        /// Marked resolved by `casefile resolve`.
        case resolved
        /// Merged into another group by `casefile merge-groups`.
        case merged
    }

    /// The row id.
    public var id: Int64
    /// The primary fingerprint the group was created with.
    public var fingerprint: String
    /// Crash, termination, jetsam or failure.
    public var kind: Fingerprint.Kind
    /// The title.
    public var title: String
    /// The status.
    public var status: Status
    /// How many crashes or failures the group holds.
    public var occurrences: Int
    /// When Casefile first saw it (the run's start).
    public var firstSeen: Date
    /// When Casefile last saw it.
    public var lastSeen: Date
    /// The run that created it.
    public var firstRun: Int64
    /// The last run that added to it.
    public var lastRun: Int64
    /// The version it was resolved in (`resolve --in-version`).
    public var resolvedInVersion: String?
    /// The app version that made it regress.
    public var regressedInVersion: String?
    /// The group this one was merged into.
    public var mergedInto: Int64?
    /// How the first occurrence was keyed: frames used and skipped, rule-set version.
    public var explanation: Fingerprint?

    /// Creates a group.
    public init(
        id: Int64, fingerprint: String, kind: Fingerprint.Kind, title: String, status: Status, occurrences: Int,
        firstSeen: Date, lastSeen: Date, firstRun: Int64, lastRun: Int64
    ) {
        self.id = id
        self.fingerprint = fingerprint
        self.kind = kind
        self.title = title
        self.status = status
        self.occurrences = occurrences
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.firstRun = firstRun
        self.lastRun = lastRun
    }
}

/// A group with what a triager reads on its page: versions, devices, reports.
public struct BugGroupDetail: Sendable, Hashable {
    /// The group.
    public var group: BugGroup
    /// OS versions seen with their counts.
    public var osVersions: [Count]
    /// Device models seen with their counts.
    public var devices: [Count]
    /// The reports holding occurrences, newest first (at most 50).
    public var reports: [Occurrence]
    /// Fingerprints merged into this group.
    public var aliases: [String]
    /// App versions seen (`2.3.1 (412)`) with their counts, most first.
    public var appVersionCounts: [Count]

    /// A value and how often it was seen; `{"value", "count"}` in the group JSON document.
    public struct Count: Sendable, Hashable, Codable {
        /// The value.
        public var value: String
        /// How often.
        public var count: Int

        /// Creates a count.
        public init(value: String, count: Int) {
            self.value = value
            self.count = count
        }
    }

    /// One occurrence, for the list of reports.
    public struct Occurrence: Sendable, Hashable {
        /// The report id.
        public var reportID: String
        /// The report's summary file, relative to the output folder.
        public var summaryPath: String?
        /// `2.3.1 (412)`.
        public var appVersion: String?
        /// The OS version.
        public var osVersion: String?
        /// The device model.
        public var device: String?
        /// The report's format.
        public var format: String
        /// The run that indexed it.
        public var run: Int64

        /// Creates an occurrence.
        public init(
            reportID: String, summaryPath: String?, appVersion: String?, osVersion: String?, device: String?,
            format: String, run: Int64
        ) {
            self.reportID = reportID
            self.summaryPath = summaryPath
            self.appVersion = appVersion
            self.osVersion = osVersion
            self.device = device
            self.format = format
            self.run = run
        }
    }

    /// Creates a detail.
    public init(
        group: BugGroup, appVersionCounts: [Count], osVersions: [Count], devices: [Count], reports: [Occurrence],
        aliases: [String]
    ) {
        self.group = group
        self.appVersionCounts = appVersionCounts
        self.osVersions = osVersions
        self.devices = devices
        self.reports = reports
        self.aliases = aliases
    }
}
