import CasefileArchive
import Foundation
import Testing

@Suite struct GzipTests {
    @Test func roundTripsThroughLibarchive() throws {
        let text = Array(
            String(
                repeating: "0   UIKitCore  0x1a2c1f0a8 -[UIViewController loadViewIfRequired] + 1036\n", count: 2_000
            ).utf8)
        let compressed = try Gzip.compress(text)
        // The gzip magic, and far smaller than the repetitive input.
        #expect(compressed.prefix(2) == [0x1f, 0x8b])
        #expect(compressed.count * 20 < text.count)
        #expect(try Gzip.decompress(compressed) == text)
        #expect(try Gzip.decompress(try Gzip.compress([])) == [])
    }

    @Test func refusesCorruptOrOversizedStreams() throws {
        let compressed = try Gzip.compress(Array(repeating: 0x41, count: 100_000))
        #expect(throws: ArchiveError.self) { try Gzip.decompress(compressed, limit: 1_000) }
        #expect(throws: ArchiveError.self) { try Gzip.decompress(Array(compressed.prefix(12))) }
    }
}
