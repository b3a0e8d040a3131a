import Foundation

/// The one JSON form of the index's JSON columns: sorted keys and unescaped slashes, so equal values are equal text.
/// In the core library because the parallel stages encode the bulkiest of them (each timeline event's detail) and
/// the index writer only stores them.
public enum IndexJSON {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as JSON text. Written by ``SortedJSONEncoder`` (the same bytes, several times as fast); what it leaves
    /// to `JSONEncoder`, `JSONEncoder` writes or refuses.
    public static func text(_ value: some Encodable) throws -> String {
        try encodedText(value)
    }

    /// `value` as JSON text through its `Encodable` form, for the overloads that write some values directly.
    static func encodedText(_ value: some Encodable) throws -> String {
        if let bytes = try? SortedJSONEncoder.encode(value) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A dictionary of strings as JSON text, keys sorted: the bytes its `Encodable` form gives, written directly (a
    /// crash's fields Casefile does not model are one such text per crash).
    public static func text(_ fields: [String: String]) -> String {
        var json = JSONObjectWriter()
        json.object(fields)
        return String(decoding: json.output, as: UTF8.self)
    }
}
