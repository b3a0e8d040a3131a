extension DebugFileIndex.Entry {
    /// The entries of one debug file read back from the JSON the index stores for it (their `Encodable` form), without
    /// `JSONDecoder`: a run reads one such text for every file of the symbol folders, and with 5,000 dSYMs
    /// `JSONDecoder` took about 90 ms while the run's first crashes waited for the symbolicator. `nil` for any text
    /// not in exactly that form — an unknown key, a value of another type, a number out of range — which the caller
    /// decodes with `JSONDecoder`.
    package static func entries(fromJSON json: String) -> [DebugFileIndex.Entry]? {
        JSONScanner.exactArray(json, entry)
    }

    private static func entry(_ scanner: inout JSONScanner) throws -> DebugFileIndex.Entry {
        var kind: Kind?
        var path: String?
        var slice: MachOSlice?
        var imageName: String?
        try scanner.members { scanner, key in
            if scanner.key(key, is: "kind") {
                kind = try scanner.requiredCase(Kind.self)
            } else if scanner.key(key, is: "path") {
                path = try scanner.requiredString()
            } else if scanner.key(key, is: "imageName") {
                imageName = try scanner.requiredString()
            } else if scanner.key(key, is: "slice") {
                slice = try Self.slice(&scanner)
            } else {
                throw JSONScanner.Failure(offset: key.lowerBound)
            }
        }
        guard let kind, let path, let slice, let imageName else { throw JSONScanner.Failure(offset: scanner.index) }
        return DebugFileIndex.Entry(kind: kind, path: path, slice: slice, imageName: imageName)
    }

    private static func slice(_ scanner: inout JSONScanner) throws -> MachOSlice {
        var arch: String?
        var uuid: String?
        var fileOffset: UInt64?
        var size: UInt64?
        var fileType: UInt32?
        var textVMAddress: UInt64?
        var textVMSize: UInt64?
        var textSection: Range<UInt64>?
        var hasDWARF: Bool?
        var symbolTable: MachOSlice.SymbolTableLocation?
        var functionStarts: MachOSlice.FunctionStartsLocation?
        try scanner.members { scanner, key in
            if scanner.key(key, is: "arch") {
                arch = try scanner.requiredString()
            } else if scanner.key(key, is: "uuid") {
                uuid = try scanner.exactString()
            } else if scanner.key(key, is: "fileOffset") {
                fileOffset = try scanner.requiredInteger(UInt64.self)
            } else if scanner.key(key, is: "size") {
                size = try scanner.requiredInteger(UInt64.self)
            } else if scanner.key(key, is: "fileType") {
                fileType = try scanner.requiredInteger(UInt32.self)
            } else if scanner.key(key, is: "textVMAddress") {
                textVMAddress = try scanner.exactInteger(UInt64.self)
            } else if scanner.key(key, is: "textVMSize") {
                textVMSize = try scanner.exactInteger(UInt64.self)
            } else if scanner.key(key, is: "textSection") {
                textSection = try range(&scanner)
            } else if scanner.key(key, is: "hasDWARF") {
                hasDWARF = try scanner.exactBool()
            } else if scanner.key(key, is: "symbolTable") {
                symbolTable = try self.symbolTable(&scanner)
            } else if scanner.key(key, is: "functionStarts") {
                functionStarts = try self.functionStarts(&scanner)
            } else {
                throw JSONScanner.Failure(offset: key.lowerBound)
            }
        }
        guard let arch, let fileOffset, let size, let fileType, let hasDWARF else {
            throw JSONScanner.Failure(offset: scanner.index)
        }
        var slice = MachOSlice(arch: arch, uuid: uuid, fileOffset: fileOffset, size: size, fileType: fileType)
        slice.textVMAddress = textVMAddress
        slice.textVMSize = textVMSize
        slice.textSection = textSection
        slice.hasDWARF = hasDWARF
        slice.symbolTable = symbolTable
        slice.functionStarts = functionStarts
        return slice
    }

    /// A range as `Codable` writes one, `[lowerBound, upperBound]`; `nil` for `null`.
    private static func range(_ scanner: inout JSONScanner) throws -> Range<UInt64>? {
        if scanner.literal("null") { return nil }
        var bounds: [UInt64] = []
        try scanner.elements { scanner in bounds.append(try scanner.requiredInteger(UInt64.self)) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { throw JSONScanner.Failure(offset: scanner.index) }
        return bounds[0]..<bounds[1]
    }

    private static func symbolTable(_ scanner: inout JSONScanner) throws -> MachOSlice.SymbolTableLocation? {
        if scanner.literal("null") { return nil }
        var fields: [UInt32?] = [nil, nil, nil, nil]
        try scanner.members { scanner, key in
            let position =
                if scanner.key(key, is: "symbolOffset") {
                    0
                } else if scanner.key(key, is: "symbolCount") {
                    1
                } else if scanner.key(key, is: "stringOffset") {
                    2
                } else if scanner.key(key, is: "stringSize") {
                    3
                } else {
                    throw JSONScanner.Failure(offset: key.lowerBound)
                }
            fields[position] = try scanner.requiredInteger(UInt32.self)
        }
        guard let symbolOffset = fields[0], let symbolCount = fields[1], let stringOffset = fields[2],
            let stringSize = fields[3]
        else { throw JSONScanner.Failure(offset: scanner.index) }
        return MachOSlice.SymbolTableLocation(
            symbolOffset: symbolOffset, symbolCount: symbolCount, stringOffset: stringOffset, stringSize: stringSize)
    }

    private static func functionStarts(_ scanner: inout JSONScanner) throws -> MachOSlice.FunctionStartsLocation? {
        if scanner.literal("null") { return nil }
        var offset: UInt32?
        var size: UInt32?
        try scanner.members { scanner, key in
            if scanner.key(key, is: "offset") {
                offset = try scanner.requiredInteger(UInt32.self)
            } else if scanner.key(key, is: "size") {
                size = try scanner.requiredInteger(UInt32.self)
            } else {
                throw JSONScanner.Failure(offset: key.lowerBound)
            }
        }
        guard let offset, let size else { throw JSONScanner.Failure(offset: scanner.index) }
        return MachOSlice.FunctionStartsLocation(offset: offset, size: size)
    }
}
