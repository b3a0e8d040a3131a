/// Follows string literals while a JSON document is scanned byte by byte for its structure (brackets, commas), so
/// a bracket or comma inside a string is not taken for one.
struct JSONStringTracker {
    private var inString = false
    private var escaped = false

    /// Feeds the next byte: `true` when it lies inside a string literal (the closing quote included) and the
    /// structure scan should skip it. An opening quote returns `false` and starts the string.
    mutating func skips(_ byte: UInt8) -> Bool {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return true
        }
        if byte == UInt8(ascii: "\"") { inString = true }
        return false
    }
}
