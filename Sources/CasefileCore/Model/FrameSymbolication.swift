import CasefileArchive

/// What symbolication found for one frame: the source locations (inlined functions expanded), or why none.
public struct FrameSymbolication: Sendable, Codable, Hashable {
    /// Whether the frame was symbolicated, and if not, why.
    public enum Status: Sendable, Codable, Hashable {
        /// Symbolicated by a back end: `dwarf` (llvm-symbolizer) or `symbol-table` (function names only).
        case symbolicated(backend: String)
        /// No debug file has the image's UUID.
        case noDebugFile(image: String, uuid: String)
        /// Debug files for an image of this name exist, but with other UUIDs; they are never used.
        case uuidMismatch(image: String, uuid: String, found: [String])
        /// The report gives no UUID for the frame's image.
        case imageWithoutUUID(image: String)
        /// The frame's address is not inside any image of the report.
        case outsideImage
        /// The debug file has nothing at this address.
        case notFound
    }

    /// The outcome.
    public var status: Status
    /// The address looked up in the debug file's address space (caller frames are corrected by −1).
    public var lookupAddress: UInt64?
    /// Innermost first: inlined functions, then the function they were inlined into (the frame itself).
    public var locations: [SourceLocation]

    /// Creates a result.
    public init(status: Status, lookupAddress: UInt64? = nil, locations: [SourceLocation] = []) {
        self.status = status
        self.lookupAddress = lookupAddress
        self.locations = locations
    }

    /// Why the frame is not symbolicated, in words; `nil` when it is.
    public var reason: String? {
        switch status {
        case .symbolicated: nil
        case .noDebugFile(let image, let uuid): "no debug file for UUID \(uuid) (\(image))"
        case .uuidMismatch(let image, let uuid, let found):
            "UUID mismatch: \(image) is \(uuid), the debug files found are \(found.joined(separator: ", "))"
        case .imageWithoutUUID(let image): "the report gives no UUID for \(image)"
        case .outsideImage: "address outside every image of the report"
        case .notFound: "the debug file has no symbol at this address"
        }
    }
}

/// A function and source position from a debug file.
public struct SourceLocation: Sendable, Codable, Hashable {
    /// The symbol as the debug file names it (mangled for Swift and C++).
    public var rawName: String
    /// The demangled name, when it differs.
    public var demangledName: String?
    /// The demangled name without argument and return types, for display and fingerprints.
    public var simpleName: String
    /// The source file.
    public var file: String?
    /// The line.
    public var line: Int?
    /// The column.
    public var column: Int?
    /// The offset of the looked-up address into the function, when the back end knows the function start.
    public var offset: UInt64?
    /// The line the function (or closure) is declared on, when the debug information says.
    public var startLine: Int?

    /// Creates a location, demangling the name.
    public init(rawName: String, file: String? = nil, line: Int? = nil, column: Int? = nil, offset: UInt64? = nil) {
        self.rawName = rawName
        let demangled = Demangler.demangle(rawName)
        self.demangledName = demangled
        self.simpleName = Demangler.simplify(demangled ?? rawName)
        self.file = file
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// A location whose names were worked out before, as the index stored them: not demangled again.
    package init(
        rawName: String, demangledName: String?, simpleName: String, file: String?, line: Int?, column: Int?,
        offset: UInt64?, startLine: Int?
    ) {
        self.rawName = rawName
        self.demangledName = demangledName
        self.simpleName = simpleName
        self.file = file
        self.line = line
        self.column = column
        self.offset = offset
        self.startLine = startLine
    }

    /// `CartViewModel.total() + 44 (checkout.c:17)`.
    public var description: String {
        describe(simpleName)
    }

    /// As Xcode shows it: `specialized static CrashClass.pleaseCrash() + 200 (Crash.swift:12)` (see ``XcodeName``);
    /// `modules` are the module names a name that was not mangled loses.
    public func displayDescription(modules: Set<String>) -> String {
        // A mangled name is demangled again here and loses its module whatever it is.
        describe(XcodeName.simplified(rawName, modules: demangledName == nil ? modules : []))
    }

    private func describe(_ name: String) -> String {
        var text = name
        if let offset { text += " + \(offset)" }
        if let file {
            let name = PathText.lastComponent(file)
            text += " (\(name)\(line.map { ":\($0)" } ?? ""))"
        }
        return text
    }
}
