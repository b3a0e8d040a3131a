import Foundation

/// Function names from a Mach-O symbol table (`LC_SYMTAB`) and function starts (`LC_FUNCTION_STARTS`): the back end
/// for binaries without DWARF.
///
/// Only defined symbols in sections count; debug (stab) entries are skipped. An address belongs to the
/// closest symbol at or below it inside `__TEXT,__text` — unless the function starts show a function beginning
/// between that symbol and the address, as in a stripped binary, where the nearest surviving symbol
/// (`_mh_execute_header`, `main`) names the wrong function. Then only the function's start is known.
public struct MachOSymbolTable: Sendable {
    /// One function start.
    public struct Symbol: Sendable, Hashable {
        /// The address in the file's address space.
        public var address: UInt64
        /// The name without the leading underscore C adds.
        public var name: String
    }

    /// The named function starts, sorted by address.
    public let symbols: [Symbol]
    /// Every function's start from `LC_FUNCTION_STARTS`, sorted; empty when the slice has none.
    public let functionStarts: [UInt64]
    private let text: Range<UInt64>?

    /// Reads the symbol table of one slice.
    public init(path: String, slice: MachOSlice) throws(SymbolicationError) {
        guard slice.symbolTable != nil || slice.functionStarts != nil else {
            throw SymbolicationError(file: path, reason: "the \(slice.arch) slice has no symbol table")
        }
        let file = try DebugFileReader(path: path)
        func read(_ offset: UInt32, _ count: Int, _ what: String) throws(SymbolicationError) -> [UInt8] {
            try file.read(at: slice.fileOffset, plus: UInt64(offset), exactly: count, what: what)
        }
        // A corrupt table cannot ask for more than the slice holds.
        let limit = slice.size > 0 ? slice.size : UInt64(Int32.max)
        var symbols: [Symbol] = []
        if let table = slice.symbolTable {
            guard UInt64(table.symbolOffset) + UInt64(table.symbolCount) * 16 <= limit,
                UInt64(table.stringOffset) + UInt64(table.stringSize) <= limit
            else {
                throw SymbolicationError(
                    file: path, reason: "the symbol table runs past the end of the \(slice.arch) slice")
            }
            let entries = try read(table.symbolOffset, Int(table.symbolCount) * 16, "the symbol table")
            let strings = try read(table.stringOffset, Int(table.stringSize), "the string table")
            for index in 0..<Int(table.symbolCount) {
                let base = index * 16
                let type = entries[base + 4]
                // N_STAB entries are debug notes; only N_SECT (defined in a section) symbols are functions.
                guard type & 0xE0 == 0, type & 0x0E == 0x0E else { continue }
                let nameOffset = Int(MachOFile.readUInt32(entries, base, bigEndian: false))
                guard nameOffset < strings.count else { continue }
                let raw = strings[nameOffset...].prefix { $0 != 0 }
                var name = String(decoding: raw, as: UTF8.self)
                if name.hasPrefix("_") { name.removeFirst() }
                let address = MachOFile.readUInt64(entries, base + 8, bigEndian: false)
                if let text = slice.textSection, !text.contains(address) { continue }
                symbols.append(Symbol(address: address, name: name))
            }
        }
        var starts: [UInt64] = []
        if let location = slice.functionStarts, let base = slice.textVMAddress {
            guard UInt64(location.offset) + UInt64(location.size) <= limit else {
                throw SymbolicationError(
                    file: path, reason: "the function starts run past the end of the \(slice.arch) slice")
            }
            starts = Self.decodeFunctionStarts(
                try read(location.offset, Int(location.size), "the function starts"), base: base)
        }
        self.symbols = symbols.sorted { $0.address < $1.address }
        self.functionStarts = starts
        self.text = slice.textSection
    }

    /// `LC_FUNCTION_STARTS`: ULEB128 deltas, the first from the `__TEXT` segment's address, ending at a zero.
    static func decodeFunctionStarts(_ bytes: [UInt8], base: UInt64) -> [UInt64] {
        var starts: [UInt64] = []
        var address = base
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            guard shift < 64 else { return starts }  // a corrupt run of continuation bytes
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 != 0 {
                shift += 7
                continue
            }
            if value == 0 { break }
            address &+= value
            starts.append(address)
            value = 0
            shift = 0
        }
        return starts
    }

    /// The start of the function containing `address`, from the function starts.
    public func functionStart(containing address: UInt64) -> UInt64? {
        var low = 0
        var high = functionStarts.count
        while low < high {
            let middle = (low + high) / 2
            if functionStarts[middle] <= address { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? functionStarts[low - 1] : nil
    }

    /// The function containing `address` — its name when the symbol table has it, its start in any case — and the
    /// offset into it.
    public func lookup(_ address: UInt64) -> (name: String?, start: UInt64, offset: UInt64)? {
        if let text, !text.contains(address) { return nil }
        var low = 0
        var high = symbols.count
        while low < high {
            let middle = (low + high) / 2
            if symbols[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        let symbol = low > 0 ? symbols[low - 1] : nil
        let start = functionStart(containing: address)
        switch (symbol, start) {
        case (let symbol?, let start?) where start > symbol.address:
            // A function begins after the nearest named symbol: that name belongs to another function.
            return (nil, start, address - start)
        case (let symbol?, _):
            return (symbol.name, symbol.address, address - symbol.address)
        case (nil, let start?):
            return (nil, start, address - start)
        case (nil, nil):
            return nil
        }
    }
}
