import Foundation
import Testing

@testable import CasefileCore

/// KSCrash reports of real size are read straight from their bytes (`KSCrashBodyDecoder`); what that gives must be
/// what the tree parser gives, and whatever the tree would read another way must be left to the tree.
@Suite struct KSCrashDecoderTests {
    /// A sample grown to a real report's size: padding threads after the crash's `threads` bracket and padding images
    /// after `binary_images`', as a report of 40 threads and 300 images is. Each padding frame lies in a padding image.
    private static func grown(_ name: String) throws -> String {
        // Strict JSON (the SentryCrash sample has trailing commas, which only the tree reads).
        var text = try String(contentsOfFile: Samples.sample("Crashes/\(name)"), encoding: .utf8)
            .replacingOccurrences(of: #",(\s*[\]}])"#, with: "$1", options: .regularExpression)
        let threads = (100..<130).map { thread in
            let load = 0x1_9000_0000 + thread * 0x1000
            let frames = (0..<12).map { frame in
                #"{"instruction_addr": \#(load + frame * 4), "object_addr": \#(load), "#
                    + #""object_name": "/usr/lib/system/libpad\#(thread).dylib", "symbol_addr": \#(load), "#
                    + #""symbol_name": "pad_\#(thread)_\#(frame)"}"#
            }
            return #"{"index": \#(thread), "crashed": false, "name": "pad \#(thread)", "backtrace": {"contents": ["#
                + frames.joined(separator: ", ")
                + #"], "skipped": 0}, "registers": {"basic": {"x0": 1, "pc": 2, "lr": 3}}},"#
        }
        let images = (100..<430).map { image in
            #"{"image_addr": \#(0x1_9000_0000 + image * 0x1000), "image_size": 4096, "#
                + #""name": "/usr/lib/system/libpad\#(image).dylib", "#
                + #""uuid": "00000000-0000-4000-8000-\#(String(format: "%012d", image))", "#
                + #""cpu_type": 16777228, "cpu_subtype": 2, "major_version": 1},"#
        }
        let threadsKey = try #require(text.range(of: "\"threads\": ["))
        text.insert(contentsOf: threads.joined(), at: threadsKey.upperBound)
        let imagesKey = try #require(text.range(of: "\"binary_images\": ["))
        text.insert(contentsOf: images.joined(), at: imagesKey.upperBound)
        return text
    }

    /// The same document with a trailing comma before its last brace: the tree parser reads it, with a warning.
    private static func tolerant(_ text: String) throws -> String {
        var text = text
        let last = try #require(text.lastIndex(of: "}"))
        text.insert(",", at: last)
        return text
    }

    private static func parse(_ text: String) -> (crashes: [Crash], warnings: [String]) {
        let outcome = CrashReportParser().parse(Array(text.utf8), file: "k")
        guard case .crashes(.ksCrash, let crashes, let warnings) = outcome else { return ([], []) }
        return (crashes, warnings.map(\.message))
    }

    private static func decodes(_ text: String) -> Bool {
        KSCrashBodyDecoder.decode(Array(text.utf8)[...]) != nil
    }

    @Test(arguments: [
        "cart-total-iphone12-ios15-kscrash.json", "fatal-error-iphone13-ios15-sentrycrash.json",
        "coupon-nsexception-iphone13-bugsnag.json",
    ])
    func decodesWhatTheTreeReads(_ name: String) throws {
        let text = try Self.grown(name)
        #expect(text.utf8.count >= KSCrashBodyDecoder.minimumSize)
        #expect(Self.decodes(text))
        let tolerant = try Self.tolerant(text)
        #expect(!Self.decodes(tolerant))
        let decoded = Self.parse(text)
        let tree = Self.parse(tolerant)
        #expect(!decoded.crashes.isEmpty)
        #expect(decoded.crashes == tree.crashes)
        let tolerance = "invalid JSON (trailing commas or '...' elisions) read tolerantly"
        #expect(decoded.warnings + [tolerance] == tree.warnings)
    }

    /// Read off the padding written above: thread 107's third frame, and image 250.
    @Test func readsThePaddingAsWritten() throws {
        let crash = try #require(Self.parse(try Self.grown("cart-total-iphone12-ios15-kscrash.json")).crashes.first)
        let thread = try #require(crash.threads.first { $0.index == 107 })
        #expect(thread.name == "pad 107")
        #expect(!thread.crashed)
        #expect(thread.frames.count == 12)
        let frame = thread.frames[2]
        #expect(frame.address == 0x1_9000_0000 + 107 * 0x1000 + 8)
        #expect(frame.imageLoadAddress == 0x1_9000_0000 + 107 * 0x1000)
        #expect(frame.imageOffset == 8)
        #expect(frame.image == "libpad107.dylib")
        #expect(frame.symbol == "pad_107_2")
        #expect(frame.symbolOffset == 8)
        let image = try #require(crash.images.first { $0.name == "libpad250.dylib" })
        #expect(image.loadAddress == 0x1_9000_0000 + 250 * 0x1000)
        #expect(image.endAddress == 0x1_9000_0000 + 250 * 0x1000 + 4095)
        #expect(image.arch == "arm64e")
        #expect(image.uuid == "00000000-0000-4000-8000-000000000250")
        #expect(image.path == "/usr/lib/system/libpad250.dylib")
    }

    /// Each of these the tree reads its own way, so the decoder leaves it to the tree; the values expected are the
    /// tree's, read off the edit by hand.
    @Test func leavesToTheTreeWhatTheTreeReadsAnotherWay() throws {
        let text = try Self.grown("cart-total-iphone12-ios15-kscrash.json")
        let padFrame = #"{"instruction_addr": \#(0x1_9000_0000 + 107 * 0x1000 + 8), "object_addr""#
        func edited(_ replacement: String) throws -> String {
            let range = try #require(text.range(of: padFrame))
            return text.replacingCharacters(in: range, with: replacement)
        }
        func thirdFrameOfThread107(_ text: String) throws -> Frame {
            let crash = try #require(Self.parse(text).crashes.first)
            return try #require(crash.threads.first { $0.index == 107 }).frames[2]
        }

        // A key twice: the tree takes the first.
        let repeated = try edited(#"{"instruction_addr": 4096, "instruction_addr": 8192, "object_addr""#)
        #expect(!Self.decodes(repeated))
        #expect(try thirdFrameOfThread107(repeated).address == 4096)

        // An escaped key: the tree reads the key it spells.
        let escaped = try edited(#"{"instruction\u005faddr": 4096, "object_addr""#)
        #expect(!Self.decodes(escaped))
        #expect(try thirdFrameOfThread107(escaped).address == 4096)

        // An address past Int64.max: the tree holds it as a double (2^63 is exact as one).
        let large = try edited(#"{"instruction_addr": 9223372036854775808, "object_addr""#)
        #expect(!Self.decodes(large))
        #expect(try thirdFrameOfThread107(large).address == 1 << 63)

        // An elision, which the tree reads with a warning.
        let elided = try edited(#"{"instruction_addr": 4096, ... "object_addr""#)
        #expect(!Self.decodes(elided))
        #expect(Self.parse(elided).warnings.contains { $0.contains("read tolerantly") })

        // A frame that is not an object: the tree makes an empty frame of it.
        let number = text.replacingOccurrences(
            of: #"{"index": 107, "crashed": false, "name": "pad 107", "backtrace": {"contents": ["#,
            with: #"{"index": 107, "crashed": false, "name": "pad 107", "backtrace": {"contents": [7, "#)
        #expect(!Self.decodes(number))
        let frames = try #require(Self.parse(number).crashes.first?.threads.first { $0.index == 107 }).frames
        #expect(frames.count == 13)
        #expect(frames.first == Frame())

        // An image key in other case, which the tree's look-up matches when the exact key is missing.
        let cased = text.replacingOccurrences(
            of: #"{"image_addr": \#(0x1_9000_0000 + 250 * 0x1000), "image_size""#,
            with: #"{"Image_Addr": \#(0x1_9000_0000 + 250 * 0x1000), "image_size""#)
        #expect(!Self.decodes(cased))
        let crash = try #require(Self.parse(cased).crashes.first)
        #expect(crash.images.first { $0.name == "libpad250.dylib" }?.loadAddress == 0x1_9000_0000 + 250 * 0x1000)
    }

    /// Damaged copies of a grown report: whenever the decoder reads one, the tree reads it without tolerance and
    /// gives the same crashes. Each copy has one edit at a seeded random place: a byte deleted, doubled, or replaced
    /// by one of JSON's structural bytes, a quote, a backslash, a digit, a letter or a control character.
    @Test func agreesWithTheTreeOnDamagedReports() throws {
        let original = Array(try Self.grown("cart-total-iphone12-ios15-kscrash.json").utf8)
        let replacements = Array("{}[],:\"\\0-9eE.xX\u{01} ".utf8)
        // Seeded, so the damaged copies are the same on every run.
        var random = SeededNumbers(seed: 0x5EED)
        var decodedCount = 0
        for _ in 0..<300 {
            var bytes = original
            let position = random.next(below: bytes.count)
            switch random.next(below: 3) {
            case 0: bytes.remove(at: position)
            case 1: bytes.insert(bytes[position], at: position)
            default: bytes[position] = replacements[random.next(below: replacements.count)]
            }
            guard let decoded = KSCrashBodyDecoder.decode(bytes[...]) else { continue }
            decodedCount += 1
            let tree = try JSONParser.parseTolerantly(bytes)
            #expect(!tree.toleratedSyntax)
            let object = try #require(tree.value.object)
            #expect(CrashReportParser.isKSCrash(object))
            let fromTree = KSCrashParser(file: "k").parse(object)
            let fromDecoder = KSCrashParser(file: "k").parse(decoded.report, decoded: decoded)
            #expect(fromDecoder.crashes == fromTree.crashes)
            #expect(fromDecoder.warnings == fromTree.warnings)
        }
        // Most single edits land in a string or number and leave valid JSON: the decoder must have read some.
        #expect(decodedCount > 50)
    }

    /// A small report, and JSON that is not KSCrash's, are the tree's without a scan.
    @Test func leavesSmallReportsAndOtherJSONToTheTree() throws {
        let sample = try String(
            contentsOfFile: Samples.sample("Crashes/cart-total-iphone12-ios15-kscrash.json"), encoding: .utf8)
        #expect(!Self.decodes(sample))
        let metricKit = #"{"crashDiagnostics": [], "padding": ""# + String(repeating: "x", count: 70_000) + #""}"#
        #expect(!Self.decodes(metricKit))
    }

    /// The grown sample with a member of `levels` nested arrays in thread 107, inside the report, its `crash`, the
    /// `threads` array and the thread: four levels.
    private static func nested(_ levels: Int) throws -> String {
        let text = try grown("cart-total-iphone12-ios15-kscrash.json")
        let thread = #"{"index": 107, "crashed": false, "#
        let range = try #require(text.range(of: thread))
        let member = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
        return text.replacingCharacters(in: range, with: thread + #""deep": \#(member), "#)
    }

    /// Whether the tree refuses `text` for its nesting (which the decoder must leave to it).
    private static func refusedForNesting(_ text: String) -> Bool {
        guard case .unreadable(let reason) = CrashReportParser().parse(Array(text.utf8), file: "k") else {
            return false
        }
        return reason.contains("nesting deeper than 256 levels")
    }

    /// Nesting is counted from the document's top, as the tree counts it (256 levels at most).
    @Test func nestsAsDeepAsTheTreeAndNoDeeper() throws {
        // 4 + 252 = 256 levels: both read it, alike.
        let deepest = try Self.nested(252)
        let decodesDeepest = Self.decodes(deepest)
        #expect(decodesDeepest)
        #expect(Self.parse(deepest).crashes == Self.parse(try Self.tolerant(deepest)).crashes)
        #expect(!Self.parse(deepest).crashes.isEmpty)
        // One more: the tree refuses the report, and the decoder leaves it to the tree.
        let tooDeep = try Self.nested(253)
        let decodesTooDeep = Self.decodes(tooDeep)
        #expect(!decodesTooDeep)
        #expect(Self.refusedForNesting(tooDeep))
    }

    /// 100,000 nested arrays in a member the decoder passes over: refused at the limit, not followed one recursion per
    /// level until the stack overflows (which killed the process).
    @Test func refusesHostileNestingWithoutRecursingIntoIt() throws {
        let hostile = try Self.nested(100_000)
        let decodesHostile = Self.decodes(hostile)
        #expect(!decodesHostile)
        #expect(Self.refusedForNesting(hostile))
    }
}
