/// Text as a Windows editor or shell saves it, for the tests of reports and attachments passed around that way.
enum SavedText {
    /// `text` as UTF-16 with its byte order mark (Notepad's "Unicode", Windows PowerShell's `>`), little- or
    /// big-endian.
    static func utf16(_ text: String, littleEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
        for unit in text.utf16 {
            let (low, high) = (UInt8(unit & 0xFF), UInt8(unit >> 8))
            bytes += littleEndian ? [low, high] : [high, low]
        }
        return bytes
    }
}
