import CasefileCore
import Foundation
import Testing

/// Crash reports saved as UTF-16 with a byte order mark (Notepad's "Unicode", Windows PowerShell's `>`), read as the
/// same reports saved as UTF-8. The expected values are read off the sample files by hand.
@Suite struct UTF16ReportTests {
    private static func crash(_ bytes: [UInt8]) throws -> (CrashReportParser.Kind, Crash) {
        guard case .crashes(let kind, let crashes, _) = CrashReportParser().parse(bytes, file: "report.crash") else {
            Issue.record("not read as a crash report")
            throw CancellationError()
        }
        return (kind, try #require(crashes.first))
    }

    @Test(arguments: [true, false]) func readsAppleTextSavedAsUTF16(littleEndian: Bool) throws {
        let text = try String(
            contentsOfFile: Samples.sample("Crashes/cart-total-iphone11-ios15.crash"), encoding: .utf8)
        let (kind, crash) = try Self.crash(SavedText.utf16(text, littleEndian: littleEndian))
        #expect(kind == .appleText)
        #expect(crash.incidentID == "7E2D9B40-1C3A-4F5E-8D6B-0A9C8E7F6D51")
        #expect(crash.exception.type == "EXC_BREAKPOINT")
        #expect(crash.exception.signal == "SIGTRAP")
        let thread = try #require(crash.crashingThread)
        #expect(thread.frames.count == 6)
        #expect(thread.frames[3].symbol == "-[UIViewController loadViewIfRequired]")
        #expect(thread.frames[3].address == 0x1_a2c1_f0a8)
        // Read as the UTF-8 file is, to the last frame and image.
        let (_, fromUTF8) = try Self.crash(Array(text.utf8))
        #expect(crash.threads == fromUTF8.threads)
        #expect(crash.images == fromUTF8.images)
    }

    @Test func readsIPSSavedAsUTF16() throws {
        let text = try String(contentsOfFile: Samples.sample("Crashes/cart-total-iphone14-ios16.ips"), encoding: .utf8)
        let (kind, crash) = try Self.crash(SavedText.utf16(text, littleEndian: true))
        #expect(kind == .ips)
        #expect(crash.app.name == "ShopApp")
        #expect(crash.app.version == "2.3.1")
        #expect(crash.app.build == "412")
    }

    /// Bytes that only look like a byte order mark's first half, and UTF-16 without a mark, are not transcoded.
    @Test func leavesOtherBytesAlone() {
        guard case .notACrashReport = CrashReportParser().parse([0xFF, 0x50, 0x72], file: "odd.crash") else {
            Issue.record("three stray bytes read as a report")
            return
        }
        let unmarked = Array(SavedText.utf16("Incident Identifier: X\n", littleEndian: true).dropFirst(2))
        guard case .notACrashReport = CrashReportParser().parse(unmarked, file: "unmarked.crash") else {
            Issue.record("UTF-16 without a byte order mark read as a report")
            return
        }
    }
}
