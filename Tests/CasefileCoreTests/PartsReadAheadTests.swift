import CasefileArchive
import CasefileCore
import Foundation
import Testing

/// The parts of an input read a part ahead (``ReportReader/Parts/readingAhead(then:)``): the run's index writer and
/// `casefile triage` work on one part while the next is parsed on another thread. The parts given are those
/// ``ReportReader/Parts/next()`` gives, in order; the part after the one given is taken from the entries before it is
/// asked for; a part that cannot be read throws when it is asked for.
///
/// The fixture is `Tests/Fixtures/Archives/many-crashes.zip` (`Scripts/make-parts-fixture.py`): 26 crash files of 19
/// incidents, each incident's most complete copy kept, so 19 reports in parts of 4, 4, 4, 4 and 3.
@Suite struct PartsReadAheadTests {
    /// The fixture, surveyed into parts of 4 reports.
    private func parts(reader: ArchiveReader = ArchiveReader()) throws -> ReportReader.Parts {
        var input = try reader.read(path: Samples.fixture("many-crashes.zip"))
        return try #require(ReportReader().parts(of: &input, reportsPerPart: 4, unpackedPast: 0))
    }

    @Test func readAheadGivesThePartsOneByOneGives() throws {
        let plain = try parts()
        let ahead = try parts().readingAhead()
        var sizes: [Int] = []
        while let part = try plain.next() {
            // The same reports, parsed from the same bytes, in the same order.
            #expect(try ahead.next() == part)
            sizes.append(part.count)
        }
        #expect(sizes == [4, 4, 4, 4, 3])
        #expect(try ahead.next() == nil)
        #expect(try ahead.next() == nil)
    }

    @Test func thePartAfterTheOneGivenIsTakenBeforeItIsAskedFor() async throws {
        // What the entries hold once two parts are taken, read one by one.
        let plain = try parts()
        _ = try plain.next()
        _ = try plain.next()
        let afterTwo = plain.bytesHeld

        let surveyed = try parts()
        let ahead = surveyed.readingAhead()
        let first = try #require(try ahead.next())
        #expect(first.map(\.id) == Array(surveyed.reportIDs[0..<4]))
        // The second part's entries are taken on the read-ahead thread: wait for it (10 s at most).
        let deadline = ContinuousClock.now + .seconds(10)
        while surveyed.bytesHeld != afterTwo, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(surveyed.bytesHeld == afterTwo)
        #expect(afterTwo > 0)
        #expect(try ahead.next()?.map(\.id) == Array(surveyed.reportIDs[4..<8]))
    }

    #if os(Linux)
        @Test func aPartThatCannotBeReadThrowsWhenAskedForNamingItsEntry() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-ahead-\(UUID())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // Every entry past the first kept compressed, and every compressed one past the first in the spill file,
            // as in `InputPartsTests`; the spill file then emptied, so the first part's second report cannot be read.
            let ahead = try parts(reader: SpillFileFailure.reader(spillingTo: folder)).readingAhead()
            try SpillFileFailure.empty(in: folder)

            let error = #expect(throws: InputError.self) { try ahead.next() }
            #expect(error?.input == Samples.fixture("many-crashes.zip"))
            #expect(error?.entry == "cart-total-iphone11-ios15.crash")
        }
    #endif
}
