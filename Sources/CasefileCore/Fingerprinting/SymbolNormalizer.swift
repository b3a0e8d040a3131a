import Foundation

/// Reduces a function name to its semantic identity for grouping: the same function gives the same text whether
/// the report wrote it mangled, demangled in full, in Apple's short form, specialized, as a thunk or async
/// continuation, from one build or another.
///
/// `ShopApp.CartViewModel.total() -> Swift.Int`, `CartViewModel.total()` and `$s7ShopApp13CartViewModelC5totalSiyF`
/// all become `CartViewModel.total()` in the image `ShopApp`. Closures are named by their enclosing function
/// (`closure in CouponView.apply()`), never by `#N`; generic arguments and argument labels are dropped;
/// Objective-C methods are kept whole; C++ templates, argument lists and lambda numbers are dropped.
public enum SymbolNormalizer {
    /// What a name is, beyond its identity.
    public enum Role: Sendable, Hashable {
        /// An ordinary function.
        case function
        /// A compiler-made thunk or outlined helper with no identity of its own: folded into its neighbour.
        case thunk
    }

    /// The normalized name and its role; `module` is dropped where the name starts with it (the image's name).
    public static func normalize(_ name: String, module: String? = nil) -> (name: String, role: Role) {
        var text = trimmed(name)
        if let demangled = Demangler.demangle(text) { text = demangled }
        if text.hasPrefix("-[") || text.hasPrefix("+[") { return (text, .function) }
        if let block = objcBlock(text) { return (block, .function) }
        text = stripPrefixes(text)
        if thunkMarkers.contains(where: { text.hasPrefix($0) }) { return (text, .thunk) }
        return (normalizeClosures(text, module: module), .function)
    }

    // MARK: - Prefixes

    private static let thunkMarkers = [
        "reabstraction thunk", "thunk for ", "protocol witness for ", "outlined ", "key path getter for ",
        "key path setter for ", "value witness for ", "type metadata accessor for ", "lazy protocol witness table",
        "@objc completion handler block implementation",
    ]

    /// Removes prefixes that name a variant of a function rather than another function: `specialized`, `merged`,
    /// `partial apply for`, `@objc`, async `resume partial function for`, and C++'s `non-virtual thunk to`.
    static func stripPrefixes(_ text: String) -> String {
        var text = Substring(text)
        var changed = true
        while changed {
            changed = false
            // `(1) suspend resume partial function for X`, `(2) await resume partial function for X`.
            if text.hasPrefix("("), let close = text.firstIndex(of: ")"),
                text[text.index(after: text.startIndex)..<close].allSatisfy(\.isNumber)
            {
                text = text[text.index(after: close)...].drop { $0 == " " }
                changed = true
            }
            for prefix in plainPrefixes where text.hasPrefix(prefix) {
                text = text.dropFirst(prefix.count)
                changed = true
            }
            for prefix in specializationPrefixes where text.hasPrefix(prefix) {
                // `generic specialization <Swift.Int> of X`: skip the balanced `<…>` and ` of `.
                var rest = text.dropFirst(prefix.count)
                if rest.hasPrefix("<") { rest = rest[skipBalanced(rest, from: rest.startIndex)...] }
                if rest.hasPrefix(" of ") { rest = rest.dropFirst(4) }
                text = rest
                changed = true
            }
        }
        return String(text)
    }

    private static let plainPrefixes = [
        "specialized ", "merged ", "partial apply for ", "partial apply forwarder for ", "@objc ", "@nonobjc ",
        "dynamic ", "suspend resume partial function for ", "await resume partial function for ",
        "resume partial function for ", "async function pointer to ", "dispatch thunk of ", "static ",
        "non-virtual thunk to ", "virtual thunk to ", "covariant return thunk to ", "globalinit ",
    ]

    private static let specializationPrefixes = [
        "generic specialization ", "function signature specialization ", "generic partial specialization ",
    ]

    // MARK: - Closures

    /// `closure #2 (Swift.Int) -> () in implicit closure #1 in ShopApp.F.g() -> ()` →
    /// `closure in implicit closure in F.g()`.
    private static func normalizeClosures(_ text: String, module: String?) -> String {
        var parts: [String] = []
        var rest = Substring(text)
        while let marker = closureMarker(rest) {
            parts.append(marker.name)
            rest = rest[marker.end...]
            // The closure's type signature runs to ` in ` at bracket depth 0.
            guard let inIndex = indexOfTopLevel(" in ", in: rest) else { return parts.joined(separator: " in ") }
            rest = stripPrefixes(String(rest[rest.index(inIndex, offsetBy: 4)...]))[...]
        }
        parts.append(normalizeFunction(String(rest), module: module))
        return parts.joined(separator: " in ")
    }

    private static func closureMarker(_ text: Substring) -> (name: String, end: Substring.Index)? {
        for (name, marker) in closureMarkers where text.hasPrefix(marker) {
            var index = text.index(text.startIndex, offsetBy: marker.count)
            while index < text.endIndex, text[index].isNumber { index = text.index(after: index) }
            return (name, index)
        }
        return nil
    }

    private static let closureMarkers = [("implicit closure", "implicit closure #"), ("closure", "closure #")]

    // MARK: - Functions

