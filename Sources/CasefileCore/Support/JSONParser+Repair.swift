extension JSONParser {
    /// Closes a JSON document that was cut off: keeps everything up to the last complete member or element and
    /// appends the closing brackets that were still open. `nil` when there is nothing to salvage.
    ///
    /// A truncated crash report still holds its header, exception and first threads; this lets a parser read
    /// them instead of refusing the whole file.
    public static func repairTruncated(_ bytes: [UInt8]) -> [UInt8]? {
        var stack: [UInt8] = []
        var strings = JSONStringTracker()
        // The last point where a value ended, with the brackets open there (nesting is shallow: copies are cheap).
        var cut: (position: Int, open: [UInt8])?
        for (position, byte) in bytes.enumerated() {
            if strings.skips(byte) { continue }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                stack.append(byte)
                cut = (position + 1, stack)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !stack.isEmpty else { return nil }
                stack.removeLast()
                cut = (position + 1, stack)
            case UInt8(ascii: ","):
                cut = (position, stack)
            default: break
            }
        }
        guard let cut, !cut.open.isEmpty else { return nil }
        var repaired = Array(bytes[..<cut.position])
        // A kept prefix may end in `"key":` with no value: drop back to the last comma or opening bracket.
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        while repaired.last(where: { !isSpace($0) }) == UInt8(ascii: ":") {
            guard let boundary = repaired.lastIndex(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "{") })
            else { return nil }
            repaired = Array(repaired[...boundary])
            if repaired.last == UInt8(ascii: ",") { repaired.removeLast() }
        }
        for bracket in cut.open.reversed() {
            repaired.append(bracket == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
        return repaired
    }
}
