public import Foundation

extension TriageDocument {
    /// The document's JSON, byte for byte what ``DocumentEncoding/encoder()`` makes of the whole document, handed to
    /// `write` a report at a time, so the document and its text are never held whole: a tester's zip of 423 crash
    /// reports makes 160 MB of JSON, which took 670–790 MB of memory to build at once.
    ///
    /// Each report is encoded on its own and indented to its place in `reports`; the rest of the document is encoded
    /// without its reports, and the reports go between its brackets.
    public static func write(
        input: String, reports: [Report], notes: [String], quarantined: [String], to write: (Data) throws -> Void
    ) throws {
        var unwritten: [Report]? = reports
        try Self.write(
            input: input,
            parts: {
                defer { unwritten = nil }
                return unwritten
            }, notes: notes, quarantined: quarantined, to: write)
    }

    /// The document's JSON, as ``write(input:reports:notes:quarantined:to:)`` writes it, its reports given a part at a
    /// time by `parts` (`nil` after the last): a part's reports are let go once written, and the document is the same
    /// bytes however the reports are split.
    public static func write(
        input: String, parts: () throws -> [Report]?, notes: [String], quarantined: [String],
        to write: (Data) throws -> Void
    ) throws {
        let encoder = DocumentEncoding.encoder()
        let envelope = try encoder.encode(
            TriageDocument(input: input, reports: [], notes: notes, quarantined: quarantined))
        // `"reports"` is a key of the top level, at the indent of two spaces; an empty array is written `[`, an empty
        // line, and `]` at the key's indent. No string holds a line break (JSON escapes them), so this is found once.
        let emptyReports = Data("\n  \"reports\" : [\n\n  ]".utf8)
        var part = try parts()
        while part?.isEmpty == true { part = try parts() }
        guard part != nil, let found = envelope.range(of: emptyReports) else {
            try write(envelope)
            return
        }
        let opening = Data("\n  \"reports\" : [\n".utf8)
        try write(envelope[..<found.lowerBound] + opening)
        var first = true
        while var reports = part {
            part = nil
            for report in reports {
                let text = indented(try encoder.encode(ReportDocument(report)))
                try write(first ? text : Data(",\n".utf8) + text)
                first = false
            }
            // Let go of before the next part is read.
            reports = []
            part = try parts()
        }
        try write(Data("\n  ]".utf8) + envelope[found.upperBound...])
    }

    /// `json`, an element of the top level's `reports`, indented as the encoder indents it there: four spaces before
    /// each line but the empty ones (an empty array's).
    private static func indented(_ json: Data) -> Data {
        let indent: [UInt8] = Array("    ".utf8)
        let newline = UInt8(ascii: "\n")
        var text: [UInt8] = []
        text.reserveCapacity(json.count + json.count / 4)
        json.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
                if end > start { text += indent }
                text += bytes[start..<min(end + 1, bytes.count)]
                start = end + 1
            }
        }
        return Data(text)
    }
}
