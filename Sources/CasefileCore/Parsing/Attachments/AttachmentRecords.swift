/// The records of an attachment written as a JSON array, as JSON Lines, or as an object holding its array under a
/// key such as `"requests"` — each record with the line it starts on.
enum AttachmentRecords {
    /// One record and the 1-based line it starts on.
    struct Record {
        var line: Int
        var value: JSONValue
    }

    /// Keys under which a wrapping object may hold the records.
    static let wrapperKeys = [
        "records", "entries", "items", "events", "requests", "logs", "notifications", "pushes", "analytics",
        "network", "data",
    ]

    /// The records of `bytes`, and a warning for each line or document that could not be read; `nil` when the file
    /// holds no JSON at all.
    static func read(_ bytes: [UInt8], file: String) -> (records: [Record], warnings: [Diagnostic])? {
        guard let first = bytes.firstIndex(where: { !(0x20 == $0 || 0x09 == $0 || 0x0A == $0 || 0x0D == $0) }),
            bytes[first] == UInt8(ascii: "[") || bytes[first] == UInt8(ascii: "{")
        else { return nil }
        if let document = try? JSONParser.parse(bytes, mode: .tolerant) {
            let lines = elementLines(bytes)
            if let items = document.array {
                return (items.enumerated().map { Record(line: lines[safe: $0.offset] ?? 1, value: $0.element) }, [])
            }
            if let object = document.object {
                for key in wrapperKeys {
                    if let items = object[key]?.array {
                        return (items.map { Record(line: 1, value: $0) }, [])
                    }
                }
            }
            return ([Record(line: 1, value: document)], [])
        }
        var records: [Record] = []
        let warnings = JSONLines(file: file, bytes: bytes).scan {
            records.append(Record(line: $0.line, value: $0.value))
        }
        return records.isEmpty && !warnings.isEmpty ? nil : (records, warnings)
    }

    /// The line each element of a top-level array starts on (strings and nesting skipped).
    static func elementLines(_ bytes: [UInt8]) -> [Int] {
        var lines: [Int] = []
        var line = 1
        var depth = 0
        var strings = JSONStringTracker()
        var expectingElement = false
        for byte in bytes {
            if byte == 0x0A { line += 1 }
            if strings.skips(byte) { continue }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: ","):
                if depth == 1 { expectingElement = true }
                continue
            default: break
            }
            if expectingElement, depth == 1, byte != UInt8(ascii: "]") {
                lines.append(line)
                expectingElement = false
            }
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { expectingElement = true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return lines
    }
}

extension Array {
    /// The element at `index`, or `nil` when the index is out of bounds.
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
