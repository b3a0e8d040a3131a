import CasefileArchive
import CasefileCore
import Testing

/// The parts of an input read a part at a time (``ReportReader/Parts``): each part's entries go once it is read, from
/// every copy of the parts. The run surveys the parts on one task and hands them to the index's writer; until
/// 2026-12-05 the copy left behind kept every entry until the input was stored.
///
/// The fixture is `Tests/Fixtures/Archives/many-crashes.zip` (`Scripts/make-parts-fixture.py`): 26 crash files of 19
/// incidents, each incident's most complete copy kept.
@Suite struct InputPartsTests {
    /// The fixture, surveyed into parts of 4 reports.
    private func parts() throws -> ReportReader.Parts {
        var input = try ArchiveReader().read(path: Samples.fixture("many-crashes.zip"))
        return try #require(ReportReader().parts(of: &input, reportsPerPart: 4, unpackedPast: 0))
    }

    /// The next part's report ids.
    private func next(_ parts: inout ReportReader.Parts) -> [String]? {
        parts.next()?.map(\.id)
    }

    @Test func aPartReadFromOneCopyIsLetGoOfByEvery() throws {
        var parts = try parts()
        #expect(parts.reportIDs.count == 19)
        var copy = parts
        let before = copy.bytesHeld
        #expect(before > 0)

        #expect(next(&parts) == Array(parts.reportIDs[0..<4]))
        // The copy holds what the parts hold now: less than before, nothing of the part read.
        #expect(copy.bytesHeld == parts.bytesHeld)
        #expect(copy.bytesHeld < before)

        // And reads on from there: the second part, not the first again.
        #expect(next(&copy) == Array(parts.reportIDs[4..<8]))
        var rest: [String] = []
        while let part = next(&parts) { rest += part }
        #expect(rest == Array(parts.reportIDs[8...]))
        #expect(next(&copy) == nil && parts.bytesHeld == 0 && copy.bytesHeld == 0)
    }
}
