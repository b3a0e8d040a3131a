import CasefileArchive
import Foundation
import Testing

@testable import CasefileCore

/// `casefile triage --format json` writes its document a report at a time
/// (``TriageDocument/write(input:reports:notes:quarantined:to:)``). The bytes must be those of the whole document
/// encoded at once, the format `Schemas/triage-v1.schema.json` and the end-to-end tests describe: same indentation,
/// same order, same separators, whatever the reports hold.
@Suite struct TriageDocumentStreamTests {
    /// The document of `output` read from `input`, written a report at a time, and the pieces it was written in.
    private static func streamed(_ input: String, _ output: ReportReader.Output) throws -> (Data, pieces: Int) {
        var written = Data()
        var pieces = 0
        try TriageDocument.write(
            input: input, reports: output.reports, notes: output.notes,
            quarantined: output.failures.map { "\($0)" }
        ) {
            written += $0
            pieces += 1
        }
        return (written, pieces)
    }

    private static func whole(_ input: String, _ output: ReportReader.Output) throws -> Data {
        try DocumentEncoding.encoder().encode(
            TriageDocument(
                input: input, reports: output.reports, notes: output.notes,
                quarantined: output.failures.map { "\($0)" }))
    }

    /// A recording (timeline, chains, attachments), a zip of two reports, a zip with notes and a quarantined entry, and
    /// every crash sample read as one input.
    @Test(arguments: ["checkout-500.clue.zip", "two-reports.zip", "Malformed/mixed-good-and-bad.zip"])
    func aReportAtATimeIsTheWholeDocument(sample: String) throws {
        let path = Samples.sample(sample)
        let output = try Triage().reports(at: path)
        let (streamed, pieces) = try Self.streamed(path, output)
        #expect(streamed == (try Self.whole(path, output)))
        // The part before the reports, each report, and the part after them.
        #expect(pieces == output.reports.count + 2)
    }

    @Test func everyCrashSampleInOneInput() throws {
        let entries = try Samples.crashSampleEntries()
        let output = try ReportReader().read(UnpackedInput(path: "crashes.zip", kind: .archive, entries: entries))
        #expect(output.reports.count >= 16)
        let (streamed, _) = try Self.streamed("crashes.zip", output)
        #expect(streamed == (try Self.whole("crashes.zip", output)))
    }

    /// With no report, the document is written whole, its `reports` an empty array.
    @Test func noReports() throws {
        let output = ReportReader.Output(reports: [], notes: ["entry 'a.txt': not a recognized report format; ignored"])
        let (streamed, pieces) = try Self.streamed("empty.zip", output)
        #expect(streamed == (try Self.whole("empty.zip", output)))
        #expect(pieces == 1)
        #expect(String(decoding: streamed, as: UTF8.self).contains("\"reports\" : [\n\n  ]"))
    }
}
