/// The operating system a crash happened on.
public struct OperatingSystem: Sendable, Codable, Hashable {
    /// `iOS`, `iPhone OS`, `macOS`.
    public var name: String?
    /// `16.5`.
    public var version: String?
    /// `20F66`.
    public var build: String?

    /// Creates an OS description.
    public init(name: String? = nil, version: String? = nil, build: String? = nil) {
        self.name = name
        self.version = version
        self.build = build
    }

    /// Parses Apple's `iPhone OS 15.5 (19F77)`, `iOS 8.0.2 (12A405)`, `iPhone OS 11.4.1 (Build 15G77)`.
    public init(appleText text: String) {
        var rest = Substring(text.trimmingSpaces)
        if let open = rest.lastIndex(of: "("), rest.hasSuffix(")") {
            var build = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
            if build.hasPrefix("Build ") { build = build.dropFirst(6) }
            self.build = String(build)
            rest = rest[..<open]
        }
        let parts = rest.split(separator: " ")
        if let last = parts.last, last.first?.isNumber == true {
            version = String(last)
            let name = parts.dropLast().joined(separator: " ")
            self.name = name.isEmpty ? nil : name
        } else {
            name = rest.isEmpty ? nil : String(rest).trimmingSpaces
        }
    }

    /// `iPhone OS 15.5 (19F77)`.
    public var description: String {
        var text = [name, version].compactMap { $0 }.joined(separator: " ")
        if let build { text += " (\(build))" }
        return text
    }
}
