import Foundation

/// Parses the frame and binary-image lines of Apple's text crash format and its third-party imitations.
///
/// Written by hand rather than with regular expressions: image names contain spaces and are split on the first
/// `0x` address token (crash-formats.md §2.6), and hand scanning keeps the parser fast on large reports.
enum AppleFrameLine {
    /// Parses `N  Image  0xADDR  location`; `nil` when the line is not a frame.
    static func frame(_ line: Substring) -> (index: Int, frame: Frame)? {
        var pool = StringPool()
        return frame(trimmed: line.trimmingSpaces, pool: &pool)
    }

    /// Parses a frame line already trimmed of surrounding white space. Scans bytes: frame lines are most of a
    /// report, and String's Character APIs would cost more than everything else.
    static func frame(trimmed text: String, pool: inout StringPool) -> (index: Int, frame: Frame)? {
        var text = text
        return text.withUTF8 { frame(bytes: $0, pool: &pool) }
    }

    /// Parses a frame line from its bytes, white space around it included, and appends the frame to `frames`;
    /// `false`, appending nothing, when the line is not a frame. The frame is built where it is stored: a report's
    /// thousands of frames are not copied out of a returned value.
    static func appendFrame(
        untrimmed bytes: UnsafeBufferPointer<UInt8>, pool: inout StringPool, to frames: inout [Frame]
    ) -> Bool {
        let text = CrashBytes.trimmed(bytes)
        guard let first = text.first, bytes[first] >= 0x30, bytes[first] <= 0x39,
            let parsed = frame(bytes: UnsafeBufferPointer(rebasing: bytes[text]), pool: &pool)
        else { return false }
        frames.append(parsed.frame)
        return true
    }

