/// A directory input (a report package) listed by one walk and read by one pass over its files.
///
/// The pass shows every block to its caller, which hashes them, and keeps what the reader needs: a file's bytes, or
/// a media file's probe. ``ArchiveReader/read(directory:)`` unpacks from what was kept, so a package's files are
/// listed once and opened once, where hashing and unpacking from the path list and read them twice.
public struct DirectoryInput: Sendable {
    /// What the pass kept of one file.
    enum Kept: Sendable {
        /// The whole file.
        case bytes([UInt8])
        /// A media file, probed as it streamed past.
        case media(MediaInfo)
    }

    /// One step of the pass, in order: each regular file's relative path, its blocks, then its size.
    public enum Step {
        /// A regular file starts; its path relative to the directory, components joined by `/`.
        case file(String)
        /// The file's next bytes.
        case block(UnsafeRawBufferPointer)
        /// The file ended after this many bytes.
        case end(size: Int)
    }

    /// Why the pass stopped: a file that could not be read.
    public struct ReadFailure: Error, Sendable {
        /// The file's path relative to the directory.
        public var relativePath: String
    }

    /// The directory's path.
    public let path: String
    /// The directory's own status.
    public let status: FileStatus
    /// Every file, directory and link below it, sorted by relative path (``FileTree/entries(under:skippingUnreadable:workers:)``).
    public let entries: [FileTree.Entry]
    /// What ``readFiles(keepingWithin:_:)`` kept, by relative path.
    private(set) var kept: [String: Kept] = [:]

    /// Lists the directory at `path`, whose own status is `status`; `nil` when it cannot be listed.
    public init?(path: String, status: FileStatus) {
        guard let entries = FileTree.entries(under: path) else { return nil }
        self.path = path
        self.status = status
        self.entries = entries
    }

    /// The bytes ``readFiles(keepingWithin:_:)`` keeps within `limits`, from the listing alone: every regular file but
    /// the media, while the limits allow.
    public func bytesKept(within limits: ArchiveLimits) -> Int {
        var kept = 0
        for entry in entries where entry.status.kind == .regular && !EntryPath.isMedia(entry.relativePath) {
            if Self.keeps(entry.status.size, after: kept, within: limits) { kept += entry.status.size }
        }
        return kept
    }

    /// Whether a file of `size` bytes is kept whole after `kept` bytes were: within the entry bound and the total.
    private static func keeps(_ size: Int, after kept: Int, within limits: ArchiveLimits) -> Bool {
        size <= limits.maxEntryBytes && kept + size <= limits.maxTotalBytes
    }

    /// Reads every regular file once, in the order of ``entries``, showing each to `visit`. With `limits`, a media file
    /// is probed as it streams and any other file is kept whole while they allow (each within the entry bound, all
    /// within the input's total), so memory holds no more than the reader would; what is not kept, the reader reads
    /// again. Without, nothing is kept.
    public mutating func readFiles(
        keepingWithin limits: ArchiveLimits?, _ visit: (Step) -> Void
    ) throws(ReadFailure) {
        var keptBytes = 0
        for entry in entries where entry.status.kind == .regular {
            let file = path + "/" + entry.relativePath
            visit(.file(entry.relativePath))
            let size: Int
            if limits != nil, EntryPath.isMedia(entry.relativePath) {
                var probe = QuickTimeProbe()
                do {
                    size = try FileBlocks.forEach(in: file, blockSize: 256 * 1024) { block in
                        visit(.block(block))
                        probe.feed(block)
                    }
                } catch {
                    throw ReadFailure(relativePath: entry.relativePath)
                }
                kept[entry.relativePath] = .media(
                    MediaInfo(size: probe.size, duration: probe.duration, brand: probe.brand))
            } else if let limits, Self.keeps(entry.status.size, after: keptBytes, within: limits) {
                let bytes: [UInt8]
                do {
                    bytes = try FileBlocks.contents(of: file, sizeHint: entry.status.size)
                } catch {
                    throw ReadFailure(relativePath: entry.relativePath)
                }
                bytes.withUnsafeBytes { visit(.block($0)) }
                size = bytes.count
                keptBytes += bytes.count
                kept[entry.relativePath] = .bytes(bytes)
            } else {
                do {
                    size = try FileBlocks.forEach(in: file) { visit(.block($0)) }
                } catch {
                    throw ReadFailure(relativePath: entry.relativePath)
                }
            }
            visit(.end(size: size))
        }
    }
}
