/// The lowercase hexadecimal digits of a number, no prefix, as many as it needs: written straight into memory, for the
/// blob lines (``BlobLineWriter``) and the frame tables (``MarkdownRow``) that write an address for every frame.
enum HexDigits {
    /// The most digits a 64-bit value has.
    static let maximumCount = 16

    /// Writes the digits of `value` at `destination` (room for ``maximumCount`` bytes), most significant first, and
    /// returns how many it wrote.
    ///
    /// Two digits a byte, looked up in ``pairs``: a division by a radix known only at run time cost a hardware divide
    /// per digit, and a digit at a time 140 instructions for an address, for every frame and image of every crash.
    @inline(__always)
    static func write(_ value: UInt64, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        let length = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        var position = length
        var rest = value
        let pairs = Self.pairs.utf8Start
        while position >= 2 {
            position -= 2
            let pair = Int(truncatingIfNeeded: rest & 0xFF) &* 2
            destination[position] = pairs[pair]
            destination[position + 1] = pairs[pair + 1]
            rest >>= 8
        }
        // An odd count: the leading digit alone, the second of its pair `0x`.
        if position > 0 { destination[0] = pairs[Int(truncatingIfNeeded: rest & 0xF) &* 2 + 1] }
        return length
    }

    /// The two lowercase hexadecimal digits of every byte, `00` to `ff`, in order (one line of text: each line of the
    /// literal ends in `\`).
    private static var pairs: StaticString {
        """
        000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f\
        303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
        606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f\
        909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef\
        f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
        """
    }
}
