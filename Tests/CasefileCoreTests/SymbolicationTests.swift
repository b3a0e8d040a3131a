import CasefileCore
import Foundation
import Testing

/// Expectations come from SampleReports/Symbols/src/checkout.c (functions and lines) and facts.txt (what llvm's
/// own tools print of the built fixtures: UUIDs and symbol addresses).
@Suite struct SymbolicationTests {
    static let symbols = Samples.repository.appendingPathComponent("SampleReports/Symbols")
    static let thinUUID = "4c4c442a-5555-3144-a1c2-ffa5de205d9d"
    static let fatArm64UUID = "4c4c4490-5555-3144-a193-53c78b710436"
    static let fatX86UUID = "4c4c442d-5555-3144-a18e-9ba13b3d20a4"
    static let build420UUID = "4c4c44a7-5555-3144-a1e8-3523111396bf"

    func crash(_ name: String) throws -> Crash {
        let path = Self.symbols.appendingPathComponent("Crashes/\(name)").path
        return try #require(try Triage().reports(at: path).reports.first?.crashes.first)
    }

    @Test func readsUUIDArchitectureAndTextAddressOfThinAndFatFiles() throws {
        let thin = try MachOFile.slices(atPath: Self.symbols.appendingPathComponent("ShopApp").path)
        #expect(thin.map(\.uuid) == [Self.thinUUID])
        #expect(thin.map(\.arch) == ["arm64"])
        #expect(thin.first?.textVMAddress == 0x1_0000_0000)
        #expect(thin.first?.hasDWARF == false)  // a linked Mach-O keeps only a debug map; DWARF is in the dSYM
        let fat = try MachOFile.slices(atPath: Self.symbols.appendingPathComponent("Fat/ShopApp").path)
        #expect(Set(fat.map(\.arch)) == ["arm64", "x86_64"])
        #expect(fat.first { $0.arch == "x86_64" }?.uuid == Self.fatX86UUID)
        #expect(fat.first { $0.arch == "arm64" }?.uuid == Self.fatArm64UUID)
        #expect(fat.allSatisfy { $0.fileOffset > 0 })
        let dsym = try MachOFile.slices(
            atPath: Self.symbols.appendingPathComponent("ShopApp.dSYM/Contents/Resources/DWARF/ShopApp").path)
        #expect(dsym.first?.uuid == Self.thinUUID)
        #expect(dsym.first?.hasDWARF == true)
    }

    @Test func findsFunctionsInTheSymbolTable() throws {
        let path = Self.symbols.appendingPathComponent("ShopApp").path
        let slice = try #require(try MachOFile.slices(atPath: path).first)
        let table = try MachOSymbolTable(path: path, slice: slice)
        // llvm-nm: 0000000100004000 T _$s7ShopApp13CartViewModelC5totalSiyF, 0000000100004070 T _main
        let found = try #require(table.lookup(0x1_0000_402c))
        #expect(found.name == "$s7ShopApp13CartViewModelC5totalSiyF")
        #expect(found.offset == 0x2c)
        #expect(table.lookup(0x1_0000_4074)?.name == "main")
        #expect(table.lookup(0x1_0000_0000) == nil)
    }

