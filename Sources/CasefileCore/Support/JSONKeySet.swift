/// The known keys an object has shown, by number, for a decoder whose result must equal the tree parser's: a repeated
/// key throws, and the decoder leaves the document to the tree (``JSONObject``'s subscript takes the first).
struct JSONKeySet {
    /// A known key came twice.
    struct Repeated: Error {}

    private var bits: UInt32 = 0

    /// Notes key number `key` (below 32); throws when it was noted before.
    mutating func insert(_ key: Int) throws(Repeated) {
        let bit = UInt32(1) << UInt32(key)
        guard bits & bit == 0 else { throw Repeated() }
        bits |= bit
    }
}
