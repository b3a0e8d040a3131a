import CasefileArchive
import CasefileCore
import Foundation
import Testing

@Suite struct AppleCrashWriterTests {
    /// Writing a crash as Apple text and reading it back keeps what the text layout can hold: exception, crashed
    /// thread, and every frame's image, address, symbol and offset; the images' UUIDs and load addresses.
    @Test(arguments: crashSamples.map(\.file).filter { !$0.hasPrefix("cart-total-ios15-metrickit") })
    func survivesARoundTripThroughAppleText(_ file: String) throws {
        let original = try #require(try crashes(file).first)
        let text = AppleCrashWriter().write(original)
        let entry = ArchiveEntry(path: "round-trip.crash", size: text.utf8.count, contents: .bytes(Array(text.utf8)))
        let input = UnpackedInput(path: "memory", kind: .file, entries: [entry])
        let again = try #require(try ReportReader().read(input).reports.first?.crashes.first)
        #expect(again.crashedThread == original.crashedThread)
        #expect(again.exception.type == original.exception.type)
        #expect(again.exception.signal == original.exception.signal)
        #expect(again.exception.terminationCode == original.exception.terminationCode)
        #expect(again.app.version == original.app.version)
        #expect(again.app.build == original.app.build)
        #expect(again.os.version == original.os.version)
        func frames(_ crash: Crash) -> [[String]] {
            (crash.crashingThread?.frames ?? []).map { frame in
                [
                    frame.image ?? "", frame.address.map { String($0, radix: 16) } ?? "", frame.symbol ?? "",
                    frame.symbolOffset.map(String.init) ?? "", frame.imageOffset.map(String.init) ?? "",
                ]
            }
        }
        #expect(frames(again) == frames(original))
        #expect(again.images.map(\.uuid) == original.images.sorted { $0.loadAddress < $1.loadAddress }.map(\.uuid))
        #expect(again.appImage?.loadAddress == original.appImage?.loadAddress)
    }

    @Test func writesApplesLayout() throws {
        let crash = try #require(try crashes("image-cache-iphone15-ios17.ips").first)
        let lines = AppleCrashWriter().write(crash).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains("Hardware Model:      iPhone15,2"))
        #expect(lines.contains("OS Version:          iPhone OS 17.1 (21B80)"))
        #expect(lines.contains("Exception Subtype:   KERN_INVALID_ADDRESS at 0x0000000000000010"))
        #expect(lines.contains("Triggered by Thread:  3"))
        #expect(lines.contains("Thread 3 name:  Dispatch queue: com.example.shopapp.imagecache"))
        #expect(lines.contains("0   ShopApp                       \t0x0000000100d4c0ac ImageCache.store(_:for:) + 0"))
    }
}
