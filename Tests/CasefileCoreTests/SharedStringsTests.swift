import CasefileCore
import Foundation
import Testing

/// Large reports (32 KB and more) of the formats read as text or as a JSON tree share the strings they repeat — image
/// names and symbols — instead of making one per frame. (`.ips` frames take their image names from the report's image
/// table already; sharing their symbols too cost more than it saved.) Each test writes a report of 3,000 frames whose
/// every image and symbol is known by construction, so every frame can be checked: frame `i` lies in image `i % 3` and
/// calls `symbol(i)`. There are 1,500 distinct symbols of 16 bytes or more, each used twice, more than the shared table
/// has slots, so different strings land on one slot; one symbol holds a multi-byte character, and (in the text report)
/// one holds bytes that are not UTF-8.
@Suite struct SharedStringsTests {
    private static let frameCount = 3_000
    private static let images = ["libsystem_kernel.dylib", "CoreFoundation.framework", "ShopAppNetworking"]

    private static func symbol(_ index: Int) -> String {
        let number = index % 1_500
        return number == 7 ? "Zahlungsübersicht.laden()" : "pooled_symbol_\(number)_in_image"
    }

    private static func image(_ index: Int) -> String { images[index % 3] }

    /// Image `k` loads at 0x1_0000_0000 × (k + 1); frame `i` lies 16 × i into it.
    private static func load(_ image: Int) -> UInt64 { 0x1_0000_0000 * UInt64(image + 1) }

    private static func crashes(_ bytes: [UInt8], file: String) throws -> [Crash] {
        guard case .crashes(_, let crashes, _) = CrashReportParser().parse(bytes, file: file) else {
            Issue.record("\(file) was not read as a crash report")
            return []
        }
        return crashes
    }

    private static func checkFrames(_ frames: [Frame], format: String) {
        #expect(frames.count == frameCount, "\(format)")
        for (index, frame) in frames.enumerated() {
            #expect(frame.image == image(index), "\(format) frame \(index)")
            #expect(frame.symbol == symbol(index), "\(format) frame \(index)")
            #expect(frame.address == load(index % 3) + 16 * UInt64(index), "\(format) frame \(index)")
        }
    }

    @Test func appleTextReport() throws {
        var text = """
            Incident Identifier: 6B0E8F37-3E1D-4C4B-9B2A-0F9A5E4B1C77
            Process:             ShopApp [812]
            Exception Type:      EXC_CRASH (SIGABRT)

            Thread 0 Crashed:

            """
        for index in 0..<Self.frameCount {
            let address = String(Self.load(index % 3) + 16 * UInt64(index), radix: 16)
            let padded = Self.image(index).padding(toLength: 30, withPad: " ", startingAt: 0)
            text += "\(index)   \(padded)\t0x\(address) \(Self.symbol(index)) + \(index % 50)\n"
        }
        var bytes = Array(text.utf8)
        // Two frames whose symbols hold the same bytes that are not UTF-8 (0xFF): each reads with U+FFFD.
        bytes += Array("3000  ShopAppNetworking             \t0x300000000 broken_\u{1}_symbol_name + 4\n".utf8)
        bytes += Array("3001  ShopAppNetworking             \t0x300000010 broken_\u{1}_symbol_name + 4\n".utf8)
        for index in bytes.indices where bytes[index] == 0x01 { bytes[index] = 0xFF }
        let crash = try #require(try Self.crashes(bytes, file: "large.crash").first)
        let frames = try #require(crash.threads.first?.frames)
        Self.checkFrames(Array(frames.prefix(Self.frameCount)), format: "text")
        #expect(
            frames.dropFirst(Self.frameCount).map(\.symbol) == [
                "broken_\u{FFFD}_symbol_name", "broken_\u{FFFD}_symbol_name",
            ])
    }

    @Test func ksCrashReport() throws {
        var frames: [String] = []
        for index in 0..<Self.frameCount {
            let load = Self.load(index % 3)
            frames.append(
                #"{"instruction_addr":\#(load + 16 * UInt64(index)),"object_addr":\#(load),"object_name":"\#(Self.image(index))","symbol_addr":\#(load),"symbol_name":"\#(Self.symbol(index))"}"#
            )
        }
        let report =
            #"{"report":{"id":"A4B7C2D9-5E1F-4A3B-8C6D-9E0F1A2B3C4D","process_name":"ShopApp"},"system":{"CFBundleExecutable":"ShopApp"},"crash":{"error":{"type":"signal","signal":{"signal":6,"name":"SIGABRT"}},"threads":[{"index":0,"crashed":true,"backtrace":{"contents":[\#(frames.joined(separator: ","))]}}]},"binary_images":[]}"#
        let crash = try #require(try Self.crashes(Array(report.utf8), file: "large.json").first)
        Self.checkFrames(try #require(crash.threads.first?.frames), format: "KSCrash")
    }
}
