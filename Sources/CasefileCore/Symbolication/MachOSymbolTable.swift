import Foundation

/// Function names from a Mach-O symbol table (`LC_SYMTAB`): the back end for binaries without DWARF.
///
/// Only defined symbols in sections count; debug (stab) entries are skipped. An address belongs to the
/// closest symbol at or below it inside `__TEXT,__text`.
public struct MachOSymbolTable: Sendable {
    /// One function start.
    public struct Symbol: Sendable, Hashable {
        /// The address in the file's address space.
        public var address: UInt64
        /// The name without the leading underscore C adds.
        public var name: String
    }

    /// The function starts, sorted by address.
    public let symbols: [Symbol]
    private let text: Range<UInt64>?

    /// Reads the symbol table of one slice.
    public init(path: String, slice: MachOSlice) throws(SymbolicationError) {
        guard let table = slice.symbolTable else {
            throw SymbolicationError(file: path, reason: "the \(slice.arch) slice has no symbol table")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SymbolicationError(file: path, reason: "cannot open for reading")
        }
        defer { try? handle.close() }
        func read(_ offset: UInt32, _ count: Int) throws(SymbolicationError) -> [UInt8] {
            do {
                try handle.seek(toOffset: slice.fileOffset + UInt64(offset))
                let data = try handle.read(upToCount: count) ?? Data()
                guard data.count == count else { throw CocoaError(.fileReadCorruptFile) }
                return [UInt8](data)
            } catch {
                throw SymbolicationError(file: path, reason: "symbol table runs past the end of the file")
            }
        }
        // A corrupt table cannot ask for more than the slice holds.
        let limit = slice.size > 0 ? slice.size : UInt64(Int32.max)
        guard UInt64(table.symbolOffset) + UInt64(table.symbolCount) * 16 <= limit,
            UInt64(table.stringOffset) + UInt64(table.stringSize) <= limit
        else {
            throw SymbolicationError(
                file: path, reason: "the symbol table runs past the end of the \(slice.arch) slice")
        }
        let entries = try read(table.symbolOffset, Int(table.symbolCount) * 16)
        let strings = try read(table.stringOffset, Int(table.stringSize))
        var symbols: [Symbol] = []
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
        self.symbols = symbols.sorted { $0.address < $1.address }
        self.text = slice.textSection
    }

    /// The function containing `address`, and the offset into it.
    public func lookup(_ address: UInt64) -> (symbol: Symbol, offset: UInt64)? {
        if let text, !text.contains(address) { return nil }
        var low = 0
        var high = symbols.count
        while low < high {
            let middle = (low + high) / 2
            if symbols[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let symbol = symbols[low - 1]
        return (symbol, address - symbol.address)
    }
}
