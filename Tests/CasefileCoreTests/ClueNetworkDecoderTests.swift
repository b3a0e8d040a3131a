import Foundation
import Testing

@testable import CasefileCore

/// Response and data records are read straight from each line's bytes (`ClueNetworkLineDecoder`); what that gives
/// must be what the tree parser gives, and any other line must be left to the tree.
@Suite struct ClueNetworkDecoderTests {
    /// The record the tree gives, or `nil` when the tree refuses the line.
    private static func tree(_ line: String) -> ClueNetworkLineDecoder.Record? {
        (try? JSONParser.parse(Array(line.utf8))).map(ClueNetworkLineDecoder.record)
    }

    private static func decoded(_ line: String) -> ClueNetworkLineDecoder.Record? {
        ClueNetworkLineDecoder.decode(Array(line.utf8)[...])
    }

    private static let sampleLines: [String] = {
        let path = Samples.sample("5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue/Modules/module_network.json")
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }()

    /// The sample recording's four records (a response and its data, twice): decoded, and as the tree reads them.
    @Test func decodesTheSampleAsTheTreeReadsIt() throws {
        #expect(Self.sampleLines.count == 4)
        var kinds: [String] = []
        for line in Self.sampleLines {
            let decoded = try #require(Self.decoded(line))
            #expect(decoded == Self.tree(line))
            switch decoded.kind {
            case .response(let response): kinds.append("response \(response?.statusCode ?? 0)")
            case .data(let body): kinds.append("data \(body.utf8.count)")
            case .other: kinds.append("other")
            }
        }
        // Read off the file: the shipping options (200, then a 68-byte body), the order (500, a 63-byte body).
        #expect(kinds == ["response 200", "data 68", "response 500", "data 63"])
    }

    /// Lines written by hand, their values read off them: texts empty or of another kind, numbers of every spelling,
    /// headers in file order (a name twice, a value that is not a string), properties after the first skipped.
    @Test func readsLinesAsWritten() throws {
        let response = """
            {"timestamp": 1.5, "label": "DidReceiveResponse", "properties": [{"class": "NSHTTPURLResponse", \
            "URL": "https:\\/\\/api.shop.example\\/v1\\/cart", "MIMEType": "", "statusCode": 4.04e2, \
            "localizedStringForStatusCode": 7, "expectedContentLength": -1, "allHeaderFields": {"Set-Cookie": "a=1", \
            "X-Count": 3, "Set-Cookie": "b=2"}}, {"ignored": [true, null]}], "extra": {"k": "v"}}
            """
        let decoded = try #require(Self.decoded(response))
        #expect(decoded == Self.tree(response))
        #expect(decoded.timestamp == 1.5)
        guard case .response(let fields?) = decoded.kind else {
            Issue.record("not a response: \(decoded.kind)")
            return
        }
        #expect(fields.url == "https://api.shop.example/v1/cart")
        #expect(fields.statusCode == 404)
        #expect(fields.mimeType == nil)
        #expect(fields.statusText == nil)
        #expect(fields.expectedContentLength == -1)
        #expect(
            fields.headers == [
                HeaderField(name: "Set-Cookie", value: "a=1"), HeaderField(name: "X-Count", value: ""),
                HeaderField(name: "Set-Cookie", value: "b=2"),
            ])

