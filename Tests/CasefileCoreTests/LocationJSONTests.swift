import CasefileCore
import Foundation
import Testing

/// Swift Testing has a `SourceLocation` of its own.
private typealias Location = CasefileCore.SourceLocation

/// Source locations written straight as JSON: the index's frame rows (inlined functions) and symbol cache store this
/// text, and it must stay the text Foundation's encoder writes with the index's options, byte for byte.
@Suite struct LocationJSONTests {
    private static func foundation(_ locations: [Location]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(locations), as: UTF8.self)
    }

    @Test func writesOneLocationAsReadByHand() {
        // The helper inlined into the function at line 5 of discount.c, 8 bytes into it, declared on line 3.
        var location = Location(
            rawName: "apply_discount", file: "/src/discount.c", line: 5, column: 12, offset: 8)
        location.startLine = 3
        let text: String = IndexJSON.text([location])
        let expected =
            #"[{"column":12,"file":"/src/discount.c","line":5,"offset":8,"rawName":"apply_discount","#
            + #""simpleName":"apply_discount","startLine":3}]"#
        #expect(text == expected)
        let none: [Location] = []
        let empty: String = IndexJSON.text(none)
        #expect(empty == "[]")
    }

    @Test func writesWhatFoundationWrites() throws {
        var everything = Location(
            rawName: "$s7ShopApp13CartViewModelC5totalSiyF", file: "/Users/ci/Shop App/Cart.swift", line: 17, column: 0,
            offset: UInt64.max)
        everything.startLine = 0
        let lists: [[Location]] = [
            [Location(rawName: "main")],
            [everything],
            [
                Location(rawName: "helper_1", file: "large.c", line: 1),
                Location(rawName: "work_1", file: "large.c", line: 4, offset: 44),
            ],
            // Quotes, backslashes, control characters, non-ASCII and slashes, in every string field.
            [
                Location(
                    rawName: "say(\"hi\")\\\t\n\u{1}", file: "C:\\src\\é/ü.c", line: -1, column: Int.min,
                    offset: 0)
            ],
            [Location(rawName: "operator<<(std::ostream&, char const*)", file: nil, line: nil)],
        ]
        for locations in lists {
            let text: String = IndexJSON.text(locations)
            #expect(text == (try Self.foundation(locations)))
        }
    }

    @Test func readsBackAsTheSameLocations() throws {
        let locations = [
            Location(rawName: "$s7ShopApp13CartViewModelC5totalSiyF", file: "Cart.swift", line: 17, offset: 44),
            Location(rawName: "apply_discount", file: "discount.c", line: 5),
        ]
        let text: String = IndexJSON.text(locations)
        let decoded = try JSONDecoder().decode([Location].self, from: Data(text.utf8))
        #expect(decoded == locations)
    }
}
