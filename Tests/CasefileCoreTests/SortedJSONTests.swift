import Foundation
import Testing

@testable import CasefileCore

/// The index's JSON columns are written by ``SortedJSONEncoder``, which must write exactly what Foundation's
/// `JSONEncoder` with sorted keys and unescaped slashes wrote before it: the same text for equal values is what lets
/// a later run, or a script, compare columns. Foundation's encoder is the oracle here; the first test's expected text
/// is written by hand.
@Suite struct SortedJSONTests {
    private static func both(_ value: some Encodable) throws -> (ours: String, foundation: String) {
        (
            String(decoding: try SortedJSONEncoder.encode(value), as: UTF8.self),
            try FoundationJSON.text(value)
        )
    }

    @Test func sortsKeysAndWritesCompactly() throws {
        let value: [String: [Int?]] = ["b": [1], "a": [nil, -2], "B": []]
        #expect(
            String(decoding: try SortedJSONEncoder.encode(value), as: UTF8.self) == #"{"B":[],"a":[null,-2],"b":[1]}"#)
    }

    @Test func ordersKeysByTheirBytes() throws {
        let keys = ["b", "a", "B", "A", "10", "9", "a10", "a9", "_x", "é", "e", "Z", "a-b", "a_b", "", " ", "😀", "ß"]
        var object: [String: Int] = [:]
        for (index, key) in keys.enumerated() { object[key] = index }
        let (ours, foundation) = try Self.both(object)
        #expect(ours == foundation)
        // By bytes, not by locale: digits, upper case, `_`, lower case, then the multi-byte letters.
        #expect(ours.hasPrefix(#"{"":14," ":15,"10":4,"9":5,"A":3,"B":2,"Z":11,"_x":8,"a":1,"#))
    }

    /// A crash's fields Casefile does not model (`crashes.raw_fields`) are written field by field: keys in byte
    /// order, values escaped, for every sample crash and for keys of every kind.
    @Test func writesDictionariesOfStringsAsFoundationDoes() throws {
        let keys = ["b", "a", "B", "A", "10", "9", "a10", "a9", "_x", "é", "e", "Z", "a-b", "a_b", "", " ", "😀", "ß"]
        var fields: [String: String] = [:]
        for (index, key) in keys.enumerated() { fields[key] = "\(index) \"\\/\t\u{1}é" }
        var dictionaries = [fields, [:], ["only": ""]]
        let crashes = Samples.repository.appendingPathComponent("SampleReports/Crashes")
        for name in try FileManager.default.contentsOfDirectory(atPath: crashes.path) {
            let reports = (try? Triage().reports(at: crashes.appendingPathComponent(name).path))?.reports ?? []
            dictionaries += reports.flatMap(\.crashes).map(\.rawFields)
        }
        #expect(dictionaries.contains { $0.count > 3 })
        for fields in dictionaries {
            #expect(IndexJSON.text(fields) == (try FoundationJSON.text(fields)))
        }
    }

    @Test(arguments: [
        0.0, -0.0, 1, 0.1, 187, 1e20, 1e-7, 1e15, 1e16, 2.5e15, 9_007_199_254_740_992, 123_456_789_012_345_680,
        0.850000042, 1.5e300, -12345.678, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
    ])
    func writesDoublesAsFoundationDoes(_ value: Double) throws {
        let (ours, foundation) = try Self.both(["v": value])
        #expect(ours == foundation)
    }

    @Test func writesFloatsAndIntegersOfEveryWidthAsFoundationDoes() throws {
        struct Numbers: Encodable {
            var floats: [Float] = [0.1, 1e15, 16_777_216, 3.4e38, -1.5]
            var int8 = Int8.min
            var int16 = Int16.min
            var int32 = Int32.min
            var int64 = Int64.min
            var int = Int.max
            var uint8 = UInt8.max
            var uint16 = UInt16.max
            var uint32 = UInt32.max
            var uint64 = UInt64.max
            var uint: UInt = 0
            var unkeyed: [UInt64] = [0, 7, 10, .max]
        }
        let (ours, foundation) = try Self.both(Numbers())
        #expect(ours == foundation)
    }

    @Test func escapesStringsAsFoundationDoes() throws {
        let text = "a\"b\\c/d\u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1f} \u{7f}\u{2028}é😀"
        let (ours, foundation) = try Self.both([text: text])
        #expect(ours == foundation)
        #expect(ours.contains(#"c/d\u0000\u0001\b\t\n\u000b\f\r\u001f "#))
    }