        let data =
            #"{"label": "DidReceiveData", "timestamp": 2, "properties": [{"length": 9, "HTTPBody": "{\"ok\":1}"}]}"#
        #expect(Self.decoded(data) == Self.tree(data))
        #expect(Self.decoded(data)?.kind == .data(body: #"{"ok":1}"#))
        // A response whose properties are missing or not objects, a chunk without a body.
        for line in [
            #"{"timestamp": 3, "label": "DidReceiveResponse"}"#,
            #"{"timestamp": 3, "label": "DidReceiveResponse", "properties": ["x"]}"#,
            #"{"timestamp": 3, "label": "DidReceiveData", "properties": [{}]}"#,
            #"{"label": "DidReceiveData", "properties": 5}"#,
        ] {
            let decoded = try #require(Self.decoded(line))
            #expect(decoded == Self.tree(line))
            #expect(decoded.kind == .response(nil) || decoded.kind == .data(body: ""))
        }
    }

    /// Each of these the decoder leaves to the tree: other labels, properties before the label, and what the tree
    /// reads its own way; the values expected are the tree's, read off the line.
    @Test func leavesToTheTreeWhatItDoesNotRead() throws {
        let completion = #"{"timestamp": 4, "label": "DidComplete", "properties": [{}]}"#
        #expect(Self.decoded(completion) == nil)
        #expect(Self.tree(completion)?.kind == .other(label: "DidComplete", tree: try JSONParser.parse(completion)))
        #expect(Self.decoded(#"{"timestamp": 4, "properties": [{"HTTPBody": "x"}]}"#) == nil)
        let late = #"{"timestamp": 4, "properties": [{"HTTPBody": "x"}], "label": "DidReceiveData"}"#
        #expect(Self.decoded(late) == nil)
        #expect(Self.tree(late)?.kind == .data(body: "x"))

        // A key twice: the tree takes the first.
        let repeated =
            #"{"timestamp": 5, "label": "DidReceiveData", "properties": [{"HTTPBody": "a", "HTTPBody": "b"}]}"#
        #expect(Self.decoded(repeated) == nil)
        #expect(Self.tree(repeated)?.kind == .data(body: "a"))
        // A key in another case, at each level, which the tree's look-up takes when the exact key is missing.
        let lineCase = #"{"Timestamp": 6, "label": "DidReceiveData", "properties": [{"HTTPBody": "a"}]}"#
        #expect(Self.decoded(lineCase) == nil)
        #expect(Self.tree(lineCase)?.timestamp == 6)
        let dataCase = #"{"timestamp": 6, "label": "DidReceiveData", "properties": [{"httpBody": "a"}]}"#
        #expect(Self.decoded(dataCase) == nil)
        #expect(Self.tree(dataCase)?.kind == .data(body: "a"))
        let responseCase = #"{"timestamp": 6, "label": "DidReceiveResponse", "properties": [{"url": "https://a"}]}"#
        #expect(Self.decoded(responseCase) == nil)
        guard case .response(let fields?) = Self.tree(responseCase)?.kind else {
            Issue.record("the tree read no response")
            return
        }
        #expect(fields.url == "https://a")
        // An escaped header name: the tree reads the name it spells.
        let escaped =
            #"{"timestamp": 7, "label": "DidReceiveResponse", "properties": [{"allHeaderFields": {"X-\u0041": "1"}}]}"#
        #expect(Self.decoded(escaped) == nil)
        guard case .response(let escapedFields?) = Self.tree(escaped)?.kind else {
            Issue.record("the tree read no response")
            return
        }
        #expect(escapedFields.headers == [HeaderField(name: "X-A", value: "1")])
        // Not JSON: refused by both.
        #expect(Self.decoded(#"{"timestamp": 8, "label": "DidReceiveData",}"#) == nil)
        #expect(Self.tree(#"{"timestamp": 8, "label": "DidReceiveData",}"#) == nil)
    }

    /// Seeded one-byte damages of the sample's response and data lines: whenever the decoder reads a damaged line,
    /// the tree reads it too, to the same record.
    @Test(arguments: [0, 1])
    func agreesWithTheTreeOnDamagedLines(_ sampleLine: Int) throws {
        let line = Array(Self.sampleLines[sampleLine].utf8)
        let replacements = Array(#"{}[]",:0123456789.-eE+tfnul aAUR\/"#.utf8) + [0x00, 0x1F, 0xC3]
        // Seeded, so the damages are the same on every run.
        var random = SeededNumbers(seed: 0x51_7CC1_B727_220A + UInt64(sampleLine))
        var decodedCount = 0
        for _ in 0..<400 {
            var damaged = line
            damaged[random.next(below: damaged.count)] = replacements[random.next(below: replacements.count)]
            guard let decoded = ClueNetworkLineDecoder.decode(damaged[...]) else { continue }
            decodedCount += 1
            let tree = try #require(try? JSONParser.parse(damaged), "decoded a line the tree refuses")
            #expect(decoded == ClueNetworkLineDecoder.record(tree))
        }
        // Most damages land in a string or a number and leave valid JSON: the decoder must have read some.
        #expect(decodedCount > 50)
    }
}
