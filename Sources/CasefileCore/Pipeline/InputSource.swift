public import CasefileArchive
public import Foundation

/// One input as a run reads it: examined with one `lstat` (and one walk, for a package), hashed, then unpacked from
/// what the hash read — a small file is read whole once, a package's files once each — rather than from the path
/// again.
public struct InputSource: Sendable {
    /// Files up to this size are read whole once, for the hash and the reader; larger ones are streamed twice.
    static let wholeFileLimit = 1 << 20

    private enum Body: Sendable {
        /// Not read yet, or read by streaming: the reader opens the path.
        case path
        /// A small regular file, read whole by ``hash()``.
        case contents([UInt8])
        /// A directory, listed; after ``hash()``, holding what the reader needs.
        case directory(DirectoryInput)
    }

    /// The input's path, as the inbox's scan listed it; records name it.
    public let path: String
    /// The bounds of unpacking; files beyond them are not kept by the hash's read.
    public let limits: ArchiveLimits
    /// Where unpacking writes the compressed entries of a large input (``ArchiveReader/spillFolder``).
    public let spillFolder: String?
    /// What `lstat` said of the input; `nil` when it does not exist or cannot be examined.
    private let status: FileStatus?
    /// The listing of a directory input; `nil` for a file, or a directory that cannot be listed.
    private let listing: DirectoryInput?
    private var body = Body.path

    /// Examines the input at `url`: its status, and the listing of a directory.
    public init(_ url: URL, limits: ArchiveLimits) {
        self.init(path: url.path, limits: limits)
    }

    /// Examines the input at `path`: its status, and the listing of a directory. The nightly run holds its inbox as
    /// paths; a URL made of each would only be taken back to its path. A large input unpacked spills compressed
    /// entries to `spillFolder`, when one is given.
    public init(path: String, limits: ArchiveLimits, spillFolder: String? = nil) {
        self.path = path
        self.limits = limits
        self.spillFolder = spillFolder
        status = FileStatus.of(path)
        if let status, status.kind == .directory {
            listing = DirectoryInput(path: path, status: status)
        } else {
            listing = nil
        }
    }

    /// ``InputSignature/of(_:)`` of the input, from what examining it found.
    public var signature: String? {
        guard let status else { return nil }
        if status.kind == .directory {
            return listing.map { InputSignature.of(directory: status, entries: $0.entries) }
        }
        return InputSignature.of(status)
    }

    /// Whether the input is a folder (a report package): its hash reads its files and keeps them for ``unpack()``.
    public var isFolder: Bool {
        status?.kind == .directory
    }

    /// What the input holds in memory before it is unpacked, from its metadata: a folder, its files as its listing
    /// gives them (media streamed past, not kept), which is what it holds unpacked too; a file, what ``hash()`` keeps
    /// of it (the whole file up to ``wholeFileLimit``, nothing of a larger one, which is streamed). What a file unpacks
    /// to nothing tells before it is unpacked: a zip of JSON holds thirty times its size, one with a stored video less
    /// than it. ``UnpackedInput/bytesHeld`` is the true figure.
    public var estimatedBytes: Int {
        if let listing { return listing.bytesKept(within: limits) }
        guard let status, status.kind == .regular, status.size <= Self.wholeFileLimit else { return 0 }
        return status.size
    }

    /// ``ContentHash/of(_:)`` of the input, reading its bytes once and keeping what ``unpack()`` needs.
    public mutating func hash() throws(InputError) -> String {
        guard let status else { throw InputError(input: path, reason: "no such file or directory") }
        switch status.kind {
        case .directory:
            guard var directory = listing else {
                throw InputError(input: path, reason: "cannot list the directory")
            }
            let sha256 = try ContentHash.of(directory: &directory, keepingWithin: limits)
            body = .directory(directory)
            return sha256
        case .regular where status.size <= Self.wholeFileLimit:
            if let bytes = try? FileBlocks.contents(of: path, sizeHint: status.size),
                bytes.count <= Self.wholeFileLimit
            {
                body = .contents(bytes)
                return ContentHash.of(contents: bytes)
            }
            return try ContentHash.of(path: path)
        default:
            // A large file is streamed; a link is followed by the hash and the reader alike.
            return try ContentHash.of(path: path)
        }
    }

    /// The input unpacked: from what ``hash()`` read, or from the path when it streamed or did not run.
    public func unpack() throws(ArchiveError) -> UnpackedInput {
        let reader = ArchiveReader(limits: limits, spillFolder: spillFolder)
        switch body {
        case .contents(let bytes): return try reader.read(path: path, contents: bytes)
        case .directory(let directory): return try reader.read(directory: directory)
        case .path: return try reader.read(path: path)
        }
    }
}
