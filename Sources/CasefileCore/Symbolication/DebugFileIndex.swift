public import Foundation

/// Every debug file under some folders, by UUID and architecture: `.dSYM` bundles, bare Mach-O binaries and fat
/// files with several slices.
///
/// Built by reading headers only, so a folder of many dSYMs is indexed without reading their DWARF.
public struct DebugFileIndex: Sendable {
    /// One slice of one file that can symbolicate an image.
    public struct Entry: Sendable, Hashable, Codable {
        /// The file (for a dSYM, the DWARF file inside the bundle).
        public var path: String
        /// The slice.
        public var slice: MachOSlice
        /// The image name the file is for (the file name, for a dSYM the bundle's stem).
        public var imageName: String
    }

    /// The entries by lowercase dashed UUID.
    public private(set) var entriesByUUID: [String: [Entry]] = [:]
    /// Files that looked like Mach-O but could not be read, one line each.
    public private(set) var problems: [String] = []

    /// Creates an empty index.
    public init() {}

    /// Indexes every Mach-O file under `folders`.
    public init(scanning folders: [URL]) {
        for folder in folders {
            scan(folder)
        }
    }

    /// The entry for an image's UUID and architecture; any architecture when `arch` is `nil` or not found.
    public func entry(uuid: String, arch: String? = nil) -> Entry? {
        guard let entries = entriesByUUID[uuid] else { return nil }
        // Prefer a slice with DWARF (the dSYM) over the binary's symbol table.
        let sorted = entries.sorted { $0.slice.hasDWARF && !$1.slice.hasDWARF }
        return sorted.first { $0.slice.arch == arch } ?? sorted.first
    }

    /// Entries whose image name matches, whatever their UUID: to tell a mismatched UUID from a missing file.
    public func entries(named name: String) -> [Entry] {
        entriesByUUID.values.flatMap { $0 }.filter { $0.imageName == name }
    }

    /// The number of indexed slices.
    public var count: Int {
        entriesByUUID.values.reduce(0) { $0 + $1.count }
    }

    private mutating func scan(_ folder: URL) {
        let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else {
            problems.append("\(folder.path): cannot list the folder")
            return
        }
        while let url = walker.nextObject() as? URL {
            let values = try? url.resourceValues(forKeys: Set(keys))
            guard values?.isRegularFile == true, values?.isSymbolicLink != true else { continue }
            guard let handle = FileHandle(forReadingAtPath: url.path) else { continue }
            let prefix = [UInt8]((try? handle.read(upToCount: 8)) ?? Data())
            try? handle.close()
            guard MachOFile.isMachO(prefix) else { continue }
            do {
                for slice in try MachOFile.slices(atPath: url.path) {
                    guard let uuid = slice.uuid else { continue }
                    let entry = Entry(path: url.path, slice: slice, imageName: Self.imageName(url))
                    entriesByUUID[uuid, default: []].append(entry)
                }
            } catch {
                problems.append(error.description)
            }
        }
    }

    /// `ShopApp` for `ShopApp.app.dSYM/Contents/Resources/DWARF/ShopApp`, `ShopApp` for a bare `ShopApp`.
    static func imageName(_ url: URL) -> String {
        url.lastPathComponent
    }
}
