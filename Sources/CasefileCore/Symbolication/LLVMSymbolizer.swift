import CasefileArchive
public import Foundation

/// The DWARF back end: `llvm-symbolizer` (shipped in the Swift toolchain's `bin`), run once per debug file with
/// all of that file's addresses on standard input, answering in JSON lines with inlined frames expanded.
public struct LLVMSymbolizer: Sendable {
    /// The `llvm-symbolizer` executable.
    public var executable: URL

    /// Uses an explicit executable, with at most `processLimit` processes running at once.
    public init(executable: URL, processLimit: Int = LLVMSymbolizer.defaultProcessLimit) {
        self.executable = executable
        processes = SymbolizerProcesses(limit: processLimit)
    }

    /// How many `llvm-symbolizer` processes run at once, by default. Each holds its debug file's DWARF in memory —
    /// tens to hundreds of megabytes for an app — and a team's symbol folder has a dSYM for every build and embedded
    /// framework still in the field, so a night's crashes can name dozens. Not fewer: crashes of more builds than
    /// there are processes, arriving interleaved, restart one for nearly every crash (measured: 10 builds at a limit
    /// of 4 made a night of 200 crashes 2.5 × as long).
    public static let defaultProcessLimit = 16

    /// Finds `llvm-symbolizer`: `$CASEFILE_LLVM_SYMBOLIZER`, then beside `swift` on the `PATH` (the toolchain's
    /// `bin`), then anywhere on the `PATH`; `nil` when there is none.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> LLVMSymbolizer? {
        let manager = FileManager.default
        if let explicit = environment["CASEFILE_LLVM_SYMBOLIZER"], manager.isExecutableFile(atPath: explicit) {
            return LLVMSymbolizer(executable: URL(fileURLWithPath: explicit))
        }
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in folders where manager.isExecutableFile(atPath: "\(folder)/swift") {
            let candidate = "\(folder)/llvm-symbolizer"
            if manager.isExecutableFile(atPath: candidate) {
                return LLVMSymbolizer(executable: URL(fileURLWithPath: candidate))
            }
        }
        for folder in folders where manager.isExecutableFile(atPath: "\(folder)/llvm-symbolizer") {
            return LLVMSymbolizer(executable: URL(fileURLWithPath: "\(folder)/llvm-symbolizer"))
        }
        return nil
    }

    /// The running `llvm-symbolizer` processes, one per debug file and architecture, kept for the run up to the limit.
    private let processes: SymbolizerProcesses

    /// How many `llvm-symbolizer` processes this symbolizer has running.
    public var runningProcesses: Int {
        processes.count
    }

    /// The locations of each address (innermost first), in the order given; an empty list where the file has
    /// nothing. The process for the file is started on first use and answers every later crash of the run.
    ///
    /// The addresses are asked in ascending order and the answers put back in the order given: `llvm-symbolizer`
    /// answers an address near the last one from the line table and debug entries it has just read. Measured on the
    /// benchmark's debug file (20,000 functions), 20,000 addresses in a crash's order took it 0.39 s, sorted 0.23 s.
    public func symbolize(
        file: String, arch: String, addresses: [UInt64]
    ) throws(SymbolicationError) -> [[SourceLocation]] {
        guard !addresses.isEmpty else { return [] }
        let process = try processes.process(executable: executable, file: file, arch: arch)
        let order = Self.ascendingOrder(addresses)
        var results = [[SourceLocation]](repeating: [], count: addresses.count)
        // Each answer is decoded while its line is in the read buffer, so memory stays one line deep however many
        // addresses are asked.
        try process.query(order.map { addresses[$0] }) { index, line in
            let position = order[index]
            results[position] = Self.locations(line, address: addresses[position])
        }
        return results
    }

    /// The positions of `addresses` by ascending address (equal addresses in the order given).
    private static func ascendingOrder(_ addresses: [UInt64]) -> [Int] {
        var order = Array(addresses.indices)
        if zip(addresses, addresses.dropFirst()).contains(where: { $0 > $1 }) {
            order.sort { addresses[$0] < addresses[$1] || (addresses[$0] == addresses[$1] && $0 < $1) }
        }
        return order
    }

    /// The locations of one JSON answer line (innermost first); empty where the file has nothing.
    ///
    /// Read in place (``scannedLocations(_:address:)``), and by the tree parser only when the scanner refuses the
    /// line: a tree for each answer made a cold query of 20,000 addresses cost this process half as much again.
    private static func locations(_ line: UnsafeRawBufferPointer, address: UInt64) -> [SourceLocation] {
        if let locations = try? scannedLocations(line, address: address) { return locations }
        return treeLocations(line, address: address)
    }

    /// ``locations(_:address:)`` read by ``JSONScanner``, member by member, with the tree's reading of each value:
    /// an answer is `{"Address":…,"ModuleName":…,"Symbol":[{"FunctionName":…,"FileName":…,"Line":…,…},…]}`.
    private static func scannedLocations(_ line: UnsafeRawBufferPointer, address: UInt64) throws -> [SourceLocation] {
        var locations: [SourceLocation] = []
        // The start of the last entry, the frame's own function.
        var lastStart: UInt64?
        var scanner = JSONScanner(line.assumingMemoryBound(to: UInt8.self))
        scanner.skipWhitespace()
        try scanner.members { scanner, key in
            guard scanner.key(key, is: "Symbol") else { return try scanner.skipValue() }
            try scanner.elements { scanner in
                var name: String?
                var file: String?
                var line: Int?
                var column: Int?
                var startLine: Int?
                var start: String?
                try scanner.members { scanner, key in
                    if scanner.key(key, is: "FunctionName") {
                        name = try scanner.string()
                    } else if scanner.key(key, is: "FileName") {
                        file = try scanner.string()
                    } else if scanner.key(key, is: "Line") {
                        line = try scanner.int()
                    } else if scanner.key(key, is: "Column") {
                        column = try scanner.int()
                    } else if scanner.key(key, is: "StartLine") {
                        startLine = try scanner.int()
                    } else if scanner.key(key, is: "StartAddress") {
                        start = try scanner.string()
                    } else {
                        try scanner.skipValue()
                    }
                }
                lastStart = start.flatMap(CrashNumber.parse)
                if let location = location(name: name, file: file, line: line, column: column, startLine: startLine) {
                    locations.append(location)
                }
            }
        }
        // Anything after the answer's object is for the tree parser to refuse.
        scanner.skipWhitespace()
        guard scanner.next == nil else { throw JSONScanner.Failure(offset: scanner.index) }
        giveOffset(&locations, start: lastStart, address: address)
        return locations
    }

    /// ``locations(_:address:)`` through a tree of the line, for what the scanner refuses.
    private static func treeLocations(_ line: UnsafeRawBufferPointer, address: UInt64) -> [SourceLocation] {
        guard let value = try? JSONParser.parse(line), let symbols = value["Symbol"]?.array else { return [] }
        var locations = symbols.compactMap { symbol in
            location(
                name: symbol["FunctionName"]?.string, file: symbol["FileName"]?.string, line: symbol["Line"]?.int,
                column: symbol["Column"]?.int, startLine: symbol["StartLine"]?.int)
        }
        let start = symbols.last?["StartAddress"]?.string.flatMap(CrashNumber.parse)
        giveOffset(&locations, start: start, address: address)
        return locations
    }

    /// The location of one entry of an answer's `Symbol` list, from its fields as read; `nil` for an entry without a
    /// function name (the file has nothing there). An empty file name and a line or start line of 0 are unknown.
    private static func location(name: String?, file: String?, line: Int?, column: Int?, startLine: Int?)
        -> SourceLocation?
    {
        guard let name, !name.isEmpty else { return nil }
        var location = SourceLocation(
            rawName: name, file: file.flatMap { $0.isEmpty ? nil : $0 }, line: line.flatMap { $0 > 0 ? $0 : nil },
            column: column)
        location.startLine = startLine.flatMap { $0 > 0 ? $0 : nil }
        return location
    }

    /// Gives the frame's own function (the last, outermost location) its offset from `start`, the last entry's start
    /// address, as symbolicatecrash prints it.
    private static func giveOffset(_ locations: inout [SourceLocation], start: UInt64?, address: UInt64) {
        guard let start, address >= start, !locations.isEmpty else { return }
        locations[locations.count - 1].offset = address - start
    }
}

