import CasefileArchive
import Foundation
import Testing

@Suite struct ArchiveReaderTests {
    let reader = ArchiveReader()

    @Test func readsAZippedClueReportIntoMemory() throws {
        let input = try reader.read(path: Samples.sample("checkout-500.clue.zip"))
        #expect(input.kind == .archive)
        #expect(
            Set(input.entries.map(\.path)) == [
                "Info/info_device.json", "Modules/module_interaction.json", "Modules/module_network.json",
                "Modules/module_video.mp4", "Modules/module_view.json",
            ])
        let device = try #require(input.entries.first { $0.path == "Info/info_device.json" }?.bytes)
        #expect(String(decoding: device, as: UTF8.self).hasPrefix(#"{"batteryState":0,"systemName":"iOS""#))
    }

    @Test func streamsTheVideoAndKeepsOnlyItsSizeAndDuration() throws {
        let input = try reader.read(path: Samples.sample("checkout-500.clue.zip"))
        let video = try #require(input.entries.first { $0.name == "module_video.mp4" })
        #expect(video.bytes == nil)
        guard case .media(let media) = video.contents else {
            Issue.record("the video was loaded")
            return
        }
        // make-samples.py writes ftyp (20 B) + mdat (72 B) + moov with a 108-byte mvhd: 16,500 units at 1000/s.
        #expect(media.size == 20 + 72 + 116)
        #expect(media.duration == 16.5)
        #expect(media.brand == "qt  ")
    }

    @Test func readsAPackageFolder() throws {
        let input = try reader.read(path: Samples.checkoutFolder)
        #expect(input.kind == .directory)
        #expect(input.entries.map(\.path).sorted() == input.entries.map(\.path))
        #expect(input.entries.count == 5)
        let view = try #require(input.entries.first { $0.path == "Modules/module_view.json" })
        #expect(view.size == 22_593)
    }

    @Test(arguments: ["clean-session.tar.gz", "clean-session.tar.xz", "clean-session.7z"])
    func readsOtherArchiveFormats(_ name: String) throws {
        let input = try reader.read(path: Samples.fixture(name))
        let zipped = try reader.read(path: Samples.sample("clean-session.zip"))
        let path = "\(Samples.cleanUUID).clue/Modules/module_network.json"
        let network = try #require(input.entries.first { $0.path == path }?.bytes)
        #expect(network == zipped.entries.first { $0.path == path }?.bytes)
        #expect(input.entries.filter { $0.path.hasPrefix("\(Samples.cleanUUID).clue/") }.count == 4)
    }

    @Test func opensNestedArchivesUnderTheirEntryName() throws {
        let input = try reader.read(path: Samples.sample("two-reports.zip"))
        let paths = Set(input.entries.map(\.path))
        #expect(paths.contains("timeout.clue.zip/Info/info_device.json"))
        #expect(paths.contains("search-404.clue.zip/Modules/module_network.json"))
        #expect(!paths.contains("timeout.clue.zip"))
    }

    @Test func decompressesALoneCompressedFile() throws {
        let input = try reader.read(path: Samples.fixture("single-file.json.gz"))
        #expect(input.entries.map(\.path) == ["single-file.json"])
        let bytes = try #require(input.entries.first?.bytes)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"systemVersion":"10.3.2""#))
    }

    @Test func keepsAPlainFileAsItsOwnEntry() throws {
        let input = try reader.read(path: Samples.checkoutFolder + "/Info/info_device.json")
        #expect(input.kind == .file)
        #expect(input.entries.map(\.path) == ["info_device.json"])
    }

    /// The nightly run reads a small file once, to hash it, and unpacks it from those bytes: what it gets is what
    /// reading the path gives, for archives of every kind, a compressed file, a plain file and a video.
    @Test(arguments: [
        Samples.sample("checkout-500.clue.zip"), Samples.sample("two-reports.zip"),
        Samples.fixture("clean-session.tar.gz"), Samples.fixture("clean-session.7z"),
        Samples.fixture("single-file.json.gz"), Samples.checkoutFolder + "/Info/info_device.json",
        Samples.checkoutFolder + "/Modules/module_video.mp4",
    ])
    func readsFromBytesAlreadyReadAsFromThePath(_ path: String) throws {
        let fromPath = try reader.read(path: path)
        let contents = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let fromBytes = try reader.read(path: path, contents: contents)
        #expect(fromBytes.kind == fromPath.kind)
        #expect(fromBytes.entries.map(\.path) == fromPath.entries.map(\.path))
        #expect(fromBytes.entries.map(\.size) == fromPath.entries.map(\.size))
        #expect(fromBytes.entries.map(\.bytes) == fromPath.entries.map(\.bytes))
        #expect(fromBytes.notes == fromPath.notes)
        #expect(!fromBytes.entries.isEmpty)
    }

    /// A video read from bytes is probed, not kept: the same size and duration as the streamed probe finds.
    @Test func probesAVideoFromBytes() throws {
        let path = Samples.checkoutFolder + "/Modules/module_video.mp4"
        let input = try reader.read(path: path, contents: try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        guard case .media(let media) = try #require(input.entries.first).contents else {
            Issue.record("the video was loaded")
            return
        }
        // make-samples.py writes ftyp (20 B) + mdat (72 B) + moov with a 108-byte mvhd: 16,500 units at 1000/s.
        #expect(media.size == 20 + 72 + 116)
        #expect(media.duration == 16.5)
    }

    @Test func anEmptyZipHasNoEntries() throws {
        let input = try reader.read(path: Samples.sample("Malformed/empty-report.clue.zip"))
        #expect(input.kind == .archive)
        #expect(input.entries.isEmpty)
    }

    @Test func refusesAnEntryThatClimbsOutOfTheArchive() throws {
        let path = Samples.sample("Malformed/path-traversal.zip")
        let error = try #require(throws: ArchiveError.self) { try reader.read(path: path) }
        #expect(error.code == .unsafePath)
        #expect(
            error.description
                == "\(path): entry '../../../tmp/casefile-escaped.txt': path escapes the archive (absolute or '..'); the whole input is refused"
        )
        #expect(!FileManager.default.fileExists(atPath: "/tmp/casefile-escaped.txt"))
    }

    @Test func stopsAnArchiveBombByItsCompressionRatio() throws {
        let error = try #require(throws: ArchiveError.self) {
            try reader.read(path: Samples.sample("Malformed/archive-bomb.zip"))
        }
        #expect(error.code == .limitExceeded)
        #expect(error.entry == "Modules/module_view.json")
        #expect(error.reason.hasPrefix("compression ratio over 200:1"))
    }

    @Test func stopsAtTheEntryCountLimit() throws {
        var limits = ArchiveLimits.default
        limits.maxEntries = 3
        let error = try #require(throws: ArchiveError.self) {
            try ArchiveReader(limits: limits).read(path: Samples.sample("checkout-500.clue.zip"))
        }
        #expect(error.code == .limitExceeded)
        #expect(error.reason == "more than 3 entries in one input")
    }

    @Test(arguments: [Samples.sample("checkout-500.clue.zip"), Samples.checkoutFolder])
    func stopsAtThePerEntryLimit(_ path: String) throws {
        var limits = ArchiveLimits.default
        limits.maxEntryBytes = 10_000
        let error = try #require(throws: ArchiveError.self) { try ArchiveReader(limits: limits).read(path: path) }
        #expect(error.code == .limitExceeded)
        #expect(error.entry == "Modules/module_view.json")
    }

    @Test func stopsAtTheTotalLimit() throws {
        var limits = ArchiveLimits.default
        limits.maxTotalBytes = 20_000
        let error = try #require(throws: ArchiveError.self) {
            try ArchiveReader(limits: limits).read(path: Samples.sample("checkout-500.clue.zip"))
        }
        #expect(error.reason == "the input expands past the total limit of 20000 bytes")
    }

    @Test func stopsArchivesNestedTooDeep() throws {
        let error = try #require(throws: ArchiveError.self) {
            try reader.read(path: Samples.fixture("nested-too-deep.zip"))
        }
        #expect(error.code == .limitExceeded)
        // nested-too-deep.zip (level 1) › level2.zip (2) › level3.zip (3) › report.clue.zip would be level 4.
        #expect(error.entry == "level2.zip/level3.zip/report.clue.zip")
        #expect(error.reason == "archives nest deeper than the limit of 3")
    }

    @Test func reportsATruncatedZipAsCorrupt() throws {
        let error = try #require(throws: ArchiveError.self) {
            try reader.read(path: Samples.sample("Malformed/truncated.clue.zip"))
        }
        #expect(error.code == .corrupt)
    }

    @Test func reportsAMissingInput() throws {
        let error = try #require(throws: ArchiveError.self) { try reader.read(path: "/nonexistent/report.zip") }
        #expect(error.description == "/nonexistent/report.zip: no such file or directory")
    }
}
