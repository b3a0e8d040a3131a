import Foundation

// A report's symbol coverage as the index stores it (`reports.symbol_coverage`), both ways: written field by field
// for every report with a crash, read back only when another input's copy of the report replaces it.

extension IndexJSON {
    /// A report's symbol coverage as JSON text: the bytes its `Encodable` form gives (sorted keys), written field by
    /// field, as every crash report of a run stores one.
    public static func text(_ coverage: SymbolCoverage) -> String {
        var json = JSONObjectWriter()
        json.output.reserveCapacity(64 + coverage.missing.count * 96)
        json.open()
        json.field("inAppFrames", coverage.inAppFrames)
        json.field("inAppSymbolicated", coverage.inAppSymbolicated)
        json.key("missing")
        json.openArray()
        for image in coverage.missing {
            json.open()
            json.field("frames", image.frames)
            json.field("name", image.name)
            json.field("uuid", image.uuid)
            json.close()
        }
        json.closeArray()
        json.close()
        return String(decoding: json.output, as: UTF8.self)
    }
}

extension SymbolCoverage {
    /// A coverage read back from ``IndexJSON/text(_:)-(SymbolCoverage)``; `nil` for text of another form.
    public init?(indexJSON: String) {
        guard let coverage = try? JSONDecoder().decode(SymbolCoverage.self, from: Data(indexJSON.utf8)) else {
            return nil
        }
        self = coverage
    }
}
