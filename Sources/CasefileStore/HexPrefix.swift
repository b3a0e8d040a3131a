/// A reference to a report or a group by the first hex digits of its id or fingerprint, as the range of the values that
/// start with them: `value >= lower AND value < upper`, which SQLite answers from the column's index.
///
/// The index's report ids and fingerprints are lowercase hex. A `LIKE 'prefix%'` pattern could not use the index (it
/// ignores case, the index does not) and read every report of the index for each `casefile show`: 0.7 s over 426,000
/// reports, and a year of nightly runs holds millions. It also read `_` and `%` in a reference as wildcards.
struct HexPrefix {
    /// The digits, lowercase: the least value that starts with them.
    let lower: String
    /// The digits with the last one's byte moved up by one: the least value past every value that starts with them.
    let upper: String

    /// The range of `reference`, read case-insensitively; `nil` when it is shorter than `minimumLength` or holds
    /// anything but hex digits, which no id or fingerprint starts with.
    init?(_ reference: String, minimumLength: Int = 6) {
        let digits = Array(reference.lowercased().utf8)
        guard digits.count >= minimumLength, let last = digits.last,
            digits.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        lower = String(decoding: digits, as: UTF8.self)
        // After `9` comes `:` and after `f` comes `g`: neither is a hex digit, so no value lies between.
        upper = String(decoding: digits.dropLast() + [last + 1], as: UTF8.self)
    }
}