/// The long-lived `llvm-symbolizer` processes, by debug file and architecture: at most `limit`, the least recently
/// asked stopped to make room. A stopped process that is answering a query finishes it first (the query holds it).
final class SymbolizerProcesses: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var running: [String: (process: SymbolizerProcess, used: UInt64)] = [:]
    private var uses: UInt64 = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return running.values.filter(\.process.isRunning).count
    }

    func process(executable: URL, file: String, arch: String) throws(SymbolicationError) -> SymbolizerProcess {
        lock.lock()
        defer { lock.unlock() }
        uses += 1
        let key = "\(file)#\(arch)"
        if let known = running[key], known.process.isRunning {
            running[key]?.used = uses
            return known.process
        }
        running[key] = nil
        while running.count >= limit, let oldest = running.min(by: { $0.value.used < $1.value.used })?.key {
            // Its process ends when the last query holding it returns (``SymbolizerProcess`` ends it as it goes).
            running[oldest] = nil
        }
        let process = try SymbolizerProcess(executable: executable, file: file, arch: arch)
        running[key] = (process, uses)
        return process
    }
}

/// One `llvm-symbolizer` answering queries over pipes, one JSON line per address, as sanitizers use it.
final class SymbolizerProcess: @unchecked Sendable {
    private let lock = NSLock()
    private let process = Process()
    private let input: FileHandle
    private let output: FileHandle
    private let file: String
    private var pending: [UInt8] = []
    /// Where each read from the pipe lands (``readSize`` bytes), before its bytes join the answers read so far.
    private let scratch = UnsafeMutableRawPointer.allocate(byteCount: readSize, alignment: 16)

