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
        // Its parentheses and spaces found in the UTF-8 bytes: searched as Characters, they took 5 µs of a small
        // report's 50 µs of parsing.
        var rest = Substring(text.trimmingSpaces)
        if rest.utf8.last == UInt8(ascii: ")"), let open = rest.utf8.lastIndex(of: UInt8(ascii: "(")) {
            var build = rest[rest.utf8.index(after: open)..<rest.utf8.index(before: rest.utf8.endIndex)]
            if build.utf8.starts(with: "Build ".utf8) { build = build.dropFirst(6) }
            self.build = String(build)
            rest = rest[..<open]
        }
        let parts = rest.utf8.split(separator: UInt8(ascii: " ")).map { Substring($0) }
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
