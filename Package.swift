// swift-tools-version:6.1
import PackageDescription

/// One set of Swift settings for every target: Swift 6 mode plus the upcoming features the house style asks for.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// jemalloc in place of glibc's malloc, for the programs that run the pipeline: a run allocates and frees millions of
/// small strings and arrays on two threads at once. mimalloc took 3–5 % off glibc's time (1,000 inputs: 1.21 → 1.15 s
/// wall; 10,000: 11.81 → 11.39 s). Debian's jemalloc 5.3, with the options of `CJemallocSettings` (freed pages returned
/// sooner, which keeps 24 long recordings within 150 MB), took 8.7 % of processor time off mimalloc 2.0's on the bench's
/// 1,000 inputs (12 alternating rounds: 2.02 → 1.84 s) and 7–21 % in three alternating rounds of 10,000, peaking at
/// 89–92 MB instead of 101–105 MB (Benchmarks/2026-12.md, 2026-12-04). Linked, not preloaded: the library comes before
/// the C library in the link, so its `malloc` and `free` are the process's. `CJemallocSettings` carries it, so a
/// program gets the allocator and its options together by depending on that target: `casefile`, `casefile-benchmarks`,
/// and the test bundle through the end-to-end tests' dependency on `casefile`; the libraries do not, so the fuzz
/// harnesses, built from them with AddressSanitizer, keep its allocator.
let fastAllocator: [LinkerSetting] = [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]

let package = Package(
    name: "Casefile",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "casefile", targets: ["casefile"]),
        .executable(name: "casefile-publish", targets: ["casefile-publish"]),
        .library(name: "CasefileCore", targets: ["CasefileCore"]),
        .library(name: "CasefileStore", targets: ["CasefileStore"]),
        .library(name: "CasefileArchive", targets: ["CasefileArchive"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"])]
        ),
        // zstd itself, for writing the index's blobs (BlobCompression): libarchive's zstd filter cannot be told the
        // input's size or keep its context between blobs; with it, the crash blobs of the 1,000-input bench inbox took
        // 0.21 s on one core instead of 0.18 s. Blobs are still read through libarchive.
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // sqlite3_config, which Swift cannot call (variadic), for SQLite's process-wide options (SQLiteSettings).
        .systemLibrary(
            name: "CSQLiteSettings",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "CasefileArchive",
            dependencies: [
                "CArchive",
                "CZstd",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CasefileCore",
            dependencies: [
                "CasefileArchive",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CasefileStore",
            dependencies: [
                "CasefileArchive",
                "CasefileCore",
                "CSQLiteSettings",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C interface, for binding row values without boxing them (RowBinder).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CasefileTracker",
            dependencies: [
                "CasefileCore",
                "CasefileStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "casefile-publish",
            dependencies: [
                "CasefileCore",
                "CasefileStore",
                "CasefileTracker",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/casefile-publish",
            swiftSettings: swiftSettings
        ),
        // The allocator and the options it reads when the process starts (JemallocSettings.c), as one dependency: a
        // program that links jemalloc gets its options with it.
        .target(name: "CJemallocSettings", linkerSettings: fastAllocator),
        .executableTarget(
            name: "casefile",
            dependencies: [
                "CJemallocSettings",
                "CasefileCore",
                "CasefileStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "casefile-benchmarks",
            dependencies: ["CJemallocSettings", "CasefileArchive", "CasefileCore", "CasefileStore"],
            path: "Sources/CasefileBenchmarks",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CasefileArchiveTests",
            dependencies: ["CasefileArchive"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CasefileCoreTests",
            dependencies: ["CasefileCore", "CasefileArchive"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CasefileStoreTests",
            dependencies: ["CasefileStore", "CasefileCore", "CArchive", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CasefileEndToEndTests",
            dependencies: ["casefile", "casefile-publish", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
    ]
)
