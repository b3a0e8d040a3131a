extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line ends.
    var trimmingSpaces: String {
        let scalars = Array(unicodeScalars)
        guard let first = scalars.firstIndex(where: { !Self.isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !Self.isSpace($0) }) ?? first
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[first...last])
        return String(result)
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n"
    }
}

/// UUIDs come in four spellings (32 hex, dashed lower, dashed upper, Breakpad's 33 with age): one form for all.
public enum UUIDText {
    /// Lowercase dashed, or `nil` when the text is not 32 hex digits (dashes and braces aside).
    public static func normalize(_ text: String) -> String? {
        let hex = text.lowercased().filter { $0 != "-" && $0 != "<" && $0 != ">" && $0 != " " }
        guard hex.count == 32, hex.allSatisfy(\.isHexDigit) else { return nil }
        let characters = Array(hex)
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
        return groups.joined(separator: "-")
    }
}

/// Numbers as crash reports write them: `0x1a2b`, `3735883980`, `0X8BADF00D`.
public enum CrashNumber {
    /// Parses hex with `0x`, or decimal.
    public static func parse<S: StringProtocol>(_ text: S) -> UInt64? {
        let trimmed = text.trimmingSpaces
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
            return UInt64(trimmed.dropFirst(2), radix: 16)
        }
        return UInt64(trimmed)
    }

    /// `0x` and lowercase hex, padded to `width` digits.
    public static func hex(_ value: UInt64, width: Int = 0) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Signal numbers and names as iOS uses them.
public enum SignalName {
    private static let names: [Int: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT", 8: "SIGFPE",
        9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
    ]

    /// The name of a signal number, e.g. 11 → `SIGSEGV`.
    public static func name(_ number: Int) -> String? {
        names[number]
    }

    /// The number of a signal name.
    public static func number(_ name: String) -> Int? {
        names.first { $0.value == name }?.key
    }

    /// Mach exception numbers as MetricKit reports them.
    public static func machException(_ number: Int) -> String? {
        [
            1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION",
            5: "EXC_SOFTWARE", 6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL", 9: "EXC_RPC_ALERT",
            10: "EXC_CRASH", 11: "EXC_RESOURCE", 12: "EXC_GUARD", 13: "EXC_CORPSE_NOTIFY",
        ][number]
    }
}
