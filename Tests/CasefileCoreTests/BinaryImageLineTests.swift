import CasefileCore
import Testing

/// Every shape of line an Apple text report's `Binary Images:` section holds (crash-formats.md §2.6), read through the
/// public parser. The expected values are read off each line by hand.
@Suite struct BinaryImageLineTests {
    private static let report = """
        Incident Identifier: 6B0E8F37-3E1D-4C4B-9B2A-0F9A5E4B1C77
        Process:             ShopApp [812]
        Identifier:          com.example.shop
        Version:             4.2 (420)
        Code Type:           ARM-64 (Native)
        OS Version:          iPhone OS 16.5 (20F66)
        Exception Type:      EXC_CRASH (SIGABRT)

        Thread 0 Crashed:
        0   libsystem_kernel.dylib        \t0x00000001e1a2b3c4 __pthread_kill + 8

        Binary Images:
        0x100a4c000 - 0x100a5ffff ShopApp arm64  <3f2a9c1e5b7d4e8fa0b1c2d3e4f50617> /private/var/containers/Bundle/Application/1/ShopApp.app/ShopApp
               0x1a2c0c000 -        0x1a3c0bfff +Core Foundation Extras arm64e  <8C2B1E0F3D4A3B5C9E6F7A8B9C0D1E2F> /System/Library/Frameworks/CoreFoundation.framework/CoreFoundation
        0x1b0000000 - ??? libdispatch.dylib arm64e <00000000-0000-0000-0000-000000000000> /usr/lib/system/libdispatch.dylib
        0x1c0000000 - 0x1c0ffffff\tlibobjc.A.dylib\tarm64e\t<1111111122223333444455556666777a>\t/usr/lib/libobjc.A.dylib
        0x1d0000000 - 0x1d00fffff Métricas (1.0) unknown-arch <2222222233334444555566667777888b> /usr/lib/Métricas
        0x1e0000000 - 0X1E0000FFF libc++.1.dylib arm64e <3333333344445555666677778888999c> /usr/lib/libc++.1.dylib
        0x1f0000000 - 8191 Decimal arm64 <4444444455556666777788889999aaad> /usr/lib/Decimal
        0x200000000 - 0x2000fffff arm64 <5555555566667777888899990000bbbe> /usr/lib/libNameless.dylib
        0X210000000 - 0x2100fffff Upper arm64 <6666666677778888999900001111cccf> /usr/lib/Upper
        0x220000000 - 0x2200fffff +ShopKit arm64 <7777777788889999000011112222dddd> /private/var/ShopKit.framework/ShopKit
        0x230000000 - 0x2300fffff (1.0) arm64 <888888889999000011112222333344ee> /usr/lib/libVersioned.dylib
        0x240000000 - 0x2400fffff + arm64 <99999999000011112222333344445555> /private/var/Plus.app/Plus
        """

    private func images() throws -> [BinaryImage] {
        guard
            case .crashes(_, let crashes, _) = CrashReportParser().parse(Array(Self.report.utf8), file: "images.crash")
        else {
            Issue.record("not read as a crash report")
            return []
        }
        return try #require(crashes.first).images
    }

    @Test func readsNameArchitectureUUIDAndPath() throws {
        let images = try images()
        let app = try #require(images.first { $0.name == "ShopApp" })
        #expect(app.loadAddress == 0x1_00a4_c000)
        #expect(app.endAddress == 0x1_00a5_ffff)
        #expect(app.arch == "arm64")
        #expect(app.uuid == "3f2a9c1e-5b7d-4e8f-a0b1-c2d3e4f50617")
        #expect(app.path == "/private/var/containers/Bundle/Application/1/ShopApp.app/ShopApp")
    }

    @Test func keepsSpacesInNamesAndReadsThePlusAsTheApp() throws {
        let image = try #require(try images().first { $0.loadAddress == 0x1_a2c0_c000 })
        #expect(image.name == "Core Foundation Extras")
        #expect(image.isApp)
        #expect(image.endAddress == 0x1_a3c0_bfff)
        #expect(image.uuid == "8c2b1e0f-3d4a-3b5c-9e6f-7a8b9c0d1e2f")
    }

    @Test func readsAnUnknownEndAndDropsThePlaceholderUUID() throws {
        let image = try #require(try images().first { $0.name == "libdispatch.dylib" })
        #expect(image.endAddress == nil)
        #expect(image.uuid == nil)
        #expect(image.path == "/usr/lib/system/libdispatch.dylib")
    }

