import CasefileArchive
import Crypto
public import Foundation

/// Every debug file under some folders, by UUID and architecture: `.dSYM` bundles, bare Mach-O binaries and fat
/// files with several slices.
///
/// Built by reading headers only, so a folder of many dSYMs is indexed without reading their DWARF.
public struct DebugFileIndex: Sendable {
    /// One slice of one file that can symbolicate an image.
    public struct Entry: Sendable, Hashable, Codable {
        /// What kind of debug file it is.
        public enum Kind: String, Sendable, Hashable, Codable {
            /// A Mach-O file: a dSYM's DWARF, or a binary's symbol table.
            case machO
            /// A Breakpad `.sym` file; its addresses are image-relative (its slice's text address is 0).
            case breakpad
        }

        /// What kind of debug file it is.
        public var kind: Kind
        /// The file (for a dSYM, the DWARF file inside the bundle).
        public var path: String
        /// The slice.
        public var slice: MachOSlice
        /// The image name the file is for (the file name, for a dSYM the bundle's stem).
        public var imageName: String
    }

    /// What a scan learned of one file, kept between runs so an unchanged file is not read again.
    public struct KnownFile: Sendable, Hashable, Codable {
        /// The file's size in bytes.
        public var size: Int
        /// The file's modification time, in seconds since 1970.
        public var modified: Double
        /// The debug-file entries it holds; empty for a file that is not a debug file.
        public var entries: [Entry]

        /// Creates a record.
        public init(size: Int, modified: Double, entries: [Entry]) {
            self.size = size
            self.modified = modified
            self.entries = entries
        }
    }

    /// The entries by lowercase dashed UUID.
    public private(set) var entriesByUUID: [String: [Entry]] = [:]
    /// The same entries by image name: every image of a crash that has no debug file asks for them, and a symbol
    /// folder kept for a year holds thousands.
    private var entriesByName: [String: [Entry]] = [:]
    /// Every file seen by the scan, by path, with what it held: to be kept for the next scan.
    public private(set) var files: [String: KnownFile] = [:]
    /// How many files the scan had to open (the others were known and unchanged).
    public private(set) var filesRead = 0
    /// Files that looked like Mach-O but could not be read, one line each.
    public private(set) var problems: [String] = []

    /// Creates an empty index.
    public init() {
        staging = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-symbols")
    }

    /// Where debug files found inside archives (zipped dSYMs) are written, so `llvm-symbolizer` can read them.
    public let staging: URL

    /// Indexes every Mach-O and Breakpad file under `folders`, and those inside archives (a zipped `.dSYM`);
    /// files in `known` whose size and modification time are unchanged are taken from it without being opened.
    public init(
        scanning folders: [URL], known: [String: KnownFile] = [:],
        staging: URL = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-symbols")
    ) {
        self.staging = staging
        for folder in folders {
            scan(folder, known: known)
        }
    }

    /// The entry for an image's UUID and architecture; any architecture when `arch` is `nil` or not found.
    public func entry(uuid: String, arch: String? = nil, canReadDWARF: Bool = true) -> Entry? {
        guard let entries = entriesByUUID[uuid] else { return nil }
        // DWARF (function, file, line, inlines) when it can be read, then Breakpad (the same, parsed natively),
        // then a symbol table (function names only).
        func rank(_ entry: Entry) -> Int {
            if entry.kind == .breakpad { return 1 }
            return entry.slice.hasDWARF && canReadDWARF ? 0 : 2
        }
        // The first best-ranked entry of the architecture, else of any: one pass, not a sort, as every crash asks.
        var best: (entry: Entry, rank: Int)?
        var bestOfArch: (entry: Entry, rank: Int)?
        for entry in entries {
            let rank = rank(entry)
            if rank < best?.rank ?? Int.max { best = (entry, rank) }
            if entry.slice.arch == arch, rank < bestOfArch?.rank ?? Int.max { bestOfArch = (entry, rank) }
        }
        return bestOfArch?.entry ?? best?.entry
    }

    /// Entries whose image name matches, whatever their UUID: to tell a mismatched UUID from a missing file.
    public func entries(named name: String) -> [Entry] {
        entriesByName[name] ?? []
    }

    /// The number of indexed slices.
    public var count: Int {
        entriesByUUID.values.reduce(0) { $0 + $1.count }
    }

