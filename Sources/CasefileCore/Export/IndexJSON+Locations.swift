extension IndexJSON {
    /// Source locations as JSON text: the bytes the `Encodable` form of `text(_:)` writes for them (keys sorted, absent
    /// fields left out), written directly. A symbolicated app frame's inlined functions are one such text per frame row, and
    /// each new answer of the symbol cache another: through `Encodable`, each cost more than the rest of its row.
    public static func text(_ locations: [SourceLocation]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(locations.count * 160)
        output.append(UInt8(ascii: "["))
        for position in locations.indices {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            append(locations[position], to: &output)
        }
        output.append(UInt8(ascii: "]"))
        return String(decoding: output, as: UTF8.self)
    }

    /// One location as a JSON object, its keys in sorted order.
    private static func append(_ location: SourceLocation, to output: inout [UInt8]) {
        var opened = false
        func key(_ name: StaticString, _ output: inout [UInt8]) {
            output.append(opened ? UInt8(ascii: ",") : UInt8(ascii: "{"))
            opened = true
            output.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { output.append(contentsOf: $0) }
            output.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        if let column = location.column {
            key("column", &output)
            JSONText.appendInteger(column, to: &output)
        }
        if let demangledName = location.demangledName {
            key("demangledName", &output)
            JSONText.appendString(demangledName, to: &output)
        }
        if let file = location.file {
            key("file", &output)
            JSONText.appendString(file, to: &output)
        }
        if let line = location.line {
            key("line", &output)
            JSONText.appendInteger(line, to: &output)
        }
        if let offset = location.offset {
            key("offset", &output)
            JSONText.appendInteger(offset, to: &output)
        }
        key("rawName", &output)
        JSONText.appendString(location.rawName, to: &output)
        key("simpleName", &output)
        JSONText.appendString(location.simpleName, to: &output)
        if let startLine = location.startLine {
            key("startLine", &output)
            JSONText.appendInteger(startLine, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}