    @inline(__always)
    private static func frame(
        bytes: UnsafeBufferPointer<UInt8>, pool: inout StringPool
    ) -> (index: Int, frame: Frame)? {
        var position = 0
        var index = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            index = index &* 10 &+ Int(bytes[position] - 0x30)
            position += 1
        }
        guard position > 0, position < bytes.count, isSpace(bytes[position]), position <= 18 else { return nil }
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        let imageStart = position
        // The address is the first token after the image's first word that is `0x` and five or more hex digits
        // (image names hold spaces, so the image ends where the address starts). Tokens are walked in place.
        var address = token(after: position, in: bytes) { isAddress(bytes, $0, minimumDigits: 5) }
        var nullFrame = false
        if address == nil {
            // Null frames: `0   ???   000000000000000000 0 + 0`.
            address = token(after: position, in: bytes) { token in
                token.count >= 8 && bytes[token].allSatisfy(isHexDigit)
            }
            nullFrame = address != nil
        }
        guard let address else { return nil }
        let image = pool.string(UnsafeBufferPointer(rebasing: bytes[imageStart..<address.imageEnd]))
        var value: UInt64? = 0
        for offset in address.address.dropFirst(nullFrame ? 0 : 2) {
            guard let known = value, known >> 60 == 0, let digit = hexValue(bytes[offset]) else {
                value = nil
                break
            }
            value = known << 4 | UInt64(digit)
        }
        var frame = Frame(image: image.isEmpty ? nil : image, address: value)
        var locationStart = address.address.upperBound
        while locationStart < bytes.count, isSpace(bytes[locationStart]) { locationStart += 1 }
        if locationStart < bytes.count {
            // The bytes end with a token: the caller trimmed them.
            let location = UnsafeBufferPointer(rebasing: bytes[locationStart...])
            if !parseCommonLocation(location, into: &frame, pool: &pool) {
                parseLocation(String(decoding: location, as: UTF8.self), into: &frame)
            }
        }
        return (index, frame)
    }

    /// The first token after the image's first word (which starts at `imageStart`) that `matches`, and the end of
    /// the token before it, where the image name ends.
    private static func token(
        after imageStart: Int, in bytes: UnsafeBufferPointer<UInt8>,
        matches: (Range<Int>) -> Bool
    ) -> (address: Range<Int>, imageEnd: Int)? {
        var position = imageStart
        var previousEnd = imageStart
        var first = true
        while position < bytes.count {
            let start = position
            while position < bytes.count, !isSpace(bytes[position]) { position += 1 }
            if !first, matches(start..<position) { return (start..<position, previousEnd) }
            first = false
            previousEnd = position
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        }
        return nil
    }

    /// The white space between the words of a frame line: space and tab.
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    private static func isAddress(_ bytes: UnsafeBufferPointer<UInt8>, _ token: Range<Int>, minimumDigits: Int) -> Bool
    {
        guard token.count >= 2 + minimumDigits, bytes[token.lowerBound] == UInt8(ascii: "0"),
            bytes[token.lowerBound + 1] == UInt8(ascii: "x")
        else { return false }
        return bytes[(token.lowerBound + 2)..<token.upperBound].allSatisfy(isHexDigit)
    }

    /// Reads the two shapes nearly every frame's location has, on its bytes: `symbol + N` (the symbol may hold spaces)
    /// and `0xLOAD + OFFSET`. Returns `false`, having changed nothing, for anything else (a file and line, a
    /// side-by-side symbol, a location starting with a digit, unusual spacing), which ``parseLocation(_:into:)``
    /// reads; both read the common shapes alike.
    static func parseCommonLocation(
        _ bytes: UnsafeBufferPointer<UInt8>, into frame: inout Frame, pool: inout StringPool
    ) -> Bool {
        guard let first = bytes.first, let last = bytes.last, last != UInt8(ascii: ")") else { return false }
        if first >= 0x30, first <= 0x39 {
            // `0x104544000 + 20720`, exactly: `0x`, 1–16 hex digits, ` + `, decimal digits.
            var position = 2
            guard bytes.count > 2, first == 0x30, bytes[1] == UInt8(ascii: "x") else { return false }
            var load: UInt64 = 0
            while position < bytes.count, let digit = hexValue(bytes[position]) {
                load = load << 4 | UInt64(digit)
                position += 1
            }
            guard (3...18).contains(position), position + 3 < bytes.count, bytes[position] == 0x20,
                bytes[position + 1] == UInt8(ascii: "+"), bytes[position + 2] == 0x20,
                let offset = decimal(UnsafeBufferPointer(rebasing: bytes[(position + 3)...]))
            else { return false }
            frame.imageLoadAddress = load
            frame.imageOffset = offset
            return true
        }
        var end = bytes.count
        // A trailing ` + N`, N decimal digits that fit.
        var digitsStart = end
        while digitsStart > 0, bytes[digitsStart - 1] >= 0x30, bytes[digitsStart - 1] <= 0x39 { digitsStart -= 1 }
        if digitsStart < end, digitsStart >= 3, bytes[digitsStart - 2] == UInt8(ascii: "+"),
            bytes[digitsStart - 1] == 0x20, bytes[digitsStart - 3] == 0x20,
            let offset = decimal(UnsafeBufferPointer(rebasing: bytes[digitsStart..<end]))
        {
            frame.symbolOffset = offset
            end = digitsStart - 3
        }
        let symbol = UnsafeBufferPointer(rebasing: bytes[..<end])
        var spliced = false
        for index in symbol.indices.dropFirst() where symbol[index] == 0x20 && symbol[index - 1] == UInt8(ascii: "+") {
            spliced = true
            break
        }
        let name = pool.string(symbol)
        if !name.isEmpty {
            frame.symbol = spliced ? removeSplicedOffsets(name) : name
        }
        return true
    }

    /// Decimal digits only, as `UInt64(_:)` reads them; `nil` for anything else or on overflow.
    private static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !bytes.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    /// Reads what follows the address: `0xLOAD + OFFSET`, `symbol + N`, `symbol + N (File.swift:12)`,
    /// `symbol (File.swift:12)`, or KSCrash's side-by-side `0xLOAD + OFFSET (symbol + N)`.
    static func parseLocation(_ location: String, into frame: inout Frame) {
        var rest = Substring(location)
        let startsNumeric = rest.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false
        if startsNumeric
            && (rest.hasPrefix("0x")
                || rest.utf8.allSatisfy { isHexDigit($0) || $0 == 0x20 || $0 == UInt8(ascii: "+") })
        {
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
        // Trailing `(File.swift:42)`, found by bytes from the end.
        let utf8 = rest.utf8
        if utf8.last == UInt8(ascii: ")"), let open = utf8.lastIndex(of: UInt8(ascii: "(")) {
            let inside = rest[utf8.index(after: open)..<utf8.index(before: utf8.endIndex)]
            if let colon = inside.utf8.lastIndex(of: UInt8(ascii: ":")), !inside.utf8.contains(0x20),
                let line = Int(inside[inside.utf8.index(after: colon)...]), colon > inside.startIndex
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
        var symbol = text
        // Trailing white space, then a trailing ` + N` (digits only), by bytes.
        while let last = symbol.utf8.last, last == 0x20 || last == 0x09 { symbol = symbol.dropLast() }
        let utf8 = symbol.utf8
        var digitsStart = utf8.endIndex
        while digitsStart > utf8.startIndex {
            let before = utf8.index(before: digitsStart)
            guard utf8[before] >= 0x30, utf8[before] <= 0x39 else { break }
            digitsStart = before
        }
        if digitsStart < utf8.endIndex, utf8.distance(from: utf8.startIndex, to: digitsStart) >= 3 {
            let plus = utf8.index(digitsStart, offsetBy: -2)
            let space = utf8.index(before: plus)
            if utf8[plus] == UInt8(ascii: "+"), utf8[utf8.index(after: plus)] == 0x20, utf8[space] == 0x20,
                let offset = UInt64(symbol[digitsStart...])
            {
                frame.symbolOffset = offset
                symbol = symbol[..<space]
            }
        }
        while let first = symbol.utf8.first, first == 0x20 || first == 0x09 { symbol = symbol.dropFirst() }
        let name = removeSplicedOffsets(String(symbol))
        if !name.isEmpty {
            frame.symbol = name
        }
    }

    /// `-[NSObject+ 183052 (NSObject) doesNotRecognizeSelector:]` → `-[NSObject(NSObject) doesNotRecognizeSelector:]`.
    static func removeSplicedOffsets(_ symbol: String) -> String {
        var previous: UInt8 = 0
        var spliced = false
        for byte in symbol.utf8 {
            if previous == UInt8(ascii: "+"), byte == 0x20 {
                spliced = true
                break
            }
            previous = byte
        }
        guard spliced else { return symbol }
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

    /// Parses `0xBASE - 0xEND [+]NAME ARCH <UUID> PATH`, and the other shapes that
    /// ``image(base:end:words:uuid:path:)`` reads.
    static func image(_ line: Substring) -> BinaryImage? {
        // A report lists hundreds of images: the usual ASCII line is scanned as bytes; anything else (non-ASCII
        // text, a decimal or odd address token) takes the Character-based path, which decides the same way.
        var line = line
        if let image = line.withUTF8({ asciiImage($0) }) { return image }
        return characterImage(line)
    }

    /// The byte scan of an ASCII image line; `nil` when the line is not of the usual shape, for
    /// ``characterImage(_:)`` to decide.
    private static func asciiImage(_ bytes: UnsafeBufferPointer<UInt8>) -> BinaryImage? {
        let isWhitespace = CrashBytes.isSpace
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        /// `0x` and hex digits up to `end`; `nil` for anything else.
        func hex(_ range: Range<Int>) -> UInt64? {
            guard range.count > 2, range.count <= 18, bytes[range.lowerBound] == 0x30,
                bytes[range.lowerBound + 1] | 0x20 == 0x78
            else { return nil }
            var value: UInt64 = 0
            for byte in bytes[(range.lowerBound + 2)..<range.upperBound] {
                guard isHexDigit(byte) else { return nil }
                value = value << 4 | UInt64(byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x57)
            }
            return value
        }
        // Vertical tab and form feed count as white space between words but are not trimmed from the ends: left
        // to the Character path, like any non-ASCII byte.
        guard CrashBytes.isPlainASCII(bytes) else { return nil }
        let text = CrashBytes.trimmed(bytes)
        var position = text.lowerBound
        let limit = text.upperBound
        let baseStart = position
        while position < limit, bytes[position] != 0x20, bytes[position] != 0x2D { position += 1 }
        // The line must begin with a lowercase `0x`.
        guard position - baseStart > 2, bytes[baseStart + 1] == 0x78, let base = hex(baseStart..<position) else {
            return nil
        }
        while position < limit, bytes[position] == 0x20 { position += 1 }
        guard position < limit, bytes[position] == 0x2D else { return nil }
        position += 1
        while position < limit, bytes[position] == 0x20 { position += 1 }
        let endStart = position
        while position < limit, !isWhitespace(bytes[position]) { position += 1 }
        let end: UInt64?
        if position - endStart == 3, bytes[endStart] == 0x3F, bytes[endStart + 1] == 0x3F, bytes[endStart + 2] == 0x3F {
            end = nil
        } else {
            guard let value = hex(endStart..<position) else { return nil }
            end = value
        }
        while position < limit, isWhitespace(bytes[position]) { position += 1 }
        var nameEnd = limit
        var uuid: Range<Int>?
        var path: String?
        if let open = bytes[position..<limit].firstIndex(of: 0x3C),
            let close = bytes[(open + 1)..<limit].firstIndex(of: 0x3E)
        {
            uuid = (open + 1)..<close
            nameEnd = open
            var pathStart = close + 1
            while pathStart < limit, isWhitespace(bytes[pathStart]) { pathStart += 1 }
            path = pathStart < limit ? string(pathStart..<limit) : nil
        }
        // The usual line: `[+]NAME ARCH`, two words, made into the image's strings with no list of words between.
        if let (name, arch) = twoWords(bytes, position..<nameEnd), bytes[name.lowerBound] != UInt8(ascii: "("),
            case let isApp = bytes[name.lowerBound] == UInt8(ascii: "+"), !isApp || name.count > 1,
            case let archText = string(arch), isArchitecture(archText)
        {
            let normalizedUUID = uuid.flatMap { UUIDText.normalize(utf8: UnsafeBufferPointer(rebasing: bytes[$0])) }
            return BinaryImage(
                name: string(isApp ? name.dropFirst() : name), path: path,
                arch: archText == "unknown-arch" ? nil : archText,
                normalizedUUID: normalizedUUID == placeholderUUID ? nil : normalizedUUID, loadAddress: base,
                endAddress: end, isApp: isApp)
        }
        var words: [String] = []
        var wordStart: Int?
        for index in position..<nameEnd {
            if isWhitespace(bytes[index]) {
                if let start = wordStart { words.append(string(start..<index)) }
                wordStart = nil
            } else if wordStart == nil {
                wordStart = index
            }
        }
        if let start = wordStart { words.append(string(start..<nameEnd)) }
        return image(base: base, end: end, words: words, uuid: uuid.map(string), path: path)
    }

    /// The ranges of the two white-space separated words in `range`; `nil` when there are more or fewer.
    private static func twoWords(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (Range<Int>, Range<Int>)?
    {
        var first: Range<Int>?
        var second: Range<Int>?
        var position = range.lowerBound
        while position < range.upperBound {
            while position < range.upperBound, CrashBytes.isSpace(bytes[position]) { position += 1 }
            guard position < range.upperBound else { break }
            let start = position
            while position < range.upperBound, !CrashBytes.isSpace(bytes[position]) { position += 1 }
            if first == nil {
                first = start..<position
            } else if second == nil {
                second = start..<position
            } else {
                return nil
            }
        }
        guard let first, let second else { return nil }
        return (first, second)
    }

    /// The Character-based scan of an image line.
    private static func characterImage(_ line: Substring) -> BinaryImage? {
        let text = Substring(line.trimmingSpaces)
        guard text.hasPrefix("0x"), let dash = text.firstIndex(of: "-") else { return nil }
        guard let base = CrashNumber.parse(text[..<dash]) else { return nil }
        var rest = text[text.index(after: dash)...].drop { $0 == " " }
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
            // Any white space separates the UUID from the path, a vertical tab or form feed as a space does.
            let after = rest[rest.index(after: close)...].drop(while: \.isWhitespace).trimmingSpaces
            path = after.isEmpty ? nil : after
        }
        let words = nameAndArch.split(whereSeparator: \.isWhitespace).map(String.init)
        return image(base: base, end: end, words: words, uuid: uuid, path: path)
    }

    /// The image from the words between the end address and the UUID: `[+]NAME [(VERSION)] [ARCH]`, or Mac OS X's
    /// `[+]IDENTIFIER VERSION (BUILD)` (macOS 11 and earlier); without a UUID, the words from the first `/` are the
    /// path (joined by single spaces).
    private static func image(base: UInt64, end: UInt64?, words: [String], uuid: String?, path: String?)
        -> BinaryImage?
    {
        var words = words
        var path = path
        if uuid == nil, path == nil, let slash = words.firstIndex(where: { $0.hasPrefix("/") }) {
            path = words[slash...].joined(separator: " ")
            words.removeSubrange(slash...)
        }
        var isApp = false
        var arch: String?
        if let last = words.last, isArchitecture(last) {
            arch = last
            words.removeLast()
        }
        // macOS 12 writes a version token: `(*)`, `(1.0)`, `(400.9.4 - 1.0.0)`.
        if let open = words.lastIndex(where: { $0.hasPrefix("(") }), words.last?.hasSuffix(")") == true {
            words.removeSubrange(open...)
            // Mac OS X wrote the bundle identifier, then its short version before the build in parentheses:
            // `+com.example.App 2.0.0 (2.0.0.322)`, `libcurl.4.dylib ??? (???)`, `Sparkle 1.5 Beta (bzr) (1.5)`.
            if arch == nil, words.count > 1, isVersion(words[1]) { words.removeSubrange(1...) }
        }
        var name = words.joined(separator: " ")
        if name.hasPrefix("+") {
            isApp = true
            name.removeFirst()
        }
        if name.isEmpty, let path { name = path.split(separator: "/").last.map(String.init) ?? path }
        guard !name.isEmpty else { return nil }
        let normalizedUUID = uuid.flatMap(UUIDText.normalize)
        return BinaryImage(
            name: name, path: path, arch: arch == "unknown-arch" ? nil : arch,
            normalizedUUID: normalizedUUID == placeholderUUID ? nil : normalizedUUID, loadAddress: base,
            endAddress: end, isApp: isApp)
    }

    /// The UUID some reporters write for an image they do not know: no UUID.
    private static let placeholderUUID = "00000000-0000-0000-0000-000000000000"

    /// Whether `word` is a short version as Mac OS X wrote it: `2.0.0`, `290`, `1.5b3`, or `???` when unknown.
    private static func isVersion(_ word: String) -> Bool {
        guard let first = word.utf8.first else { return false }
        if word == "???" { return true }
        return (0x30...0x39).contains(first)
            && word.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "+")
            }
    }

    private static func isArchitecture(_ word: String) -> Bool {
        word.hasPrefix("arm64") || word.hasPrefix("armv") || word == "x86_64" || word == "x86_64h" || word == "i386"
            || word == "unknown-arch" || word == "arm"
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
