public import CasefileCore

/// The JSON document `casefile groups --regroup RESOLUTION --format json` prints: which groups would merge or split at
/// another resolution, versioned and documented by `Schemas/regroup-v1.schema.json`.
public struct RegroupDocument: Sendable, Encodable {
    /// The document's schema version; it changes only when a field changes meaning or goes away.
    public static let currentSchemaVersion = 1

    /// ``currentSchemaVersion`` when written.
    public var schemaVersion = Self.currentSchemaVersion
    /// Always `casefile`.
    public var generator = "casefile"
    /// The resolution previewed.
    public var resolution: Fingerprint.Resolution
    /// Groups holding occurrences now.
    public var groupsNow: Int
    /// Groups there would be.
    public var groupsAfter: Int
    /// Occurrences with no key at that resolution: they would keep their group.
    public var unkeyedOccurrences: Int
    /// Keys several groups would share.
    public var merges: [RegroupPreview.Merge]
    /// Groups whose occurrences would spread over several keys.
    public var splits: [RegroupPreview.Split]

    /// The document of `preview`.
    public init(_ preview: RegroupPreview) {
        resolution = preview.resolution
        groupsNow = preview.groupsNow
        groupsAfter = preview.groupsAfter
        unkeyedOccurrences = preview.unkeyedOccurrences
        merges = preview.merges
        splits = preview.splits
    }
}
