import Foundation

/// What Foundation's encoder writes with the index's options (sorted keys, slashes unescaped): the reference the
/// field-by-field JSON writers of `IndexJSON` must equal byte for byte.
enum FoundationJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as that text.
    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
