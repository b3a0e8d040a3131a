/// Text saved as UTF-16 with its byte order mark — Notepad's "Unicode", Windows PowerShell's `>` and `Out-File` — read
/// as the UTF-8 every parser reads. A crash report copied off a device on Windows arrives that way.
enum UTF16Text {
    /// The text of `bytes` as UTF-8 when they start with a UTF-16 byte order mark (`FF FE` little-endian, `FE FF`
    /// big-endian), the mark left out; `nil` for any other bytes. A last odd byte is dropped, and a lone surrogate
    /// becomes U+FFFD.
    static func utf8(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        guard bytes.count >= 2 else { return nil }
        let first = bytes[bytes.startIndex]
        let second = bytes[bytes.startIndex + 1]
        let littleEndian: Bool
        switch (first, second) {
        case (0xFF, 0xFE): littleEndian = true
        case (0xFE, 0xFF): littleEndian = false
        default: return nil
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2 - 1)
        var index = bytes.startIndex + 2
        while index + 1 < bytes.endIndex {
            let low = UInt16(bytes[littleEndian ? index : index + 1])
            let high = UInt16(bytes[littleEndian ? index + 1 : index])
            units.append(high << 8 | low)
            index += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// `bytes` as UTF-8 without a byte order mark: UTF-16 with its mark transcoded (``utf8(_:)``), then a UTF-8 mark
    /// (`EF BB BF`, Notepad's "UTF-8 with BOM") left out; bytes with neither are returned as they are, not copied.
    static func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        let text = utf8(bytes[...]) ?? bytes
        return text.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(text.dropFirst(3)) : text
    }
}
