import Foundation

/// The one place that escapes for GitHub-flavoured Markdown: every text that comes from a report goes through
/// ``text(_:)`` (prose, titles, table cells, link text), ``code(_:)`` (names, URLs, messages shown verbatim) or
/// ``mermaid(_:)`` (diagram messages), and a composed table cell through ``cell(_:)``. Rendered by GitHub or
/// `cmark-gfm`, each shows the characters the report had. (The `<details>` summaries hold no report text.)
enum Markdown {
    /// Report text as inline Markdown: characters Markdown or HTML would act on are backslash-escaped (`*`, `_`,
    /// `` ` ``, `[`, `]`, `<`, `>`, `&`, `|`, `~`, `\\`, `!`), a leading `#`, `-`, `+`, `=` or `1.` cannot start a
    /// block, line breaks become spaces and control characters their visible pictures (U+2400…).
    static func text(_ text: String) -> String {
        let utf8 = text.utf8
        // Most text needs no escape: one scan of the string's own bytes decides.
        let needsAny = text.withUTF8Bytes { $0.contains(where: needsEscape) }
        let escapeStart = startsBlock(text)
        guard needsAny || escapeStart else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 16)
        var atStart = true
        var previous: UInt8 = 0
        for byte in utf8 {
            switch byte {
            case 0x0A where previous == 0x0D: break
            case 0x0A, 0x0D, 0x09: out.append(UInt8(ascii: " "))
            case 0x00..<0x20, 0x7F:
                // A control character shows as its picture: U+2400 + code (U+2421 for DEL).
                let picture = Unicode.Scalar(byte == 0x7F ? 0x2421 : 0x2400 + UInt32(byte))!
                out += Array(String(Character(picture)).utf8)
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "["), UInt8(ascii: "]"),
                UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "~"),
                UInt8(ascii: "\\"), UInt8(ascii: "!"):
                out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "#"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "="), UInt8(ascii: "."),
                UInt8(ascii: ")"):
                // Only where the text would open a block: its first character, or the `.`/`)` after leading digits.
                let afterDigits = !out.isEmpty && out.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                let marker = byte == UInt8(ascii: ".") || byte == UInt8(ascii: ")") ? afterDigits : atStart
                if escapeStart, marker { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            default:
                out.append(byte)
            }
            if byte != 0x20 { atStart = false }
            previous = byte
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00..<0x20, 0x7F, UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "|"),
            UInt8(ascii: "~"), UInt8(ascii: "\\"), UInt8(ascii: "!"):
            true
        default:
            false
        }
    }

    /// Whether the text, at the start of a line, would open a block: a heading (`# `), a list item (`- `, `+ `,
    /// `1. `, `1) `), a rule or setext underline (`---`, `===`).
    private static func startsBlock(_ text: String) -> Bool {
        // Only a leading marker or digit can open a block: most text is decided by its first byte, with no copy.
        guard let first = text.utf8.first else { return false }
        guard "#-+=".utf8.contains(first) || (0x30...0x39).contains(first) else { return false }
        let bytes = Array(text.utf8.prefix(12))
        let second = bytes.count > 1 ? bytes[1] : UInt8(ascii: " ")
        if "#-+=".utf8.contains(first) {
            return second == UInt8(ascii: " ") || second == first
        }
        let digits = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        guard digits > 0, digits < bytes.count, bytes[digits] == UInt8(ascii: ".") || bytes[digits] == UInt8(ascii: ")")
        else { return false }
        return digits + 1 == text.utf8.count || bytes.count > digits + 1 && bytes[digits + 1] == UInt8(ascii: " ")
    }

    /// Message text of a Mermaid diagram, shown as written: the characters that end a message, start a comment or
    /// open markup (`;`, `#`, `%`, quotes, angle brackets, backticks, braces) as Mermaid's decimal entity codes, line
    /// breaks (CR, LF or CRLF) as one space each. Byte by byte: it runs for every arrow of every diagram, and walking
    /// the text's characters cost a grapheme break test and a comparison of characters for each one.
    static func mermaid(_ text: String) -> String {
        let plain = text.withUTF8Bytes { !$0.contains(where: isMermaidSpecial) }
        guard !plain else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case 0x0A where previous == 0x0D: break
            case 0x0A, 0x0D: out.append(UInt8(ascii: " "))
            case _ where isMermaidSpecial(byte):
                out.append(UInt8(ascii: "#"))
                out += String(byte).utf8
                out.append(UInt8(ascii: ";"))
            default: out.append(byte)
            }
            previous = byte
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether Mermaid's message text needs `byte` written otherwise: a line break, or a character it acts on.
    private static func isMermaidSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x0A, 0x0D, UInt8(ascii: ";"), UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "\""),
            UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            true
        default:
            false
        }
    }

    /// Text for a table cell: pipes escaped, line breaks folded. Byte by byte: it runs for every cell of every
    /// summary, and most cells need no change at all.
    static func cell(_ text: String) -> String {
        // The test over the bytes in place: through the UTF-8 view's iterator it cost about 20 instructions a byte.
        let plain = text.withUTF8Bytes { bytes in
            !bytes.contains { $0 == UInt8(ascii: "|") || $0 == 0x0A || $0 == 0x0D }
        }
        guard !plain else { return text }
        let utf8 = text.utf8
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

    /// Inline code showing the text verbatim: the fence is one backtick longer than the longest run inside, padded
    /// when the text starts or ends with a backtick; line breaks become spaces and control characters their pictures.
    static func code(_ text: String) -> String {
        // The usual text, a symbol or an address, has no backtick and no control character: one pass over its bytes
        // and one string made, instead of three passes and four joined strings.
        let plain = text.withUTF8Bytes { utf8 in
            !utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "`") }
        }
        if plain {
            let pad = text.hasPrefix(" ") && text.hasSuffix(" ")
            var result = ""
            result.reserveCapacity(text.utf8.count + (pad ? 4 : 2))
            result += pad ? "` " : "`"
            result += text
            result += pad ? " `" : "`"
            return result
        }
        var flat = text
        if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            flat = String(
                String.UnicodeScalarView(
                    text.unicodeScalars.map { scalar in
                        switch scalar.value {
                        case 0x0A, 0x0D, 0x09: " "
                        case 0x00..<0x20: Unicode.Scalar(0x2400 + scalar.value)!
                        case 0x7F: "\u{2421}"
                        default: scalar
                        }
                    }))
        }
        var longest = 0
        var run = 0
        for byte in flat.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = flat.hasPrefix("`") || flat.hasSuffix("`") || (flat.hasPrefix(" ") && flat.hasSuffix(" ")) ? " " : ""
        return fence + pad + flat + pad + fence
    }

    /// Seconds with millisecond precision: `13.150 s`.
    static func seconds(_ value: Double) -> String {
        FixedPoint.text(value, digits: 3) + " s"
    }

    /// A number of bytes in words: `61 B`, `1.2 KB`, `3.4 MB`.
    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1_000: "\(count) B"
        case ..<1_000_000: FixedPoint.text(Double(count) / 1_000, digits: 1) + " KB"
        default: FixedPoint.text(Double(count) / 1_000_000, digits: 1) + " MB"
        }
    }

    /// Shortens text to `limit` characters with an ellipsis.
    static func truncate(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
