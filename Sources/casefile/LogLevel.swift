import ArgumentParser
import Logging

/// `--log-level`: swift-log's levels by name.
enum LogLevel: String, ExpressibleByArgument, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    /// The swift-log level.
    var level: Logger.Level {
        Logger.Level(rawValue: rawValue) ?? .warning
    }
}
