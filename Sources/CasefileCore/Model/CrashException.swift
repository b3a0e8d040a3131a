/// Why the process died.
public struct CrashException: Sendable, Codable, Hashable {
    /// The Mach exception, e.g. `EXC_BAD_ACCESS`; or a bare signal name for reporters that write one.
    public var type: String?
    /// The signal, e.g. `SIGSEGV`.
    public var signal: String?
    /// The exception codes as numbers, so `0x8badf00d` and `2343432205` compare equal.
    public var codes: [UInt64]
    /// The codes as written, e.g. `KERN_INVALID_ADDRESS at 0x0000000000000010`.
    public var codesText: String?
    /// The subtype, e.g. `KERN_INVALID_ADDRESS at 0x10`.
    public var subtype: String?
    /// The exception name of an uncaught NSException or C++ exception.
    public var name: String?
    /// The message: an NSException reason, a Swift runtime failure, `abort() called`.
    public var reason: String?
    /// The termination namespace, e.g. `SPRINGBOARD`, `SIGNAL`, `RUNNINGBOARD`.
    public var terminationNamespace: String?
    /// The termination code, e.g. `0x8badf00d` (decimal and hex forms normalized to one number).
    public var terminationCode: UInt64?
    /// The termination reason text as written.
    public var terminationReason: String?
    /// Application Specific Information, as written.
    public var applicationSpecificInformation: String?

    /// Creates an empty exception.
    public init() {
        codes = []
    }

    /// The termination code as Apple writes it in text, e.g. `0x8badf00d`.
    public var terminationCodeHex: String? {
        terminationCode.map { "0x" + String($0, radix: 16) }
    }

    /// A name for the termination code when it is one of Apple's well-known ones.
    public var terminationMeaning: String? {
        switch terminationCode {
        case 0x8bad_f00d: "watchdog timeout (ate bad food)"
        case 0xdead_10cc: "held a file lock or database while suspended (deadlock)"
        case 0x2bad_45ec: "security violation"
        case 0xc000_10ff: "thermal event"
        case 0xbad2_2222: "VoIP app woke too often"
        case 0xdead_fa11: "force quit by the user"
        default: nil
        }
    }
}