    @Test func namesAStrippedFunctionByItsStartNeverByTheNearestSurvivingSymbol() throws {
        // Tests/Fixtures/Symbols/Stripped/ShopApp is ShopApp after llvm-strip: only __mh_execute_header keeps its
        // name, but LC_FUNCTION_STARTS still lists 0x100004000 (total), 0x100004040 (viewDidLoad), 0x100004070 (main).
        let stripped = Samples.repository.appendingPathComponent("Tests/Fixtures/Symbols/Stripped")
        let slice = try #require(try MachOFile.slices(atPath: stripped.appendingPathComponent("ShopApp").path).first)
        #expect(slice.uuid == Self.thinUUID)
        let table = try MachOSymbolTable(path: stripped.appendingPathComponent("ShopApp").path, slice: slice)
        #expect(table.functionStarts.prefix(3) == [0x1_0000_4000, 0x1_0000_4040, 0x1_0000_4070])
        let found = try #require(table.lookup(0x1_0000_402c))
        #expect(found.name == nil)
        #expect(found.start == 0x1_0000_4000)
        let symbolicator = Symbolicator(index: DebugFileIndex(scanning: [stripped]))
        let result = symbolicator.symbolicate(try crash("checkout-total-iphone14.crash"))
        let frames = try #require(result.crash.crashingThread?.frames)
        #expect(
            frames.prefix(3).map { $0.symbolication?.locations.first?.rawName } == [
                "ShopApp+0x4000", "ShopApp+0x4040", "ShopApp+0x4070",
            ])
        // Grouping keys such frames by image and function start, never by an address.
        let fingerprint = Fingerprinter().fingerprint(result.crash)
        #expect(fingerprint.keyFrames.map(\.function) == ["ShopApp+0x4000", "ShopApp+0x4040", "ShopApp+0x4070"])
    }

    @Test func indexesEveryDebugFileByUUID() {
        let index = DebugFileIndex(scanning: [Self.symbols])
        #expect(index.entry(uuid: Self.thinUUID)?.slice.hasDWARF == true)
        #expect(index.entry(uuid: Self.fatX86UUID, arch: "x86_64")?.slice.arch == "x86_64")
        // The binary and its dSYM, two slices of each fat file, the Breakpad file, and build 420's binary and dSYM.
        #expect(index.entries(named: "ShopApp").count == 9)
        #expect(index.entries(named: "UIKitCore").isEmpty)
        #expect(
            index.entriesByUUID[Self.thinUUID]?.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [
                .breakpad, .machO, .machO,
            ])
        #expect(index.problems.isEmpty)
    }

    @Test func symbolicatesThroughDWARFWithInlinedFramesAndTheCallerCorrection() throws {
        let index = DebugFileIndex(scanning: [Self.symbols])
        let symbolicator = Symbolicator(index: index)
        try #require(symbolicator.llvmSymbolizer != nil, "llvm-symbolizer ships with the Swift toolchain")
        let result = symbolicator.symbolicate(try crash("checkout-total-iphone14.crash"))
        #expect(result.warnings.isEmpty)
        let frames = try #require(result.crash.crashingThread?.frames)
        // Frame 0 crashed inside apply_discount (line 5), inlined into CartViewModel.total (line 17).
        let top = try #require(frames[0].symbolication)
        #expect(top.status == .symbolicated(backend: "dwarf"))
        #expect(top.lookupAddress == 0x1_0000_402c)
        #expect(top.locations.map(\.rawName) == ["apply_discount", "$s7ShopApp13CartViewModelC5totalSiyF"])
        #expect(top.locations.map(\.line) == [5, 17])
        // Columns and where each function begins, in checkout.c: the `/` of line 5 is its column 36, the call of
        // apply_discount in line 17 starts at column 12; apply_discount begins in line 4, cart_total in line 12.
        #expect(top.locations.map(\.column) == [36, 12])
        #expect(top.locations.map(\.startLine) == [4, 12])
        #expect(top.locations[1].simpleName == "ShopApp.CartViewModel.total()")
        // 0x10000402c − cart_total's start 0x100004000 (llvm-nm); return addresses count from the reported address.
        #expect(top.locations.map(\.offset) == [nil, 44])
        #expect(frames[1].symbolication?.locations.first?.offset == 0x4060 - 0x4040)
        // Frame 1 returns to 0x…060, the line after the call (26); looked up at −1 it names the call, line 25.
        let caller = try #require(frames[1].symbolication)
        #expect(caller.lookupAddress == 0x1_0000_405f)
        #expect(caller.locations.map(\.line) == [25])
        // The call of cart_total starts at column 17 of line 25; view_did_load begins in line 23.
        #expect(caller.locations.map(\.column) == [17])
        #expect(caller.locations.map(\.startLine) == [23])
        #expect(caller.locations.first?.simpleName == "ShopApp.CheckoutViewController.viewDidLoad()")
        #expect(frames[2].symbolication?.locations.map(\.rawName) == ["main"])
        #expect(frames[2].symbolication?.locations.map(\.line) == [30])
        // The reported frames are untouched.
        #expect(frames[1].address == 0x1_04a2_c060)
        #expect(
            frames[3].symbolication?.reason
                == "no debug file for UUID 5b4c3d2e-1f0a-39b8-c7d6-e5f4a3b2c1d0 (libdyld.dylib)")
    }

    /// A frame planned for a debug file that no back end answered (here `llvm-symbolizer` cannot start) is not found,
    /// and says where it was looked for: the same addresses the DWARF answers above were looked up at.
    @Test func aFrameNoBackEndAnswersSaysWhereItWasLookedFor() throws {
        let broken = LLVMSymbolizer(executable: URL(fileURLWithPath: "/nonexistent/llvm-symbolizer"))
        let symbolicator = Symbolicator(index: DebugFileIndex(scanning: [Self.symbols]), llvmSymbolizer: broken)
        let result = symbolicator.symbolicate(try crash("checkout-total-iphone14.crash"))
        #expect(!result.warnings.isEmpty)
        let frames = try #require(result.crash.crashingThread?.frames)
        #expect(frames[0].symbolication == FrameSymbolication(status: .notFound, lookupAddress: 0x1_0000_402c))
        #expect(frames[1].symbolication == FrameSymbolication(status: .notFound, lookupAddress: 0x1_0000_405f))
        #expect(
            frames[3].symbolication?.reason
                == "no debug file for UUID 5b4c3d2e-1f0a-39b8-c7d6-e5f4a3b2c1d0 (libdyld.dylib)")
    }

    @Test func refusesADebugFileWithAnotherUUID() throws {
        let result = Symbolicator(index: DebugFileIndex(scanning: [Self.symbols])).symbolicate(
            try crash("checkout-total-other-build.crash"))
        let frame = try #require(result.crash.crashingThread?.frames.first?.symbolication)
        #expect(frame.locations.isEmpty)
        #expect(
            frame.status
                == .uuidMismatch(
                    image: "ShopApp", uuid: "4c4c440a-5555-3144-a121-00000000beef",
                    found: [Self.thinUUID, Self.fatArm64UUID, Self.fatX86UUID, Self.build420UUID].sorted()))
    }

    @Test func fallsBackToTheSymbolTableWithoutLLVMSymbolizer() throws {
        let dsym = Self.symbols.appendingPathComponent("ShopApp.dSYM")
        let symbolicator = Symbolicator(index: DebugFileIndex(scanning: [dsym]), llvmSymbolizer: nil)
        let result = symbolicator.symbolicate(try crash("checkout-total-iphone14.crash"))
        let frames = try #require(result.crash.crashingThread?.frames)
        #expect(frames[0].symbolication?.status == .symbolicated(backend: "symbol-table"))
        #expect(frames[0].symbolication?.locations.map(\.rawName) == ["$s7ShopApp13CartViewModelC5totalSiyF"])
        #expect(frames[0].symbolication?.locations.first?.offset == 0x2c)
        #expect(frames[0].symbolication?.locations.first?.line == nil)
        #expect(
            result.warnings == [
                "llvm-symbolizer not found: DWARF files are read for function names only, without lines"
            ])
    }

    @Test(arguments: [true, false])
    func symbolicatesThroughBreakpadInlineRecords(_ onlyBreakpad: Bool) throws {
        // Alone, or beside the dSYM when llvm-symbolizer is missing: Breakpad gives lines, a symbol table would not.
        let folder = onlyBreakpad ? Self.symbols.appendingPathComponent("Breakpad") : Self.symbols
        let symbolicator = Symbolicator(index: DebugFileIndex(scanning: [folder]), llvmSymbolizer: nil)
        let result = symbolicator.symbolicate(try crash("checkout-total-iphone14.crash"))
        let frames = try #require(result.crash.crashingThread?.frames)
        #expect(frames[0].symbolication?.status == .symbolicated(backend: "breakpad"))
        #expect(
            frames[0].symbolication?.locations.map(\.rawName) == [
                "apply_discount", "$s7ShopApp13CartViewModelC5totalSiyF",
            ])
        #expect(frames[0].symbolication?.locations.map(\.line) == [5, 17])
        #expect(frames[1].symbolication?.locations.map(\.line) == [25])
        #expect(frames[2].symbolication?.locations.map(\.rawName) == ["main"])
        #expect(frames[2].symbolication?.locations.map(\.line) == [30])
    }

    @Test func readsTheBreakpadModuleRecord() throws {
        let path = Self.symbols.appendingPathComponent("Breakpad/ShopApp.sym").path
        let symbols = try BreakpadSymbols(text: try String(contentsOfFile: path, encoding: .utf8), file: path)
        #expect(symbols.uuid == Self.thinUUID)
        #expect(symbols.arch == "arm64")
        #expect(symbols.name == "ShopApp")
        // PUBLIC records answer past the last FUNC's range; nothing answers below the first.
        #expect(symbols.lookup(0x4074).map(\.rawName) == ["main"])
        #expect(symbols.lookup(0x10).isEmpty)
    }

    /// The same file saved with CRLF line ends (as a `dump_syms` run on Windows writes it, or a checkout with
    /// `core.autocrlf`) answers as the one with LF: the `MODULE` name without the carriage return, and the line and
    /// file of `viewDidLoad`'s record `4050 10 25 0` (line 25 of `FILE 0 ./src/checkout.c`). Split by Characters, the
    /// file was one line: the module was named by the whole file and no record was read.
    @Test func readsABreakpadFileWithCRLFLineEnds() throws {
        let path = Self.symbols.appendingPathComponent("Breakpad/ShopApp.sym").path
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\n", with: "\r\n")
        let symbols = try BreakpadSymbols(text: text, file: path)
        #expect(symbols.uuid == Self.thinUUID)
        #expect(symbols.name == "ShopApp")
        let answer = symbols.lookup(0x4054)
        #expect(answer.map(\.rawName) == ["$s7ShopApp22CheckoutViewControllerC11viewDidLoadyyF"])
        #expect(answer.map(\.line) == [25])
        #expect(answer.map(\.file) == ["./src/checkout.c"])
        #expect(symbols.lookup(0x4074).map(\.rawName) == ["main"])
    }

    /// A damaged file whose records reach the top of the address space: a range's end was computed as start plus
    /// size, which overflowed and trapped. Each range is written by hand: the function from ffffffffffffff00 for 0x1000
    /// bytes, a line inside it, an inlined call of 0x1000 bytes at ffffffffffffff80. A `FUNC` and a `PUBLIC` cut off
    /// after their first word trapped too (the parser read a second word that was not there).
    @Test func looksUpRecordsAtTheTopOfTheAddressSpace() throws {
        let text = """
            MODULE mac arm64 4C4C442A55553144A1C2FFA5DE205D9D0 Damaged
            FILE 0 top.c
            INLINE_ORIGIN 0 inlined_at_the_top
            FUNC
            PUBLIC
            FUNC ffffffffffffff00 1000 0 at_the_top
            INLINE 0 7 0 0 ffffffffffffff80 1000
            ffffffffffffff00 1000 3 0
            """
        let symbols = try BreakpadSymbols(text: text, file: "damaged.sym")
        #expect(symbols.lookup(0xffff_ffff_ffff_ff10).map(\.rawName) == ["at_the_top"])
        #expect(symbols.lookup(0xffff_ffff_ffff_ff10).map(\.line) == [3])
        #expect(symbols.lookup(0xffff_ffff_ffff_ff90).map(\.rawName) == ["inlined_at_the_top", "at_the_top"])
        #expect(symbols.lookup(0xffff_ffff_ffff_fe00).isEmpty)
    }

    @Test(arguments: [("x86_64", fatX86UUID), ("arm64", fatArm64UUID)])
    func picksTheRightSliceOfAFatFile(_ arch: String, _ uuid: String) throws {
        // cart_total starts at 0x1000003d0 in the x86_64 slice and at 0x100004000 in the arm64 one (llvm-nm).
        let start: UInt64 = arch == "x86_64" ? 0x1_0000_03d0 : 0x1_0000_4000
        var crash = Crash(format: .appleText)
        let load: UInt64 = 0x1_0a00_0000
        crash.images = [
            BinaryImage(name: "ShopApp", arch: arch, uuid: uuid, loadAddress: load, endAddress: load + 0xffff)
        ]
        let address = load + (start - 0x1_0000_0000) + 4
        crash.threads = [CrashThread(index: 0, crashed: true, frames: [Frame(image: "ShopApp", address: address)])]
        crash.crashedThread = 0
        let result = Symbolicator(index: DebugFileIndex(scanning: [Self.symbols])).symbolicate(crash)
        let frame = try #require(result.crash.threads.first?.frames.first?.symbolication)
        #expect(frame.lookupAddress == start + 4)
        #expect(frame.locations.last?.rawName == "$s7ShopApp13CartViewModelC5totalSiyF")
        #expect((12...18).contains(frame.locations.last?.line ?? 0))
    }

    @Test func answersFromTheCacheWithoutStartingABackEnd() throws {
        let index = DebugFileIndex(scanning: [Self.symbols])
        let cache = SymbolCache()
        let first = Symbolicator(index: index, cache: cache).symbolicate(try crash("checkout-total-iphone14.crash"))
        #expect(first.warnings.isEmpty)
        #expect(cache.count == 3)  // the three ShopApp frames
        // An llvm-symbolizer that cannot start would be a warning: the cache must answer instead.
        let broken = LLVMSymbolizer(executable: URL(fileURLWithPath: "/nonexistent/llvm-symbolizer"))
        let second = Symbolicator(index: index, llvmSymbolizer: broken, cache: cache)
            .symbolicate(try crash("checkout-total-iphone14.crash"))
        #expect(second.warnings.isEmpty)
        let frames = try #require(second.crash.crashingThread?.frames)
        #expect(frames[0].symbolication?.locations.map(\.line) == [5, 17])
        #expect(frames[1].symbolication?.locations.map(\.line) == [25])
        #expect(frames[0].symbolication?.status == .symbolicated(backend: "dwarf"))
        // Offsets as the first time: the crashing frame's from its own address (0x…02c − cart_total's 0x…000), the
        // caller's from its return address 0x…060 (view_did_load starts at 0x…040), not from the looked-up 0x…05f.
        #expect(frames[0].symbolication?.locations.map(\.offset) == [nil, 44])
        #expect(frames[1].symbolication?.locations.map(\.offset) == [0x4060 - 0x4040])
    }

    @Test func symbolicatesFromTheCacheAloneOnlyWhenItHoldsEveryAnswer() throws {
        let index = DebugFileIndex(scanning: [Self.symbols])
        let cache = SymbolCache()
        // An llvm-symbolizer that cannot start: had the cache-only pass run it, the report would carry a warning.
        let broken = LLVMSymbolizer(executable: URL(fileURLWithPath: "/nonexistent/llvm-symbolizer"))
        let cacheOnly = Symbolicator(index: index, llvmSymbolizer: broken, cache: cache)
        let path = Self.symbols.appendingPathComponent("Crashes/checkout-total-iphone14.crash").path
        var cold = try #require(try Triage().reports(at: path).reports.first)
        let coldAnswered = cacheOnly.symbolicateFromCache(&cold)
        #expect(!coldAnswered)
        #expect(cold.warnings.isEmpty)
        #expect(cache.count == 0)
        // Once a full pass has answered the three ShopApp frames, the cache alone answers them all.
        _ = Symbolicator(index: index, cache: cache).symbolicate(try crash("checkout-total-iphone14.crash"))
        var warm = try #require(try Triage().reports(at: path).reports.first)
        let warmAnswered = cacheOnly.symbolicateFromCache(&warm)
        #expect(warmAnswered)
        #expect(warm.warnings.isEmpty)
        let frames = try #require(warm.crashes.first?.crashingThread?.frames)
        #expect(frames[0].symbolication?.locations.map(\.line) == [5, 17])
        #expect(frames[1].symbolication?.locations.map(\.line) == [25])
        #expect(frames[2].symbolication?.locations.map(\.rawName) == ["main"])
        #expect(frames[0].symbolication?.status == .symbolicated(backend: "dwarf"))
    }

    @Test func aCachedResultReportsACallersOffsetFromItsReturnAddress() throws {
        let function = SourceLocation(rawName: "view_did_load", line: 25, offset: 0x1f)
        let inlined = SourceLocation(rawName: "apply_discount", line: 5)
        var result = SymbolCache.Result(backend: "dwarf", locations: [inlined, function])
        #expect(result.locations.map(\.offset) == [nil, 0x1f])
        #expect(result.callerLocations.map(\.offset) == [nil, 0x20])
        #expect(result.callerLocations.map(\.rawName) == ["apply_discount", "view_did_load"])
        // Kept in step when the locations change, and worked out again when a result is decoded.
        result.locations = [SourceLocation(rawName: "cart_total", offset: 0)]
        #expect(result.callerLocations.map(\.offset) == [1])
        let decoded = try JSONDecoder().decode(SymbolCache.Result.self, from: try JSONEncoder().encode(result))
        #expect(decoded == result)
        #expect(decoded.callerLocations.map(\.offset) == [1])
        // Without an offset there is nothing to move.
        let unknown = SymbolCache.Result(backend: "symbol-table", locations: [inlined])
        #expect(unknown.callerLocations == unknown.locations)
    }

    @Test func asksTheBackEndOnlyForAddressesTheCacheLacks() throws {
        let index = DebugFileIndex(scanning: [Self.symbols])
        let learned = Symbolicator(index: index).symbolicate(try crash("checkout-total-iphone14.crash"))
        let second = try #require(learned.crash.crashingThread?.frames[1].symbolication?.lookupAddress)
        let uuid = try #require(learned.crash.images.first { $0.name == "ShopApp" }?.uuid)
        // A planted answer for the second frame only: it must be used there, and only there.
        let cache = SymbolCache()
        cache.insert(
            [
                SymbolCache.Entry(
                    uuid: uuid, address: second,
                    result: SymbolCache.Result(backend: "breakpad", locations: [SourceLocation(rawName: "planted")]))
            ], persist: false)
        let result = Symbolicator(index: index, cache: cache).symbolicate(try crash("checkout-total-iphone14.crash"))
        let frames = try #require(result.crash.crashingThread?.frames)
        #expect(frames[0].symbolication?.locations.map(\.line) == [5, 17])
        #expect(frames[1].symbolication?.locations.map(\.rawName) == ["planted"])
        #expect(frames[1].symbolication?.status == .symbolicated(backend: "breakpad"))
        #expect(frames[2].symbolication?.locations.map(\.rawName) == ["main"])
        // The two answers the back end gave are new; the planted one was not asked again.
        #expect(
            cache.takeNewEntries().map(\.address).sorted()
                == [frames[0], frames[2]].compactMap(\.symbolication?.lookupAddress).sorted())
        #expect(cache.count == 3)
    }

    @Test func keepsOneLLVMSymbolizerPerDebugFileAcrossCrashes() throws {
        let symbolicator = Symbolicator(index: DebugFileIndex(scanning: [Self.symbols]))
        let llvm = try #require(symbolicator.llvmSymbolizer)
        _ = symbolicator.symbolicate(try crash("checkout-total-iphone14.crash"))
        // Another crash of the same build at addresses the cache has not seen: the same process answers.
        var other = try crash("checkout-total-iphone14.crash")
        for index in other.threads[0].frames.indices { other.threads[0].frames[index].address? += 4 }
        let result = symbolicator.symbolicate(other)
        #expect(result.warnings.isEmpty)
        #expect(result.crash.threads[0].frames[2].symbolication?.locations.map(\.rawName) == ["main"])
        #expect(llvm.runningProcesses == 1)
    }

    @Test(arguments: [1, 2])
    func keepsNoMoreLLVMSymbolizersThanItsLimit(limit: Int) throws {
        // The same crash as two builds: the thin build, then build 420 (its UUID given to the app image), then the
        // thin build again at new addresses. Each build's dSYM has `total` at 0x100004000 (facts.txt).
        let found = try #require(LLVMSymbolizer.locate())
        let llvm = LLVMSymbolizer(executable: found.executable, processLimit: limit)
        let symbolicator = Symbolicator(index: DebugFileIndex(scanning: [Self.symbols]), llvmSymbolizer: llvm)
        let thin = try crash("checkout-total-iphone14.crash")
        var build420 = thin
        let app = try #require(build420.images.firstIndex { $0.uuid == Self.thinUUID })
        build420.images[app].uuid = Self.build420UUID
        var later = thin
        for index in later.threads[0].frames.indices { later.threads[0].frames[index].address? += 4 }
        var running: [Int] = []
        for crash in [thin, build420, later] {
            let result = symbolicator.symbolicate(crash)
            #expect(result.warnings.isEmpty)
            let top = try #require(result.crash.crashingThread?.frames.first?.symbolication)
            #expect(top.status == .symbolicated(backend: "dwarf"))
            #expect(top.locations.last?.rawName == "$s7ShopApp13CartViewModelC5totalSiyF")
            running.append(llvm.runningProcesses)
        }
        // With room for one, each build stops the other's process; with room for two, both stay.
        #expect(running == (limit == 1 ? [1, 1, 1] : [1, 2, 2]))
    }

    @Test func demanglesSwiftAndCxxNames() {
        #expect(
            Demangler.demangle("$s7ShopApp13CartViewModelC5totalSiyF") == "ShopApp.CartViewModel.total() -> Swift.Int")
        #expect(
            Demangler.demangle("_$s7ShopApp13CartViewModelC5totalSiyF") == "ShopApp.CartViewModel.total() -> Swift.Int")
        #expect(Demangler.demangle("_ZN4Shop4Cart5totalEv") == "Shop::Cart::total()")
        #expect(Demangler.demangle("main") == nil)
        #expect(Demangler.simplify("ShopApp.CartViewModel.total() -> Swift.Int") == "ShopApp.CartViewModel.total()")
        #expect(Demangler.simplify("Shop::Cart::add(int, char const*)") == "Shop::Cart::add()")
        // The first ` -> ` outside parentheses ends the name; nested argument lists collapse to `()`.
        #expect(Demangler.simplify("closure #1 (Swift.Int) -> () in ShopApp.View.body.getter") == "closure #1 ()")
        #expect(
            Demangler.simplify("std::__1::function<void (int)>::operator()(int) const")
                == "std::__1::function<void ()>::operator()() const")
        #expect(Demangler.simplify("-[UIApplication _run]") == "-[UIApplication _run]")
        #expect(Demangler.simplify("Café.Überweisung(betrag:) -> ()") == "Café.Überweisung()")
    }
}

