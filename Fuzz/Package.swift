// swift-tools-version:6.1
import PackageDescription

// libFuzzer harnesses for Casefile's parsers and archive reader. Not part of the main package: every target is built
// with `-sanitize=fuzzer,address -parse-as-library` (see `make fuzz`), which a normal build must not get.
let package = Package(
    name: "CasefileFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Casefile", path: "..")],
    targets: [
        .executableTarget(
            name: "casefile-fuzz",
            dependencies: [
                .product(name: "CasefileCore", package: "Casefile"),
                .product(name: "CasefileArchive", package: "Casefile"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
