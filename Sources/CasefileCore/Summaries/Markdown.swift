import Foundation

/// Small helpers for writing GitHub-flavoured Markdown safely.
enum Markdown {
    /// Text for a table cell: pipes escaped, line breaks folded.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\r\n", with: " ")
            .replacingOccurrences(of: "\n", with: " ")
    }

    /// Inline code that survives backticks inside the text.
    static func code(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        let fence = flat.contains("`") ? "``" : "`"
        let pad = flat.hasPrefix("`") || flat.hasSuffix("`") ? " " : ""
        return fence + pad + flat + pad + fence
    }

    /// Seconds with millisecond precision: `13.150 s`.
    static func seconds(_ value: Double) -> String {
        String(format: "%.3f s", value)
    }

    /// A number of bytes in words: `61 B`, `1.2 KB`, `3.4 MB`.
    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1_000: "\(count) B"
        case ..<1_000_000: String(format: "%.1f KB", Double(count) / 1_000)
        default: String(format: "%.1f MB", Double(count) / 1_000_000)
        }
    }

    /// Shortens text to `limit` characters with an ellipsis.
    static func truncate(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