@Suite struct DebugFileRescanTests {
    @Test func readsOnlyFilesThatChanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-rescan-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: SymbolicationTests.symbols, to: folder)
        let first = DebugFileIndex(scanning: [folder])
        // ShopApp, its dSYM's DWARF and Info.plist, Fat/ShopApp and its dSYM's two, the Breakpad file, facts.txt,
        // src/checkout.c and the two crashes: every file is opened once.
        #expect(first.filesRead == first.files.count)
        let again = DebugFileIndex(scanning: [folder], known: first.files)
        #expect(again.filesRead == 0)
        #expect(again.count == first.count)
        #expect(again.entry(uuid: SymbolicationTests.thinUUID)?.slice.hasDWARF == true)
        let touched = folder.appendingPathComponent("ShopApp")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: touched.path)
        #expect(DebugFileIndex(scanning: [folder], known: first.files).filesRead == 1)
    }

    @Test func keepsEachFilesSizeAndTimeAsFoundationReportsThem() throws {
        // What earlier runs stored came from Foundation's resource values: the same file must compare equal to the
        // last bit, or every file of a large symbol folder is read again once.
        let index = DebugFileIndex(scanning: [SymbolicationTests.symbols])
        #expect(index.files.count > 10)
        for (path, file) in index.files {
            let values = try URL(fileURLWithPath: path).resourceValues(forKeys: [
                .fileSizeKey, .contentModificationDateKey,
            ])
            #expect(file.size == values.fileSize)
            #expect(file.modified == values.contentModificationDate?.timeIntervalSince1970)
        }
    }
}

