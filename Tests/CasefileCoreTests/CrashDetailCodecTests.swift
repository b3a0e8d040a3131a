import CasefileArchive
import CasefileCore
import Testing

@Suite struct CrashDetailCodecTests {
    /// Fields holding the codec's separators and escapes — tab, newline, carriage return, backslash — an empty string,
    /// non-ASCII text and nil come back exactly as they went in.
    @Test func keepsEveryFieldThroughTheBlob() throws {
        var crash = Crash(format: .appleText)
        crash.images = [
            BinaryImage(
                name: "My\tApp", path: "/var/Ünïcode/My\tApp.app/My\tApp", arch: "arm64",
                uuid: "8f3c2a1b-4d5e-4f60-9a7b-1c2d3e4f5a6b", loadAddress: 0x1_0000_0000, endAddress: 0x1_0000_ffff,
                isApp: true),
            BinaryImage(name: "libsystem_kernel.dylib", loadAddress: 0x1_8000_0000),
        ]
        crash.threads = [
            CrashThread(
                index: 0, name: "", queue: "com.apple.main-thread\\queue", crashed: true,
                frames: [
                    Frame(
                        image: "My\tApp", address: 0x1_0000_1234, imageLoadAddress: 0x1_0000_0000,
                        imageOffset: 0x1234, symbol: "closure #1 in\nView.body\r.getter \\ é", symbolOffset: 12,
                        file: "View.swift", line: 41, inlined: true),
                    Frame(image: "libsystem_kernel.dylib", address: 0x1_8000_0010),
                    Frame(address: 0x42),
                ]),
            CrashThread(index: 1),
        ]
        let decoded = try CrashDetailCodec.decode(try CrashDetailCodec.encode(crash))
        #expect(decoded.images == crash.images)
        #expect(decoded.threads == crash.threads)
    }

    /// A frame inside a listed image — the image's name and load address, its offset from it — is written by the
    /// image's position and comes back whole, its UUID (or the lack of one) included; frames that disagree with their
    /// image keep every field.
    @Test func writesFramesInAListedImageByPosition() throws {
        var crash = Crash(format: .ips)
        crash.images = [
            BinaryImage(
                name: "libdyld.dylib", uuid: "aaaaaaaa-0000-0000-0000-000000000001", loadAddress: 0x1_8000_0000),
            BinaryImage(
                name: "Shop", uuid: "bbbbbbbb-0000-0000-0000-000000000002", loadAddress: 0x1_0000_0000,
                endAddress: 0x1_0fff_ffff, isApp: true),
        ]
        var inShop = Frame(
            image: "Shop", address: 0x1_0000_4a10, imageLoadAddress: 0x1_0000_0000, imageOffset: 0x4a10,
            symbol: "Cart.total()", symbolOffset: 0x10)
        inShop.imageUUID = "bbbbbbbb-0000-0000-0000-000000000002"
        inShop.symbolication = FrameSymbolication(
            status: .symbolicated(backend: "index"),
            locations: [SourceLocation(rawName: "Cart.total()", file: "Cart.swift", line: 88)])
        // The report's offset is not address less load address: kept as written.
        var oddOffset = inShop
        oddOffset.imageOffset = 0x4a00
        // Named like no image at that load address.
        var renamed = inShop
        renamed.image = "Shop.debug.dylib"
        // As most reports have it: the frame names no UUID, its image does.
        var withoutUUID = inShop
        withoutUUID.imageUUID = nil
        crash.threads = [CrashThread(index: 0, crashed: true, frames: [inShop, oddOffset, renamed, withoutUUID])]

        let blob = try CrashDetailCodec.encode(crash).blob
        let lines = String(decoding: try BlobCompression.decompress(blob), as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "casefile-crash-detail 3")
        let frameLines = lines.filter { $0.hasPrefix("G\t") || $0.hasPrefix("F\t") }
        #expect(frameLines.map { $0.prefix(4) } == ["G\t1\t", "F\tSh", "F\tSh", "G\t1\t"])
        #expect(!frameLines[0].contains("Shop\t"))
        let decoded = try CrashDetailCodec.decode(blob)
        #expect(decoded.threads == crash.threads)
        #expect(decoded.images == crash.images)
    }

