import CasefileArchive
import Foundation
import Testing

@testable import CasefileCore

/// An input of many crash reports (a tester's zip of crash logs) keeps each string its reports repeat once: image
/// paths, UUIDs and names, frames' images and symbols. Sharing must change no value, down to the bytes, and happens
/// only in an input of eight files or more; one of 16 or more is read on two threads, each sharing what it reads.
@Suite struct RepeatedStringsTests {
    /// A `.crash` report whose one image lies at `path` with `uuid` and whose two frames call `symbol` in it.
    private static func crash(number: Int, path: String, uuid: String, symbol: String) -> [UInt8] {
        let text = """
            Incident Identifier: 6B0E8F37-3E1D-4C4B-9B2A-0F9A5E4B1C\(String(format: "%02d", number))
            Process:             ShopApp [812]
            Exception Type:      EXC_CRASH (SIGABRT)

            Thread 0 Crashed:
            0   ShopAppNetworkingKit          \t0x104d9002c \(symbol) + 12
            1   ShopAppNetworkingKit          \t0x104d90060 \(symbol) + 48

            Binary Images:
                   0x104d8c000 -        0x104dabfff ShopAppNetworkingKit arm64  <\(uuid)> \(path)

            """
        return Array(text.utf8)
    }

    private static func input(_ files: [[UInt8]]) -> UnpackedInput {
        let entries = files.enumerated().map { number, bytes in
            ArchiveEntry(path: "crashes/\(number).crash", size: bytes.count, contents: .bytes(bytes))
        }
        return UnpackedInput(path: "crashes.zip", kind: .archive, entries: entries)
    }

    /// Where a string's bytes lie: two strings that share their storage lie at one address.
    private static func address(_ string: String?) -> UnsafePointer<UInt8>? {
        string?.withUTF8Bytes { $0.baseAddress }
    }

    /// Every crash sample the repository holds, read in one input, gives the reports each gives read alone.
    @Test func sameReportsAsReadAlone() throws {
        let entries = try Samples.crashSampleEntries()
        let together = try ReportReader().read(UnpackedInput(path: "all.zip", kind: .archive, entries: entries))
        let crashReports = together.reports.filter { !$0.crashes.isEmpty }
        #expect(crashReports.count >= SideBySide.reports)
        for report in together.reports {
            let entry = try #require(entries.first { $0.path == report.source.root })
            let alone = try ReportReader().read(UnpackedInput(path: "all.zip", kind: .archive, entries: [entry]))
            #expect(alone.reports == [report], "\(entry.path)")
        }
    }

    /// Paths and symbols that are equal as Swift strings but not in bytes (`é` as one scalar, and as `e` with a
    /// combining accent) each keep their own bytes.
    @Test func eachReportKeepsItsOwnBytes() throws {
        let composed = "/var/containers/Bundle/Application/Caf\u{E9}.app/Frameworks/Kit"
        let decomposed = "/var/containers/Bundle/Application/Cafe\u{301}.app/Frameworks/Kit"
        #expect(composed == decomposed)
        let symbols = ["-[Caf\u{E9}Controller loadMenu]", "-[Cafe\u{301}Controller loadMenu]"]
        let files = (0..<20).map { number in
            Self.crash(
                number: number, path: number % 2 == 0 ? composed : decomposed,
                uuid: "4c4c442a55553144a1c2ffa5de205d9d", symbol: symbols[number % 2])
        }
        let reports = try ReportReader().read(Self.input(files)).reports
        #expect(reports.count == 20)
        for (number, report) in reports.enumerated() {
            let crash = try #require(report.crashes.first)
            let image = try #require(crash.images.first)
            #expect(Array(image.path?.utf8 ?? "".utf8) == Array((number % 2 == 0 ? composed : decomposed).utf8))
            let frames = try #require(crash.threads.first?.frames)
            #expect(frames.count == 2)
            for frame in frames {
                #expect(Array(frame.symbol?.utf8 ?? "".utf8) == Array(symbols[number % 2].utf8), "report \(number)")
            }
        }
    }

