/// One line of the app's own log, attached to a report and placed on its timeline.
public struct LogLine: Sendable, Codable, Hashable {
    /// The log levels, least severe first.
    public enum Level: String, Sendable, Codable, Hashable, CaseIterable {
        /// `verbose` (OSLog's `trace`).
        case verbose
        /// `debug`.
        case debug
        /// `info` (OSLog's `notice` and `default`).
        case info
        /// `warning`.
        case warning
        /// `error` (OSLog's `fault` and `critical` too).
        case error

        /// Whether the line reports an error.
        public var isError: Bool {
            self == .error
        }

        /// The level named in a log line, any case; OSLog's names map to the nearest level.
        public init?(name: some StringProtocol) {
            switch name.lowercased() {
            case "verbose", "trace": self = .verbose
            case "debug": self = .debug
            case "info", "notice", "default": self = .info
            case "warning", "warn": self = .warning
            case "error", "fault", "critical": self = .error
            default: return nil
            }
        }
    }

    /// The time of day as written (`13:02:05.120`), or the ISO-8601 date of an OSLog export.
    public var clock: String
    /// The level.
    public var level: Level
    /// The module and context label (`Checkout-💳`), when the line has one.
    public var context: String?
    /// `Type.function()`, when the line names it.
    public var function: String?
    /// The source line, when the line names it.
    public var sourceLine: Int?
    /// The message.
    public var message: String

    /// Creates a log line.
    public init(
        clock: String, level: Level, context: String? = nil, function: String? = nil, sourceLine: Int? = nil,
        message: String
    ) {
        self.clock = clock
        self.level = level
        self.context = context
        self.function = function
        self.sourceLine = sourceLine
        self.message = message
    }
}