    private mutating func scan(_ folder: URL, known: [String: KnownFile]) {
        // One `readdir` per directory and one `fstatat` per path, not Foundation's enumerator and resource values: a
        // symbol folder kept for a year holds thousands of dSYMs, and every run walks it (5,000 dSYMs took 1.3 s,
        // two thirds of it in `URL.resourceValues`). A directory that cannot be listed is passed over, as before.
        // On every core: the first crashes of a run wait for this walk.
        let root = folder.path
        let workers = ProcessInfo.processInfo.activeProcessorCount
        guard let entries = FileTree.entries(under: root, skippingUnreadable: true, workers: workers) else {
            problems.append("\(root): cannot list the folder")
            return
        }
        for entry in entries where entry.status.kind == .regular {
            let path = root + "/" + entry.relativePath
            let size = entry.status.size
            // Seconds since 1970 computed as Foundation computes `contentModificationDate` (through the reference
            // date), so the times stored by earlier runs compare equal to the last bit and no file is read again.
            let nanoseconds = entry.status.modified
            let sinceReference =
                Double(nanoseconds / 1_000_000_000) - Date.timeIntervalBetween1970AndReferenceDate
                + Double(nanoseconds % 1_000_000_000) / 1_000_000_000
            let modified = Date(timeIntervalSinceReferenceDate: sinceReference).timeIntervalSince1970
            // A file read from an archive was staged elsewhere: its staged copies must still be there.
            if let record = known[path], record.size == size, record.modified == modified,
                record.entries.allSatisfy({ $0.path == path || FileStatus.of($0.path) != nil })
            {
                add(record, path: path)
                continue
            }
            filesRead += 1
            add(KnownFile(size: size, modified: modified, entries: readFile(URL(fileURLWithPath: path))), path: path)
        }
    }

    private mutating func add(_ record: KnownFile, path: String) {
        files[path] = record
        for entry in record.entries {
            guard let uuid = entry.slice.uuid else { continue }
            entriesByUUID[uuid, default: []].append(entry)
            entriesByName[entry.imageName, default: []].append(entry)
        }
    }

    /// The entries of one file: a Breakpad file's module, a Mach-O file's slices; none for anything else.
    private mutating func readFile(_ url: URL) -> [Entry] {
        do throws(SymbolicationError) {
            guard let handle = FileHandle(forReadingAtPath: url.path) else { return [] }
            let prefix = [UInt8]((try? handle.read(upToCount: 1024)) ?? Data())
            try? handle.close()
            if prefix.starts(with: Array("MODULE ".utf8)) {
                return breakpadEntry(prefix, url: url).map { [$0] } ?? []
            }
            if ArchiveSniffer.isArchive(prefix) {
                return archiveEntries(url)
            }
            guard MachOFile.isMachO(prefix) else { return [] }
            return try MachOFile.slices(atPath: url.path).filter { $0.uuid != nil }.map { slice in
                Entry(kind: .machO, path: url.path, slice: slice, imageName: url.lastPathComponent)
            }
        } catch {
            problems.append(error.description)
            return []
        }
    }

    /// The debug files inside an archive, written to ``staging`` under the SHA-256 of their bytes (the same
    /// file is written once, whatever archive holds it) and indexed from there.
    private mutating func archiveEntries(_ url: URL) -> [Entry] {
        let unpacked: UnpackedInput
        do {
            unpacked = try ArchiveReader().read(path: url.path)
        } catch {
            problems.append(error.description)
            return []
        }
        var entries: [Entry] = []
        for entry in unpacked.entries {
            guard let bytes = entry.bytes,
                MachOFile.isMachO(Array(bytes.prefix(8))) || bytes.starts(with: Array("MODULE ".utf8))
            else { continue }
            let folder = staging.appendingPathComponent(ContentHash.hex(SHA256.hash(data: bytes)))
            let file = folder.appendingPathComponent(entry.name)
            do {
                if !FileManager.default.fileExists(atPath: file.path) {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try Data(bytes).write(to: file, options: .atomic)
                }
            } catch {
                problems.append("\(url.path): entry '\(entry.path)': cannot stage it in \(staging.path): \(error)")
                continue
            }
            entries += readFile(file)
        }
        return entries
    }

    private mutating func breakpadEntry(_ prefix: [UInt8], url: URL) -> Entry? {
        let firstLine = String(decoding: prefix.prefix { $0 != 0x0A }, as: UTF8.self)
        guard let module = BreakpadSymbols.module(Substring(firstLine)),
            let uuid = UUIDText.normalize(String(module.id.prefix(32)))
        else {
            problems.append("\(url.path): a MODULE record without a UUID")
            return nil
        }
        var slice = MachOSlice(arch: module.arch, uuid: uuid, fileOffset: 0, size: 0, fileType: 0)
        slice.textVMAddress = 0
        return Entry(kind: .breakpad, path: url.path, slice: slice, imageName: module.name)
    }
}
