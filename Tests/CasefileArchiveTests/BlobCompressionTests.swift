import CasefileArchive
import Foundation
import Testing

@Suite struct BlobCompressionTests {
    private let text = Array(
        String(
            repeating: "0   UIKitCore  0x1a2c1f0a8 -[UIViewController loadViewIfRequired] + 1036\n", count: 2_000
        ).utf8)

    @Test func roundTripsThroughLibarchiveAsZstd() throws {
        let compressed = try BlobCompression.compress(text)
        // The zstd frame magic (RFC 8878 §3.1.1: 0xFD2FB528, little-endian), and far smaller than the repetitive input.
        #expect(compressed.prefix(4) == [0x28, 0xB5, 0x2F, 0xFD])
        #expect(compressed.count * 20 < text.count)
        #expect(try BlobCompression.decompress(compressed) == text)
        #expect(try BlobCompression.decompress(try BlobCompression.compress([])) == [])
    }

    /// Indexes written before blobs were zstd hold gzip blobs; they still decode. The stream is made by the system's
    /// `gzip`, not by Casefile.
    @Test func readsTheGzipBlobsOfOlderIndexes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blob-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("detail.txt")
        try Data(text).write(to: file)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-n", "-1", file.path]
        try gzip.run()
        gzip.waitUntilExit()
        let stream = try [UInt8](Data(contentsOf: file.appendingPathExtension("gz")))
        #expect(stream.prefix(2) == [0x1f, 0x8b])
        #expect(try BlobCompression.decompress(stream) == text)
    }

    @Test func refusesCorruptOrOversizedStreams() throws {
        let compressed = try BlobCompression.compress(Array(repeating: 0x41, count: 100_000))
        #expect(throws: ArchiveError.self) { try BlobCompression.decompress(compressed, limit: 1_000) }
        #expect(throws: ArchiveError.self) { try BlobCompression.decompress(Array(compressed.prefix(12))) }
    }
}
