import Logging
import Synchronization

/// A logger for the pipeline under test that keeps its lines for the test instead of printing them among the results.
final class CapturedLog: Sendable {
    let lines = Mutex<[String]>([])

    /// The lines logged so far, `<level> <message>` each.
    var logged: [String] {
        lines.withLock { $0 }
    }

    /// A logger writing here.
    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.lines.withLock { $0.append("\(event.level) \(event.message)") }
        }
    }
}
