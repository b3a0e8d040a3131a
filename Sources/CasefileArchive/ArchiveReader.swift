import Foundation

/// Unpacks one input — an archive of any format libarchive reads, a directory package, or a plain file — into
/// entries held in memory, recursing into nested archives.
///
/// Nothing is ever extracted to a path taken from an archive. Every ``ArchiveLimits`` bound is checked while the
/// data streams, so a bomb is stopped after at most one limit's worth of work.
public struct ArchiveReader: Sendable {
    /// The bounds applied to each input.
    public var limits: ArchiveLimits

    /// The bytes an input's entries are kept as read (16 MiB unless set); the entries after them are kept compressed
    /// (``ArchiveEntry/compressed()``), but a recording's files. A tester's zip of 837 crash files unpacks to 83 MB: read
    /// a part at a time, its entries as read were 83 MB of the run's 113 MB of heap at its peak. Compressed (zstd level
    /// 1), crash reports take about a sixth of their size. An input of ordinary reports (a recording of 10,000 events is
    /// 3.6 MB) never reaches the bound.
    public var bytesKeptAsRead = 16 << 20

    /// The compressed bytes an input's entries keep in memory (8 MiB unless set); with a ``spillFolder``, the entries
    /// after them keep theirs in a ``SpillFile``. A tester's zip of 2,086 crash files (200 MB unpacked) held 35 MB
    /// compressed; the bench's zip of 423 holds 4 MB, and never reaches the bound.
    public var compressedBytesKeptInMemory = 8 << 20

    /// Where an input's compressed entries past ``compressedBytesKeptInMemory`` are written, so that what one input
    /// holds in memory does not grow with its size (a run gives its output folder); `nil` keeps them all in memory,
    /// as does a folder where no file can be made.
    public var spillFolder: String?

    /// Creates a reader with the given bounds, spilling to `spillFolder` when one is given.
    public init(limits: ArchiveLimits = .default, spillFolder: String? = nil) {
        self.limits = limits
        self.spillFolder = spillFolder
    }

    /// Reads the input at `path`: a directory, an archive (recognized by content), or a plain file.
    public func read(path: String) throws(ArchiveError) -> UnpackedInput {
        var session = Session(input: path, limits: limits, spillFolder: spillFolder)
        // Followed once: an inbox entry may be a link to a report.
        guard var status = FileStatus.of(path) else {
            throw ArchiveError(code: .unreadable, input: path, reason: "no such file or directory")
        }
        if status.kind == .symbolicLink, let target = Self.followed(path) {
            status = target
        }
        if status.kind == .directory {
            try readDirectory(at: path, prefix: "", depth: 1, session: &session)
            return UnpackedInput(path: path, kind: .directory, entries: session.finishedEntries(), notes: session.notes)
        }
        let fileSize = status.size
        let prefix = try Self.prefix(of: path, input: path)
        let name = PathText.lastComponent(path)
        if ArchiveSniffer.isArchive(prefix) {
            return try readArchive(at: path, named: name, size: fileSize, session: &session) {
                () throws(LibarchiveFailure) in try LibarchiveHandle.open(path: path)
            }
        }
        try readPlainFile(at: path, entryPath: name, size: fileSize, depth: 1, session: &session)
        return UnpackedInput(path: path, kind: .file, entries: session.finishedEntries(), notes: session.notes)
    }

    /// Reads the file at `path` from `contents`, its bytes as the caller has already read them (to hash them), without
    /// opening it again: what ``read(path:)`` gives for a file, archive or not. A media file is probed from the bytes.
    public func read(path: String, contents: [UInt8]) throws(ArchiveError) -> UnpackedInput {
        var session = Session(input: path, limits: limits, spillFolder: spillFolder)
        let name = PathText.lastComponent(path)
        if ArchiveSniffer.isArchive(contents.prefix(ArchiveSniffer.prefixLength)) {
            return try readArchive(at: path, named: name, size: contents.count, session: &session) {
                () throws(LibarchiveFailure) in try LibarchiveHandle.open(bytes: contents)
            }
        }
        try session.countEntry(name)
        if EntryPath.isMedia(name) {
            var probe = QuickTimeProbe()
            contents.withUnsafeBytes { probe.feed($0) }
            let media = MediaInfo(size: probe.size, duration: probe.duration, brand: probe.brand)
            session.entries.append(ArchiveEntry(path: name, size: media.size, contents: .media(media)))
        } else {
            try keepFile(contents, entryPath: name, depth: 1, session: &session)
        }
        return UnpackedInput(path: path, kind: .file, entries: session.finishedEntries(), notes: session.notes)
    }

