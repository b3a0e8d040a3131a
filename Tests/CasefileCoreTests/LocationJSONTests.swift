import CasefileCore
import Foundation
import Testing

/// Swift Testing has a `SourceLocation` of its own.
private typealias Location = CasefileCore.SourceLocation

/// Source locations written straight as JSON: the index's frame rows (inlined functions) and symbol cache store this
/// text, and it must stay the text Foundation's encoder writes with the index's options, byte for byte.
@Suite struct LocationJSONTests {
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

    /// Every kind of field and value: names that demangle, absent fields, extreme numbers, text that needs escapes.
    private static var lists: [[Location]] {
        var everything = Location(
            rawName: "$s7ShopApp13CartViewModelC5totalSiyF", file: "/Users/ci/Shop App/Cart.swift", line: 17, column: 0,
            offset: UInt64.max)
        everything.startLine = 0
        return [
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
    }

    @Test func writesWhatFoundationWrites() throws {
        for locations in Self.lists {
            let text: String = IndexJSON.text(locations)
            #expect(text == (try FoundationJSON.text(locations)))
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

    @Test func readsWhatItWroteWithoutJSONDecoder() throws {
        for locations in Self.lists {
            let text: String = IndexJSON.text(locations)
            #expect(IndexJSON.locations(fromJSON: text) == locations)
        }
        // White space and `null` for an absent field read as JSONDecoder reads them.
        let spaced = #" [ { "rawName" : "main", "simpleName" : "main", "file" : null, "line" : 7 } ] "#
        let decoded = try JSONDecoder().decode([Location].self, from: Data(spaced.utf8))
        #expect(IndexJSON.locations(fromJSON: spaced) == decoded)
        #expect(decoded.first?.line == 7 && decoded.first?.file == nil)
    }

    @Test(arguments: [
        #"[{"rawName":"main","simpleName":"main","extra":1}]"#,
        #"[{"rawName":"main","simpleName":"main","line":"7"}]"#,
        #"[{"rawName":"main","simpleName":"main","line":7.0}]"#,
        #"[{"rawName":"main","simpleName":"main","offset":-1}]"#,
        #"[{"rawName":"main","simpleName":"main","line":99999999999999999999}]"#,
        #"[{"rawName":"main"}]"#,
        #"[{"rawName":null,"simpleName":"main"}]"#,
        #"[{"rawName":"main","simpleName":"main"},]"#,
        #"[{"rawName":"main","simpleName":"main"}] x"#,
        #"{"rawName":"main","simpleName":"main"}"#,
    ])
    func leavesAnyOtherTextToJSONDecoder(_ text: String) {
        #expect(IndexJSON.locations(fromJSON: text) == nil)
    }
}
