import Testing

@testable import CasefileCore

/// The byte prefix test that decides, for each of a crash's images, whether its path is the system's at a glance.
@Suite struct ByteScanTests {
    @Test(arguments: [
        ("/System/Library/Frameworks/UIKit.framework/UIKit", true),
        ("/System/", true),
        ("/System", false),
        ("/Systemic/Library/Thing", false),
        ("/system/Library/Thing", false),
        ("", false),
        ("Ünïcode/System/", false),
    ])
    func aPathBeginsWithTheSystemFolderOnlyWhenItsFirstBytesAreIt(path: String, expected: Bool) {
        var path = path
        #expect(path.withUTF8 { ByteScan.hasPrefix($0, "/System/") } == expected)
    }

    @Test func everyTextBeginsWithTheEmptyPrefix() {
        var path = "/usr/lib/dyld"
        #expect(path.withUTF8 { ByteScan.hasPrefix($0, "") })
        var empty = ""
        #expect(empty.withUTF8 { ByteScan.hasPrefix($0, "") })
    }

    @Test(arguments: [
        ("std::function::operator", true),
        ("operator", true),
        ("perator", false),
        ("operators", false),
        ("Zähler::operator", true),
        ("", false),
    ])
    func aNameEndsWithAWordOnlyWhenItsLastBytesAreIt(name: String, expected: Bool) {
        var name = name
        #expect(name.withUTF8 { ByteScan.hasSuffix($0, "operator") } == expected)
        #expect(name.withUTF8 { ByteScan.hasSuffix($0, "") })
    }
}