@Suite struct ZippedDebugFileTests {
    @Test func indexesAndUsesADSYMInsideAZip() throws {
        let fixtures = Samples.repository.appendingPathComponent("Tests/Fixtures/Symbols")
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-staging-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: staging) }
        let index = DebugFileIndex(scanning: [fixtures], staging: staging)
        let entry = try #require(index.entry(uuid: SymbolicationTests.thinUUID))
        #expect(entry.slice.hasDWARF)
        #expect(entry.path.hasPrefix(staging.path))
        #expect(entry.imageName == "ShopApp")
        let crash = try #require(
            try Triage().reports(
                at: SymbolicationTests.symbols.appendingPathComponent("Crashes/checkout-total-iphone14.crash").path
            ).reports.first?.crashes.first)
        let result = Symbolicator(index: index).symbolicate(crash)
        #expect(result.crash.crashingThread?.frames.first?.symbolication?.locations.map(\.line) == [5, 17])
    }
}

@Suite struct CorruptDebugFileTests {
    /// Corrupted copies of the fixture binary and dSYM: each must be read or refused with an error, never crash
    /// or hang the process.
    @Test(arguments: ["ShopApp", "Fat/ShopApp", "ShopApp.dSYM/Contents/Resources/DWARF/ShopApp"])
    func survivesCorruptedMachOFiles(_ name: String) throws {
        let original = try [UInt8](Data(contentsOf: SymbolicationTests.symbols.appendingPathComponent(name)))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-corrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for round in 0..<40 {
            var bytes = original
            // Corrupt the headers and load commands, where the reader looks.
            for _ in 0..<6 {
                bytes[next() % min(bytes.count, 4096)] = UInt8(truncatingIfNeeded: next())
            }
            if round % 5 == 0 { bytes = Array(bytes.prefix(next() % bytes.count)) }
            let file = folder.appendingPathComponent("corrupt-\(round)")
            try Data(bytes).write(to: file)
            if let slices = try? MachOFile.slices(atPath: file.path) {
                for slice in slices {
                    _ = try? MachOSymbolTable(path: file.path, slice: slice).lookup(0x1_0000_4000)
                }
            }
        }
        let index = DebugFileIndex(scanning: [folder])
        #expect(index.count <= 40 * 2)
    }
}

