import Foundation
import Testing

@testable import CasefileCore

/// A frame keeps its numbers without `Optional`'s padding and its symbolication in a box (see ``Frame``): each field
/// must still read back as written, absent apart from zero, and compare, hash and encode as a plain field would.
@Suite struct FrameTests {
    /// A frame with every field set, each number different, so one read from another field's storage shows.
    static let full = Frame(
        image: "ShopApp", address: 0x1_0000_4044, imageLoadAddress: 0x1_0000_0000, imageOffset: 0x4044,
        symbol: "CartViewModel.total()", symbolOffset: 0x2c, file: "Cart.swift", line: 41, inlined: true)

    @Test func everyFieldReadsBackAsWritten() {
        var frame = Self.full
        frame.imageUUID = "4c4c442a-5555-3144-a1c2-ffa5de205d9d"
        #expect(frame.image == "ShopApp")
        #expect(frame.imageUUID == "4c4c442a-5555-3144-a1c2-ffa5de205d9d")
        #expect(frame.address == 0x1_0000_4044)
        #expect(frame.imageLoadAddress == 0x1_0000_0000)
        #expect(frame.imageOffset == 0x4044)
        #expect(frame.symbol == "CartViewModel.total()")
        #expect(frame.symbolOffset == 0x2c)
        #expect(frame.file == "Cart.swift")
        #expect(frame.line == 41)
        #expect(frame.inlined)
        #expect(frame.symbolication == nil)
    }

    /// Each number cleared alone leaves the others as they were; zero is a value, not absence.
    @Test func zeroIsNotAbsent() {
        let numbers: [(String, WritableKeyPath<Frame, UInt64?>)] = [
            ("address", \.address), ("imageLoadAddress", \.imageLoadAddress), ("imageOffset", \.imageOffset),
            ("symbolOffset", \.symbolOffset),
        ]
        for (name, field) in numbers {
            var cleared = Self.full
            cleared[keyPath: field] = nil
            #expect(cleared[keyPath: field] == nil, "\(name)")
            for (other, otherField) in numbers where other != name {
                #expect(cleared[keyPath: otherField] == Self.full[keyPath: otherField], "\(name) cleared \(other)")
            }
            #expect(cleared.line == 41 && cleared.inlined, "\(name)")
            var zero = Self.full
            zero[keyPath: field] = 0
            #expect(zero[keyPath: field] == 0, "\(name)")
            #expect(zero != cleared, "\(name)")
        }
        var noLine = Self.full
        noLine.line = nil
        var lineZero = Self.full
        lineZero.line = 0
        #expect(noLine.line == nil && lineZero.line == 0 && noLine != lineZero)
        #expect(noLine.address == 0x1_0000_4044 && noLine.inlined)
        var notInlined = Self.full
        notInlined.inlined = false
        #expect(!notInlined.inlined && notInlined.line == 41 && notInlined.symbolOffset == 0x2c)
        #expect(notInlined != Self.full)
    }

    /// A number set and then cleared leaves the frame equal to one that never had it, with the same hash.
    @Test func aFieldClearedEqualsOneNeverSet() {
        var frame = Frame(image: "UIKitCore", address: 0x1_8b2c_0000)
        frame.imageOffset = 0x1234
        frame.line = 7
        frame.imageOffset = nil
        frame.line = nil
        let plain = Frame(image: "UIKitCore", address: 0x1_8b2c_0000)
        #expect(frame == plain)
        #expect(frame.hashValue == plain.hashValue)
    }

    /// Frames compare by their symbolication's value, not by its box: one shared with other frames equals one of its
    /// own, and a different result makes them differ.
    @Test func symbolicationComparesByValue() {
        let refused = FrameSymbolication(status: .noDebugFile(image: "UIKitCore", uuid: "uuid-a"))
        var shared = Frame(image: "UIKitCore", address: 0x10)
        shared.share(Frame.SymbolicationBox(refused))
        var own = Frame(image: "UIKitCore", address: 0x10)
        own.symbolication = refused
        #expect(shared == own)
        #expect(shared.hashValue == own.hashValue)
        var other = own
        other.symbolication = FrameSymbolication(status: .noDebugFile(image: "UIKitCore", uuid: "uuid-b"))
        #expect(other != own)
        #expect(Frame(image: "UIKitCore", address: 0x10) != own)
    }

