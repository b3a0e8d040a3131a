import Foundation

/// One folder's entries as ``InboxWalk`` holds them while it is in the folder: every entry's name in one buffer of
/// bytes, and where each begins, sorted.
///
/// An inbox that keeps its files in one folder has all of them in one listing. Held as a `String` each, a name of 20
/// bytes took about 72 bytes (the string's own storage and its place in an array): a run over a million files in one
/// folder peaked at 145 MB, against the goal of 150 MB at any inbox size. Here it takes its bytes, a terminating zero
/// and an 8-byte offset.
struct InboxListing: Sendable {
    /// Every key's UTF-8 bytes followed by a zero (no file name holds one); a folder to search has a slash after its
    /// name, so that its key sorts where its paths do.
    private var keys: [UInt8] = []
    /// Where each key begins in `keys`, with ``nonASCII`` set for a key with a byte outside ASCII; sorted by ``sort()``.
    private var starts: [Int] = []

    /// Marks a start whose key has a byte outside ASCII: keys are compared as strings only then.
    private static let nonASCII = 1 << 62

    /// The entries listed.
    var count: Int { starts.count }

    /// Adds an entry: an input, or a folder whose entries are inputs (`searched`).
    mutating func append(_ name: String, searched: Bool) {
        var start = keys.count
        var ascii = true
        for byte in name.utf8 {
            if byte >= 0x80 { ascii = false }
            keys.append(byte)
        }
        if searched { keys.append(UInt8(ascii: "/")) }
        keys.append(0)
        if !ascii { start |= Self.nonASCII }
        starts.append(start)
    }

    /// Sorts the entries by key as `String`'s `<` sorts their names: byte by byte for keys in ASCII (the order of
    /// their Unicode scalars, which `String` compares); as strings when either key is not, where `String` compares
    /// canonically equivalent spellings as equal. Those are made for each comparison: 100,000 names outside ASCII in
    /// one folder took as long (a second run of 0.71-0.76 s either way) as with each made once for the sort, which held
    /// 14 MB more.
    mutating func sort() {
        keys.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            starts.sort { first, second in
                if (first | second) & Self.nonASCII == 0 {
                    return Self.compare(base + first, base + second) < 0
                }
                return Self.text(buffer, first) < Self.text(buffer, second)
            }
        }
    }

    /// The entry at position `position`: its name, and whether it is a folder whose entries are inputs.
    func entry(at position: Int) -> (name: String, isSearched: Bool) {
        keys.withUnsafeBufferPointer { buffer in
            let key = Self.key(buffer, starts[position])
            guard key.last == UInt8(ascii: "/") else { return (String(decoding: key, as: UTF8.self), false) }
            return (String(decoding: key.dropLast(), as: UTF8.self), true)
        }
    }

    /// The bytes of the key at `start` (``nonASCII`` included or not) in `keys`, without its terminating zero.
    private static func key(_ keys: UnsafeBufferPointer<UInt8>, _ start: Int) -> UnsafeBufferPointer<UInt8> {
        let bytes = keys[(start & ~nonASCII)...]
        return UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.endIndex)])
    }

    private static func text(_ keys: UnsafeBufferPointer<UInt8>, _ start: Int) -> String {
        String(decoding: key(keys, start), as: UTF8.self)
    }

    /// `strcmp` of two keys in ASCII.
    private static func compare(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>) -> Int32 {
        strcmp(
            UnsafeRawPointer(first).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(second).assumingMemoryBound(to: CChar.self))
    }
}
