import CasefileCore
import Testing

@Suite struct JSONParserTests {
    @Test func keepsIntegersExactAndMembersInOrder() throws {
        let value = try JSONParser.parse(#"{"y":0,"x":6447063948,"address":18446744073709551,"f":0.85000002384185791}"#)
        #expect(value.object?.keys == ["y", "x", "address", "f"])
        #expect(value["x"]?.uint64 == 6_447_063_948)
        #expect(value["address"]?.uint64 == 18_446_744_073_709_551)
        #expect(value["f"]?.double == 0.85000002384185791)
        #expect(value["y"]?.bool == false)
    }

    @Test func readsIntegersThatFitAsIntegersAndTheRestAsDoubles() throws {
        let value = try JSONParser.parse(
            "[9223372036854775807,-9223372036854775808,9223372036854775808,-0,007,1e3,-2.5,12E-1,18446744073709551616]")
        #expect(
            value
                == .array([
                    .int(.max), .int(.min), .double(9_223_372_036_854_775_808), .int(0), .int(7), .double(1000),
                    .double(-2.5), .double(1.2), .double(18_446_744_073_709_551_616),
                ]))
        // A minus sign alone, or in the middle of digits, is not a number.
        for text in ["[-]", "[12-3]", "[-x]"] {
            #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
        }
    }

    @Test func findsEscapesQuotesAndControlCharactersAtEveryPositionOfALongString() throws {
        // Strings are scanned eight bytes at a time: each special byte is tried at every offset in a word, after
        // ASCII and after multi-byte text.
        for prefix in ["", "é", "😀abc"] {
            for offset in 0..<17 {
                let lead = prefix + String(repeating: "a", count: offset)
                let escaped = try JSONParser.parse("[\"\(lead)\\n\\\"z\(lead)\"]")
                #expect(escaped == .array([.string(lead + "\n\"z" + lead)]))
                let plain = try JSONParser.parse("[\"\(lead)\(lead)\",1]")
                #expect(plain == .array([.string(lead + lead), .int(1)]))
                #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("[\"\(lead)\u{1}\(lead)\"]") }
                #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("[\"\(lead)\n\"]") }
            }
        }
    }

    @Test func readsEscapesTheWayClueWritesThem() throws {
        let value = try JSONParser.parse(#"{"URL":"https:\/\/api.shop.example\/v1","t":"a\nb \u00e9 \ud83d\ude00"}"#)
        #expect(value["URL"]?.string == "https://api.shop.example/v1")
        #expect(value["t"]?.string == "a\nb é 😀")
    }

    @Test func treatsEmptyStringsAndObjectsAsNil() throws {
        let value = try JSONParser.parse(#"{"userInfo":"","shadowColor":{},"tag":0}"#)
        #expect(value["userInfo"]?.isNilPlaceholder == true)
        #expect(value["shadowColor"]?.isNilPlaceholder == true)
        #expect(value["tag"]?.isNilPlaceholder == false)
    }

    @Test func findsKeysIgnoringCaseWhenNoExactMatch() throws {
        let value = try JSONParser.parse(#"{"StatusCode":500}"#)
        #expect(value["statusCode"]?.int == 500)
    }

    @Test func namesLineAndColumnOfAnError() {
        let error = #expect(throws: JSONParser.Failure.self) {
            try JSONParser.parse("{\"a\":1,\n\"b\":tru}")
        }
        #expect(error?.line == 2)
        #expect(error?.column == 5)
        #expect(error?.description == "unexpected character 't' at line 2, column 5")
    }

    @Test func refusesTrailingCommasWhenStrict() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("[1,2,]") }
    }

    @Test func acceptsTrailingCommasAndElisionsWhenTolerant() throws {
        let value = try JSONParser.parse(#"{"frames":[1,2,...,],"a":{"b":1,},}"#, mode: .tolerant)
        #expect(value["frames"]?.array?.compactMap(\.int) == [1, 2])
        #expect(value["a"]?["b"]?.int == 1)
    }

    @Test(arguments: [
        (#"{"a":[1,2,]}"#, true), (#"{"a":{"b":1,}}"#, true), (#"[1, ... ,2]"#, true), (#"[1,2]"#, false),
        // Three dots or a comma before a bracket inside a string are text, not tolerated syntax.
        (#"{"reason":"Loading...","list":"[1,]"}"#, false),
    ])
    func saysWhetherToleranceWasNeeded(_ text: String, needed: Bool) throws {
        let parsed = try JSONParser.parseTolerantly(Array(text.utf8))
        #expect(parsed.toleratedSyntax == needed)
        // The flag says exactly whether a strict parse fails.
        #expect(((try? JSONParser.parse(text)) == nil) == needed)
    }

    @Test func survivesHostileNesting() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep) }
    }

    @Test(arguments: ["", "{", #"{"a""#, #"{"a":"#, #""\u12"#, "-", "nul", #"{"a":1}x"#])
    func reportsTruncatedDocuments(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
    }

    @Test func writesCompactTextBack() throws {
        let text = #"{"b":[1,2.5,true,null],"a":"x\"y"}"#
        #expect(try JSONParser.parse(text).compactText == text)
    }
}
