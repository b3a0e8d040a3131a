import CasefileArchive

/// Lines of tab-separated fields: `nil` is an empty field, an empty string `\e`, and tab, newline, carriage
/// return and backslash are escaped.
///
/// Written into memory of its own rather than an array: a crash's blob is a hundred thousand bytes in a dozen
/// pieces per frame, and an array checked its uniqueness and capacity on every one of them.
struct BlobLineWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 4096)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The text written so far, compressed.
    func compressed() throws(ArchiveError) -> [UInt8] {
        try BlobCompression.compress(text)
    }

    /// The text written so far, valid while the writer is.
    var text: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: count)
    }

    /// Forgets the text written so far, keeping the memory.
    mutating func removeAll() {
        count = 0
    }

    mutating func line(_ text: String) {
        for byte in text.utf8 { append(byte) }
        end()
    }

    mutating func begin(_ tag: Unicode.Scalar) {
        append(UInt8(ascii: tag))
    }

    mutating func end() {
        append(0x0A)
    }

    @inline(__always)
    mutating func field(_ text: String?) {
        append(0x09)
        guard let text else { return }
        if text.isEmpty {
            append(0x5C)
            append(0x65)
            return
        }
        // The string's own bytes, read in place through a span (`withUTF8` would need a mutable copy of every
        // field, and `withContiguousStorageIfAvailable` retained and released the string) and copied in one go.
        // Almost every field needs no escape, which eight bytes at a time rule out; a byte the word test stops at
        // is looked at exactly.
        text.withUTF8Bytes { utf8 in
            let plain = JSONParser.plainRun(utf8, from: 0)
            if plain == utf8.count
                || !UnsafeBufferPointer(rebasing: utf8[plain...]).contains(where: Self.needsEscape)
            {
                append(utf8)
            } else {
                escape(utf8)
            }
        }
    }

    /// Lowercase hexadecimal, no prefix.
    mutating func hex(_ value: UInt64?) {
        append(0x09)
        guard let value else { return }
        reserve(HexDigits.maximumCount)
        count += HexDigits.write(value, to: base + count)
    }

    mutating func decimal(_ value: Int?) {
        append(0x09)
        guard let value else { return }
        if value < 0 { append(UInt8(ascii: "-")) }
        decimalDigits(of: UInt64(value.magnitude))
    }

    mutating func flag(_ value: Bool) {
        append(0x09)
        append(value ? 0x31 : 0x30)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x5C
    }

    private mutating func escape(_ utf8: some Sequence<UInt8>) {
        for byte in utf8 {
            switch byte {
            case 0x09: append(0x5C, 0x74)
            case 0x0A: append(0x5C, 0x6E)
            case 0x0D: append(0x5C, 0x72)
            case 0x5C: append(0x5C, 0x5C)
            default: append(byte)
            }
        }
    }

    /// The decimal digits of `value`, most significant first; a 64-bit value has at most 20.
    private mutating func decimalDigits(of value: UInt64) {
        reserve(20)
        var rest = value
        var length = 0
        repeat {
            length += 1
            rest /= 10
        } while rest > 0
        rest = value
        for position in stride(from: count + length - 1, through: count, by: -1) {
            base[position] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        count += length
    }

    private mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    private mutating func append(_ first: UInt8, _ second: UInt8) {
        append(first)
        append(second)
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.moveInitialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }
}
