import CasefileCore
import Foundation
import Testing

/// A group's fingerprint is stored as JSON (`groups.explanation_json`, `Encodable`'s form with the index's options),
/// written field by field, and read back for every group a run's digest lists and every page it writes: read without `JSONDecoder`, it must
/// give what `JSONDecoder` gives, and leave to it any text it does not read exactly.
@Suite struct FingerprintJSONTests {
    private static func foundation(_ text: String) throws -> Fingerprint {
        try JSONDecoder().decode(Fingerprint.self, from: Data(text.utf8))
    }

    /// Fingerprints of the sample crash reports of every format, symbolicated against the fixture build: frames in and
    /// out of the key, skipped for each reason, with and without an image.
    @Test func writesAndReadsTheSampleCrashesFingerprintsAsFoundationDoes() throws {
        let symbolicator = Symbolicator(
            index: DebugFileIndex(scanning: [Samples.repository.appendingPathComponent("SampleReports/Symbols")]))
        let folder = Samples.repository.appendingPathComponent("SampleReports/Crashes")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        var crashes = 0
        var read = 0
        for name in names {
            let reports =
                (try? Triage().reports(at: folder.appendingPathComponent(name).path, symbolicator: symbolicator))?
                .reports ?? []
            crashes += reports.flatMap(\.crashes).count
            for fingerprint in reports.flatMap(\.crashes).compactMap(\.grouping) {
                let text = try FoundationJSON.text(fingerprint)
                #expect(IndexJSON.text(fingerprint) == text, "\(name)")
                #expect(Fingerprint.fromIndexJSON(text) == fingerprint, "\(name)")
                #expect(Fingerprint.fromIndexJSON(text) == (try Self.foundation(text)), "\(name)")
                read += 1
            }
        }
        // Every sample holds at least one crash, and every crash was fingerprinted and read back.
        #expect(crashes >= names.count)
        #expect(read == crashes)
    }

    /// Absent optional fields, empty lists, and text that needs escapes in every string field.
    @Test func writesAndReadsEveryKindOfField() throws {
        let frames = [
            FingerprintFrame(function: "Cart.total()", image: "ShopApp", inApp: true, inKey: true),
            FingerprintFrame(
                function: "say(\"hi\")\\\t\n\u{1} é/ü", image: nil, inApp: false, inKey: false,
                skipped: "irrelevant `__CFRunLoopRun`"),
        ]
        let fingerprints = [
            Fingerprint(
                kind: .crash, resolution: .top3, key: "823158b4ce6532b5",
                keys: ["top1": "34906f841698255c", "top3": "823158b4ce6532b5"],
                title: "EXC_BAD_ACCESS (SIGSEGV) in Cart.total() — \"quoted\" / slashed", source: "crashed thread 0",
                frames: frames, components: ["EXC_BAD_ACCESS", "SIGSEGV"], rulesVersion: "casefile-grouping-1/b12ddb15"),
            Fingerprint(
                kind: .failure, resolution: .screen, key: "57c64b79377f39c6", keys: [:], title: "", source: nil,
                frames: [], components: [], rulesVersion: ""),
        ]
        for fingerprint in fingerprints {
            let text = try FoundationJSON.text(fingerprint)
            #expect(IndexJSON.text(fingerprint) == text)
            #expect(Fingerprint.fromIndexJSON(text) == fingerprint)
        }
    }

    /// What `JSONDecoder` also reads: white space, members in another order, `null` for an absent field.
    @Test func readsOtherSpellingsAsJSONDecoderDoes() throws {
        let text = """
             { "title" : "SIGABRT", "kind" : "termination", "resolution" : "exception", "key" : "0123456789abcdef",
               "keys" : { "exception" : "0123456789abcdef" }, "source" : null, "components" : [ "SIGABRT" ],
               "frames" : [ { "inKey" : false, "inApp" : false, "function" : "abort", "image" : null,
                              "skipped" : null } ],
               "rulesVersion" : "casefile-grouping-1" }
            """
        let read = try #require(Fingerprint.fromIndexJSON(text))
        #expect(read == (try Self.foundation(text)))
        #expect(read.kind == .termination && read.source == nil && read.frames.first?.image == nil)
    }

    @Test(arguments: [
        // An unknown member, at the top and in a frame.
        #"{"components":[],"frames":[],"key":"k","keys":{},"kind":"crash","resolution":"top3","rulesVersion":"r","title":"t","extra":1}"#,
        #"{"components":[],"frames":[{"function":"f","inApp":true,"inKey":true,"line":3}],"key":"k","keys":{},"kind":"crash","resolution":"top3","rulesVersion":"r","title":"t"}"#,
        // A value of another type, or a kind and resolution this build does not know.
        #"{"components":[],"frames":[{"function":"f","inApp":"true","inKey":true}],"key":"k","keys":{},"kind":"crash","resolution":"top3","rulesVersion":"r","title":"t"}"#,
        #"{"components":[],"frames":[],"key":"k","keys":{},"kind":"hang","resolution":"top3","rulesVersion":"r","title":"t"}"#,
        #"{"components":[],"frames":[],"key":"k","keys":{},"kind":"crash","resolution":"top5","rulesVersion":"r","title":"t"}"#,
        #"{"components":[1],"frames":[],"key":"k","keys":{},"kind":"crash","resolution":"top3","rulesVersion":"r","title":"t"}"#,
        // A required member missing, or null.
        #"{"components":[],"frames":[],"keys":{},"kind":"crash","resolution":"top3","rulesVersion":"r","title":"t"}"#,
        #"{"components":[],"frames":null,"key":"k","keys":{},"kind":"crash","resolution":"top3","rulesVersion":"r","title":"t"}"#,
        #"{"components":[],"frames":[{"function":"f","inApp":true}],"key":"k","keys":{},"kind":"crash","resolution":"top3","rulesVersion":"r","title":"t"}"#,
        // A key of `keys` with an escape, or twice.
        #"{"components":[],"frames":[],"key":"k","keys":{"top\u0031":"a"},"kind":"crash","resolution":"top3","rulesVersion":"r","title":"t"}"#,
        #"{"components":[],"frames":[],"key":"k","keys":{"top1":"a","top1":"b"},"kind":"crash","resolution":"top3","rulesVersion":"r","title":"t"}"#,
        // Anything after the object, or not an object.
        #"{"components":[],"frames":[],"key":"k","keys":{},"kind":"crash","resolution":"top3","rulesVersion":"r","title":"t"} x"#,
        #"[]"#,
    ])
    func leavesAnyOtherTextToJSONDecoder(_ text: String) {
        #expect(Fingerprint.fromIndexJSON(text) == nil)
    }
}