    /// Frames that move between images, and through a load address no image has, each find their own image: the
    /// image found for one load address is not taken for the next frame's. The function written is the frame's last
    /// location (the one the inlined ones were inlined into).
    @Test func findsEachFramesImageAsFramesMoveBetweenImages() throws {
        var crash = Crash(format: .ips)
        crash.images = [
            BinaryImage(name: "libdyld.dylib", loadAddress: 0x1_8000_0000),
            BinaryImage(name: "Shop", loadAddress: 0x1_0000_0000, isApp: true),
        ]
        func frame(_ image: String, load: UInt64, offset: UInt64) -> Frame {
            Frame(image: image, address: load + offset, imageLoadAddress: load, imageOffset: offset)
        }
        var inlined = frame("Shop", load: 0x1_0000_0000, offset: 0x20)
        inlined.symbolication = FrameSymbolication(
            status: .symbolicated(backend: "dwarf"),
            locations: [
                SourceLocation(rawName: "price(of:)", file: "Price.swift", line: 7),
                SourceLocation(rawName: "Cart.total()", file: "Cart.swift", line: 88),
            ])
        crash.threads = [
            CrashThread(
                index: 0, crashed: true,
                frames: [
                    frame("Shop", load: 0x1_0000_0000, offset: 0x10),
                    frame("libdyld.dylib", load: 0x1_8000_0000, offset: 0x30),
                    frame("Unlisted", load: 0x2_0000_0000, offset: 0x40),
                    inlined,
                    frame("Shop", load: 0x2_0000_0000, offset: 0x50),
                ])
        ]
        let lines = String(
            decoding: try BlobCompression.decompress(try CrashDetailCodec.encode(crash).blob), as: UTF8.self
        )
        .split(separator: "\n")
        #expect(
            lines.filter { $0.hasPrefix("G\t") || $0.hasPrefix("F\t") } == [
                "G\t1\t\t100000010\t\t\t\t\t0\t\t\t",
                "G\t0\t\t180000030\t\t\t\t\t0\t\t\t",
                "F\tUnlisted\t\t200000040\t200000000\t40\t\t\t\t\t0\t\t\t",
                "G\t1\t\t100000020\t\t\t\t\t0\tCart.total()\tCart.swift\t88",
                "F\tShop\t\t200000050\t200000000\t50\t\t\t\t\t0\t\t\t",
            ])
    }

    /// The exact text of a frame line, written out by hand: escapes found after bytes that stop the eight-byte scan
    /// without needing an escape themselves (a quote, a control character), at every offset of a word; numbers at
    /// their extremes (zero, the largest address, a negative line).
    @Test func writesFieldsAndNumbersAsTheFormatSays() throws {
        var crash = Crash(format: .appleText)
        // The symbol: 9 plain bytes, a quote, 0x01, then a tab at offset 17 and a backslash as the last byte.
        let symbol = "abcdefghi\"\u{01}xxxxxx\tyz\\"
        crash.threads = [
            CrashThread(
                index: 3, name: "\"quoted\"",
                frames: [
                    Frame(
                        image: "Lib", address: UInt64.max, imageLoadAddress: 0, imageOffset: 0, symbol: symbol,
                        symbolOffset: 0x1f, file: "a\rb", line: -1)
                ])
        ]
        let lines = String(
            decoding: try BlobCompression.decompress(try CrashDetailCodec.encode(crash).blob), as: UTF8.self
        )
        .split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines == [
                "casefile-crash-detail 3",
                "T\t3\t\"quoted\"\t\t0",
                "F\tLib\t\tffffffffffffffff\t0\t0\tabcdefghi\"\u{01}xxxxxx\\tyz\\\\\t1f\ta\\rb\t-1\t0\t\t\t",
                "",
            ])
        for offset in 0..<24 {
            var shifted = crash
            shifted.threads[0].frames[0].symbol = String(repeating: "s", count: offset) + "\t\"" + symbol
            shifted.threads[0].frames[0].line = offset == 0 ? Int.min : offset
            let decoded = try CrashDetailCodec.decode(try CrashDetailCodec.encode(shifted))
            #expect(decoded.threads == shifted.threads)
        }
    }

    /// Addresses of every length, written as the standard library writes hexadecimal.
    @Test func writesAddressesOfEveryLengthInHexadecimal() throws {
        var values: [UInt64] = [0, 0xa, 0xf, 0x10, 0x1_8000_0010, 0x8000_0000_0000_1234]
        for shift in 0..<64 {
            values += [1 << shift, (1 << shift) - 1, 0x0123_4567_89ab_cdef >> shift]
        }
        var crash = Crash(format: .appleText)
        crash.threads = [
            CrashThread(
                index: 0, frames: values.map { Frame(image: "Lib", address: $0, line: Int(truncatingIfNeeded: $0)) })
        ]
        let lines = String(
            decoding: try BlobCompression.decompress(try CrashDetailCodec.encode(crash).blob), as: UTF8.self
        )
        .split(separator: "\n").filter { $0.hasPrefix("F\t") }
        try #require(lines.count == values.count)
        for (line, value) in zip(lines, values) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(fields[3] == String(value, radix: 16)[...])
            #expect(fields[9] == String(Int(truncatingIfNeeded: value))[...])
        }
    }

    /// A crash whose text is many times what the writer first sets aside (long symbols in many frames) comes back
    /// whole.
    @Test func keepsACrashLargerThanItsFirstEstimate() throws {
        var crash = Crash(format: .ips)
        crash.images = [BinaryImage(name: "Shop", loadAddress: 0x1_0000_0000, endAddress: 0x1_0fff_ffff, isApp: true)]
        let frames = (0..<2_000).map { index in
            Frame(
                image: "Shop", address: 0x1_0000_0000 + UInt64(index) * 4, imageLoadAddress: 0x1_0000_0000,
                imageOffset: UInt64(index) * 4,
                symbol: "generic specialization <\(index)> of " + String(repeating: "Ü", count: 300))
        }
        crash.threads = [CrashThread(index: 0, crashed: true, frames: frames)]
        let decoded = try CrashDetailCodec.decode(try CrashDetailCodec.encode(crash))
        #expect(decoded.threads == crash.threads)
        #expect(decoded.images == crash.images)
    }

    /// Blobs written before version 2 — every frame with its image's name and addresses — still decode.
    @Test func readsVersionOneBlobs() throws {
        let text = [
            "casefile-crash-detail 1",
            "I\tShop\t\tarm64\tbbbbbbbb-0000-0000-0000-000000000002\t100000000\t10fffffff\t1",
            "T\t0\t\tcom.apple.main-thread\t1",
            "F\tShop\tbbbbbbbb-0000-0000-0000-000000000002\t100004a10\t100000000\t4a10\tCart.total()\t10"
                + "\tCart.swift\t88\t0\tCart.total()\tCart.swift\t88",
        ].joined(separator: "\n")
        let decoded = try CrashDetailCodec.decode(try BlobCompression.compress(Array(text.utf8)))
        #expect(decoded.images.map(\.name) == ["Shop"])
        #expect(decoded.images.first?.endAddress == 0x1_0fff_ffff)
        let frame = try #require(decoded.threads.first?.frames.first)
        #expect(decoded.threads.first?.queue == "com.apple.main-thread")
        #expect(frame.image == "Shop")
        #expect(frame.imageUUID == "bbbbbbbb-0000-0000-0000-000000000002")
        #expect(frame.address == 0x1_0000_4a10)
        #expect(frame.imageLoadAddress == 0x1_0000_0000)
        #expect(frame.imageOffset == 0x4a10)
        #expect(frame.symbolOffset == 0x10)
        #expect(frame.line == 88)
        #expect(frame.symbolication?.locations.first?.file == "Cart.swift")
    }
}