/// Headers that name ranges outside their file: each is refused with an error naming the file, never read.
@Suite struct OutOfRangeDebugFileTests {
    /// A fat header (big-endian) of 64-bit entries, each: CPU type, subtype, offset, size, alignment, reserved.
    static func fat64(_ slices: [(offset: UInt64, size: UInt64)]) -> [UInt8] {
        var bytes: [UInt8] = []
        func append<Number: FixedWidthInteger>(_ value: Number) {
            withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
        }
        append(UInt32(0xCAFE_BABF))
        append(UInt32(slices.count))
        for slice in slices {
            append(UInt32(0x0100_000C))  // CPU_TYPE_ARM64
            append(UInt32(0))
            append(slice.offset)
            append(slice.size)
            append(UInt32(14))
            append(UInt32(0))
        }
        return bytes + [UInt8](repeating: 0, count: 4096 - bytes.count)
    }

    func write(_ bytes: [UInt8], named name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-range-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }

    @Test(arguments: [UInt64(0xFFFF_FFFF_FFFF_FF00), 1 << 63, 4096, 1 << 40])
    func refusesAFatSliceThatStartsPastTheEndOfTheFile(_ offset: UInt64) throws {
        // A 4,096-byte file whose one slice would start at `offset`: at or past its end. Seeking to the first two
        // offsets trapped (FileHandle takes them as a signed offset).
        let file = try write(Self.fat64([(offset, 4096)]), named: "fat64")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let error = try #require(throws: SymbolicationError.self) { try MachOFile.slices(atPath: file.path) }
        #expect(error.file == file.path)
        #expect(error.reason == "slice 0 of the fat header starts past the end of the file")
    }

