/// A Breakpad `.sym` file, parsed: functions with their line records and inlined calls, and public symbols.
/// Addresses are relative to the module's load address (crash-formats.md §7).
public struct BreakpadSymbols: Sendable {
    struct Function {
        var address: UInt64
        var size: UInt64
        var name: String
        var lines: [(address: UInt64, size: UInt64, line: Int, file: Int)]
        var inlines: [(depth: Int, callLine: Int, callFile: Int, origin: Int, ranges: [(UInt64, UInt64)])]
    }

    /// The operating system token of the `MODULE` record (`mac`, `Mac`, `ios`).
    public let os: String
    /// The architecture, e.g. `arm64`.
    public let arch: String
    /// The module id: UUID as 32 hex digits plus an age digit.
    public let id: String
    /// The module name.
    public let name: String
    private var functions: [Function] = []
    private var publics: [(address: UInt64, name: String)] = []
    private var files: [Int: String] = [:]
    private var origins: [Int: String] = [:]

    /// The module's UUID, lowercase with dashes.
    public var uuid: String? {
        UUIDText.normalize(String(id.prefix(32)))
    }

    /// Reads only the `MODULE` line: what the index needs.
    public static func module(_ firstLine: Substring) -> (os: String, arch: String, id: String, name: String)? {
        let parts = firstLine.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
        guard parts.count == 5, parts[0] == "MODULE" else { return nil }
        return (String(parts[1]), String(parts[2]), String(parts[3]), String(parts[4]).trimmingSpaces)
    }

    /// Parses a whole file; records it does not know are skipped.
    public init(text: String, file: String) throws(SymbolicationError) {
        var lines = text.lineSlices(omittingEmpty: true).makeIterator()
        guard let first = lines.next(), let module = Self.module(first) else {
            throw SymbolicationError(file: file, reason: "not a Breakpad symbol file (no MODULE record)")
        }
        (os, arch, id, name) = module
        while let line = lines.next() {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let kind = parts.first else { continue }
            switch kind {
            case "FILE" where parts.count >= 3:
                if let number = Int(parts[1]) { files[number] = parts[2...].joined(separator: " ") }
            case "INLINE_ORIGIN" where parts.count >= 3:
                if let number = Int(parts[1]) { origins[number] = parts[2...].joined(separator: " ") }
            // A record of its kind word alone (a cut-off file) is passed over: `parts[1]` would trap.
            case "FUNC" where parts.count >= 2:
                let fields = parts[1] == "m" ? Array(parts.dropFirst(2)) : Array(parts.dropFirst())
                guard fields.count >= 4, let address = UInt64(fields[0], radix: 16),
                    let size = UInt64(fields[1], radix: 16)
                else { continue }
                functions.append(
                    Function(
                        address: address, size: size, name: fields[3...].joined(separator: " "), lines: [], inlines: [])
                )
            case "PUBLIC" where parts.count >= 2:
                let fields = parts[1] == "m" ? Array(parts.dropFirst(2)) : Array(parts.dropFirst())
                guard fields.count >= 3, let address = UInt64(fields[0], radix: 16) else { continue }
                publics.append((address, fields[2...].joined(separator: " ")))
            case "INLINE" where parts.count >= 7 && !functions.isEmpty:
                guard let depth = Int(parts[1]), let callLine = Int(parts[2]), let callFile = Int(parts[3]),
                    let origin = Int(parts[4])
                else { continue }
                var ranges: [(UInt64, UInt64)] = []
                var index = 5
                while index + 1 < parts.count {
                    if let start = UInt64(parts[index], radix: 16), let size = UInt64(parts[index + 1], radix: 16) {
                        ranges.append((start, size))
                    }
                    index += 2
                }
                functions[functions.count - 1].inlines.append((depth, callLine, callFile, origin, ranges))
            case "STACK", "INFO", "MODULE":
                continue
            default:
                // A line record, inside the preceding FUNC: `address size line filenum`.
                guard parts.count == 4, !functions.isEmpty, let address = UInt64(parts[0], radix: 16),
                    let size = UInt64(parts[1], radix: 16), let number = Int(parts[2]), let fileNumber = Int(parts[3])
                else { continue }
                functions[functions.count - 1].lines.append((address, size, number, fileNumber))
            }
        }
        functions.sort { $0.address < $1.address }
        publics.sort { $0.address < $1.address }
    }

    /// The locations at a module-relative address, innermost first; empty when nothing covers it.
    public func lookup(_ address: UInt64) -> [SourceLocation] {
        // A range is tested as the distance from its start, never as its start plus its size: a record near the
        // top of the address space (a damaged file) would overflow the sum and trap.
        func covers(_ start: UInt64, _ size: UInt64) -> Bool { address >= start && address - start < size }
        if let function = last(functions, atOrBelow: address, key: \.address), covers(function.address, function.size) {
            let line = function.lines.first { covers($0.address, $0.size) }
            let inlines = function.inlines
                .filter { record in record.ranges.contains { covers($0.0, $0.1) } }
                .sorted { $0.depth > $1.depth }
            guard let innermost = inlines.first else {
                return [
                    SourceLocation(
                        rawName: function.name, file: line.flatMap { files[$0.file] }, line: line?.line,
                        offset: address - function.address)
                ]
            }
            var locations = [
                SourceLocation(
                    rawName: origins[innermost.origin] ?? "?", file: line.flatMap { files[$0.file] }, line: line?.line)
            ]
            for (position, record) in inlines.enumerated() {
                // The caller of the inlined call at this depth: the next shallower inline, or the function itself.
                let isFunction = position + 1 == inlines.count
                let caller = isFunction ? function.name : origins[inlines[position + 1].origin] ?? "?"
                locations.append(
                    SourceLocation(
                        rawName: caller, file: files[record.callFile], line: record.callLine,
                        offset: isFunction ? address - function.address : nil))
            }
            return locations
        }
        if let symbol = last(publics, atOrBelow: address, key: \.address) {
            return [SourceLocation(rawName: symbol.name, offset: address - symbol.address)]
        }
        return []
    }

    private func last<T>(_ items: [T], atOrBelow address: UInt64, key: (T) -> UInt64) -> T? {
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if key(items[middle]) <= address { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? items[low - 1] : nil
    }
}
