import Foundation

/// Reads what symbolication needs from a Mach-O file — thin or fat (universal), 64-bit: each slice's
/// architecture, `LC_UUID`, `__TEXT` segment address, and whether it carries DWARF — from its headers alone.
public enum MachOFile {
    /// Whether the bytes start like a Mach-O or fat file.
    public static func isMachO(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 4 else { return false }
        let big = readUInt32(prefix, 0, bigEndian: true)
        let little = readUInt32(prefix, 0, bigEndian: false)
        return big == fatMagic || big == fatMagic64 || little == magic64
    }

    /// The slices of the Mach-O file at `path`; a thin file has one.
    public static func slices(atPath path: String) throws(SymbolicationError) -> [MachOSlice] {
        let file = try DebugFileReader(path: path)
        let head = try file.read(at: 0, upTo: 4096)
        guard head.count >= 8 else { throw SymbolicationError(file: path, reason: "too short to be a Mach-O file") }
        let magic = readUInt32(head, 0, bigEndian: true)
        if magic == fatMagic || magic == fatMagic64 {
            let count = Int(readUInt32(head, 4, bigEndian: true))
            let entrySize = magic == fatMagic64 ? 32 : 20
            guard count > 0, count < 64, 8 + count * entrySize <= head.count else {
                throw SymbolicationError(file: path, reason: "fat header lists \(count) slices")
            }
            var slices: [MachOSlice] = []
            for index in 0..<count {
                let base = 8 + index * entrySize
                let offset =
                    magic == fatMagic64
                    ? readUInt64(head, base + 8, bigEndian: true) : UInt64(readUInt32(head, base + 8, bigEndian: true))
                let size =
                    magic == fatMagic64
                    ? readUInt64(head, base + 16, bigEndian: true)
                    : UInt64(readUInt32(head, base + 12, bigEndian: true))
                // The header's offset and size are only numbers: a slice is what of it lies in the file.
                guard offset < file.size else {
                    throw SymbolicationError(
                        file: path, reason: "slice \(index) of the fat header starts past the end of the file")
                }
                let header = try file.read(at: offset, upTo: 65_536)
                slices.append(try slice(header, offset: offset, size: min(size, file.size - offset), path: path))
            }
            return slices
        }
        let header = try file.read(at: 0, upTo: 65_536)
        return [try slice(header, offset: 0, size: file.size, path: path)]
    }

    /// Parses one thin 64-bit Mach-O header and its load commands.
    static func slice(_ bytes: [UInt8], offset: UInt64, size: UInt64, path: String) throws(SymbolicationError)
        -> MachOSlice
    {
        guard bytes.count >= 32, readUInt32(bytes, 0, bigEndian: false) == magic64 else {
            throw SymbolicationError(file: path, reason: "slice at offset \(offset) is not a 64-bit Mach-O")
        }
        let cpuType = readUInt32(bytes, 4, bigEndian: false)
        let cpuSubtype = readUInt32(bytes, 8, bigEndian: false)
        let fileType = readUInt32(bytes, 12, bigEndian: false)
        let commandCount = Int(readUInt32(bytes, 16, bigEndian: false))
        var slice = MachOSlice(
            arch: MachOArchitecture.name(cpuType: Int(cpuType), cpuSubtype: Int(cpuSubtype)) ?? "cpu\(cpuType)",
            fileOffset: offset, size: size, fileType: fileType)
        var cursor = 32
        for _ in 0..<commandCount {
            guard cursor + 8 <= bytes.count else {
                throw SymbolicationError(file: path, reason: "load commands run past the header (truncated?)")
            }
            let command = readUInt32(bytes, cursor, bigEndian: false)
            let commandSize = Int(readUInt32(bytes, cursor + 4, bigEndian: false))
            guard commandSize >= 8, cursor + commandSize <= bytes.count else {
                throw SymbolicationError(file: path, reason: "load command \(command) has a bad size \(commandSize)")
            }
            switch command {
            case loadCommandUUID where commandSize >= 24:
                slice.uuid = UUIDText.normalize(ContentHash.hex(bytes[(cursor + 8)..<(cursor + 24)]))
            case loadCommandSegment64 where commandSize >= 72:
                let name = segmentName(bytes, cursor + 8)
                if name == "__TEXT" {
                    slice.textVMAddress = readUInt64(bytes, cursor + 24, bigEndian: false)
                    slice.textVMSize = readUInt64(bytes, cursor + 32, bigEndian: false)
                } else if name == "__DWARF" {
                    slice.hasDWARF = true
                }
                // The section count is bounded by the command's own size: a corrupt count cannot run the loop long.
                let sections = min(Int(readUInt32(bytes, cursor + 64, bigEndian: false)), (commandSize - 72) / 80)
                for section in 0..<sections {
                    let base = cursor + 72 + section * 80
                    if segmentName(bytes, base) == "__debug_info" { slice.hasDWARF = true }
                    if segmentName(bytes, base) == "__text", segmentName(bytes, base + 16) == "__TEXT" {
                        let start = readUInt64(bytes, base + 32, bigEndian: false)
                        let length = readUInt64(bytes, base + 40, bigEndian: false)
                        if length <= UInt64.max - start { slice.textSection = start..<(start + length) }
                    }
                }
            case loadCommandFunctionStarts where commandSize >= 16:
                slice.functionStarts = MachOSlice.FunctionStartsLocation(
                    offset: readUInt32(bytes, cursor + 8, bigEndian: false),
                    size: readUInt32(bytes, cursor + 12, bigEndian: false))
            case loadCommandSymtab where commandSize >= 24:
                slice.symbolTable = MachOSlice.SymbolTableLocation(
                    symbolOffset: readUInt32(bytes, cursor + 8, bigEndian: false),
                    symbolCount: readUInt32(bytes, cursor + 12, bigEndian: false),
                    stringOffset: readUInt32(bytes, cursor + 16, bigEndian: false),
                    stringSize: readUInt32(bytes, cursor + 20, bigEndian: false))
            default:
                break
            }
            cursor += commandSize
        }
        return slice
    }

