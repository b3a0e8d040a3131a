import CasefileArchive
import CasefileCore
import Testing

/// A crash's system images go in sets the index stores once: the blob names each set and lists their load addresses.
@Suite struct CrashImageSetTests {
    /// The UUID of system image `index` in OS build `build`. Its last two hex digits end a set (a multiple of 32) for
    /// every eighth image (`c0`), and never otherwise (`1` then a digit).
    static func uuid(_ index: Int, build: Int) -> String {
        let number = index < 10 ? "0\(index)" : "\(index)"
        return "\(build)0000000-0000-0000-00\(number)-0000000000" + (index % 8 == 7 ? "c0" : "1\(index % 8)")
    }

    /// The app at the install's own path, a framework in its bundle, then `count` system images loaded one after
    /// another from `base`, 2 MB apart, each 0x1f_ffff bytes long (the last with no end address), with UUIDs of `build`.
    static func crash(systemImages count: Int, base: UInt64 = 0x1_8000_0000, build: Int = 1) -> Crash {
        var crash = Crash(format: .ips)
        let bundle = "/private/var/containers/Bundle/Application/0C3E1A52-6B7D-4F18-9E20-5D4C3B2A1F09/Shop.app"
        crash.images = [
            BinaryImage(
                name: "Shop", path: bundle + "/Shop", arch: "arm64", uuid: "bbbbbbbb-0000-0000-0000-000000000002",
                loadAddress: 0x1_0000_0000, endAddress: 0x1_0fff_ffff, isApp: true),
            BinaryImage(
                name: "Pay", path: bundle + "/Frameworks/Pay.framework/Pay", arch: "arm64",
                uuid: "cccccccc-0000-0000-0000-000000000003", loadAddress: 0x1_1000_0000, endAddress: 0x1_1000_ffff),
        ]
        for index in 0..<count {
            let load = base + UInt64(index) * 0x20_0000
            crash.images.append(
                BinaryImage(
                    name: "lib\(index).dylib", path: "/usr/lib/system/lib\(index).dylib", arch: "arm64e",
                    uuid: uuid(index, build: build), loadAddress: load,
                    endAddress: index == count - 1 ? nil : load + 0x1f_ffff))
        }
        // The crashed thread: the app, a system image (the sixth), the framework, one frame in no image.
        crash.threads = [
            CrashThread(
                index: 0, crashed: true,
                frames: [
                    Frame(image: "Shop", address: 0x1_0000_4a10, imageLoadAddress: 0x1_0000_0000, imageOffset: 0x4a10),
                    Frame(
                        image: "lib5.dylib", address: base + 5 * 0x20_0000 + 0x30,
                        imageLoadAddress: base + 5 * 0x20_0000, imageOffset: 0x30, symbol: "objc_msgSend"),
                    Frame(image: "Pay", address: 0x1_1000_0040, imageLoadAddress: 0x1_1000_0000, imageOffset: 0x40),
                    Frame(address: 0x42),
                ])
        ]
        return crash
    }

    static func lines(_ blob: [UInt8]) throws -> [Substring] {
        String(decoding: try BlobCompression.decompress(blob), as: UTF8.self).split(separator: "\n")
    }

    @Test func listsRunsOfSystemImagesInSetsAndTheirLoadAddressesInTheBlob() throws {
        let crash = Self.crash(systemImages: 20)
        let detail = try CrashDetailCodec.encode(crash)
        // Sets end after images 7 and 15; images 16 to 19 come after the last end and stay in the blob.
        try #require(detail.imageSets.count == 2)
        for set in detail.imageSets {
            #expect(set.id.count == 64)
            #expect(set.id.allSatisfy { "0123456789abcdef".contains($0) })
        }
        #expect(detail.imageSets[0].id != detail.imageSets[1].id)

        let lines = try Self.lines(detail.blob)
        func load(_ index: Int) -> String { String(0x1_8000_0000 + index * 0x20_0000, radix: 16) }
        try #require(lines.count > 25)
        #expect(lines[0] == "casefile-crash-detail 3")
        #expect(lines[3] == "S\t\(detail.imageSets[0].id)")
        #expect(Array(lines[4...11]) == (0..<8).map { "J\t\(load($0))" })
        #expect(lines[12] == "S\t\(detail.imageSets[1].id)")
        #expect(Array(lines[13...20]) == (8..<16).map { "J\t\(load($0))" })
        #expect(lines[21].hasPrefix("I\tlib16.dylib\t"))
        // The app and the framework in its bundle, then the images after the last set, keep their whole lines.
        #expect(
            lines.filter { $0.hasPrefix("I\t") }.map { $0.split(separator: "\t")[1] } == [
                "Shop", "Pay", "lib16.dylib", "lib17.dylib", "lib18.dylib", "lib19.dylib",
            ])
        #expect(lines.filter { $0.hasPrefix("J\t") }.count == 16)
        // The frame in the sixth system image (loaded at 0x1_8000_0000 + 5 × 2 MB) is a G line naming its position in
        // the whole list: 2 + 5.
        #expect(lines.contains { $0.hasPrefix("G\t7\t\t180a00030\tobjc_msgSend\t") })