    init(executable: URL, file: String, arch: String) throws(SymbolicationError) {
        self.file = file
        process.executableURL = executable
        process.arguments = [
            "--obj=\(file)", "--default-arch=\(arch)", "--inlines", "--functions=linkage", "--output-style=JSON",
        ]
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = FileHandle.nullDevice
        input = inputPipe.fileHandleForWriting
        output = outputPipe.fileHandleForReading
        // Room for what a paced read (``pace``) leaves in the pipe, with any answer's length; kept at the system's
        // size when it refuses.
        #if os(Linux)
            _ = fcntl(output.fileDescriptor, Self.setPipeSize, Self.pipeSize)
        #endif
        do {
            try process.run()
        } catch {
            throw SymbolicationError(file: executable.path, reason: "cannot start llvm-symbolizer: \(error)")
        }
    }

    deinit {
        try? input.close()
        if process.isRunning { process.terminate() }
        scratch.deallocate()
    }

    var isRunning: Bool {
        process.isRunning
    }

    /// What any pipe holds without a reader: POSIX's `PIPE_BUF`; no system's pipe buffer is smaller.
    private static let pipeBufferFloor = 4096

    /// Sends the addresses and hands `answer` each reply line, in order, while it is in the read buffer: nothing
    /// holds on to the buffer, so it is compacted as it is read and each pipe chunk is copied once.
    func query(
        _ addresses: [UInt64], answer: (Int, UnsafeRawBufferPointer) -> Void
    ) throws(SymbolicationError) {
        lock.lock()
        defer { lock.unlock() }
        var request: [UInt8] = []
        request.reserveCapacity(addresses.count * 12)
        for address in addresses {
            request += CrashNumber.hex(address).utf8
            request.append(0x0A)
        }
        let writer = input
        let data = Data(request)
        if request.count <= Self.pipeBufferFloor {
            // Fits in the empty pipe (every earlier request was answered, so read): written at once. A crash's
            // frames not yet cached are a few dozen addresses, and a thread per query cost more than the query.
            writer.write(data)
        } else {
            // From another thread: a large request could fill one pipe while the answers fill the other.
            let writing = Thread { writer.write(data) }
            writing.start()
        }
        var buffer = pending
        // Whether the last read emptied the pipe.
        var drained = true
        var answered = 0
        var scanned = 0
        while answered < addresses.count {
            var start = 0
            buffer.withUnsafeBytes { bytes in
                var index = scanned
                while answered < addresses.count, index < bytes.count {
                    if bytes[index] == 0x0A {
                        answer(answered, UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                        answered += 1
                        start = index + 1
                    }
                    index += 1
                }
                scanned = index
            }
            buffer.removeFirst(start)
            scanned -= start
            guard answered < addresses.count else { break }
            if addresses.count - answered >= Self.pacedAnswers, drained {
                // Not waiting in the pipe meanwhile, so the symbolizer's writes wake no one.
                usleep(Self.pace)
            }
            guard try receive(into: &buffer, drained: &drained) else {
                throw SymbolicationError(
                    file: file, reason: "llvm-symbolizer stopped after \(answered) of \(addresses.count) answers")
            }
        }
        pending = buffer
    }

    /// How much one read asks of the pipe: whatever it holds, up to a pipe's usual capacity.
    private static let readSize = 65_536

    /// From how many answers still due a query reads at a ``pace`` rather than as each answer arrives.
    ///
    /// `llvm-symbolizer` writes (and flushes) every answer, and each write to a pipe its reader waits on wakes the
    /// reader, on the other core: on the benchmark's 20,000 distinct addresses that wake-up was an eighth of the
    /// symbolizer's samples, and the query took its processor a third longer than the same addresses answered into
    /// `/dev/null`. A crash's few dozen uncached frames are read as they come.
    private static let pacedAnswers = 1_024

    /// How long a paced query waits before reading again once it has emptied the pipe: about a hundred answers.
    private static let pace: useconds_t = 1_000

    /// The pipe from the symbolizer asked for: a paced read's millisecond of answers of any length fits.
    private static let pipeSize: Int32 = 1 << 20

    /// Linux's `F_SETPIPE_SZ` (`fcntl.h`, under `_GNU_SOURCE`), which the Glibc module does not bring into Swift.
    private static let setPipeSize: Int32 = 1031

    /// Appends what the pipe from the symbolizer holds (waiting for it when empty) to `buffer`; `false` at its end.
    ///
    /// Straight from the descriptor, through memory kept for it: `FileHandle.availableData` asked the file's status
    /// and made a `Data` for every read, and `llvm-symbolizer` writes each answer as it has it, so a query reads
    /// nearly once per address (20,000 addresses: 11,000 reads, each with its `fstat`).
    ///
    /// `drained` tells whether the read took less than it asked, which leaves the pipe empty.
    private func receive(into buffer: inout [UInt8], drained: inout Bool) throws(SymbolicationError) -> Bool {
        let count = FileBlocks.retryingInterrupts { read(output.fileDescriptor, scratch, Self.readSize) }
        if count < 0 {
            let reason = String(cString: strerror(errno))
            throw SymbolicationError(file: file, reason: "cannot read llvm-symbolizer's answers: \(reason)")
        }
        drained = count < Self.readSize
        buffer.append(contentsOf: UnsafeRawBufferPointer(start: scratch, count: count))
        return count > 0
    }
}
