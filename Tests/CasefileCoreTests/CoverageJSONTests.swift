import CasefileCore
import Foundation
import Testing

/// A crash report's symbol coverage is stored with it as JSON (`reports.symbol_coverage`), written field by field for
/// every crash report, and read back when another copy of the report replaces it: the text must be what `Encodable`
/// writes with the index's options, and read back to the same coverage.
@Suite struct CoverageJSONTests {
    /// The sample crash reports of every format, symbolicated against the fixture build: app frames named and not,
    /// system images without a debug file.
    @Test func writesAndReadsTheSampleCrashesCoverageAsFoundationDoes() throws {
        let symbolicator = Symbolicator(
            index: DebugFileIndex(scanning: [Samples.repository.appendingPathComponent("SampleReports/Symbols")]))
        let folder = Samples.repository.appendingPathComponent("SampleReports/Crashes")
        var missing = 0
        var symbolicated = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let reports =
                (try? Triage().reports(at: folder.appendingPathComponent(name).path, symbolicator: symbolicator))?
                .reports ?? []
            for report in reports {
                let coverage = SymbolCoverage(report)
                let text = IndexJSON.text(coverage)
                #expect(text == (try FoundationJSON.text(coverage)), "\(name)")
                #expect(SymbolCoverage(indexJSON: text) == coverage, "\(name)")
                missing += coverage.missing.count
                symbolicated += coverage.inAppSymbolicated
            }
        }
        #expect(missing > 0)
        #expect(symbolicated > 0)
    }

    @Test func writesNamesThatNeedEscapesAndAnEmptyCoverage() throws {
        for coverage in [
            SymbolCoverage(),
            SymbolCoverage(
                inAppFrames: 3, inAppSymbolicated: 1,
                missing: [
                    RunDigest.MissingImage(name: "Quote\"Back\\slash/é\t", uuid: "0000", frames: 2),
                    RunDigest.MissingImage(name: "", uuid: "", frames: 0),
                ]),
        ] {
            let text = IndexJSON.text(coverage)
            #expect(text == (try FoundationJSON.text(coverage)))
            #expect(SymbolCoverage(indexJSON: text) == coverage)
        }
        #expect(SymbolCoverage(indexJSON: "not json") == nil)
    }
}