    @Test func refusesTheFuzzersFatFile() throws {
        // libFuzzer's finding (the `macho` target, 106 s against the code before the fix): a fat64 header of two
        // entries whose first slice starts at 0xa4a4a4a4a4a4a4a4, read as a signed offset by the seek that trapped.
        let path = Samples.repository.appendingPathComponent("Tests/Fixtures/Fuzz/macho-fat64-slice-past-end").path
        let error = try #require(throws: SymbolicationError.self) { try MachOFile.slices(atPath: path) }
        #expect(error.reason == "slice 0 of the fat header starts past the end of the file")
    }

    @Test func aFatSliceIsNoLargerThanWhatOfItLiesInTheFile() throws {
        // The thin fixture binary as the only slice of a fat file, at offset 4096, with a size of 1 TB in the header:
        // the slice is the binary's own size, and its symbol table reads as the thin file's.
        let thinPath = SymbolicationTests.symbols.appendingPathComponent("ShopApp").path
        let thin = try [UInt8](Data(contentsOf: URL(fileURLWithPath: thinPath)))
        let file = try write(Self.fat64([(4096, 1 << 40)]) + thin, named: "ShopApp")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let slice = try #require(try MachOFile.slices(atPath: file.path).first)
        #expect(slice.fileOffset == 4096)
        #expect(slice.size == UInt64(thin.count))
        #expect(slice.uuid == SymbolicationTests.thinUUID)
        let table = try MachOSymbolTable(path: file.path, slice: slice)
        let thinSlice = try #require(try MachOFile.slices(atPath: thinPath).first)
        let expected = try MachOSymbolTable(path: thinPath, slice: thinSlice)
        #expect(table.symbols == expected.symbols)
        #expect(!table.symbols.isEmpty)
    }

