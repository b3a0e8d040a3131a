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
        hexDigits(of: value)
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

    /// The lowercase hexadecimal digits of `value`, most significant first: two digits a byte, looked up in
    /// ``hexPairs`` (a division by a radix known only at run time cost a hardware divide per digit, and a digit at a
    /// time 140 instructions for an address, for every frame and image of every crash).
    private mutating func hexDigits(of value: UInt64) {
        reserve(16)
        let length = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        let first = count
        var position = first + length
        var rest = value
        let pairs = Self.hexPairs.utf8Start
        while position - first >= 2 {
            position -= 2
            let pair = Int(truncatingIfNeeded: rest & 0xFF) &* 2
            base[position] = pairs[pair]
            base[position + 1] = pairs[pair + 1]
            rest >>= 8
        }
        // An odd count: the leading digit alone, the second of its pair `0x`.
        if position > first { base[first] = pairs[Int(truncatingIfNeeded: rest & 0xF) &* 2 + 1] }
        count += length
    }

    /// The two lowercase hexadecimal digits of every byte, `00` to `ff`, in order (one line of text: each line of the
    /// literal ends in `\`).
    private static var hexPairs: StaticString {
        """
        000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f\
        303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
        606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f\
        909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef\
        f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
        """
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
