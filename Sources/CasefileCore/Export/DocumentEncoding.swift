public import Foundation

/// How Casefile writes its JSON documents (`--format json`, the run report, the tracker outbox): indented, keys sorted,
/// slashes unescaped, so a document reads and diffs well and the same content gives the same bytes.
public enum DocumentEncoding {
    /// A new encoder with those settings.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
