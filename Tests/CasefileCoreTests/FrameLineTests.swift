import CasefileCore
import Testing

/// The shapes of frame line an Apple text report's threads hold (crash-formats.md §2.6), read through the public
/// parser: the common `symbol + N` and `0xLOAD + OFFSET` locations, which are read on bytes, and the rarer ones beside
/// them. The expected values are read off each line by hand. The report has no image table, so nothing but the line
/// fills a frame (the image offset is address − load address where the line gives a load address).
@Suite struct FrameLineTests {
    private static let report = """
        Incident Identifier: 6B0E8F37-3E1D-4C4B-9B2A-0F9A5E4B1C77
        Process:             ShopApp [812]
        Exception Type:      EXC_CRASH (SIGABRT)

        Thread 0 Crashed:
        0   libsystem_kernel.dylib        \t0x00000001e1a2b3c4 __pthread_kill + 8
        1   ShopApp                       \t0x0000000100a4c6f0 0x100a4c000 + 1776
        2   ShopApp                       \t0x0000000100a4c6f0 closure #1 in CartViewModel.total() + 40
        3   CoreFoundation                \t0x00000001a2c1f0a8 -[NSObject+ 183052 (NSObject) doesNotRecognizeSelector:] + 196
        4   Core Foundation Extras        \t0x00000001a2c1f0a8 CFRunLoopRun + 12   \r
        5   dyld                          \t0x0000000100f8c000 start
        6   ShopApp                       \t0x0000000100a4c6f0 CartViewModel.total() + 40 (CartViewModel.swift:88)
        7   ShopApp                       \t0x0000000100a4c6f0 0x100a4c000 + 1776 (main + 12)
        8   ShopApp                       \t0x0000000100a4c6f0 foo + 99999999999999999999999
        9   ???                           \t000000000000000000 0 + 0
        10  ShopApp                       \t0x0000000100a4c6f0 <redacted> + 0
        11  ShopApp\t0x0000000100a4c6f0\tfoo + 5
        12  Métricas                      \t0x0000000100a4c6f0 Métricas.ça() + 8
        13  ShopApp                       \t0x0000000100a4c6f0 0x100a4c000 + 18446744073709551616
        """

    private func frames() throws -> [Frame] {
        guard
            case .crashes(_, let crashes, _) = CrashReportParser().parse(Array(Self.report.utf8), file: "frames.crash")
        else {
            Issue.record("not read as a crash report")
            return []
        }
        let thread = try #require(crashes.first?.threads.first)
        try #require(thread.frames.count == 14)
        return thread.frames
    }

    @Test func readsASymbolAndItsOffset() throws {
        let frame = try frames()[0]
        #expect(frame.image == "libsystem_kernel.dylib")
        #expect(frame.address == 0x1_e1a2_b3c4)
        #expect(frame.symbol == "__pthread_kill")
        #expect(frame.symbolOffset == 8)
        #expect(frame.file == nil)
    }

    @Test func readsALoadAddressAndImageOffsetWithoutASymbol() throws {
        let frame = try frames()[1]
        #expect(frame.imageLoadAddress == 0x1_00a4_c000)
        #expect(frame.imageOffset == 1776)
        #expect(frame.symbol == nil)
        #expect(frame.symbolOffset == nil)
    }

    @Test func keepsSpacesInsideASymbol() throws {
        let frame = try frames()[2]
        #expect(frame.symbol == "closure #1 in CartViewModel.total()")
        #expect(frame.symbolOffset == 40)
    }

    @Test func removesXcodesSplicedOffsetFromACategoryMethod() throws {
        let frame = try frames()[3]
        #expect(frame.symbol == "-[NSObject(NSObject) doesNotRecognizeSelector:]")
        #expect(frame.symbolOffset == 196)
    }

    @Test func keepsSpacesInsideAnImageNameAndIgnoresTrailingWhiteSpace() throws {
        let frame = try frames()[4]
        #expect(frame.image == "Core Foundation Extras")
        #expect(frame.symbol == "CFRunLoopRun")
        #expect(frame.symbolOffset == 12)
    }

    @Test func readsASymbolWithoutAnOffset() throws {
        let frame = try frames()[5]
        #expect(frame.image == "dyld")
        #expect(frame.symbol == "start")
        #expect(frame.symbolOffset == nil)
    }

    /// Xcode's `symbol + N (File:line)`: N is an image offset there, not an offset into the symbol.
    @Test func readsAFileAndLineAndDropsTheNumberBeforeThem() throws {
        let frame = try frames()[6]
        #expect(frame.symbol == "CartViewModel.total()")
        #expect(frame.file == "CartViewModel.swift")
        #expect(frame.line == 88)
        #expect(frame.symbolOffset == nil)
    }

    @Test func readsKSCrashSideBySideLocation() throws {
        let frame = try frames()[7]
        #expect(frame.imageLoadAddress == 0x1_00a4_c000)
        #expect(frame.imageOffset == 1776)
        #expect(frame.symbol == "main")
        #expect(frame.symbolOffset == 12)
    }

    /// 99999999999999999999999 does not fit in 64 bits: the text stays part of the symbol rather than be cut short.
    @Test func keepsAnOffsetTooLargeForSixtyFourBitsInTheSymbol() throws {
        let frame = try frames()[8]
        #expect(frame.symbol == "foo + 99999999999999999999999")
        #expect(frame.symbolOffset == nil)
    }

    @Test func readsANullFrame() throws {
        let frame = try frames()[9]
        #expect(frame.image == "???")
        #expect(frame.address == 0)
        #expect(frame.symbol == nil)
    }

    @Test func readsRedactedSymbolsAndTabs() throws {
        let frames = try frames()
        #expect(frames[10].symbol == "<redacted>")
        #expect(frames[10].symbolOffset == 0)
        #expect(frames[11].image == "ShopApp")
        #expect(frames[11].address == 0x1_00a4_c6f0)
        #expect(frames[11].symbol == "foo")
        #expect(frames[11].symbolOffset == 5)
    }

    @Test func readsNonASCIIImagesAndSymbols() throws {
        let frame = try frames()[12]
        #expect(frame.image == "Métricas")
        #expect(frame.symbol == "Métricas.ça()")
        #expect(frame.symbolOffset == 8)
    }

    /// 18446744073709551616 is 2⁶⁴: no image offset is read from the line, and the text is not a load address.
    @Test func readsNoImageOffsetTooLargeForSixtyFourBits() throws {
        let frame = try frames()[13]
        #expect(frame.imageLoadAddress == nil)
        #expect(frame.imageOffset == nil)
    }
}
