/// Compression of the index's large, rarely read columns.
///
/// New blobs are zstd frames (level 1), written by zstd itself (`ZstdCompressor`): four times as fast to write as
/// gzip at its fastest level and a fifth smaller on crash details. Blobs are read through libarchive with every filter
/// it knows, so the zstd streams libarchive wrote and the gzip blobs of older indexes still read.
public enum BlobCompression {
    /// `bytes` compressed as one zstd stream.
    public static func compress(_ bytes: [UInt8]) throws(ArchiveError) -> [UInt8] {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ArchiveError) -> [UInt8] in try compress(buffer) }
        }
        return try result.get()
    }

    /// The bytes at `bytes` compressed as one zstd stream, for a caller that wrote them into memory of its own.
    public static func compress(_ bytes: UnsafeRawBufferPointer) throws(ArchiveError) -> [UInt8] {
        try ZstdCompressor.compress(bytes, level: 1)
    }

    /// The bytes of one compressed stream (zstd, or gzip from an older index); refused past `limit` bytes, so a
    /// corrupt or hostile blob cannot exhaust memory.
    public static func decompress(_ bytes: [UInt8], limit: Int = 256 << 20) throws(ArchiveError) -> [UInt8] {
        do {
            let reader = try LibarchiveHandle.openStream(bytes: bytes)
            guard try reader.nextHeader() != nil else { return [] }
            var output: [UInt8] = []
            var block = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = try block.withUnsafeMutableBytes { buffer throws(LibarchiveFailure) in
                    try reader.read(into: buffer)
                }
                if count == 0 { break }
                guard output.count + count <= limit else {
                    throw ArchiveError(code: .limitExceeded, input: "blob", reason: "expands past \(limit) bytes")
                }
                output += block.prefix(count)
            }
            return output
        } catch let error as LibarchiveFailure {
            throw ArchiveError(code: .corrupt, input: "blob", reason: "cannot decompress: \(error.message)")
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError(code: .corrupt, input: "blob", reason: "cannot decompress: \(error)")
        }
    }
}
