extension JSONParser {
    /// Closes a JSON document that was cut off: keeps everything up to the last complete member or element and
    /// appends the closing brackets that were still open. `nil` when there is nothing to salvage.
    ///
    /// A truncated crash report still holds its header, exception and first threads; this lets a parser read
    /// them instead of refusing the whole file.
    public static func repairTruncated(_ bytes: [UInt8]) -> [UInt8]? {
        var stack: [UInt8] = []
        var inString = false
        var escaped = false
        var cut: (position: Int, depth: Int)?
        for (position, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                stack.append(byte)
                cut = (position + 1, stack.count)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !stack.isEmpty else { return nil }
                stack.removeLast()
                cut = (position + 1, stack.count)
            case UInt8(ascii: ","):
                cut = (position, stack.count)
            default: break
            }
        }
        guard let cut, cut.depth > 0 else { return nil }
        // The brackets open at the cut point, recomputed over the kept prefix.
        var open: [UInt8] = []
        inString = false
        escaped = false
        for byte in bytes[..<cut.position] {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): open.append(byte)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if !open.isEmpty { open.removeLast() }
            default: break
            }
        }
        var repaired = Array(bytes[..<cut.position])
        // A kept prefix may end in `"key":` with no value: drop back to the last comma or opening bracket.
        while let last = repaired.last(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
            last == UInt8(ascii: ":")
        {
            guard let boundary = repaired.lastIndex(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "{") })
            else { return nil }
            repaired = Array(repaired[...boundary])
            if repaired.last == UInt8(ascii: ",") { repaired.removeLast() }
        }
        for bracket in open.reversed() {
            repaired.append(bracket == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
        return repaired
    }
}
