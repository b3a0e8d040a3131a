import Foundation

/// Swift and C++ names, demangled in process: Swift through the runtime's `swift_demangle`, C++ through the
/// C++ runtime's `__cxa_demangle`. No process is started per name.
public enum Demangler {
    /// The demangled form of a Swift (`$s…`, `_$s…`, `$S…`) or C++ (`_Z…`) name; `nil` for anything else.
    public static func demangle(_ name: String) -> String? {
        let swiftPrefixes = ["$s", "_$s", "$S", "_$S", "$e", "_$e", "_T0"]
        if swiftPrefixes.contains(where: { name.hasPrefix($0) }) {
            return swift(name)
        }
        if name.hasPrefix("_Z") || name.hasPrefix("__Z") {
            return cxx(name.hasPrefix("__Z") ? String(name.dropFirst()) : name)
        }
        return nil
    }

    /// Drops argument lists and return types: `ShopApp.CartViewModel.total() -> Swift.Int` →
    /// `ShopApp.CartViewModel.total()`, `foo(int, char const*)` → `foo()`.
    public static func simplify(_ name: String) -> String {
        // On the name's bytes: every delimiter is ASCII (`(`, `)`, ` -> `), so the cuts fall between characters;
        // a Character scan cost more than the lookups it follows (a quarter of reading llvm-symbolizer's answers).
        let utf8 = Array(name.utf8)
        guard utf8.contains(UInt8(ascii: "(")) || utf8.contains(UInt8(ascii: ">")) else { return name }
        // The return type starts at the first ` -> ` outside any parentheses.
        var depth = 0
        var end = utf8.count
        for index in utf8.indices {
            let byte = utf8[index]
            if byte == UInt8(ascii: "(") { depth += 1 }
            if byte == UInt8(ascii: ")") { depth = max(0, depth - 1) }
            if depth == 0, byte == 0x20, index + 4 <= utf8.count, utf8[index + 1] == UInt8(ascii: "-"),
                utf8[index + 2] == UInt8(ascii: ">"), utf8[index + 3] == 0x20
            {
                end = index
                break
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity(end)
        depth = 0
        for byte in utf8[..<end] {
            switch byte {
            case UInt8(ascii: "("):
                if depth == 0 { result.append(byte) }
                depth += 1
            case UInt8(ascii: ")"):
                depth = max(0, depth - 1)
                if depth == 0 { result.append(byte) }
            default:
                if depth == 0 { result.append(byte) }
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func swift(_ name: String) -> String? {
        let mangled = name.hasPrefix("_$") ? String(name.dropFirst()) : name
        return mangled.withCString { pointer -> String? in
            guard let demangled = swiftDemangle(pointer, mangled.utf8.count, nil, nil, 0) else { return nil }
            defer { free(demangled) }
            let text = String(cString: demangled)
            return text == mangled ? nil : text
        }
    }

    private static func cxx(_ name: String) -> String? {
        name.withCString { pointer -> String? in
            var status: Int32 = 0
            guard let demangled = cxaDemangle(pointer, nil, nil, &status), status == 0 else { return nil }
            defer { free(demangled) }
            return String(cString: demangled)
        }
    }
}

@_silgen_name("swift_demangle")
private func swiftDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

@_silgen_name("__cxa_demangle")
private func cxaDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ length: UnsafeMutablePointer<Int>?, _ status: UnsafeMutablePointer<Int32>?
) -> UnsafeMutablePointer<CChar>?