    /// Reads a directory input from what one pass over its files kept (``DirectoryInput/readFiles(keepingWithin:_:)``):
    /// what ``read(path:)`` gives for the directory, without listing it or opening its files again.
    public func read(directory: DirectoryInput) throws(ArchiveError) -> UnpackedInput {
        var session = Session(input: directory.path, limits: limits, spillFolder: spillFolder)
        try readDirectory(
            directory.entries, at: directory.path, kept: directory.kept, prefix: "", depth: 1, session: &session)
        return UnpackedInput(
            path: directory.path, kind: .directory, entries: session.finishedEntries(), notes: session.notes)
    }

    /// The input at `path`, an archive (of `size` bytes, file name `name`) that `open` opens, read whole.
    private func readArchive(
        at path: String, named name: String, size: Int, session: inout Session,
        opening open: () throws(LibarchiveFailure) -> LibarchiveHandle
    ) throws(ArchiveError) -> UnpackedInput {
        let handle: LibarchiveHandle
        do {
            handle = try open()
        } catch {
            throw ArchiveError(code: .corrupt, input: path, reason: "cannot open archive: \(error.message)")
        }
        try readArchive(
            handle, prefix: "", rawName: Self.decompressedName(name), depth: 1, compressedSize: size, session: &session)
        return UnpackedInput(path: path, kind: .archive, entries: session.finishedEntries(), notes: session.notes)
    }

    // MARK: - Sources

    private func readDirectory(at root: String, prefix: String, depth: Int, session: inout Session) throws(ArchiveError)
    {
        guard let entries = FileTree.entries(under: root) else {
            throw ArchiveError(code: .unreadable, input: session.input, reason: "cannot list the directory")
        }
        try readDirectory(entries, at: root, kept: [:], prefix: prefix, depth: depth, session: &session)
    }

    /// The files among `entries` of the directory at `root`: from `kept` where a pass over them kept them, otherwise
    /// read from the disk.
    private func readDirectory(
        _ entries: [FileTree.Entry], at root: String, kept: [String: DirectoryInput.Kept], prefix: String, depth: Int,
        session: inout Session
    ) throws(ArchiveError) {
        for entry in entries {
            switch entry.status.kind {
            case .directory:
                continue
            case .symbolicLink:
                session.notes.append("skipped '\(entry.relativePath)': symbolic links are not followed")
            case .other:
                session.notes.append("skipped '\(entry.relativePath)': not a regular file")
            case .regular:
                let path = prefix.isEmpty ? entry.relativePath : "\(prefix)/\(entry.relativePath)"
                switch kept[entry.relativePath] {
                case .media(let media):
                    try session.countEntry(path)
                    session.entries.append(ArchiveEntry(path: path, size: media.size, contents: .media(media)))
                case .bytes(let bytes):
                    try session.countEntry(path)
                    try keepFile(bytes, entryPath: path, depth: depth, session: &session)
                case nil:
                    try readPlainFile(
                        at: root + "/" + entry.relativePath, entryPath: path, size: entry.status.size, depth: depth,
                        session: &session)
                }
            }
        }
    }

    private func readPlainFile(
        at file: String, entryPath: String, size: Int, depth: Int, session: inout Session
    ) throws(ArchiveError) {
        try session.countEntry(entryPath)
        if EntryPath.isMedia(entryPath) {
            let media = try Self.probeMedia(at: file, entry: entryPath, input: session.input)
            session.entries.append(ArchiveEntry(path: entryPath, size: media.size, contents: .media(media)))
            return
        }
        guard size <= limits.maxEntryBytes else {
            throw session.limitError(entryPath, "expands to \(size) bytes, over the limit of \(limits.maxEntryBytes)")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileBlocks.contents(of: file, sizeHint: size)
        } catch {
            throw ArchiveError(code: .unreadable, input: session.input, entry: entryPath, reason: "cannot read file")
        }
        try keepFile(bytes, entryPath: entryPath, depth: depth, session: &session)
    }

