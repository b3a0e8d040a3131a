/// The scalars of JSON text as Foundation's `JSONEncoder` writes them, appended to a byte buffer.
enum JSONText {
    static func appendNull(to output: inout [UInt8]) {
        output.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    static func appendBool(_ value: Bool, to output: inout [UInt8]) {
        output.append(contentsOf: value ? trueText : falseText)
    }

    /// Made once: spelled out at each call, the words were a new array per value written.
    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)

    /// Decimal digits, with a minus sign when negative.
    static func appendInteger(_ value: some FixedWidthInteger, to output: inout [UInt8]) {
        if value == 0 {
            output.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { output.append(UInt8(ascii: "-")) }
        // Digits from the magnitude, which for the most negative value does not fit the type itself.
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            while magnitude > 0 {
                scratch[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { output.append(scratch[index]) }
        }
    }

    /// The shortest text that reads back as `value` (Swift's `description`), without a trailing `.0`; a number JSON
    /// cannot hold (infinite, not a number) throws.
    static func appendNumber(_ value: some BinaryFloatingPoint & CustomStringConvertible, to output: inout [UInt8])
        throws(SortedJSONEncoder.Unsupported)
    {
        guard value.isFinite else { throw SortedJSONEncoder.Unsupported() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        output.append(contentsOf: text.utf8)
    }

    /// A quoted string: `"` and `\` escaped, the control characters by their short escape or `\u00XX`, everything
    /// else (slashes, non-ASCII, DEL) as it is.
    static func appendString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: Array("\\u00".utf8))
                    output.append(hex[Int(byte >> 4)])
                    output.append(hex[Int(byte & 0x0F)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
