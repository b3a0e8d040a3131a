/// Lines of a JSON Lines file read strictly to what the tree parser would make of them, or refused (`nil`) for the
/// reader to parse as a tree: the Clue line decoders (``ClueViewLineDecoder``, ``ClueTouchLineDecoder``,
/// ``ClueNetworkLineDecoder``).
extension JSONScanner {
    /// An escaped key, which the tree reads as the key it spells.
    struct EscapedKey: Error {}

    /// What `read` makes of a line holding one JSON object (white space around it allowed), read strictly from the
    /// object's opening brace; `nil` when the line holds anything else, or `read` throws.
    static func objectLine<Value>(_ line: ArraySlice<UInt8>, _ read: (inout JSONScanner) throws -> Value) -> Value? {
        line.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, strict: true)
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "{") else { return nil }
            do {
                let value = try read(&scanner)
                scanner.skipWhitespace()
                return scanner.index == buffer.count ? value : nil
            } catch {
                return nil
            }
        }
    }

    /// Visits each member of the object at the cursor, as ``members(_:)`` does; throws at an escaped key.
    mutating func plainMembers(_ body: (inout JSONScanner, Range<Int>) throws -> Void) throws {
        try members { scanner, key in
            guard scanner.keyIsPlain(key) else { throw EscapedKey() }
            try body(&scanner, key)
        }
    }
}