    /// A plain file's bytes, within the limits, kept as an entry (or opened, if they hold an archive).
    private func keepFile(
        _ bytes: [UInt8], entryPath: String, depth: Int, session: inout Session
    ) throws(ArchiveError) {
        guard bytes.count <= limits.maxEntryBytes else {
            throw session.limitError(
                entryPath, "expands to \(bytes.count) bytes, over the limit of \(limits.maxEntryBytes)")
        }
        try session.addExpanded(bytes.count, entry: entryPath)
        try keep(bytes, path: entryPath, modified: nil, depth: depth, session: &session)
    }

    private func readArchive(
        _ handle: LibarchiveHandle, prefix: String, rawName: String, depth: Int, compressedSize: Int,
        session: inout Session
    ) throws(ArchiveError) {
        var expanded = 0
        var index = 0
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { block.deallocate() }
        while true {
            let header: LibarchiveHandle.Header?
            do {
                header = try handle.nextHeader()
            } catch {
                throw session.corrupt(prefix.isEmpty ? nil : prefix, "cannot read archive: \(error.message)")
            }
            guard let header else { break }
            index += 1
            let rawPath = handle.isRawFormat ? rawName : (header.pathname ?? "entry \(index)")
            let shown = prefix.isEmpty ? rawPath : "\(prefix)/\(rawPath)"
            guard let path = EntryPath.normalize(rawPath) else {
                throw ArchiveError(
                    code: .unsafePath, input: session.input, entry: shown,
                    reason: "path escapes the archive (absolute or '..'); the whole input is refused")
            }
            if header.isDirectory || path.isEmpty { continue }
            guard header.isRegularFile else {
                session.notes.append("skipped '\(shown)': not a regular file")
                continue
            }
            let fullPath = prefix.isEmpty ? path : "\(prefix)/\(path)"
            try session.countEntry(fullPath)
            func ratioCheck() throws(ArchiveError) {
                guard expanded > ArchiveLimits.ratioFloorBytes,
                    expanded / max(compressedSize, 1) > limits.maxCompressionRatio
                else { return }
                throw session.limitError(
                    fullPath,
                    "compression ratio over \(limits.maxCompressionRatio):1 (\(expanded) bytes from \(compressedSize)"
                        + " compressed); this looks like an archive bomb")
            }
            if EntryPath.isMedia(path) {
                var probe = QuickTimeProbe()
                while true {
                    let count: Int
                    do { count = try handle.read(into: block) } catch {
                        throw session.corrupt(fullPath, "cannot read entry: \(error.message)")
                    }
                    if count == 0 { break }
                    probe.feed(UnsafeRawBufferPointer(rebasing: block[0..<count]))
                    expanded += count
                    try ratioCheck()
                }
                let media = MediaInfo(size: probe.size, duration: probe.duration, brand: probe.brand)
                session.entries.append(
                    ArchiveEntry(path: fullPath, size: probe.size, modified: header.modified, contents: .media(media)))
                continue
            }
            if let declared = header.declaredSize, declared > limits.maxEntryBytes {
                throw session.limitError(
                    fullPath, "declares \(declared) bytes, over the per-entry limit of \(limits.maxEntryBytes)")
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(min(header.declaredSize ?? 0, limits.maxEntryBytes))
            while true {
                let count: Int
                do { count = try handle.read(into: block) } catch {
                    throw session.corrupt(fullPath, "cannot read entry: \(error.message)")
                }
                if count == 0 { break }
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: block[0..<count]))
                expanded += count
                guard bytes.count <= limits.maxEntryBytes else {
                    throw session.limitError(
                        fullPath, "expands past the per-entry limit of \(limits.maxEntryBytes) bytes")
                }
                try session.addExpanded(count, entry: fullPath)
                try ratioCheck()
            }
            try keep(bytes, path: fullPath, modified: header.modified, depth: depth, session: &session)
        }
    }

    /// Keeps an entry, or opens it as a nested archive when its content is one.
    private func keep(
        _ bytes: [UInt8], path: String, modified: Date?, depth: Int, session: inout Session
    ) throws(ArchiveError) {
        guard ArchiveSniffer.isArchive(bytes) else {
            let entry = ArchiveEntry(path: path, size: bytes.count, modified: modified, contents: .bytes(bytes))
            // A recording's files are read several times (sized, hashed, parsed): kept as read.
            if session.bytesKept > bytesKeptAsRead,
                !RecordingPath.isRecordingFile(path.split(separator: "/").map(String.init))
            {
                session.compress(entry, keptInMemory: compressedBytesKeptInMemory)
            } else {
                session.entries.append(entry)
            }
            session.bytesKept += bytes.count
            return
        }
        guard depth < limits.maxNestingDepth else {
            throw session.limitError(path, "archives nest deeper than the limit of \(limits.maxNestingDepth)")
        }
        let nested: LibarchiveHandle
        do {
            nested = try LibarchiveHandle.open(bytes: bytes)
        } catch {
            throw session.corrupt(path, "cannot open nested archive: \(error.message)")
        }
        let name = PathText.lastComponent(path)
        // The nested archive's own bytes are not kept; only what it expands to counts from here on.
        session.totalBytes -= bytes.count
        try readArchive(
            nested, prefix: path, rawName: Self.decompressedName(name), depth: depth + 1,
            compressedSize: bytes.count, session: &session)
    }

    // MARK: - Helpers

    /// The status of what a symbolic link points to.
    private static func followed(_ path: String) -> FileStatus? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return FileStatus.of(String(cString: resolved))
    }

    private static func prefix(of path: String, input: String) throws(ArchiveError) -> [UInt8] {
        do {
            return try FileBlocks.prefix(of: path, count: ArchiveSniffer.prefixLength)
        } catch {
            throw ArchiveError(code: .unreadable, input: input, reason: "cannot open the file for reading")
        }
    }

    private static func probeMedia(at file: String, entry: String, input: String) throws(ArchiveError) -> MediaInfo {
        var probe = QuickTimeProbe()
        do {
            try FileBlocks.forEach(in: file, blockSize: 256 * 1024) { probe.feed($0) }
        } catch {
            throw ArchiveError(code: .unreadable, input: input, entry: entry, reason: "cannot open media file")
        }
        return MediaInfo(size: probe.size, duration: probe.duration, brand: probe.brand)
    }

    /// The name a compressed single file had before compression: `crash.ips.gz` → `crash.ips`.
    static func decompressedName(_ name: String) -> String {
        for suffix in [".gz", ".bz2", ".xz", ".zst", ".lzma", ".Z"] where name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count))
        }
        return name
    }
}

