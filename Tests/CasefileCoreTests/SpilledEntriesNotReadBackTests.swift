#if os(Linux)
    import CasefileArchive
    import CasefileCore
    import Foundation
    import Testing

    /// An input read whole (``ReportReader/read(_:)``) whose entries were kept in a spill file that can no longer be read
    /// back: the input fails, naming the first entry that did not read back, instead of being read without what that
    /// entry held. Before 2026-12-05 such an entry read as empty, and its report (or the attachment a bug report held)
    /// was silently missing.
    ///
    /// ``SpillFileFailure/reader(spillingTo:)`` keeps an input's first entry as read, its second compressed in memory,
    /// and every later one compressed in the spill file; ``SpillFileFailure/empty(in:)`` empties that file, as a disk
    /// that fails under it would leave it.
    @Suite struct SpilledEntriesNotReadBackTests {
        /// A new folder for one test's spill file, removed after `body`.
        private func withFolder(_ body: (String) throws -> Void) throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-spill-\(UUID())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try body(folder)
        }

        @Test func spilledEntriesThatReadBackGiveTheReportsOfTheInputReadInMemory() throws {
            try withFolder { folder in
                let path = Samples.fixture("many-crashes.zip")
                let plain = try ReportReader().read(ArchiveReader().read(path: path))
                let input = try SpillFileFailure.reader(spillingTo: folder).read(path: path)
                #expect(input.spillFile != nil)
                let spilled = try ReportReader().read(input)
                #expect(spilled.reports.count == plain.reports.count)
                #expect(spilled.reports == plain.reports)
                #expect(spilled.notes == plain.notes)
            }
        }

        @Test func aCrashFileThatCannotBeReadBackFailsTheInputNamingIt() throws {
            try withFolder { folder in
                let path = Samples.fixture("many-crashes.zip")
                let input = try SpillFileFailure.reader(spillingTo: folder).read(path: path)
                try SpillFileFailure.empty(in: folder)
                let error = #expect(throws: InputError.self) { try ReportReader().read(input) }
                // The zip's third entry (`unzip -l`) is the first kept in the spill file.
                #expect(error?.input == path)
                #expect(error?.entry == "cart-total-ios14-bugtype109.ips")
                #expect(error?.reason.contains("could not be read back") == true)
            }
        }

        @Test func aBugReportWhoseAttachmentCannotBeReadBackFailsRatherThanLosingIt() throws {
            try withFolder { folder in
                // The recording's six files are kept as read, as a recording's always are; then app.log (compressed,
                // in memory), DebugMenu/network-log.json (the first in the spill file) and the rest of the attachments.
                let path = Samples.sample("checkout-bugreport.zip")
                let plain = try ReportReader().read(ArchiveReader().read(path: path))
                #expect(try #require(plain.reports.first).attachments.files.contains("DebugMenu/network-log.json"))

                let input = try SpillFileFailure.reader(spillingTo: folder).read(path: path)
                try SpillFileFailure.empty(in: folder)
                let error = #expect(throws: InputError.self) { try ReportReader().read(input) }
                #expect(error?.input == path)
                #expect(error?.entry == "DebugMenu/network-log.json")
            }
        }

        @Test func anInputWhoseSurveyCannotReadAnEntryBackIsLeftToTheWholeReadingWhichFailsIt() throws {
            try withFolder { folder in
                let path = Samples.fixture("many-crashes.zip")
                var input = try SpillFileFailure.reader(spillingTo: folder).read(path: path)
                let entries = input.entries.count
                try SpillFileFailure.empty(in: folder)
                // Surveyed, its spilled entries read as empty: not read in parts without them (the two entries not
                // spilled are still more reports than a part of one), and left as it was.
                #expect(ReportReader().parts(of: &input, reportsPerPart: 1, unpackedPast: 0) == nil)
                #expect(input.entries.count == entries)
                let error = #expect(throws: InputError.self) { try ReportReader().read(input) }
                #expect(error?.entry == "cart-total-ios14-bugtype109.ips")
            }
        }
    }
#endif
