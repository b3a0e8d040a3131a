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

    /// Input zstd cannot shrink comes back whole (its frame stores it nearly as it is), and so does every size around
    /// the block size of 128 KB.
    @Test func roundTripsIncompressibleInputAndEverySize() throws {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let compressed = try BlobCompression.compress(noise)
        #expect(compressed.count < noise.count + noise.count / 128 + 1_024)
        #expect(try BlobCompression.decompress(compressed) == noise)
        for size in [1, 2, 131_071, 131_072, 131_073] {
            let input = Array(noise.prefix(size / 2) + text.prefix(size - size / 2))
            #expect(try BlobCompression.decompress(try BlobCompression.compress(input)) == input, "\(size) bytes")
        }
    }

    /// A blob is one stream, never an archive: text that libarchive's formats could take for one of theirs comes back
    /// whole. A short run of one repeated line, and JSON Lines, each read as no data at all when every format bid.
    @Test func readsTextThatLooksLikeAnArchiveFormatAsItsBytes() throws {
        let inputs = [
            Array(String(repeating: "A", count: 4_999).utf8) + [10],
            Array(#"{"touch":{"_0":{"phase":"ended"}}}"#.utf8) + [10] + Array(#"{"type":"screen"}"#.utf8) + [10],
        ]
        for input in inputs {
            #expect(try BlobCompression.decompress(try BlobCompression.compress(input)) == input)
        }
    }

    /// A run compresses blobs on several threads at once, each on a compression context of its own.
    @Test func compressesOnManyThreadsAtOnce() async throws {
        let inputs = (0..<64).map { index in Array(text.prefix(1_000 * (index + 1))) + Array("\(index)".utf8) }
        let blobs = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for (index, input) in inputs.enumerated() {
                group.addTask { (index, try BlobCompression.compress(input)) }
            }
            return try await group.reduce(into: [Int: [UInt8]]()) { $0[$1.0] = $1.1 }
        }
        for (index, input) in inputs.enumerated() {
            #expect(try BlobCompression.decompress(try #require(blobs[index])) == input)
        }
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
