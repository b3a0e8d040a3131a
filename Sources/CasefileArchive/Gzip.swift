/// gzip through libarchive: the index keeps large, rarely read parts of a crash compressed.
public enum Gzip {
    /// `bytes` compressed as one gzip stream.
    public static func compress(_ bytes: [UInt8]) throws(ArchiveError) -> [UInt8] {
        do {
            return try LibarchiveGzip.compress(bytes)
        } catch {
            throw ArchiveError(code: .corrupt, input: "gzip", reason: "cannot compress: \(error.message)")
        }
    }

    /// The bytes of one gzip stream; refused past `limit` bytes, so a corrupt or hostile blob cannot exhaust memory.
    public static func decompress(_ bytes: [UInt8], limit: Int = 256 << 20) throws(ArchiveError) -> [UInt8] {
        do {
            let reader = try LibarchiveHandle.open(bytes: bytes)
            guard try reader.nextHeader() != nil else { return [] }
            var output: [UInt8] = []
            var block = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = try block.withUnsafeMutableBytes { buffer throws(LibarchiveFailure) in
                    try reader.read(into: buffer)
                }
                if count == 0 { break }
                guard output.count + count <= limit else {
                    throw ArchiveError(code: .limitExceeded, input: "gzip", reason: "expands past \(limit) bytes")
                }
                output += block.prefix(count)
            }
            return output
        } catch let error as LibarchiveFailure {
            throw ArchiveError(code: .corrupt, input: "gzip", reason: "cannot decompress: \(error.message)")
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError(code: .corrupt, input: "gzip", reason: "cannot decompress: \(error)")
        }
    }
}
