import Foundation

/// Small helpers for writing GitHub-flavoured Markdown safely.
enum Markdown {
    /// Text for a table cell: pipes escaped, line breaks folded. Byte by byte: it runs for every cell of every
    /// summary, and most cells need no change at all.
    static func cell(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "|") || $0 == 0x0A || $0 == 0x0D }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 8)
        var previous: UInt8 = 0
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "|"): out += [UInt8(ascii: "\\"), byte]
            case 0x0D: out.append(UInt8(ascii: " "))
            case 0x0A where previous == 0x0D: break  // \r\n folds to one space
            case 0x0A: out.append(UInt8(ascii: " "))
            default: out.append(byte)
            }
            previous = byte
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Inline code that survives backticks inside the text.
    static func code(_ text: String) -> String {
        let flat =
            text.utf8.contains(0x0A) ? String(decoding: text.utf8.map { $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self) : text
        let fence = flat.utf8.contains(UInt8(ascii: "`")) ? "``" : "`"
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
