extension IndexJSON {
    /// Source locations as JSON text: the bytes the `Encodable` form of `text(_:)` writes for them (keys sorted, absent
    /// fields left out), written directly. A symbolicated app frame's inlined functions are one such text per frame
    /// row, and each new answer of the symbol cache another: through `Encodable`, each cost more than the rest of its
    /// row.
    public static func text(_ locations: [SourceLocation]) -> String {
        var object = JSONObjectWriter()
        object.output.reserveCapacity(locations.count * 160)
        object.openArray()
        for location in locations {
            object.open()
            // In sorted order.
            object.field("column", location.column)
            object.field("demangledName", location.demangledName)
            object.field("file", location.file)
            object.field("line", location.line)
            object.field("offset", location.offset)
            object.field("rawName", location.rawName)
            object.field("simpleName", location.simpleName)
            object.field("startLine", location.startLine)
            object.close()
        }
        object.closeArray()
        return String(decoding: object.output, as: UTF8.self)
    }

    /// Source locations read back from the JSON ``text(_:)`` writes, without `JSONDecoder`: the symbol cache's
    /// stored answers are read this way, thousands for each build a night's crashes come from (6,100 answers took
    /// 48 ms through `JSONDecoder`). `nil` for any text not in exactly that form — an unknown key, a value of another
    /// type — which the caller decodes with `JSONDecoder`.
    package static func locations(fromJSON json: String) -> [SourceLocation]? {
        JSONScanner.exactArray(json, location)
    }

    /// One location object at the scanner's cursor.
    private static func location(_ scanner: inout JSONScanner) throws -> SourceLocation {
        var rawName: String?
        var demangledName: String?
        var simpleName: String?
        var file: String?
        var line: Int?
        var column: Int?
        var offset: UInt64?
        var startLine: Int?
        try scanner.members { scanner, key in
            if scanner.key(key, is: "rawName") {
                rawName = try scanner.requiredString()
            } else if scanner.key(key, is: "simpleName") {
                simpleName = try scanner.requiredString()
            } else if scanner.key(key, is: "demangledName") {
                demangledName = try scanner.exactString()
            } else if scanner.key(key, is: "file") {
                file = try scanner.exactString()
            } else if scanner.key(key, is: "line") {
                line = try scanner.exactInteger(Int.self)
            } else if scanner.key(key, is: "column") {
                column = try scanner.exactInteger(Int.self)
            } else if scanner.key(key, is: "offset") {
                offset = try scanner.exactInteger(UInt64.self)
            } else if scanner.key(key, is: "startLine") {
                startLine = try scanner.exactInteger(Int.self)
            } else {
                throw JSONScanner.Failure(offset: key.lowerBound)
            }
        }
        guard let rawName, let simpleName else { throw JSONScanner.Failure(offset: scanner.index) }
        return SourceLocation(
            rawName: rawName, demangledName: demangledName, simpleName: simpleName, file: file, line: line,
            column: column, offset: offset, startLine: startLine)
    }
}
