/// Reads a JSON Lines file record by record: split on byte 0x0A only, blank lines skipped, a bad line reported and
/// skipped while the rest of the file survives.
///
/// Splitting on anything but 0x0A would break records: U+2028 and U+2029 may stand unescaped inside strings.
struct JSONLines {
    /// One parsed record and its 1-based line number.
    struct Record {
        var line: Int
        var value: JSONValue
    }

    /// Records read from one file at most: a recording holds a few thousand events, and a file of millions is read
    /// in part (the lines after the limit are counted, not parsed), so time and memory stay bounded.
    static let maximumRecords = 100_000

    let file: String
    let bytes: [UInt8]
    /// The part of ``bytes`` read: whole lines.
    let range: Range<Int>
    /// The number of the first line of ``range``.
    let firstLine: Int

    /// A reader of the lines of `bytes` in `range` (all of it by default), the first of them numbered `firstLine`.
    init(file: String, bytes: [UInt8], range: Range<Int>? = nil, firstLine: Int = 1) {
        self.file = file
        self.bytes = bytes
        self.range = range ?? bytes.indices
        self.firstLine = firstLine
    }

    /// Calls `body` with each record in order; returns the diagnostics for lines that were skipped.
    func scan(_ body: (Record) -> Void) -> [Diagnostic] {
        func record(_ line: Int, _ value: JSONValue) { body(Record(line: line, value: value)) }
        return scan(decoding: { _ in nil }, tree: { $0 }, record)
    }

    /// Calls `body` with each record and its 1-based line number, in order: read by `decode` straight from the line's
    /// bytes, or, where `decode` gives up (`nil`), parsed as a tree (errors included) and made into a record by
    /// `tree`. Returns the diagnostics for lines that were skipped.
    func scan<Value>(
        decoding decode: (ArraySlice<UInt8>) -> Value?, tree: (JSONValue) -> Value, _ body: (Int, Value) -> Void
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var start = range.lowerBound
        var line = firstLine
        var records = 0
        while start < range.upperBound {
            if records == Self.maximumRecords {
                let rest =
                    bytes[start..<range.upperBound].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                    + (bytes[range.upperBound - 1] == 0x0A ? 0 : 1)
                diagnostics.append(
                    Diagnostic(
                        file: file, line: line,
                        message:
                            "read the first \(Self.maximumRecords) records; \(rest) more lines from here on were skipped"
                    ))
                break
            }
            let newline = bytes[start..<range.upperBound].firstIndex(of: 0x0A)
            let end = newline ?? range.upperBound
            let slice = bytes[start..<end]
            if !Self.isBlank(slice) {
                do {
                    body(line, try Self.value(of: slice, decoding: decode, tree: tree))
                    records += 1
                } catch {
                    let cut = newline == nil ? "the last line is cut off (no newline) and " : ""
                    diagnostics.append(
                        Diagnostic(
                            file: file, line: line,
                            message: "\(cut)invalid JSON (\(error.reason) at column \(error.column)); line skipped"
                        ))
                }
            }
            start = end + 1
            line += 1
        }
        return diagnostics
    }

    /// The last record, looking from the end of ``range`` back, that `accept` takes; each line read as
    /// ``scan(decoding:tree:_:)`` reads it, blank and unreadable lines passed over. `nil` when there is none.
    func last<Value>(
        decoding decode: (ArraySlice<UInt8>) -> Value?, tree: (JSONValue) -> Value, where accept: (Value) -> Bool
    ) -> Value? {
        var end = range.upperBound
        while end > range.lowerBound {
            let lineEnd = bytes[end - 1] == 0x0A ? end - 1 : end
            let lineStart = bytes[range.lowerBound..<lineEnd].lastIndex(of: 0x0A).map { $0 + 1 } ?? range.lowerBound
            let line = bytes[lineStart..<lineEnd]
            end = lineStart
            if !Self.isBlank(line), let value = try? Self.value(of: line, decoding: decode, tree: tree), accept(value) {
                return value
            }
        }
        return nil
    }

    /// Whether a line holds white space alone: no record, and no diagnostic.
    private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// A line's record: read by `decode` straight from its bytes, or, where `decode` gives up, parsed as a tree.
    private static func value<Value>(
        of line: ArraySlice<UInt8>, decoding decode: (ArraySlice<UInt8>) -> Value?, tree: (JSONValue) -> Value
    ) throws(JSONParser.Failure) -> Value {
        if let value = decode(line) { return value }
        return tree(try JSONParser.parse(line))
    }
}
