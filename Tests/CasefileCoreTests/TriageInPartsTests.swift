import CasefileCore
import Foundation
import Testing

/// `triage` of a large input of many crash files reads it a part at a time
/// (``Triage/read(at:symbolicator:reportsPerPart:unpackedPast:)``) and prints what the input read whole prints: the
/// same notes, quarantined entries, reports, Markdown and JSON.
///
/// The fixture is `Tests/Fixtures/Archives/many-crashes.zip` (`Scripts/make-parts-fixture.py`): 26 crash files of 19
/// incidents (triage prints each copy, as read), one KSCrash file damaged beyond repair (`broken/damaged.json`), an app
/// log and a text file no parser reads.
@Suite struct TriageInPartsTests {
    let path = Samples.fixture("many-crashes.zip")

    /// The fixture read whole, and in parts of 4 reports (it is far smaller than the bound of a real triage).
    private func readings() throws -> (whole: ReportReader.Output, parts: TriageParts) {
        guard case .whole(let whole) = try Triage().read(at: path) else {
            throw TestFailure("the fixture, 60 KB, is read whole at the default bounds")
        }
        guard case .parts(let parts) = try Triage().read(at: path, reportsPerPart: 4, unpackedPast: 0) else {
            throw TestFailure("26 crash reports in parts of 4 are read in parts")
        }
        return (whole, parts)
    }

    @Test func partsGiveTheReportsNotesAndFailuresOfTheInputReadWhole() throws {
        let (whole, parts) = try readings()
        #expect(whole.reports.count == 26)
        #expect(Set(whole.reports.map(\.id)).count == 19)
        #expect(parts.reportCount == 26)
        #expect(parts.notes == whole.notes)
        #expect(parts.failures == whole.failures)
        #expect(parts.failures.map(\.entry) == ["broken/damaged.json"])
        var reports: [Report] = []
        var sizes: [Int] = []
        while let part = try parts.next() {
            reports += part
            sizes.append(part.count)
        }
        #expect(sizes == [4, 4, 4, 4, 4, 4, 2])
        #expect(reports.map(\.id) == whole.reports.map(\.id))
        // Enriched as the whole: fingerprinted, and so summarized the same.
        #expect(reports.map { $0.crashes.map(\.fingerprint) } == whole.reports.map { $0.crashes.map(\.fingerprint) })
        #expect(reports.allSatisfy { !$0.crashes.isEmpty && $0.crashes.allSatisfy { $0.fingerprint != nil } })
        let renderer = ReportSummary()
        #expect(reports.map(renderer.render) == whole.reports.map(renderer.render))
    }

    @Test func theJSONWrittenAPartAtATimeIsTheJSONOfTheWhole() throws {
        let (whole, parts) = try readings()
        let quarantined = whole.failures.map { "\($0)" }
        var fromWhole = Data()
        try TriageDocument.write(input: path, reports: whole.reports, notes: whole.notes, quarantined: quarantined) {
            fromWhole += $0
        }
        var fromParts = Data()
        try TriageDocument.write(
            input: path, parts: { try parts.next() }, notes: parts.notes, quarantined: quarantined,
            to: { fromParts += $0 })
        #expect(fromParts == fromWhole)
        // And it is the document: 26 reports, in the order read.
        let document = try JSONSerialization.jsonObject(with: fromParts) as? [String: Any]
        let ids = (document?["reports"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids == whole.reports.map(\.id))
    }
}

/// A precondition of a test that did not hold.
private struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