    @Test(arguments: [UInt64(0xFFFF_FFFF_FFFF_FFF0), 1 << 63, 1 << 40])
    func refusesASymbolTableOfASliceOutsideTheFile(_ offset: UInt64) throws {
        // A slice as an index written by an older Casefile could hold it: at an offset past the end of the file.
        // Adding the table's own offset to the first one overflowed, and seeking to the second trapped.
        let path = SymbolicationTests.symbols.appendingPathComponent("ShopApp").path
        var slice = try #require(try MachOFile.slices(atPath: path).first)
        #expect(slice.symbolTable != nil)
        slice.fileOffset = offset
        slice.size = 0
        let error = try #require(throws: SymbolicationError.self) { try MachOSymbolTable(path: path, slice: slice) }
        #expect(error.reason == "the symbol table runs past the end of the file")
    }
}

extension SymbolicationTests {
    @Test func answersAddressesGivenOutOfOrderAndRepeatedInTheOrderGiven() throws {
        // The symbolizer asks in ascending order and puts the answers back: given descending, repeated and
        // interleaved, each answer must still be the function the symbol table names for the address in its place,
        // its offset counted from that address.
        let binary = Self.symbols.appendingPathComponent("ShopApp").path
        let slice = try #require(try MachOFile.slices(atPath: binary).first)
        let table = try MachOSymbolTable(path: binary, slice: slice)
        let text = try #require(slice.textSection)
        let ascending = stride(from: text.lowerBound, to: text.upperBound, by: 4).map { $0 }
        let descending = Array(ascending.reversed())
        let interleaved = zip(ascending, descending).flatMap { [$0, $1] }
        let repeated = [ascending[5], ascending[1], ascending[5], ascending[0], ascending[1]]
        let symbolizer = try #require(LLVMSymbolizer.locate())
        let dwarf = Self.symbols.appendingPathComponent("ShopApp.dSYM/Contents/Resources/DWARF/ShopApp").path
        for addresses in [descending, interleaved, repeated] {
            let answers = try symbolizer.symbolize(file: dwarf, arch: "arm64", addresses: addresses)
            #expect(answers.map { $0.last?.rawName } == addresses.map { table.lookup($0)?.name })
            #expect(answers.map { $0.last?.offset } == addresses.map { table.lookup($0)?.offset })
        }
    }

