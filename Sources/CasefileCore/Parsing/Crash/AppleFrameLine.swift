import Foundation

/// Parses the frame and binary-image lines of Apple's text crash format and its third-party imitations.
///
/// Written by hand rather than with regular expressions: image names contain spaces and are split on the first
/// `0x` address token (crash-formats.md §2.6), and hand scanning keeps the parser fast on large reports.
enum AppleFrameLine {
    /// Parses `N  Image  0xADDR  location`; `nil` when the line is not a frame.
    static func frame(_ line: Substring) -> (index: Int, frame: Frame)? {
        let text = line.trimmingSpaces
        let tokens = tokenize(text)
        guard tokens.count >= 3, tokens[0].text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let index = Int(tokens[0].text)
        else { return nil }
        // The address: the first 0x token with five or more hex digits after the index (image names hold spaces).
        var addressToken = tokens.indices.dropFirst(2).first { isAddress(tokens[$0].text, minimumDigits: 5) }
        var nullFrame = false
        if addressToken == nil {
            // Null frames: `0   ???   000000000000000000 0 + 0`.
            addressToken = tokens.indices.dropFirst(2).first { token in
                tokens[token].text.utf8.count >= 8 && tokens[token].text.utf8.allSatisfy(isHexDigit)
            }
            nullFrame = addressToken != nil
        }
        guard let addressIndex = addressToken else { return nil }
        let imageStart = tokens[1].range.lowerBound
        let imageEnd = tokens[addressIndex - 1].range.upperBound
        let image = String(text[imageStart..<imageEnd]).trimmingSpaces
        let addressText = tokens[addressIndex].text
        var frame = Frame(
            image: image.isEmpty ? nil : image,
            address: nullFrame ? UInt64(addressText, radix: 16) : CrashNumber.parse(addressText))
        let location = String(text[tokens[addressIndex].range.upperBound...]).trimmingSpaces
        parseLocation(location, into: &frame)
        return (index, frame)
    }

