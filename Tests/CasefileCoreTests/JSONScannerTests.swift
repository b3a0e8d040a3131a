import Foundation
import Testing

@testable import CasefileCore

/// Strings with escapes, read by the scanner without a parser when every escape is of one character.
@Suite struct JSONScannerTests {
    /// Foundation's decoder is the oracle: the scanner's text for each body is what `JSONDecoder` reads from it.
    @Test(arguments: [
        #"\/usr\/lib\/system\/libdispatch.dylib"#,
        #"\/var\/Ünïcode\/My App.app\/My App"#,
        #"a\"b\\c"#,
        #"\b\f\n\r\t"#,
        #"ends in an escaped backslash \\"#,
        #"\\\/\"\\"#,
    ])
    func decodesOneCharacterEscapesAsJSONDoes(_ body: String) throws {
        let expected = try JSONDecoder().decode(String.self, from: Data("\"\(body)\"".utf8))
        let text = Array(body.utf8).withUnsafeBufferPointer { JSONScanner.unescaped($0) }
        #expect(text == expected)
    }

    /// A `\u` escape, a raw control character and a broken escape are left to the parser (its tolerance, its errors).
    @Test(arguments: [#"caf\u00e9"#, "raw\ttab \\/", #"lone backslash at the end \"#, #"\x41"#])
    func leavesEverythingElseToTheParser(_ body: String) {
        #expect(Array(body.utf8).withUnsafeBufferPointer { JSONScanner.unescaped($0) } == nil)
    }

    /// Through the `.ips` reader: the sample's image paths, every slash escaped as Apple writes them, and a path with
    /// a `\u` escape beside slashes.
    @Test func readsEscapedImagePathsOfAnIPS() throws {
        let original = try String(
            contentsOfFile: Samples.sample("Crashes/cart-total-iphone14-ios16.ips"), encoding: .utf8)
        let read = try #require(try crashes("cart-total-iphone14-ios16.ips").first)
        #expect(read.images.map(\.path).contains("/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"))
        #expect(read.images.map(\.path).contains("/usr/lib/system/libsystem_kernel.dylib"))

        let edited = original.replacingOccurrences(
            of: #""\/usr\/lib\/dyld""#, with: #""\/usr\/lib\/dyld-caf\u00e9""#)
        #expect(edited != original)
        guard case .crashes(_, let crashes, _) = CrashReportParser().parse(Array(edited.utf8), file: "t.ips"),
            let crash = crashes.first
        else {
            Issue.record("the edited .ips was not read")
            return
        }
        #expect(crash.images.map(\.path).contains("/usr/lib/dyld-café"))
    }

    /// Numbers and booleans read on their bytes where they can be: each as the tree parser reads the same token, in an
    /// array as a member is read (the oracle is `JSONValue.double` and `.bool` of the parsed token).
    @Test(arguments: [
        "0", "7", "-3", "538.5", "0.7215686274509804", "-0.0", "2e2", "1.5E-3", "12345678901234567890",
        "9223372036854775807", "9223372036854775808", "007", #""7""#, "true", "false", "1", "null", "{}",
    ])
    func readsScalarsAsTheTreeDoes(_ token: String) throws {
        let tree = try JSONParser.parse(Array(token.utf8))
        let bytes = Array("[\(token)]".utf8)
        func read<T>(_ body: (inout JSONScanner) throws -> T?) throws -> T? {
            try bytes.withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(buffer, strict: true)
                var value: T?
                try scanner.elements { scanner in value = try body(&scanner) }
                return value
            }
        }
        #expect(try read { try $0.double() }.map(\.bitPattern) == tree.double.map(\.bitPattern))
        #expect(try read { try $0.bool() } == tree.bool)
    }

    /// A UUID read from its bytes gives the normal form, lowercase and dashed, as reading the string and normalizing it
    /// does; an escaped one is decoded first; anything that is not a UUID reads as none, and the scanner moves past it.
    @Test(
        arguments: [
            (#""4C4C4499-5555-3144-A1F6-F6E2FBBB7250""#, "4c4c4499-5555-3144-a1f6-f6e2fbbb7250"),
            (#""4c4c449955553144a1f6f6e2fbbb7250""#, "4c4c4499-5555-3144-a1f6-f6e2fbbb7250"),
            (#""4C4C4499\u002D5555-3144-A1F6-F6E2FBBB7250""#, "4c4c4499-5555-3144-a1f6-f6e2fbbb7250"),
            (#""not a uuid""#, nil),
            (#""4C4C4499-5555-3144-A1F6-F6E2FBBB72""#, nil),
            ("null", nil),
            ("42", nil),
            (#"{"uuid":"4C4C4499-5555-3144-A1F6-F6E2FBBB7250"}"#, nil),
        ] as [(String, String?)])
    func readsAUUIDInItsNormalForm(_ token: String, _ expected: String?) throws {
        let bytes = Array("[\(token), 7]".utf8)
        var uuid: String?
        var after: Double?
        try bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, strict: true)
            var position = 0
            try scanner.elements { scanner in
                if position == 0 { uuid = try scanner.uuid() } else { after = try scanner.double() }
                position += 1
            }
        }
        #expect(uuid == expected)
        #expect(after == 7)
    }
}
