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
        // The return type starts at the first ` -> ` outside any parentheses.
        var depth = 0
        var end = name.endIndex
        var index = name.startIndex
        while index < name.endIndex {
            let character = name[index]
            if character == "(" { depth += 1 }
            if character == ")" { depth = max(0, depth - 1) }
            if depth == 0, name[index...].hasPrefix(" -> ") {
                end = index
                break
            }
            index = name.index(after: index)
        }
        var result = ""
        depth = 0
        for character in name[..<end] {
            switch character {
            case "(":
                if depth == 0 { result.append("(") }
                depth += 1
            case ")":
                depth = max(0, depth - 1)
                if depth == 0 { result.append(")") }
            default:
                if depth == 0 { result.append(character) }
            }
        }
        return result
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