    /// In an input of eight files or more, every report's image path and UUID and frame symbol are the first report's
    /// own strings; an input of fewer files leaves each its own.
    @Test func sharedInAnInputOfEightFiles() throws {
        let path = "/private/var/containers/Bundle/Application/0A1B2C3D/ShopApp.app/Frameworks/ShopAppNetworkingKit"
        let symbol = "-[CheckoutViewController submitOrder:]"
        let files = { (count: Int) in
            (0..<count).map {
                Self.crash(number: $0, path: path, uuid: "4c4c442a55553144a1c2ffa5de205d9d", symbol: symbol)
            }
        }
        let many = try ReportReader().read(Self.input(files(RepeatedStrings.entriesBeforeSharing + 2))).reports
        let first = try #require(many.first?.crashes.first)
        for report in many.dropFirst() {
            let crash = try #require(report.crashes.first)
            #expect(Self.address(crash.images.first?.path) == Self.address(first.images.first?.path))
            #expect(Self.address(crash.images.first?.uuid) == Self.address(first.images.first?.uuid))
            #expect(
                Self.address(crash.threads.first?.frames.last?.symbol)
                    == Self.address(first.threads[0].frames[0].symbol))
        }
        let few = try ReportReader().read(Self.input(files(RepeatedStrings.entriesBeforeSharing - 1))).reports
        let paths = Set(few.compactMap { Self.address($0.crashes.first?.images.first?.path) })
        #expect(paths.count == RepeatedStrings.entriesBeforeSharing - 1)
    }

    /// A `.crash` report of one thread of `frames` frames, each in one of `images` images.
    private static func crash(number: Int, frames: Int, images: Int) -> [UInt8] {
        let lines = (0..<frames).map { frame in
            let image = frame % images
            return "\(frame)   Kit\(image)\t0x\(String(0x1_0400_0000 + image * 0x10_0000 + 0x40 + frame, radix: 16)) "
                + "function\(frame) + 4"
        }
        let imageLines = (0..<images).map { image in
            let start = 0x1_0400_0000 + image * 0x10_0000
            return "0x\(String(start, radix: 16)) - 0x\(String(start + 0xf_ffff, radix: 16)) Kit\(image) arm64  "
                + "<4c4c442a55553144a1c2ffa5de2050\(String(format: "%02d", image))> /usr/lib/Kit\(image)"
        }
        let text = """
            Incident Identifier: 6B0E8F37-3E1D-4C4B-9B2A-0F9A5E4B1C\(String(format: "%02d", number))
            Process:             ShopApp [812]
            Exception Type:      EXC_CRASH (SIGABRT)

            Thread 0 Crashed:
            \(lines.joined(separator: "\n"))

            Binary Images:
            \(imageLines.joined(separator: "\n"))

            """
        return Array(text.utf8)
    }

    /// In an input of eight files or more, each report's frames and images are kept in storage of about their count,
    /// not in the doubled storage they grew into: 9 frames in no more than 11 places (not 16), 5 images in 6 (not 8).
    /// An input of fewer files is left as parsed.
    @Test func arraysTrimmedInAnInputOfEightFiles() throws {
        let files = { (count: Int) in (0..<count).map { Self.crash(number: $0, frames: 9, images: 5) } }
        let many = try ReportReader().read(Self.input(files(RepeatedStrings.entriesBeforeSharing + 2))).reports
        #expect(many.count == RepeatedStrings.entriesBeforeSharing + 2)
        for report in many {
            let crash = try #require(report.crashes.first)
            let frames = try #require(crash.threads.first?.frames)
            #expect(frames.count == 9 && crash.images.count == 5)
            #expect(frames.map(\.symbol) == (0..<9).map { "function\($0)" })
            #expect(frames.capacity <= 11, "\(frames.capacity)")
            #expect(crash.images.capacity <= 6, "\(crash.images.capacity)")
        }
        let few = try ReportReader().read(Self.input(files(RepeatedStrings.entriesBeforeSharing - 1))).reports
        #expect(few.allSatisfy { ($0.crashes.first?.threads.first?.frames.capacity ?? 0) > 11 })
    }

    /// An input of 40 files is read on two threads: each report's strings are those of the first report its thread
    /// read, so the 40 reports hold two copies of the image's path at most, and at least one is shared by many.
    @Test func sharedOnEachThreadOfALargeInput() throws {
        let path = "/private/var/containers/Bundle/Application/0A1B2C3D/ShopApp.app/Frameworks/ShopAppNetworkingKit"
        let files = (0..<40).map {
            Self.crash(number: $0, path: path, uuid: "4c4c442a55553144a1c2ffa5de205d9d", symbol: "-[Kit load:]")
        }
        #expect(files.count >= SideBySide.reports)
        let reports = try ReportReader().read(Self.input(files)).reports
        #expect(reports.count == 40)
        let copies = Dictionary(grouping: reports, by: { Self.address($0.crashes.first?.images.first?.path) })
        #expect(copies.count <= 2)
        #expect(copies.values.map(\.count).max() ?? 0 >= 20)
    }
}
