import CasefileCore
import Foundation
import Testing

/// Display names as Xcode shows them. The expected simplified names come from the Swift toolchain's own
/// `swift-demangle --simplified` (the form Xcode and MacSymbolicator print), run on the same mangled names.
@Suite struct XcodeNameTests {
    static let mangled = [
        "$s10SwiftHello0B11RunnerEntryV4mainyyFZTf4d_n",
        "$s7ShopApp13CartViewModelV5totalSiyF",
        "$s7ShopApp13CartViewModelV5totalSiyFSiSgyXEfU_",
        "$sSa6appendyyxnF",
        "$s7ShopApp4PageC4load4from5limitySS_SitF",
        "$s7ShopApp3BoxV3mapyACyqd__Gqd__xXElFSi_SSTg5",
        "$s7ShopApp3FooV3barSivg",
        "$s7ShopApp14ViewControllerC11viewDidLoadyyFTo",
        "$s7ShopApp4CartC5itemsSayAA4ItemVGvs",
        "$s7ShopApp4CartCACycfc",
        "$s7ShopApp4CartC6remove2atySi_tFyycfU_",
    ]

    static var swiftDemangle: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/swift-demangle" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private static func demangle(_ name: String, simplified: Bool) throws -> String {
        let tool = try #require(swiftDemangle, "swift-demangle (from the Swift toolchain) is not on PATH")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-compact"] + (simplified ? ["--simplified"] : []) + [name]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: mangled)
    func matchesSwiftsSimplifiedDemangling(_ name: String) throws {
        let full = try Self.demangle(name, simplified: false)
        let expected = try Self.demangle(name, simplified: true)
        // As text, the modules of these names are known.
        #expect(XcodeName.simplified(full, modules: ["ShopApp", "SwiftHello", "Swift"]) == expected, "\(full)")
        // A mangled name the report itself carries is demangled first.
        #expect(XcodeName.simplified(name) == expected)
    }

    @Test func demanglesTheNamesInText() throws {
        let expected = try Self.demangle("$s7ShopApp13CartViewModelV5totalSiyF", simplified: true)
        #expect(
            XcodeName.demangled(in: "Fatal error in $s7ShopApp13CartViewModelV5totalSiyF: index out of range.")
                == "Fatal error in \(expected): index out of range.")
        #expect(XcodeName.demangled(in: "cost $5 and _Zoo") == "cost $5 and _Zoo")
    }

    @Test func cxxNamesLoseTheirArgumentListsAndOtherNamesStay() {
        #expect(
            XcodeName.simplified("std::__1::function<void ()>::operator()()")
                == "std::__1::function<void ()>::operator()")
        #expect(XcodeName.simplified("Cart::total(int, char const*) const") == "Cart::total")
        // A parenthesis inside a template argument is not the argument list; the last one outside is.
        #expect(XcodeName.simplified("Queue<void (int)>::push(void (*)(int))") == "Queue<void (int)>::push")
        // Names that are not ASCII are cut at the same character.
        #expect(XcodeName.simplified("Zähler::zähle(Größe const&)") == "Zähler::zähle")
        // Only `operator()` itself: its parentheses are its name, so nothing goes.
        #expect(XcodeName.simplified("Lambda::operator()") == "Lambda::operator()")
        #expect(
            XcodeName.simplified("-[UIViewController loadViewIfRequired]") == "-[UIViewController loadViewIfRequired]")
        #expect(XcodeName.simplified("main") == "main")
        // Text without its module keeps its first component; only a known module goes.
        #expect(XcodeName.simplified("@objc ViewController.viewDidLoad()") == "@objc ViewController.viewDidLoad()")
        #expect(
            XcodeName.simplified("@objc ShopApp.ViewController.viewDidLoad() -> ()", modules: ["ShopApp"])
                == "@objc ViewController.viewDidLoad()")
        #expect(
            XcodeName.simplified(
                "function signature specialization <Arg[0] = Dead> of static iOSCrashingTest.CrashClass.pleaseCrash()",
                modules: ["iOSCrashingTest"]) == "specialized static CrashClass.pleaseCrash()")
    }

    /// Plain qualified names, the most of a backtrace, and the names next to them that need the general rewriting.
    @Test func plainQualifiedNamesLoseOnlyAKnownModule() {
        let modules: Set<String> = ["ShopApp", "Swift"]
        #expect(XcodeName.simplified("ShopApp.CartViewModel.total()", modules: modules) == "CartViewModel.total()")
        #expect(
            XcodeName.simplified("ShopApp.ImageCache.store(_:for:)", modules: modules) == "ImageCache.store(_:for:)")
        #expect(XcodeName.simplified("ShopApp.Cart.count", modules: modules) == "Cart.count")
        #expect(XcodeName.simplified("Feature4ViewModel.load()", modules: modules) == "Feature4ViewModel.load()")
        // No modules named: text keeps its first component.
        #expect(XcodeName.simplified("ShopApp.Cart.total()") == "ShopApp.Cart.total()")
        // Not plain: argument types become labels, a return type goes, generic arguments stay.
        #expect(
            XcodeName.simplified("ShopApp.Page.load(from: Swift.String, limit: Swift.Int) -> ()", modules: modules)
                == "Page.load(from:limit:)")
        #expect(XcodeName.simplified("ShopApp.Box<Swift.Int>.map()", modules: modules) == "Box<Swift.Int>.map()")
        // Text after the argument list is not part of the name.
        #expect(XcodeName.simplified("ShopApp.Cart.total()(x)", modules: modules) == "Cart.total()")
        // Without a dot before the arguments it is not a qualified name.
        #expect(XcodeName.simplified("total(Cart.self)", modules: modules) == "total(Cart.self)")
        #expect(XcodeName.simplified("mach_msg2_internal", modules: modules) == "mach_msg2_internal")
    }
}
