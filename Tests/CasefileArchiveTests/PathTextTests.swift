import CasefileArchive
import Testing

@Suite struct PathTextTests {
    @Test(arguments: [
        ("/usr/lib/libobjc.A.dylib", "libobjc.A.dylib"),
        ("Sources/App/", "App"),
        ("Modules//module_view.json", "module_view.json"),
        ("ShopApp", "ShopApp"),
        ("/Users/dev/Café/Überweisung.swift", "Überweisung.swift"),
        ("a/b//", "b"),
        ("/ShopApp", "ShopApp"),
        // No component at all: the path as it was.
        ("/", "/"),
        ("//", "//"),
        ("", ""),
    ])
    func takesTheLastNonEmptyComponent(_ path: String, _ expected: String) {
        #expect(PathText.lastComponent(path) == expected)
    }
}