    @Test func answersEveryAddressOfALargeQueryInOrder() throws {
        // 20,000 look-ups in one query: answers arrive in many pipe chunks, lines split across them. Each answer's
        // function must be the one the binary's symbol table names for that address.
        let binary = Self.symbols.appendingPathComponent("ShopApp").path
        let slice = try #require(try MachOFile.slices(atPath: binary).first)
        let table = try MachOSymbolTable(path: binary, slice: slice)
        let text = try #require(slice.textSection)
        let addresses = (0..<20_000).map { text.lowerBound + UInt64($0 * 4) % (text.upperBound - text.lowerBound) }
        let symbolizer = try #require(LLVMSymbolizer.locate())
        let dwarf = Self.symbols.appendingPathComponent("ShopApp.dSYM/Contents/Resources/DWARF/ShopApp").path
        let answers = try symbolizer.symbolize(file: dwarf, arch: "arm64", addresses: addresses)
        #expect(answers.count == addresses.count)
        let expected = addresses.map { table.lookup($0)?.name }
        #expect(answers.map { $0.last?.rawName } == expected)
        // Then small queries on the same process, each written at once rather than from a thread of its own.
        for few in [Array(addresses.suffix(3)), [addresses[7]], Array(addresses[100..<340])] {
            let names = try symbolizer.symbolize(file: dwarf, arch: "arm64", addresses: few).map { $0.last?.rawName }
            #expect(names == few.map { table.lookup($0)?.name })
        }
    }
}
