/// The white space and separator rules shared by ``JSONParser`` and `JSONScanner`, over raw bytes.
enum JSONSeparators {
    /// The index of the first byte at or after `index` that is not JSON white space.
    @inline(__always)
    static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var index = index
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return index
            }
        }
        return index
    }

    /// Past white space and any `...` elisions with the comma that may follow them (tolerant reading).
    @inline(__always)
    static func skipElisions(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var index = skipWhitespace(bytes, from: index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return index }
        while index + 3 <= bytes.count, bytes[index] == UInt8(ascii: "."), bytes[index + 1] == UInt8(ascii: "."),
            bytes[index + 2] == UInt8(ascii: ".")
        {
            index = skipWhitespace(bytes, from: index + 3)
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1 }
            index = skipWhitespace(bytes, from: index)
        }
        return index
    }
}