    /// `--format json` names a frame's fields as before frames were packed: each present field under its name, absent
    /// ones left out, `inlined` always there.
    @Test func jsonNamesEachFieldAsBefore() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var frame = Self.full
        frame.imageUUID = "uuid"
        let text = String(decoding: try encoder.encode(frame), as: UTF8.self)
        #expect(
            text
                == #"{"address":4294983748,"file":"Cart.swift","image":"ShopApp","imageLoadAddress":4294967296,"#
                + #""imageOffset":16452,"imageUUID":"uuid","inlined":true,"line":41,"symbol":"CartViewModel.total()","#
                + #""symbolOffset":44}"#)
        #expect(String(decoding: try encoder.encode(Frame()), as: UTF8.self) == #"{"inlined":false}"#)
        #expect(try JSONDecoder().decode(Frame.self, from: Data(text.utf8)) == frame)
        // A frame without `inlined` is refused, as before.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Frame.self, from: Data(#"{"address":1}"#.utf8))
        }
        var symbolicated = frame
        symbolicated.symbolication = FrameSymbolication(
            status: .symbolicated(backend: "dwarf"), lookupAddress: 0x1_0000_4043,
            locations: [SourceLocation(rawName: "total", file: "Cart.swift", line: 41)])
        let decoded = try JSONDecoder().decode(Frame.self, from: try encoder.encode(symbolicated))
        #expect(decoded == symbolicated)
        #expect(decoded.symbolication?.locations.first?.line == 41)
    }

    /// Every frame of an image without a debug file holds the same box; each frame's symbolication is still its own
    /// to change.
    @Test func framesOfAnImageWithoutDebugFileShareOneBox() throws {
        var crash = Crash(format: .ips)
        crash.images = [
            BinaryImage(
                name: "UIKitCore", uuid: "11111111-2222-3333-4444-555555555555", loadAddress: 0x1_8000_0000,
                endAddress: 0x1_8100_0000)
        ]
        crash.threads = [
            CrashThread(
                index: 0, crashed: true,
                frames: [0x1_8000_0100, 0x1_8000_0200, 0x1_8000_0300].map { Frame(image: "UIKitCore", address: $0) }),
            CrashThread(index: 1, frames: [Frame(image: "UIKitCore", address: 0x1_8000_0400)]),
        ]
        let symbolicated = Symbolicator(index: DebugFileIndex(), llvmSymbolizer: nil).symbolicate(crash).crash
        let frames = symbolicated.threads.flatMap(\.frames)
        #expect(frames.count == 4)
        for frame in frames {
            #expect(
                frame.symbolication?.status
                    == .noDebugFile(image: "UIKitCore", uuid: "11111111-2222-3333-4444-555555555555"))
        }
        let box = try #require(frames[0].symbolicationBox)
        #expect(frames.allSatisfy { $0.symbolicationBox === box })
        var changed = frames[1]
        changed.symbolication?.status = .notFound
        #expect(changed.symbolication?.status == .notFound)
        #expect(frames[1].symbolication?.status == frames[0].symbolication?.status)
        #expect(box.value.status != .notFound)
    }

    /// Printed, a frame shows its fields as a plain struct would, not the storage behind them.
    @Test func printsItsFields() {
        let text = String(describing: Frame(image: "ShopApp", address: 0x10, line: 3))
        #expect(
            text
                == #"Frame(image: Optional("ShopApp"), imageUUID: nil, address: Optional(16), imageLoadAddress: nil, "#
                + #"imageOffset: nil, symbol: nil, symbolOffset: nil, file: nil, line: Optional(3), inlined: false, "#
                + #"symbolication: nil)"#)
    }

    /// The size the model's doc comment promises: a frame of 120 bytes, not 208.
    @Test func aFrameTakes120Bytes() {
        #expect(MemoryLayout<Frame>.stride == 120)
    }
}
