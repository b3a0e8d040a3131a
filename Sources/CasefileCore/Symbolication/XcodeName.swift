/// Function names as Xcode shows them, from the full demangled form: the simplified form Swift's demangler gives
/// (`swift-demangle --simplified`) — specializations as `specialized`, closures as `closure #1 in …`, no module
/// prefix, argument labels instead of types, no return type — and C++ names without their argument list. For display
/// only: the index, the JSON and the fingerprints keep the full and the simple names.
public enum XcodeName {
    /// The Xcode form of a demangled name; anything else (Objective-C, C) comes back as it is. A mangled Swift or
    /// C++ name is demangled first, and then its module always goes (the demangler always names it). In text a
    /// report carries, the first component goes only when it is one of `modules` (the app's own module, `Swift`):
    /// `ViewController.viewDidLoad()` may already be without its module.
    public static func simplified(_ name: String, modules: Set<String> = []) -> String {
        if let demangled = Demangler.demangle(name) { return simplify(demangled, modules: nil) }
        return simplify(name, modules: modules)
    }

    /// `text` with every mangled Swift name in it (`$s…`, `_$s…`, `$S…`, `_T0…`) and every nested C++ name
    /// (`_ZN…`) shown as Xcode shows it: for exception reasons, log lines and other text a report carries. (A short
    /// word like `_Zoo` is valid C++ mangling too — `operator||` — so only nested C++ names count in text.)
    public static func demangled(in text: String) -> String {
        guard
            text.containsBytes("$s") || text.containsBytes("$S") || text.containsBytes("_T0")
                || text.containsBytes("_ZN")
        else {
            return text
        }
        var output = ""
        var word = ""
        func flush() {
            if !word.isEmpty {
                let mangled = !word.hasPrefix("_Z") || word.hasPrefix("_ZN")
                output += (mangled ? Demangler.demangle(word) : nil).map { simplify($0, modules: nil) } ?? word
                word = ""
            }
        }
        for character in text {
            if character.isLetter || character.isNumber || character == "_" || character == "$" {
                word.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        return output
    }

    /// `modules` nil: the first component of a qualified name is a module.
    private static func simplify(_ name: String, modules: Set<String>?) -> String {
        if isCxx(name) { return cxx(name) }
        guard isSwift(name) else { return name }
        return swift(Substring(name), modules: modules)
    }

    private static func isSwift(_ name: String) -> Bool {
        !name.hasPrefix("-[") && !name.hasPrefix("+[") && !name.containsBytes("::") && name.utf8.contains(0x2E)
    }

    private static func isCxx(_ name: String) -> Bool {
        name.containsBytes("::") && !name.hasPrefix("-[") && !name.hasPrefix("+[")
    }

    /// `std::__1::function<void ()>::operator()()` → `std::__1::function<void ()>::operator()`.
    ///
    /// The argument list is the last group of parentheses outside every other bracket. Over the name's bytes: the
    /// brackets are ASCII, which UTF-8 never uses inside another character, and walking the name's characters cost a
    /// grapheme break test for each.
    private static func cxx(_ name: String) -> String {
        guard name.hasSuffix(")") || name.hasSuffix(" const") else { return name }
        let cut: Int? = name.withUTF8Bytes { bytes in
            var depth = 0
            var lastOpen: Int?
            for (position, byte) in bytes.enumerated() {
                switch byte {
                case UInt8(ascii: "<"): depth += 1
                case UInt8(ascii: ">"), UInt8(ascii: ")"): depth = max(0, depth - 1)
                case UInt8(ascii: "("):
                    // `operator()` names its own parentheses: the argument list is the group after them. A group
                    // inside another (a function pointer's arguments) is not the list either.
                    if depth == 0, !ByteScan.hasSuffix(UnsafeBufferPointer(rebasing: bytes[..<position]), "operator") {
                        lastOpen = position
                    }
                    depth += 1
                default: break
                }
            }
            return lastOpen
        }
        guard let cut else { return name }
        return String(decoding: name.utf8.prefix(cut), as: UTF8.self)
    }

    private static func swift(_ name: Substring, modules: Set<String>?) -> String {
        if let plain = plainQualified(name, modules: modules) { return plain }
        for wrapper in [
            "function signature specialization ", "generic specialization ", "generic partial specialization ",
        ]
        where name.hasPrefix(wrapper) {
            let rest = name.dropFirst(wrapper.count)
            guard let close = matching(rest, open: "<", close: ">"), let of = topLevel(" of ", in: rest[close...])
            else {
                return String(name)
            }
            return "specialized " + swift(rest[of.upperBound...], modules: modules)
        }
        for closure in ["closure #", "implicit closure #"] where name.hasPrefix(closure) {
            // `closure #1 () -> Swift.Int? in X`: the signature goes, the enclosing function is simplified.
            guard let space = name.dropFirst(closure.count).firstIndex(of: " "),
                let inRange = topLevel(" in ", in: name[space...])
            else { return String(name) }
            return String(name[..<space]) + " in " + swift(name[inRange.upperBound...], modules: modules)
        }
        var body = name
        if let arrow = topLevel(" -> ", in: body) { body = body[..<arrow.lowerBound] }
        if let colon = topLevel(" : ", in: body) { body = body[..<colon.lowerBound] }
        var keywords = ""
        for keyword in ["@objc ", "@nonobjc ", "static ", "class ", "dynamic "] where body.hasPrefix(keyword) {
            keywords += keyword
            body = body.dropFirst(keyword.count)
        }
        let open = topLevelIndex("(", in: body) ?? body.endIndex
        var path = body[..<open]
        // Only a qualified Swift name (`Module.Type.member`, generic arguments allowed) is rewritten; any other text
        // with a dot in it stays as it is.
        guard path.contains("."), isQualifiedName(path) else { return String(name) }
        if let dot = topLevelIndex(".", in: path), modules.map({ $0.contains(String(path[..<dot])) }) ?? true {
            path = path[path.index(after: dot)...]
        }
        var arguments = ""
        if open < body.endIndex, let close = matching(body[open...], open: "(", close: ")") {
            let inside = body[body.index(after: open)..<body.index(before: close)]
            // Already labels (`(_:for:)`, as a report may carry them): kept.
            let isLabels = inside.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }
            arguments = "(" + (isLabels ? String(inside) : parameters(inside).map { label($0) }.joined()) + ")"
        }
        return keywords + path + arguments
    }

    /// The rewriting of `Module.Type.member` or `Module.Type.member(label:_:)` — ASCII identifiers and dots, then at
    /// most one argument list of labels that ends the name — which is most names of a backtrace: the first component
    /// goes when it is a module, the rest stays. Read byte by byte, as none of the general rewriting's searches for
    /// `" -> "`, wrappers and brackets can match in such a name; `nil` for any other name.
    private static func plainQualified(_ name: Substring, modules: Set<String>?) -> String? {
        var firstDot: Int?
        var open: Int?
        var offset = 0
        let last = name.utf8.count - 1
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                break
            case UInt8(ascii: ".") where open == nil:
                if firstDot == nil { firstDot = offset }
            case UInt8(ascii: "(") where open == nil:
                open = offset
            case UInt8(ascii: ":") where open != nil:
                break
            case UInt8(ascii: ")") where open != nil && offset == last:
                break
            default:
                return nil
            }
            offset += 1
        }
        guard let firstDot, open.map({ _ in name.utf8.last == UInt8(ascii: ")") }) ?? true else { return nil }
        let start = name.utf8.index(name.startIndex, offsetBy: firstDot)
        guard modules.map({ $0.contains(String(name[..<start])) }) ?? true else { return String(name) }
        return String(name[name.utf8.index(after: start)...])
    }

    /// Identifier characters and dots, with anything inside `<…>` (generic arguments) allowed.
    private static func isQualifiedName(_ path: Substring) -> Bool {
        var depth = 0
        for character in path {
            switch character {
            case "<": depth += 1
            case ">": depth = max(0, depth - 1)
            default:
                if depth == 0, !(character.isLetter || character.isNumber || character == "_" || character == ".") {
                    return false
                }
            }
        }
        return true
    }

    /// `from: Swift.String` → `from:`, `__owned A` → `_:`.
    private static func label(_ parameter: Substring) -> String {
        let trimmed = parameter.drop { $0 == " " }
        if let colon = trimmed.firstIndex(of: ":"),
            trimmed[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !trimmed[..<colon].isEmpty
        {
            return String(trimmed[..<colon]) + ":"
        }
        return "_:"
    }

    private static func parameters(_ text: Substring) -> [Substring] {
        guard !text.isEmpty else { return [] }
        var parts: [Substring] = []
        var depth = 0
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "(", "<", "[": depth += 1
            case ")", ">", "]": depth = max(0, depth - 1)
            case "," where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
            index = text.index(after: index)
        }
        parts.append(text[start...])
        return parts
    }

    /// The index just past the bracket that closes the one `text` starts with.
    private static func matching(_ text: Substring, open: Character, close: Character) -> String.Index? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return text.index(after: index) }
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func topLevel(_ needle: String, in text: Substring) -> Range<String.Index>? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "(", "<", "[": depth += 1
            case ")", ">", "]": depth = max(0, depth - 1)
            default:
                if depth == 0, text[index...].hasPrefix(needle) {
                    return index..<text.index(index, offsetBy: needle.count)
                }
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func topLevelIndex(_ character: Character, in text: Substring) -> String.Index? {
        var depth = 0
        for index in text.indices {
            switch text[index] {
            case "<", "[": depth += 1
            case ">", "]": depth = max(0, depth - 1)
            default: if depth == 0, text[index] == character { return index }
            }
        }
        return nil
    }
}