    /// Reads what follows the address: `0xLOAD + OFFSET`, `symbol + N`, `symbol + N (File.swift:12)`,
    /// `symbol (File.swift:12)`, or KSCrash's side-by-side `0xLOAD + OFFSET (symbol + N)`.
    static func parseLocation(_ location: String, into frame: inout Frame) {
        var rest = Substring(location)
        if rest.hasPrefix("0x") || rest.allSatisfy({ $0.isHexDigit || $0 == " " || $0 == "+" }) && !rest.isEmpty {
            // `0x104544000 + 20720`, maybe followed by `(symbol + N)`.
            let parts = rest.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
            if parts.count >= 3, parts[1] == "+", let load = CrashNumber.parse(parts[0]), let offset = UInt64(parts[2])
            {
                frame.imageLoadAddress = load
                frame.imageOffset = offset
                if parts.count == 4 {
                    var symbolic = parts[3].trimmingSpaces
                    if symbolic.hasPrefix("("), symbolic.hasSuffix(")") {
                        symbolic = String(symbolic.dropFirst().dropLast())
                        parseSymbol(Substring(symbolic), into: &frame)
                    }
                }
                return
            }
        }
        // Trailing `(File.swift:42)`.
        if rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") {
            let inside = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
            if let colon = inside.lastIndex(of: ":"), let line = Int(inside[inside.index(after: colon)...]),
                !inside[..<colon].isEmpty, !inside.contains(" ")
            {
                frame.file = String(inside[..<colon])
                frame.line = line
                rest = rest[..<open]
            }
        }
        parseSymbol(rest, into: &frame)
        if frame.file != nil {
            // Xcode writes the image offset after a symbol that has a file and line (§2.6 variant 3): not a
            // symbol offset. The image offset is recomputed from the image table instead.
            frame.symbolOffset = nil
        }
    }

    /// `symbol + N` or `symbol`; removes Xcode 12's `Name+ 183052 (Category)` splice.
    static func parseSymbol(_ text: Substring, into frame: inout Frame) {
        var symbol = text.trimmingSpaces
        if let plus = lastPlus(in: symbol), let offset = UInt64(symbol[plus.upperBound...].trimmingSpaces) {
            frame.symbolOffset = offset
            symbol = String(symbol[..<plus.lowerBound])
        }
        symbol = removeSplicedOffsets(symbol)
        if !symbol.isEmpty {
            frame.symbol = symbol
        }
    }

    /// The range of the last ` + ` in the text, found by bytes.
    private static func lastPlus(in text: String) -> Range<String.Index>? {
        let utf8 = text.utf8
        var index = utf8.endIndex
        while index > utf8.startIndex {
            index = utf8.index(before: index)
            guard utf8[index] == UInt8(ascii: "+"), index > utf8.startIndex else { continue }
            let before = utf8.index(before: index)
            let after = utf8.index(after: index)
            if utf8[before] == 0x20, after < utf8.endIndex, utf8[after] == 0x20 {
                return before..<utf8.index(after: after)
            }
        }
        return nil
    }

    /// `-[NSObject+ 183052 (NSObject) doesNotRecognizeSelector:]` → `-[NSObject(NSObject) doesNotRecognizeSelector:]`.
    static func removeSplicedOffsets(_ symbol: String) -> String {
        let utf8 = Array(symbol.utf8)
        guard zip(utf8, utf8.dropFirst()).contains(where: { $0 == UInt8(ascii: "+") && $1 == 0x20 }) else {
            return symbol
        }
        var characters = Array(symbol)
        var index = 1
        while index + 2 < characters.count {
            if characters[index] == "+", characters[index + 1] == " ", characters[index - 1] != " " {
                var end = index + 2
                while end < characters.count, characters[end].isNumber { end += 1 }
                if end > index + 2, end < characters.count, characters[end] == " " {
                    characters.removeSubrange(index...end)
                    continue
                }
            }
            index += 1
        }
        return String(characters)
    }

    /// Parses `0xBASE - 0xEND [+]NAME ARCH <UUID> PATH`.
    static func image(_ line: Substring) -> BinaryImage? {
        let text = Substring(line.trimmingSpaces)
        guard text.hasPrefix("0x"), let dash = text.range(of: "-") else { return nil }
        guard let base = CrashNumber.parse(text[..<dash.lowerBound]) else { return nil }
        var rest = text[dash.upperBound...].drop { $0 == " " }
        let endToken = rest.prefix { !$0.isWhitespace }
        // Casefile's own writer puts `???` where the format that crash came from knew no image size.
        let end = CrashNumber.parse(endToken)
        guard end != nil || endToken == "???" else { return nil }
        rest = rest.dropFirst(endToken.count).drop { $0.isWhitespace }
        var uuid: String?
        var path: String?
        var nameAndArch = rest
        if let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            uuid = String(rest[rest.index(after: open)..<close])
            nameAndArch = rest[..<open]
            let after = rest[rest.index(after: close)...].trimmingSpaces
            path = after.isEmpty ? nil : after
        }
        var words = nameAndArch.split(whereSeparator: \.isWhitespace).map(String.init)
        var isApp = false
        var arch: String?
        if let last = words.last, isArchitecture(last) {
            arch = last
            words.removeLast()
        }
        // macOS 12 writes a version token: `(*)`, `(1.0)`, `(400.9.4 - 1.0.0)`.
        if let open = words.lastIndex(where: { $0.hasPrefix("(") }), words.last?.hasSuffix(")") == true {
            words.removeSubrange(open...)
        }
        var name = words.joined(separator: " ")
        if name.hasPrefix("+") {
            isApp = true
            name.removeFirst()
        }
        if name.isEmpty, let path { name = path.split(separator: "/").last.map(String.init) ?? path }
        guard !name.isEmpty else { return nil }
        let normalizedUUID = uuid.flatMap(UUIDText.normalize)
        let isPlaceholder = normalizedUUID == "00000000-0000-0000-0000-000000000000"
        return BinaryImage(
            name: name, path: path, arch: arch == "unknown-arch" ? nil : arch,
            uuid: isPlaceholder ? nil : normalizedUUID, loadAddress: base, endAddress: end, isApp: isApp)
    }

    private static func isArchitecture(_ word: String) -> Bool {
        word.hasPrefix("arm64") || word.hasPrefix("armv") || word == "x86_64" || word == "x86_64h" || word == "i386"
            || word == "unknown-arch" || word == "arm"
    }

    private static func isAddress(_ token: Substring, minimumDigits: Int) -> Bool {
        let utf8 = token.utf8
        guard utf8.count >= 2 + minimumDigits, token.hasPrefix("0x") else { return false }
        return utf8.dropFirst(2).allSatisfy(isHexDigit)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private struct Token {
        var text: Substring
        var range: Range<String.Index>
    }

    /// Splits on spaces and tabs, scanning bytes: Character iteration would cost more than the rest of the parse.
    private static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            while index < utf8.endIndex, utf8[index] == 0x20 || utf8[index] == 0x09 { index = utf8.index(after: index) }
            guard index < utf8.endIndex else { break }
            let start = index
            while index < utf8.endIndex, utf8[index] != 0x20, utf8[index] != 0x09 { index = utf8.index(after: index) }
            tokens.append(Token(text: text[start..<index], range: start..<index))
        }
        return tokens
    }
}
