import CasefileArchive
import Foundation
import Testing

@testable import CasefileCore

/// An input of many files (``SideBySide/reports`` or more) is read on two threads at once. What it gives
/// must not depend on which thread read which file: its reports, its notes and its failed entries come in the order of
/// its entries, as one thread reading them one after the other gives them.
@Suite struct LargeInputReadingTests {
    /// A `.crash` report of incident `number`, whose frame calls `function<number>`.
    private static func crash(_ number: Int) -> [UInt8] {
        Array(
            """
            Incident Identifier: 6B0E8F37-3E1D-4C4B-9B2A-0F9A5E4B1C\(String(format: "%02d", number))
            Process:             ShopApp [812]
            Exception Type:      EXC_CRASH (SIGABRT)

            Thread 0 Crashed:
            0   ShopApp          \t0x104d9002c function\(number) + 12

            Binary Images:
                   0x104d8c000 -        0x104dabfff ShopApp arm64  <4c4c442a55553144a1c2ffa5de205d9d> /var/ShopApp

            """.utf8)
    }

    /// Entry `number` of the input: every fifth a note in no format Casefile reads, every fifth after it a KSCrash
    /// report damaged beyond repair, every fifth after that an app log (an input of many reports has no one report to
    /// attach it to), one a video, the others crash reports.
    private static func entry(_ number: Int) -> ArchiveEntry {
        let name = String(format: "%02d", number)
        if number == 17 {
            return ArchiveEntry(path: "\(name)-screen.mp4", size: 4_096, contents: .media(MediaInfo(size: 4_096)))
        }
        let (path, bytes): (String, [UInt8]) =
            switch number % 5 {
            case 0: ("\(name)-readme.txt", Array("Sent by the tester on Monday.\n".utf8))
            case 1: ("\(name)-damaged.json", Array(#"{"crash": {"threads": ]]], "binary_images": 7}"#.utf8))
            case 2: ("\(name)-app.log", Array("13:02:05.120 ERROR [Checkout] Pay.pay():88 - Payment failed\n".utf8))
            default: ("\(name).crash", crash(number))
            }
        return ArchiveEntry(path: path, size: bytes.count, contents: .bytes(bytes))
    }

    @Test func readInTheOrderOfItsEntries() throws {
        let count = 40
        #expect(count >= 2 * SideBySide.reports)
        let entries = (0..<count).map(Self.entry)
        let output = try ReportReader().read(UnpackedInput(path: "tester.zip", kind: .archive, entries: entries))
        // Entries 3, 4, 8, 9, ... are crash reports.
        let crashNumbers = (0..<count).filter { $0 % 5 >= 3 }
        #expect(output.reports.map(\.source.root) == crashNumbers.map { String(format: "%02d.crash", $0) })
        #expect(
            output.reports.map { $0.crashes.first?.threads.first?.frames.first?.symbol }
                == crashNumbers.map { "function\($0)" })
        #expect(
            output.failures.map(\.entry)
                == stride(from: 1, to: count, by: 5).map { String(format: "%02d-damaged.json", $0) })
        #expect(output.failures.allSatisfy { $0.reason.hasPrefix("crash report JSON is invalid beyond repair") })
        // The video's note where it lies, then the entries in no format, then the attachments, each in order.
        let expectedNotes =
            ["entry '17-screen.mp4': media outside a report; ignored"]
            + stride(from: 0, to: count, by: 5).map {
                String(format: "entry '%02d-readme.txt': not a recognized report format; ignored", $0)
            }
            + stride(from: 2, to: count, by: 5).filter { $0 != 17 }.map {
                String(format: "entry '%02d-app.log': attachment with no report to attach to; ignored", $0)
            }
        #expect(output.notes == expectedNotes)
    }

    /// Entries in no format Casefile reads keep their bytes: a data snapshot registry at the input's root reads its
    /// payloads from them, after every other entry is read.
    @Test func aRegistryAtTheRootReadsThePayloadsLeftOver() throws {
        let files: [(String, String)] = [
            ("crash.crash", String(decoding: Self.crash(1), as: UTF8.self)),
            ("registry.json", #"{"Cart": ["GetCart"]}"#),
            ("GetCart-8812.json", #"{"id": 8812, "items": []}"#),
        ]
        let entries = files.map { path, text in
            ArchiveEntry(path: path, size: text.utf8.count, contents: .bytes(Array(text.utf8)))
        }
        let output = try ReportReader().read(UnpackedInput(path: "bug.zip", kind: .archive, entries: entries))
        let snapshots = try #require(output.reports.first?.attachments.snapshots)
        #expect(snapshots.payloads.map(\.file) == ["GetCart-8812.json"])
        #expect(snapshots.payloads.map(\.size) == [#"{"id": 8812, "items": []}"#.utf8.count])
        #expect(snapshots.modules.map(\.recorded) == [["GetCart"]])
    }
}