    @Test func splitsOnTabs() throws {
        let image = try #require(try images().first { $0.loadAddress == 0x1_c000_0000 })
        #expect(image.name == "libobjc.A.dylib")
        #expect(image.arch == "arm64e")
        #expect(image.path == "/usr/lib/libobjc.A.dylib")
    }

    @Test func readsNonASCIINamesDropsVersionTokensAndUnknownArchitectures() throws {
        let image = try #require(try images().first { $0.loadAddress == 0x1_d000_0000 })
        #expect(image.name == "Métricas")
        #expect(image.arch == nil)
        #expect(image.path == "/usr/lib/Métricas")
    }

    @Test func readsUppercaseAndDecimalEndAddresses() throws {
        let images = try images()
        #expect(images.first { $0.name == "libc++.1.dylib" }?.endAddress == 0x1_e000_0fff)
        #expect(images.first { $0.name == "Decimal" }?.endAddress == 8191)
    }

    @Test func namesAnImageWithoutANameAfterItsPath() throws {
        let image = try #require(try images().first { $0.loadAddress == 0x2_0000_0000 })
        #expect(image.name == "libNameless.dylib")
        #expect(image.arch == "arm64")
    }

    /// Two words, a name and an architecture, as most lines are: a `+` before the name marks the app; a version
    /// token or a lone `+` is no name, and the path's last component names the image.
    @Test func readsTwoWordLinesAsTheLongerOnesAre() throws {
        let images = try images()
        let kit = try #require(images.first { $0.loadAddress == 0x2_2000_0000 })
        #expect(kit.name == "ShopKit")
        #expect(kit.isApp)
        #expect(kit.arch == "arm64")
        #expect(kit.uuid == "77777777-8888-9999-0000-11112222dddd")
        #expect(kit.path == "/private/var/ShopKit.framework/ShopKit")
        let versioned = try #require(images.first { $0.loadAddress == 0x2_3000_0000 })
        #expect(versioned.name == "libVersioned.dylib")
        #expect(!versioned.isApp)
        #expect(versioned.uuid == "88888888-9999-0000-1111-2222333344ee")
        let plus = try #require(images.first { $0.loadAddress == 0x2_4000_0000 })
        #expect(plus.name == "Plus")
        #expect(plus.isApp)
        #expect(plus.arch == "arm64")
    }

    /// A vertical tab or form feed between words separates them as a space does, wherever it falls in the line (the
    /// byte scan checks lines eight bytes at a time, so these sit at different offsets in their word).
    @Test func readsWordsSeparatedByVerticalTabsAndFormFeeds() throws {
        let lines = [
            "0x300000000 - 0x3000fffff Tabbed\u{0B}arm64 <aaaaaaaabbbbccccddddeeeeffff0000> /usr/lib/Tabbed",
            "0x310000000 - 0x3100fffff Fed\u{0C}arm64e <aaaaaaaabbbbccccddddeeeeffff0001> /usr/lib/Fed",
            "0x320000000 - 0x3200fffff\u{0B}LongerName arm64 <aaaaaaaabbbbccccddddeeeeffff0002> /usr/lib/LongerName",
            "0x330000000 - 0x3300fffff Vertical arm64 <aaaaaaaabbbbccccddddeeeeffff0003>\u{0B}/usr/lib/Vertical",
        ]
        let header = try #require(Self.report.firstRange(of: "Binary Images:\n"))
        let report = Self.report[..<header.upperBound] + lines.joined(separator: "\n")
        guard case .crashes(_, let crashes, _) = CrashReportParser().parse(Array(report.utf8), file: "tabs.crash")
        else {
            Issue.record("not read as a crash report")
            return
        }
        let images = try #require(crashes.first).images
        #expect(images.map(\.name) == ["Tabbed", "Fed", "LongerName", "Vertical"])
        #expect(images.map(\.arch) == ["arm64", "arm64e", "arm64", "arm64"])
        #expect(images.map(\.path) == ["/usr/lib/Tabbed", "/usr/lib/Fed", "/usr/lib/LongerName", "/usr/lib/Vertical"])
        #expect(images.first?.uuid == "aaaaaaaa-bbbb-cccc-dddd-eeeeffff0000")
    }

    /// A line must begin with a lowercase `0x` (as every writer of the format does); `0X` is not an image line.
    @Test func refusesALineThatDoesNotBeginWithLowercaseHex() throws {
        #expect(try images().contains { $0.name == "Upper" } == false)
        #expect(try images().count == 11)
    }
}