        // A set: its version line and one line per system image, a size instead of the end address.
        let first = try Self.lines(detail.imageSets[0].blob)
        #expect(first.count == 9)
        #expect(first.first == "casefile-image-set 1")
        #expect(
            first[1]
                == "I\tlib0.dylib\t/usr/lib/system/lib0.dylib\tarm64e\t10000000-0000-0000-0000-000000000010\t1fffff\t0")
        #expect(
            first[8]
                == "I\tlib7.dylib\t/usr/lib/system/lib7.dylib\tarm64e\t10000000-0000-0000-0007-0000000000c0\t1fffff\t0")

        let decoded = try CrashDetailCodec.decode(detail)
        #expect(decoded.images == crash.images)
        #expect(decoded.threads == crash.threads)
    }

    /// A set holds at most 64 images, however long no UUID ends one.
    @Test func cutsALongRunAt64Images() throws {
        var crash = Self.crash(systemImages: 0)
        for index in 0..<150 {
            crash.images.append(
                BinaryImage(
                    name: "lib\(index)", path: "/usr/lib/lib\(index)",
                    uuid: "aaaaaaaa-0000-0000-0000-0000000\(1000 + index)1",
                    loadAddress: 0x2_0000_0000 + UInt64(index) * 0x10000))
        }
        let detail = try CrashDetailCodec.encode(crash)
        #expect(try detail.imageSets.map { try Self.lines($0.blob).count - 1 } == [64, 64])
        #expect(try Self.lines(detail.blob).filter { $0.hasPrefix("I\t") }.count == 2 + 22)
        #expect(try CrashDetailCodec.decode(detail).images == crash.images)
    }

    /// Another boot slides the shared cache, and another process of the build loaded more images, or one more
    /// between two: the sets before the difference are the same. Another OS build has other UUIDs: other sets.
    @Test func crashesOfOneBuildShareTheSetsBeforeTheirDifference() throws {
        let first = try CrashDetailCodec.encode(Self.crash(systemImages: 20))
        let longer = Self.crash(systemImages: 28, base: 0x1_8123_4000)
        let second = try CrashDetailCodec.encode(longer)
        #expect(second.imageSets.count == 3)
        #expect(Array(second.imageSets.prefix(2)) == first.imageSets)
        #expect(try CrashDetailCodec.decode(second).images == longer.images)

        var inserted = Self.crash(systemImages: 20)
        inserted.images.insert(
            BinaryImage(
                name: "Camera", path: "/System/Library/Frameworks/Camera.framework/Camera",
                uuid: "dddddddd-0000-0000-0000-000000000011", loadAddress: 0x1_f000_0000),
            at: 2 + 10)
        let third = try CrashDetailCodec.encode(inserted)
        #expect(third.imageSets.first == first.imageSets.first)
        #expect(third.imageSets.count == 2)
        #expect(third.imageSets.last != first.imageSets.last)
        #expect(try CrashDetailCodec.decode(third).images == inserted.images)

        let other = try CrashDetailCodec.encode(Self.crash(systemImages: 20, build: 2))
        #expect(Set(other.imageSets).isDisjoint(with: first.imageSets))
    }

    /// A run that begins with the images of a set made before is that set only when every image of it is the same
    /// but for where it is loaded: an image with the same UUID at another path, of another size, under another name or
    /// arch, or with no end address, makes a set of its own, whose text is what its id names; and the crash the first
    /// set was made from still gets that set after it.
    @Test(arguments: [
        ("path", 3), ("size", 5), ("name", 0), ("arch", 7), ("end address", 2),
    ])
    func takesASetMadeBeforeOnlyForTheSameImages(field: String, image: Int) throws {
        let original = Self.crash(systemImages: 20)
        var changed = original
        let position = 2 + image
        switch field {
        case "path": changed.images[position].path = "/usr/lib/system/other/lib\(image).dylib"
        case "size": changed.images[position].endAddress = changed.images[position].loadAddress + 0x1f_fff0
        case "name": changed.images[position].name = "other\(image).dylib"
        case "arch": changed.images[position].arch = "arm64"
        default: changed.images[position].endAddress = nil
        }
        let first = try CrashDetailCodec.encode(original)
        let second = try CrashDetailCodec.encode(changed)
        let again = try CrashDetailCodec.encode(original)
        // Images 0 to 7 make the first set, 8 to 15 the second; the change is in the first.
        try #require(first.imageSets.count == 2 && second.imageSets.count == 2)
        #expect(second.imageSets[0].id != first.imageSets[0].id)
        #expect(second.imageSets[1] == first.imageSets[1])
        #expect(again.imageSets == first.imageSets)
        // Decoding checks that each set's text hashes to its id, and gives back the changed image as it was.
        #expect(try CrashDetailCodec.decode(second).images == changed.images)
        #expect(try CrashDetailCodec.decode(again).images == original.images)
    }

    /// Texts Swift's `==` takes as equal but whose bytes differ make sets of their own: a path with a precomposed `é`
    /// and one with `e` and a combining accent (U+0301), a name with a Kelvin sign (U+212A) for its `K`. Each crash's
    /// images decode with the bytes it gave.
    @Test(arguments: [
        ("path", "/usr/lib/system/caf\u{E9}.dylib", "/usr/lib/system/cafe\u{301}.dylib"),
        ("name", "Kit.dylib", "\u{212A}it.dylib"),
    ])
    func takesASetMadeBeforeOnlyForTheSameBytes(field: String, first: String, second: String) throws {
        #expect(first == second)  // what `==` alone would go by
        func crash(_ text: String) -> Crash {
            var crash = Self.crash(systemImages: 20, build: field == "path" ? 3 : 4)
            if field == "path" { crash.images[2 + 3].path = text } else { crash.images[2 + 3].name = text }
            return crash
        }
        let one = crash(first)
        let other = crash(second)
        let oneDetail = try CrashDetailCodec.encode(one)
        let otherDetail = try CrashDetailCodec.encode(other)
        try #require(oneDetail.imageSets.count == 2 && otherDetail.imageSets.count == 2)
        #expect(otherDetail.imageSets[0].id != oneDetail.imageSets[0].id)
        #expect(otherDetail.imageSets[1] == oneDetail.imageSets[1])
        func bytes(_ images: [BinaryImage]) -> [[UInt8]] {
            images.flatMap { [Array($0.name.utf8), Array(($0.path ?? "").utf8)] }
        }
        #expect(bytes(try CrashDetailCodec.decode(otherDetail).images) == bytes(other.images))
        #expect(bytes(try CrashDetailCodec.decode(oneDetail).images) == bytes(one.images))
        #expect(bytes(one.images) != bytes(other.images))
    }

    /// A crash with few system images keeps them in its own blob.
    @Test func fewSystemImagesStayInTheBlob() throws {
        let crash = Self.crash(systemImages: 15)
        let detail = try CrashDetailCodec.encode(crash)
        #expect(detail.imageSets.isEmpty)
        let lines = try Self.lines(detail.blob)
        #expect(lines.filter { $0.hasPrefix("I\t") }.count == 17)
        #expect(!lines.contains { $0.hasPrefix("S\t") || $0.hasPrefix("J\t") })
        #expect(try CrashDetailCodec.decode(detail).images == crash.images)
    }

    /// A blob is read only with the sets it names, and a set only when its text is the one its id names.
    @Test func refusesAMissingOrAlteredSet() throws {
        let detail = try CrashDetailCodec.encode(Self.crash(systemImages: 20))
        let sets = Dictionary(uniqueKeysWithValues: detail.imageSets.map { ($0.id, $0) })
        #expect(try CrashDetailCodec.imageSetIDs(in: detail.blob) == detail.imageSets.map(\.id))
        #expect(throws: ArchiveError.self) { try CrashDetailCodec.decode(detail.blob) }
        var missing = sets
        missing[detail.imageSets[1].id] = nil
        #expect(throws: ArchiveError.self) { try CrashDetailCodec.decode(detail.blob, imageSets: missing) }
        var altered = sets
        altered[detail.imageSets[1].id] = CrashImageSet(id: detail.imageSets[1].id, blob: detail.imageSets[0].blob)
        #expect(throws: ArchiveError.self) { try CrashDetailCodec.decode(detail.blob, imageSets: altered) }
        #expect(try CrashDetailCodec.decode(detail.blob, imageSets: sets).images.count == 22)
    }

    /// Blobs of version 2 — every image on its own line, frames by their image's position — still decode.
    @Test func readsVersionTwoBlobs() throws {
        let text = [
            "casefile-crash-detail 2",
            "I\tShop\t\tarm64\tbbbbbbbb-0000-0000-0000-000000000002\t100000000\t10fffffff\t1",
            "I\tlibdyld.dylib\t/usr/lib/system/libdyld.dylib\tarm64e\t\t180000000\t\t0",
            "T\t0\t\tcom.apple.main-thread\t1",
            "G\t1\t\t180000030\tstart\t4\t\t\t0\t\t\t",
            "G\t0\t\t100004a10\t\t\t\t\t0\tCart.total()\tCart.swift\t88",
        ].joined(separator: "\n")
        let decoded = try CrashDetailCodec.decode(try BlobCompression.compress(Array(text.utf8)))
        #expect(decoded.images.map(\.name) == ["Shop", "libdyld.dylib"])
        let frames = try #require(decoded.threads.first?.frames)
        #expect(frames.map(\.image) == ["libdyld.dylib", "Shop"])
        #expect(frames.map(\.imageOffset) == [0x30, 0x4a10])
        #expect(frames[0].symbol == "start")
        #expect(frames[0].symbolOffset == 4)
        #expect(frames[1].symbolication?.locations.first?.line == 88)
    }
}