    @Test func writesNestedAndSuperEncodersAsFoundationDoes() throws {
        struct Nested: Encodable {
            enum Keys: String, CodingKey { case z, a, list, parent, inner }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
                try container.encode("last", forKey: .z)
                try inner.encode(true, forKey: .z)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                try list.encode(1)
                var deeper = list.nestedContainer(keyedBy: Keys.self)
                try deeper.encodeNil(forKey: .a)
                try list.encode("after")
                var more = list.nestedUnkeyedContainer()
                try more.encode(2.5)
                try inner.encode([1, 2], forKey: .a)
                try container.encode(Plain(), forKey: .parent)
                var superContainer = container.superEncoder().singleValueContainer()
                try superContainer.encode("super")
                var keyedSuper = container.superEncoder(forKey: .a).container(keyedBy: Keys.self)
                try keyedSuper.encode(3, forKey: .z)
            }
        }
        struct Plain: Encodable {
            var name = "plain"
            var empty: [String] = []
            var none: [String: Int] = [:]
            var optional: Int? = nil
        }
        let (ours, foundation) = try Self.both(Nested())
        #expect(ours == foundation)
        // The optional that is nil is left out, as synthesized encoding does.
        #expect(!ours.contains("optional"))
    }

    /// A value that writes the coding path it is given, at every kind of place: keyed, in an array, in nested keyed
    /// and unkeyed containers, and through a single-value container. The expected text is written by hand, with the
    /// path the `Encoder` documentation describes (every key taken to get there). Foundation's encoder on Linux leaves
    /// a nested container's own key out of its values' paths ("direct" for "nested.direct"); no value Casefile encodes
    /// reads its path, so the written JSON is equal either way.
    @Test func givesEachValueItsCodingPathAsFoundationDoes() throws {
        struct Path: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.codingPath.map(\.stringValue).joined(separator: "."))
            }
        }
        struct Wrapped: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(Path())
            }
        }
        struct Places: Encodable {
            enum Keys: String, CodingKey { case direct, list, nested, wrapped }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(Path(), forKey: .direct)
                try container.encode([Path(), Path()], forKey: .list)
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
                try nested.encode(Path(), forKey: .direct)
                var list = nested.nestedUnkeyedContainer(forKey: .list)
                try list.encode(Path())
                var deeper = list.nestedContainer(keyedBy: Keys.self)
                try deeper.encode(Path(), forKey: .direct)
                try container.encode(Wrapped(), forKey: .wrapped)
            }
        }
        let ours = String(decoding: try SortedJSONEncoder.encode(Places()), as: UTF8.self)
        #expect(
            ours == #"{"direct":"direct","list":["list.Index 0","list.Index 1"],"nested":{"direct":"nested.direct","#
                + #""list":["nested.list.Index 0",{"direct":"nested.list.Index 1.direct"}]},"wrapped":"wrapped"}"#)
    }

    @Test func everyEventAndReportOfTheSamplesIsWrittenAsFoundationWritesIt() throws {
        let samples = Samples.repository.appendingPathComponent("SampleReports")
        var paths = try FileManager.default.contentsOfDirectory(atPath: samples.path)
            .filter { !["Symbols", "Hostile", "Malformed", "README.md"].contains($0) }
            .map { samples.appendingPathComponent($0).path }
        paths += [
            "SampleReports/Crashes", "Tests/Fixtures/Attachments",
        ].flatMap { folder in
            let url = Samples.repository.appendingPathComponent(folder)
            return ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
                .map { url.appendingPathComponent($0).path }
        }
        var events = 0
        var kinds: Set<String> = []
        var reports = 0
        for path in paths {
            guard let output = try? Triage().reports(at: path) else { continue }
            for report in output.reports {
                reports += 1
                let (ours, foundation) = try Self.both(report)
                #expect(ours == foundation, "\(path): report \(report.id)")
                for event in report.timeline.events {
                    events += 1
                    kinds.insert(event.kindName)
                    let (ours, foundation) = try Self.both(event)
                    #expect(ours == foundation, "\(path): event \(event.kindName) at \(event.timestamp)")
                }
            }
        }
        #expect(reports > 10)
        #expect(events > 100)
        #expect(kinds.isSuperset(of: ["touch", "network", "screen", "view", "log"]))
    }

    @Test func leavesWhatFoundationTreatsApartToFoundation() throws {
        #expect(throws: SortedJSONEncoder.Unsupported.self) {
            try SortedJSONEncoder.encode(["u": URL(string: "https://a.example/x")!])
        }
        #expect(throws: SortedJSONEncoder.Unsupported.self) { try SortedJSONEncoder.encode([Data([1, 2])]) }
        #expect(throws: SortedJSONEncoder.Unsupported.self) { try SortedJSONEncoder.encode([Double.nan]) }
        // IndexJSON writes them as Foundation does, or refuses them as it does.
        let url = ["u": URL(string: "https://a.example/x")!]
        #expect(try IndexJSON.text(url) == (try FoundationJSON.text(url)))
        #expect(try IndexJSON.text([Data([1, 2])]) == #"["AQI="]"#)
        #expect(throws: EncodingError.self) { try IndexJSON.text([Double.infinity]) }
    }
}