    private static func segmentName(_ bytes: [UInt8], _ offset: Int) -> String {
        let raw = bytes[offset..<min(offset + 16, bytes.count)].prefix { $0 != 0 }
        return String(decoding: raw, as: UTF8.self)
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        let value = bytes[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return bigEndian ? value.byteSwapped : value
    }

    static func readUInt64(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool) -> UInt64 {
        guard offset + 8 <= bytes.count else { return 0 }
        let value = bytes[offset..<offset + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return bigEndian ? value.byteSwapped : value
    }

    private static let magic64: UInt32 = 0xFEED_FACF
    private static let fatMagic: UInt32 = 0xCAFE_BABE
    private static let fatMagic64: UInt32 = 0xCAFE_BABF
    private static let loadCommandSegment64: UInt32 = 0x19
    private static let loadCommandUUID: UInt32 = 0x1B
    private static let loadCommandSymtab: UInt32 = 0x2
    private static let loadCommandFunctionStarts: UInt32 = 0x26
}

/// One architecture slice of a Mach-O file.
public struct MachOSlice: Sendable, Hashable, Codable {
    /// Where the symbol table and its strings are, relative to the slice.
    public struct SymbolTableLocation: Sendable, Hashable, Codable {
        /// Offset of the `nlist_64` entries.
        public var symbolOffset: UInt32
        /// Number of entries.
        public var symbolCount: UInt32
        /// Offset of the string table.
        public var stringOffset: UInt32
        /// Size of the string table.
        public var stringSize: UInt32
    }

    /// The architecture, e.g. `arm64`, `arm64e`, `x86_64`.
    public var arch: String
    /// The UUID, lowercase with dashes, from `LC_UUID`.
    public var uuid: String?
    /// The slice's offset in the file (0 for a thin file).
    public var fileOffset: UInt64
    /// The slice's size in bytes.
    public var size: UInt64
    /// `MH_EXECUTE` (2), `MH_DYLIB` (6), `MH_DSYM` (10), …
    public var fileType: UInt32
    /// The `__TEXT` segment's address: addresses in the debug file are this plus the image offset.
    public var textVMAddress: UInt64?
    /// The `__TEXT` segment's size.
    public var textVMSize: UInt64?
    /// The `__TEXT,__text` section's address range.
    public var textSection: Range<UInt64>?
    /// Whether the slice carries DWARF (a `__DWARF` segment or a `__debug_info` section).
    public var hasDWARF = false
    /// The symbol table, when the slice has one.
    public var symbolTable: SymbolTableLocation?
    /// Where `LC_FUNCTION_STARTS` keeps every function's start (even in a stripped binary): offset and size.
    public var functionStarts: FunctionStartsLocation?

    /// The `LC_FUNCTION_STARTS` data, relative to the slice.
    public struct FunctionStartsLocation: Sendable, Hashable, Codable {
        /// Offset of the ULEB128 deltas.
        public var offset: UInt32
        /// Their size in bytes.
        public var size: UInt32
    }

    /// Creates a slice description.
    public init(arch: String, uuid: String? = nil, fileOffset: UInt64, size: UInt64, fileType: UInt32) {
        self.arch = arch
        self.uuid = uuid
        self.fileOffset = fileOffset
        self.size = size
        self.fileType = fileType
    }
}

/// Mach-O CPU types and subtypes to architecture names.
public enum MachOArchitecture {
    /// `arm64`, `arm64e`, `armv7`, `x86_64`, … for a CPU type and subtype.
    public static func name(cpuType: Int?, cpuSubtype: Int?) -> String? {
        switch (cpuType, cpuSubtype.map { $0 & 0x00FF_FFFF }) {
        case (16_777_228, 2): "arm64e"
        case (16_777_228, _): "arm64"
        case (33_554_444, _): "arm64_32"
        case (12, 9): "armv7"
        case (12, 11): "armv7s"
        case (12, 12): "armv7k"
        case (12, _): "arm"
        case (16_777_223, _): "x86_64"
        case (7, _): "i386"
        default: nil
        }
    }
}

/// A debug file that could not be read: the file and why.
public struct SymbolicationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// What was wrong.
    public var reason: String

    /// Creates an error.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    /// `file: reason`.
    public var description: String {
        "\(file): \(reason)"
    }
}
