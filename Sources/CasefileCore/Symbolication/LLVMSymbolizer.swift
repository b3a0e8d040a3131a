public import Foundation

/// The DWARF back end: `llvm-symbolizer` (shipped in the Swift toolchain's `bin`), run once per debug file with
/// all of that file's addresses on standard input, answering in JSON lines with inlined frames expanded.
public struct LLVMSymbolizer: Sendable {
    /// The `llvm-symbolizer` executable.
    public var executable: URL

    /// Uses an explicit executable.
    public init(executable: URL) {
        self.executable = executable
    }

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

    /// The locations of each address (innermost first), in the order given; an empty list where the file has
    /// nothing.
    public func symbolize(
        file: String, arch: String, addresses: [UInt64]
    ) throws(SymbolicationError) -> [[SourceLocation]] {
        guard !addresses.isEmpty else { return [] }
        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "--obj=\(file)", "--default-arch=\(arch)", "--inlines", "--functions=linkage", "--output-style=JSON",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw SymbolicationError(file: executable.path, reason: "cannot start llvm-symbolizer: \(error)")
        }
        let request = addresses.map { CrashNumber.hex($0) }.joined(separator: "\n") + "\n"
        // Write from another thread: a large request could fill the pipe while the answer fills the other one.
        let writer = input.fileHandleForWriting
        let payload = Data(request.utf8)
        let writing = Thread {
            writer.write(payload)
            try? writer.close()
        }
        writing.start()
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = answer.split(separator: 0x0A)
        guard lines.count == addresses.count else {
            throw SymbolicationError(
                file: file, reason: "llvm-symbolizer answered \(lines.count) lines for \(addresses.count) addresses")
        }
        return zip(addresses, lines).map { address, line in
            guard let value = try? JSONParser.parse(line), let symbols = value["Symbol"]?.array else { return [] }
            var locations = symbols.compactMap { symbol -> SourceLocation? in
                guard let name = symbol["FunctionName"]?.string, !name.isEmpty else { return nil }
                let file = symbol["FileName"]?.string.flatMap { $0.isEmpty ? nil : $0 }
                let line = symbol["Line"]?.int.flatMap { $0 > 0 ? $0 : nil }
                return SourceLocation(rawName: name, file: file, line: line, column: symbol["Column"]?.int)
            }
            // The frame's own function (the last, outermost entry) gets its offset, as symbolicatecrash prints it.
            if let start = symbols.last?["StartAddress"]?.string.flatMap(CrashNumber.parse), address >= start,
                !locations.isEmpty
            {
                locations[locations.count - 1].offset = address - start
            }
            return locations
        }
    }
}
