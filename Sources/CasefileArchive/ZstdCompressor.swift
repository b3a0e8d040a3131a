import CZstd
import Synchronization

/// zstd compression through the library itself, for the index's blobs: one call per blob with its size known, on a
/// compression context kept from one blob to the next. libarchive's zstd filter streams into a window sized for an
/// input of unknown size and makes a new context for every blob: a crash blob of 54 KB took 160 µs through it and
/// 119 µs here (a C test on one of the bench inbox's blobs).
enum ZstdCompressor {
    /// `bytes` as one zstd frame at `level`, its content size in the frame header.
    static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32) throws(ArchiveError) -> [UInt8] {
        let context = try contexts.take()
        defer { contexts.give(context) }
        let bound = ZSTD_compressBound(bytes.count)
        // Compressed into scratch memory of zstd's bound, then copied at its size: a blob is kept until the index
        // writer stores it, and an array of the bound's capacity would hold four times its bytes.
        return try withUnsafeTemporaryAllocation(byteCount: bound, alignment: 1) { scratch throws(ArchiveError) in
            let written = ZSTD_compressCCtx(context, scratch.baseAddress, bound, bytes.baseAddress, bytes.count, level)
            guard ZSTD_isError(written) == 0 else {
                let message = ZSTD_getErrorName(written).map { String(cString: $0) } ?? "unknown zstd error"
                throw ArchiveError(code: .corrupt, input: "blob", reason: "cannot compress: \(message)")
            }
            return [UInt8](UnsafeRawBufferPointer(rebasing: scratch[..<written]))
        }
    }

    /// The contexts not in use: as many as blobs were ever compressed at once, a few hundred kilobytes each.
    private static let contexts = ContextPool()

    private final class ContextPool: Sendable {
        /// Addresses, not pointers: `OpaquePointer` is not `Sendable`, so the mutex could not take one in; a context is
        /// used by one thread at a time, between `take` and `give`.
        private let idle = Mutex<[UInt]>([])

        func take() throws(ArchiveError) -> OpaquePointer {
            if let address = idle.withLock({ $0.popLast() }), let context = OpaquePointer(bitPattern: address) {
                return context
            }
            guard let context = ZSTD_createCCtx() else {
                throw ArchiveError(code: .corrupt, input: "blob", reason: "cannot compress: zstd has no memory")
            }
            return context
        }

        func give(_ context: OpaquePointer) {
            idle.withLock { $0.append(UInt(bitPattern: Int(bitPattern: context))) }
        }
    }
}
