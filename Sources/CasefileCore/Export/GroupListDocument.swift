import Foundation

/// The JSON document `casefile groups --format json` prints: versioned, documented by
/// `Schemas/groups-v1.schema.json`. The groups are the listing's, in its order (most occurrences first); `total` says
/// how many matched before `limit` kept the first ones, so a script can tell a short list from a cut one.
public struct GroupListDocument: Sendable, Codable, Equatable {
    /// The document's schema version; it changes only when a field changes meaning or goes away.
    public static let currentSchemaVersion = 1

    /// ``currentSchemaVersion`` when written.
    public var schemaVersion: Int
    /// Always `casefile`.
    public var generator: String
    /// How many groups matched the filters.
    public var total: Int
    /// The most groups listed, when a limit was asked for.
    public var limit: Int?
    /// The groups listed.
    public var groups: [GroupEntry]

    /// A document listing `groups`, the first of `total` that matched.
    public init(groups: [BugGroup], total: Int, limit: Int?) {
        schemaVersion = Self.currentSchemaVersion
        generator = "casefile"
        self.total = total
        self.limit = limit
        self.groups = groups.map(GroupEntry.init)
    }
}

/// One group in a ``GroupListDocument`` or a ``GroupDocument``: what the `groups` listing shows, and the rest of the
/// group's row. Times are ISO 8601 in UTC, to the second.
public struct GroupEntry: Sendable, Codable, Equatable {
    /// The group's id in the index (what `show`, `resolve` and `merge-groups` take, besides the fingerprint).
    public var id: Int64
    /// The primary fingerprint the group was created with (16 hex digits).
    public var fingerprint: String
    /// `crash`, `termination`, `jetsam` or `failure`.
    public var kind: String
    /// The title.
    public var title: String
    /// `new`, `ongoing`, `regressed` or `resolved`; `merged` when `--status merged` lists merged groups.
    public var status: String
    /// How many crashes or failures the group holds.
    public var occurrences: Int
    /// When Casefile first saw it.
    public var firstSeen: String
    /// When Casefile last saw it.
    public var lastSeen: String
    /// The run that created it.
    public var firstRun: Int64
    /// The last run that added to it.
    public var lastRun: Int64
    /// The version it was resolved in, when `resolve --in-version` named one.
    public var resolvedInVersion: String?
    /// The app version that made it regress.
    public var regressedInVersion: String?

    /// The entry of `group`.
    public init(_ group: BugGroup) {
        id = group.id
        fingerprint = group.fingerprint
        kind = group.kind.rawValue
        title = group.title
        status = group.status.rawValue
        occurrences = group.occurrences
        firstSeen = group.firstSeen.formatted(.iso8601)
        lastSeen = group.lastSeen.formatted(.iso8601)
        firstRun = group.firstRun
        lastRun = group.lastRun
        resolvedInVersion = group.resolvedInVersion
        regressedInVersion = group.regressedInVersion
    }
}
