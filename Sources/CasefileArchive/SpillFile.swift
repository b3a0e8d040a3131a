import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A temporary file without a name that an input's compressed entries are written to instead of memory, once they
/// pass ``ArchiveReader/compressedBytesKeptInMemory`` (``ArchiveReader/spillFolder``).
///
/// The file is removed from its folder as soon as it is made, so nothing is left behind however the process ends; its
/// space goes back when the last entry written to it is let go, which closes it.
public final class SpillFile: Sendable {
    /// Bytes written to a spill file: where they are, and the file that holds them (kept open while they are).
    public struct Region: Sendable {
        /// The file.
        public let file: SpillFile
        /// Where the bytes start.
        public let offset: Int
        /// How many there are.
        public let count: Int

        /// The bytes, read back; `nil` when the file cannot be read.
        public func read() -> [UInt8]? {
            file.read(at: offset, count: count)
        }
    }

    private let descriptor: Int32
    /// Where the next bytes go: the end of what was written.
    private let end = Mutex(0)
    /// The entries whose bytes could not be read back (``ArchiveEntry/bytes`` read them as empty), with where their
    /// bytes start.
    private let notReadBack = Mutex<[(offset: Int, entry: String)]>([])

    /// A new spill file in `folder`; `nil` when one cannot be made there (a folder that is missing, or not writable).
    public init?(folder: String) {
        var template = Array("\(folder)/.casefile-spill.XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes `bytes` after what the file holds; `nil` when they cannot all be written (the disk is full), and then
    /// the file is as it was for the bytes written before.
    public func append(_ bytes: [UInt8]) -> Region? {
        end.withLock { end in
            let written = bytes.withUnsafeBytes { buffer in
                var written = 0
                while written < buffer.count {
                    let count = FileBlocks.retryingInterrupts {
                        pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(end + written))
                    }
                    guard count > 0 else { return written }
                    written += count
                }
                return written
            }
            guard written == bytes.count else { return nil }
            let region = Region(file: self, offset: end, count: bytes.count)
            end += bytes.count
            return region
        }
    }

    /// Of the entries whose bytes could not be read back from this file, the one first in its input; `nil` while
    /// every entry read back. An input's entries are written in the order they are read, so the first is the one whose
    /// bytes start first.
    ///
    /// Whoever reads an input whose entries spilled asks this once the input is read: an entry that did not read back
    /// read as empty, and what it held is missing from what was read (``ArchiveEntry/bytes``).
    public var firstEntryNotReadBack: String? {
        notReadBack.withLock { $0.min { $0.offset < $1.offset }?.entry }
    }

    /// Keeps `entry`, whose bytes start at `offset`, as one whose bytes could not be read back.
    func noteNotReadBack(_ entry: String, at offset: Int) {
        notReadBack.withLock { $0.append((offset, entry)) }
    }

    /// The `count` bytes at `offset`; `nil` when they cannot all be read.
    func read(at offset: Int, count: Int) -> [UInt8]? {
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            while filled < count {
                let got = FileBlocks.retryingInterrupts {
                    pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
                }
                guard got > 0 else {
                    complete = false
                    return
                }
                filled += got
            }
        }
        return complete ? bytes : nil
    }
}