/// What one `read` call has counted and kept so far.
private struct Session {
    let input: String
    let limits: ArchiveLimits
    var entryCount = 0
    var totalBytes = 0
    /// The bytes of the entries kept, as read.
    var bytesKept = 0
    /// The entries kept, those given to `compressor` without their bytes until ``finishedEntries()``.
    var entries: [ArchiveEntry] = []
    var notes: [String] = []
    /// Where compressed entries are spilled; `nil` keeps them in memory.
    let spillFolder: String?
    /// The thread compressing the entries kept compressed, from the first.
    private var compressor: EntryCompressor?

    init(input: String, limits: ArchiveLimits, spillFolder: String?) {
        self.input = input
        self.limits = limits
        self.spillFolder = spillFolder
    }

    /// Keeps `entry` compressed, and spilled past `keptInMemory` compressed bytes: gives it to the compressing thread
    /// (started at the first) and keeps its place without its bytes.
    mutating func compress(_ entry: ArchiveEntry, keptInMemory: Int) {
        if compressor == nil {
            compressor = EntryCompressor(keptInMemory: keptInMemory, spillFolder: spillFolder)
        }
        compressor?.add(entry, at: entries.count)
        var place = entry
        place.contents = .bytes([])
        entries.append(place)
    }

    /// The entries kept, each one given to the compressing thread in its place, compressed: waits for the last.
    mutating func finishedEntries() -> [ArchiveEntry] {
        if let compressor {
            for (position, entry) in compressor.finish() { entries[position] = entry }
            self.compressor = nil
        }
        return entries
    }

    mutating func countEntry(_ path: String) throws(ArchiveError) {
        entryCount += 1
        guard entryCount <= limits.maxEntries else {
            throw limitError(path, "more than \(limits.maxEntries) entries in one input")
        }
    }

    mutating func addExpanded(_ count: Int, entry: String) throws(ArchiveError) {
        totalBytes += count
        guard totalBytes <= limits.maxTotalBytes else {
            throw limitError(entry, "the input expands past the total limit of \(limits.maxTotalBytes) bytes")
        }
    }

    func limitError(_ entry: String, _ reason: String) -> ArchiveError {
        ArchiveError(code: .limitExceeded, input: input, entry: entry, reason: reason)
    }

    func corrupt(_ entry: String?, _ reason: String) -> ArchiveError {
        ArchiveError(code: .corrupt, input: input, entry: entry, reason: reason)
    }
}
