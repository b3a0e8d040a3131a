import CasefileArchive
import CasefileCore
import Foundation
import Testing

/// The parts of an input read a part at a time (``ReportReader/Parts``): each part's entries go once it is read, from
/// every copy of the parts. The run surveys the parts on one task and hands them to the index's writer; until
/// 2026-12-05 the copy left behind kept every entry until the input was stored. An entry that cannot be read back
/// fails the part, naming it.
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
    private func next(_ parts: inout ReportReader.Parts) throws -> [String]? {
        try parts.next()?.map(\.id)
    }

    @Test func aPartReadFromOneCopyIsLetGoOfByEvery() throws {
        var parts = try parts()
        #expect(parts.reportIDs.count == 19)
        var copy = parts
        let before = copy.bytesHeld
        #expect(before > 0)

        #expect(try next(&parts) == Array(parts.reportIDs[0..<4]))
        // The copy holds what the parts hold now: less than before, nothing of the part read.
        #expect(copy.bytesHeld == parts.bytesHeld)
        #expect(copy.bytesHeld < before)

        // And reads on from there: the second part, not the first again.
        #expect(try next(&copy) == Array(parts.reportIDs[4..<8]))
        var rest: [String] = []
        while let part = try next(&parts) { rest += part }
        #expect(rest == Array(parts.reportIDs[8...]))
        #expect(try next(&copy) == nil && parts.bytesHeld == 0 && copy.bytesHeld == 0)
    }

    #if os(Linux)
        @Test func anEntryWhoseBytesCannotBeReadBackFailsItsPartNamingIt() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-parts-\(UUID())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // Every entry past the first kept compressed, and every compressed one past the first in the spill file.
            var input = try SpillFileFailure.reader(spillingTo: folder).read(path: Samples.fixture("many-crashes.zip"))
            let parts = try #require(ReportReader().parts(of: &input, reportsPerPart: 4, unpackedPast: 0))
            #expect(parts.reportIDs.count == 19)

            // The spill file emptied, as a disk that fails under it would leave it: no entry in it reads back.
            try SpillFileFailure.empty(in: folder)
            var read: [String] = []
            let error = #expect(throws: InputError.self) {
                while let part = try parts.next() { read += part.map(\.id) }
            }
            // The first part fails at its first report, the incident of a-first-copy-truncated.crash, whose kept copy
            // is the first complete one, the sample further down the zip (spilled, as every entry past the second is).
            #expect(error?.input == Samples.fixture("many-crashes.zip"))
            #expect(error?.entry == "cart-total-iphone11-ios15.crash")
            #expect(read.isEmpty)
        }
    #endif
}