    /// `ShopApp.CartViewModel.total() -> Swift.Int` → `CartViewModel.total()`; `Foo.bar.getter : Swift.Int` →
    /// `Foo.bar.getter`; `std::__1::function<void ()>::operator()() const` → `std::__1::function::operator()`.
    static func normalizeFunction(_ text: String, module: String?) -> String {
        var text = Substring(text)
        if let arrow = indexOfTopLevel(" -> ", in: text) { text = text[..<arrow] }
        if let colon = indexOfTopLevel(" : ", in: text) { text = text[..<colon] }
        // In this order, so `async throws` loses both.
        for suffix in [" const", " throws", " rethrows", " async"] where text.hasSuffix(suffix) {
            text = text.dropLast(suffix.count)
        }
        // Bytes, not Characters: every mark looked for is ASCII, and a name is cut only next to one, so the bytes
        // kept are whole UTF-8 sequences (a first fingerprint of each name spent most of its time here).
        let bytes = text.utf8
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        var previous: UInt8?
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "o"), previous == nil || previous == UInt8(ascii: ":"),
                bytes[index...].starts(with: "operator".utf8)
            {
                // Keep C++ operator names whole: `operator()`, `operator<<`, `operator->`.
                let start = index
                index = bytes.index(index, offsetBy: 8)
                if bytes[index...].starts(with: "()".utf8) {
                    index = bytes.index(index, offsetBy: 2)
                } else {
                    while index < bytes.endIndex, operatorBytes.contains(bytes[index]) {
                        bytes.formIndex(after: &index)
                    }
                }
                result.append(contentsOf: bytes[start..<index])
                previous = result.last
                continue
            }
            switch byte {
            case UInt8(ascii: "<"):
                index = skipBalanced(text, from: index)
            case UInt8(ascii: "("):
                result.append(contentsOf: "()".utf8)
                index = skipBalanced(text, from: index)
            default:
                result.append(byte)
                bytes.formIndex(after: &index)
            }
            previous = byte
        }
        var name = normalizeLambdas(String(decoding: result, as: UTF8.self))
        if name.hasPrefix("(extension in "), let close = name.firstIndex(of: ":") {
            name = String(name[name.index(after: close)...])
        }
        if let module, !module.isEmpty, name.hasPrefix(module + ".") {
            name = String(name.dropFirst(module.count + 1))
        }
        return trimmed(name)
    }

    /// The characters an operator's name is made of after `operator`.
    private static let operatorBytes = Set("<>=!+-*/%&|^~[],".utf8)

    /// `text` without the whitespace at either end (`CharacterSet.whitespaces`). A name that starts and ends with
    /// an ASCII character other than space and tab, as almost every one does, is returned without Foundation's scan.
    static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        func plain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") }
        if plain(first), plain(last) { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// C++ lambdas and anonymous functions lose their numbers: `$_12` → `$_`, `{lambda()#3}` → `{lambda}`,
    /// `'lambda0'` → `'lambda'`. Most names hold neither, which is looked for in the bytes: `String.contains(_:)` went
    /// through Foundation for every frame a fingerprint reads. A name the bytes match but the Characters below do not
    /// (a combining mark after `$_` or `lambda`) comes back unchanged, as before.
    private static func normalizeLambdas(_ text: String) -> String {
        guard text.containsBytes("$_") || text.containsBytes("lambda") else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("$_") {
                result += "$_"
                index = text.index(index, offsetBy: 2)
                while index < text.endIndex, text[index].isNumber { index = text.index(after: index) }
                continue
            }
            if text[index...].hasPrefix("{lambda"), let close = text[index...].firstIndex(of: "}") {
                result += "{lambda}"
                index = text.index(after: close)
                continue
            }
            if text[index...].hasPrefix("'lambda"), let close = text[text.index(after: index)...].firstIndex(of: "'") {
                result += "'lambda'"
                index = text.index(after: close)
                continue
            }
            result.append(text[index])
            index = text.index(after: index)
        }
        return result
    }

    /// `__29-[CartController reload:]_block_invoke_2` → `-[CartController reload:]_block_invoke`.
    private static func objcBlock(_ text: String) -> String? {
        guard text.hasSuffix("]_block_invoke") || text.containsBytes("]_block_invoke_"),
            let open = text.firstIndex(where: { $0 == "-" || $0 == "+" }),
            let close = text.lastIndex(of: "]")
        else { return nil }
        return String(text[open...close]) + "_block_invoke"
    }

    // MARK: - Scanning

    /// The index just past the bracket group opening at `start` (`<…>` or `(…)`, nested, `->` not counted).
    ///
    /// Brackets are ASCII, so the text is scanned as UTF-8 bytes; the index returned follows a bracket byte.
    static func skipBalanced(_ text: Substring, from start: Substring.Index) -> Substring.Index {
        let bytes = text.utf8
        var depth = 0
        var index = start
        var previous = UInt8(ascii: " ")
        while index < bytes.endIndex {
            let byte = bytes[index]
            depth += nesting(byte, after: previous)
            previous = byte
            bytes.formIndex(after: &index)
            if depth == 0 { return index }
        }
        return bytes.endIndex
    }

    /// How `byte` changes the bracket depth: +1 for `<`, `(` or `[`, −1 for `)`, `]` or a `>` that does not end `->`.
    @inline(__always)
    private static func nesting(_ byte: UInt8, after previous: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["): 1
        case UInt8(ascii: ">") where previous != UInt8(ascii: "-"), UInt8(ascii: ")"), UInt8(ascii: "]"): -1
        default: 0
        }
    }

    /// Where `needle`, an ASCII text, first occurs outside any `<…>`, `(…)` or `[…]`; scanned as UTF-8 bytes.
    static func indexOfTopLevel(_ needle: String, in text: Substring) -> Substring.Index? {
        let bytes = text.utf8
        guard let first = needle.utf8.first else { return text.startIndex }
        var depth = 0
        var index = bytes.startIndex
        var previous = UInt8(ascii: " ")
        while index < bytes.endIndex {
            let byte = bytes[index]
            if depth == 0, byte == first, bytes[index...].starts(with: needle.utf8) { return index }
            depth = max(0, depth + nesting(byte, after: previous))
            previous = byte
            bytes.formIndex(after: &index)
        }
        return nil
    }
}
