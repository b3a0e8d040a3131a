public import Foundation

/// One file read out of an input: an archive entry, a file of a directory package, or the loose file itself.
public struct ArchiveEntry: Sendable {
    /// The entry's path inside the input; entries of nested archives are prefixed with the nested archive's path,
    /// e.g. `reports.zip` holding `a.clue.zip` gives `a.clue.zip/Info/info_device.json`.
    public var path: String
    /// The entry's expanded size in bytes.
    public var size: Int
    /// The modification time the archive recorded, when it recorded one.
    public var modified: Date?
    /// The entry's bytes, or only facts about it for media that is not loaded.
    public var contents: Contents

    /// What was kept of an entry.
    public enum Contents: Sendable {
        /// The whole entry, read into memory.
        case bytes([UInt8])
        /// A media file that was streamed, not kept: only its size and what the probe could read.
        case media(MediaInfo)
        /// The whole entry, kept as one zstd stream (``BlobCompression``), which ``ArchiveEntry/bytes`` expands: an
        /// input's entries past its first ``ArchiveReader/bytesKeptAsRead`` bytes (``ArchiveEntry/compressed()``), in
        /// memory or, past ``ArchiveReader/compressedBytesKeptInMemory``, in a spill file.
        case compressed(CompressedBytes)
    }

    /// An entry's bytes compressed, and how many they expand to.
    public struct CompressedBytes: Sendable {
        /// Where a compressed entry's stream is kept.
        public enum Stream: Sendable {
            /// In memory.
            case held([UInt8])
            /// In the input's spill file (``ArchiveReader/spillFolder``).
            case spilled(SpillFile.Region)
        }

        /// The zstd stream.
        public var stream: Stream
        /// The bytes it expands to.
        public var size: Int
    }

    /// Creates an entry.
    public init(path: String, size: Int, modified: Date? = nil, contents: Contents) {
        self.path = path
        self.size = size
        self.modified = modified
        self.contents = contents
    }

    /// The entry's bytes, or `nil` for a media entry. A compressed entry's are expanded at each call (and read back
    /// first, when spilled). One that cannot be expanded or read back reads as empty; when spilled, its spill file
    /// keeps its path (``SpillFile/firstEntryNotReadBack``), for the reader of the input to fail the input.
    public var bytes: [UInt8]? {
        switch contents {
        case .bytes(let bytes): return bytes
        case .compressed(let compressed):
            switch compressed.stream {
            case .held(let stream): return (try? BlobCompression.decompress(stream, limit: compressed.size)) ?? []
            case .spilled(let region):
                guard let stream = region.read(),
                    let bytes = try? BlobCompression.decompress(stream, limit: compressed.size)
                else {
                    region.file.noteNotReadBack(path, at: region.offset)
                    return []
                }
                return bytes
            }
        case .media: return nil
        }
    }

    /// The spill file the entry's bytes are kept in, when they are.
    public var spillFile: SpillFile? {
        guard case .compressed(let compressed) = contents, case .spilled(let region) = compressed.stream else {
            return nil
        }
        return region.file
    }

    /// The bytes the entry holds in memory: none for media or a spilled entry, the stream for one compressed.
    public var bytesHeld: Int {
        switch contents {
        case .bytes(let bytes): return bytes.count
        case .compressed(let compressed):
            guard case .held(let stream) = compressed.stream else { return 0 }
            return stream.count
        case .media: return 0
        }
    }

    /// The entry with its bytes kept compressed; as it is when it holds none, or they cannot be compressed.
    public func compressed() -> ArchiveEntry {
        guard case .bytes(let bytes) = contents, let stream = try? BlobCompression.compress(bytes) else { return self }
        var entry = self
        entry.contents = .compressed(CompressedBytes(stream: .held(stream), size: bytes.count))
        return entry
    }

    /// The entry with its compressed stream written to `file` and let go of; as it is when it holds none in memory,
    /// or the file cannot take it.
    public func spilled(to file: SpillFile) -> ArchiveEntry {
        guard case .compressed(let compressed) = contents, case .held(let stream) = compressed.stream,
            let region = file.append(stream)
        else { return self }
        var entry = self
        entry.contents = .compressed(CompressedBytes(stream: .spilled(region), size: compressed.size))
        return entry
    }

    /// The last path component: the file's own name.
    public var name: String {
        PathText.lastComponent(path)
    }
}

/// Facts about a media entry that was streamed but not kept in memory.
public struct MediaInfo: Sendable, Hashable, Codable {
    /// The size in bytes.
    public var size: Int
    /// The duration in seconds from the QuickTime/MP4 movie header, when the file has a readable one.
    public var duration: Double?
    /// The major brand of the `ftyp` atom (`qt  ` for QuickTime, `isom`, `mp42`, …), when present.
    public var brand: String?

    /// Creates media facts.
    public init(size: Int, duration: Double? = nil, brand: String? = nil) {
        self.size = size
        self.duration = duration
        self.brand = brand
    }
}

/// Everything read out of one input.
public struct UnpackedInput: Sendable {
    /// What the input is.
    public enum Kind: String, Sendable, Codable {
        /// A plain file that is not an archive; its one entry is the file itself.
        case file
        /// An archive (zip, tar, 7z, a compressed file, …).
        case archive
        /// A directory, such as an unzipped `.clue` package.
        case directory
    }

    /// The input's path.
    public var path: String
    /// What the input is.
    public var kind: Kind
    /// The files read, in archive order (directories: sorted by path).
    public var entries: [ArchiveEntry]
    /// Entries passed over (links, special files), one line each.
    public var notes: [String]

    /// Creates an unpacked input.
    public init(path: String, kind: Kind, entries: [ArchiveEntry], notes: [String] = []) {
        self.path = path
        self.kind = kind
        self.entries = entries
        self.notes = notes
    }

    /// The bytes the entries expand to, media entries aside.
    public var bytesUnpacked: Int {
        entries.reduce(0) { total, entry in
            if case .media = entry.contents { return total }
            return total + entry.size
        }
    }

    /// The bytes the entries hold in memory; media entries, streamed and not kept, hold none.
    public var bytesHeld: Int {
        entries.reduce(0) { $0 + $1.bytesHeld }
    }

    /// The file the input's entries were spilled to (``ArchiveReader/spillFolder``; one for all of them), when any
    /// were.
    public var spillFile: SpillFile? {
        entries.lazy.compactMap(\.spillFile).first
    }
}
