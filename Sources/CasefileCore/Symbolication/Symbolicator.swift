import Foundation

/// The Symbolicate stage: maps each frame to function, file and line through the debug file whose UUID matches
/// the frame's image — never a file whose UUID does not match — and says why when it cannot.
///
/// Address math: image-relative address = address − image load address; the address in the debug file =
/// `__TEXT` vmaddr + relative address; every frame but the crashing frame of the crashed thread is looked up at
/// address − 1, so a return address names the calling line, not the next one (as Sentry and Socorro do).
public struct Symbolicator: Sendable {
    /// The debug files.
    public var index: DebugFileIndex
    /// The DWARF back end; without it only symbol tables are used.
    public var llvmSymbolizer: LLVMSymbolizer?
    /// Answers already known, by UUID and address; consulted before any back end runs.
    public var cache: SymbolCache

    /// Creates a symbolicator.
    public init(
        index: DebugFileIndex, llvmSymbolizer: LLVMSymbolizer? = LLVMSymbolizer.locate(),
        cache: SymbolCache = SymbolCache()
    ) {
        self.index = index
        self.llvmSymbolizer = llvmSymbolizer
        self.cache = cache
    }

    /// Whether an image is symbolicated with a debug file (its job, by position), or refused and why: one box that every
    /// frame of the image shares.
    private enum Decision {
        case use(job: Int, text: UInt64)
        case refuse(Frame.SymbolicationBox)
    }

    /// An image's decision is made once per crash, keyed by its UUID and architecture (no string built per frame).
    private struct DecisionKey: Hashable {
        var uuid: String
        var arch: String?
    }

    private struct Lookup {
        var thread: Int?  // nil: exception backtrace
        var frame: Int
        var address: UInt64
        var corrected: Bool
    }

    /// The frames of one crash that one debug file answers.
    private struct Job {
        var entry: DebugFileIndex.Entry
        /// The UUID the cache knows the answers by.
        var uuid: String
        var lookups: [Lookup] = []
    }

    /// Whether symbolicating the report may wait for `llvm-symbolizer`: the debug file chosen for an image of one of
    /// its crashes is DWARF (its answers may all be cached already).
    package func mayAskLLVMSymbolizer(_ report: Report) -> Bool {
        guard llvmSymbolizer != nil else { return false }
        return report.crashes.contains { crash in
            crash.images.contains { image in
                // The file `symbolicate` would choose, chosen the same way.
                guard let uuid = image.uuid, let entry = index.entry(uuid: uuid, arch: image.arch) else { return false }
                return entry.kind == .machO && entry.slice.hasDWARF
            }
        }
    }

    /// The crash with every frame's ``Frame/symbolication`` filled in, and warnings for back ends that failed.
    public func symbolicate(_ crash: Crash) -> (crash: Crash, warnings: [String]) {
        var crash = crash
        let warnings = symbolicate(&crash)
        return (crash, warnings)
    }

    /// Fills in every frame's ``Frame/symbolication`` in place and returns warnings for back ends that failed.
    ///
    /// In place, a crash the caller no longer shares is not copied: a copy would duplicate its thousand or more
    /// frames only to drop the original.
    public func symbolicate(_ crash: inout Crash) -> [String] {
        symbolicate(&crash, runningBackEnds: true).warnings
    }

    /// Fills in every frame's ``Frame/symbolication`` in place; with `runningBackEnds` false, from ``cache`` alone:
    /// `answered` is then false as soon as a frame needs a back end, and the crash must be symbolicated again (its
    /// frames are planned anew, so a frame left half done is redone).
    private func symbolicate(
        _ crash: inout Crash, runningBackEnds: Bool
    ) -> (warnings: [String], answered: Bool) {
        var warnings: [String] = []
        // Its own copy of the images: `plan` reads them while a frame of `crash` is borrowed for writing.
        let table = ImageTable(crash.images)
        var jobs: [Job] = []
        var jobPositions: [String: Int] = [:]
        var decisions: [DecisionKey: Decision] = [:]
        // The decision of each image that has a UUID, by position: most frames then need no hashing at all.
        var imageDecisions = [Decision?](repeating: nil, count: table.images.count)

        // Once per image and crash: a crash has thousands of frames in a few dozen images.
        func decide(uuid: String, image position: Int) -> Decision {
            let arch = table.images[position].arch
            let key = DecisionKey(uuid: uuid, arch: arch)
            if let known = decisions[key] { return known }
            let decision: Decision
            if let entry = index.entry(uuid: uuid, arch: arch, canReadDWARF: llvmSymbolizer != nil),
                let text = entry.slice.textVMAddress
            {
                let file = "\(entry.path)#\(entry.slice.arch)"
                let job = jobPositions[file] ?? jobs.count
                if job == jobs.count {
                    jobPositions[file] = job
                    jobs.append(Job(entry: entry, uuid: uuid))
                }
                decision = .use(job: job, text: text)
            } else {
                let name = table.images[position].name
                let others = index.entries(named: name).compactMap(\.slice.uuid)
                let status: FrameSymbolication.Status =
                    others.isEmpty
                    ? .noDebugFile(image: name, uuid: uuid)
                    : .uuidMismatch(image: name, uuid: uuid, found: Array(Set(others)).sorted())
                decision = .refuse(Frame.SymbolicationBox(FrameSymbolication(status: status)))
            }
            decisions[key] = decision
            return decision
        }

        // Most frames of a crash are in images without a debug file, or outside every image: they share one box each.
        let outside = Frame.SymbolicationBox(FrameSymbolication(status: .outsideImage))
        // Only decides: the cache is asked once per debug file below, not once per frame.
        func plan(_ frame: inout Frame, thread: Int?, position: Int, isCrashingFrame: Bool) {
            guard let address = frame.address else {
                frame.share(outside)
                return
            }
            // Positions, not copies: a frame reads the image's fields it needs.
            guard
                let image = frame.imageLoadAddress.flatMap(table.position(loadedAt:))
                    ?? table.position(containing: address) ?? frame.image.flatMap(table.position(named:)),
                address >= table.images[image].loadAddress
            else {
                frame.share(outside)
                return
            }
            let decision: Decision
            if let imageUUID = table.images[image].uuid {
                if let known = imageDecisions[image] {
                    decision = known
                } else {
                    decision = decide(uuid: imageUUID, image: image)
                    imageDecisions[image] = decision
                }
            } else if let frameUUID = frame.imageUUID {
                decision = decide(uuid: frameUUID, image: image)
            } else {
                frame.symbolication = FrameSymbolication(status: .imageWithoutUUID(image: table.images[image].name))
                return
            }
            switch decision {
            case .refuse(let box):
                frame.share(box)
            case .use(let job, let text):
                var lookup = text &+ (address - table.images[image].loadAddress)
                let corrected = !isCrashingFrame && lookup > 0
                if corrected { lookup -= 1 }
                // Given its symbolication once it is answered, or found unanswered at the end: one box either way.
                frame.symbolication = nil
                jobs[job].lookups.append(Lookup(thread: thread, frame: position, address: lookup, corrected: corrected))
            }
        }

        for thread in crash.threads.indices {
            let crashed = crash.threads[thread].crashed
            for position in crash.threads[thread].frames.indices {
                plan(
                    &crash.threads[thread].frames[position], thread: thread, position: position,
                    isCrashingFrame: crashed && position == 0)
            }
        }
        for position in crash.exceptionBacktrace.indices {
            plan(&crash.exceptionBacktrace[position], thread: nil, position: position, isCrashingFrame: false)
        }

        // The frame a lookup was planned for, in its thread or in the exception backtrace.
        func withFrame(of lookup: Lookup, _ body: (inout Frame) -> Void) {
            if let thread = lookup.thread {
                body(&crash.threads[thread].frames[lookup.frame])
            } else {
                body(&crash.exceptionBacktrace[lookup.frame])
            }
        }

        // Offsets count from the reported address, as symbolicatecrash prints them, not from the corrected one.
        func apply(_ result: SymbolCache.Result, to lookup: Lookup) {
            withFrame(of: lookup) { frame in
                frame.symbolication = FrameSymbolication(
                    status: .symbolicated(backend: result.backend), lookupAddress: lookup.address,
                    locations: lookup.corrected ? result.callerLocations : result.locations)
            }
        }

        var warnedAboutDWARF = false
        for job in jobs.sorted(by: { ($0.entry.path, $0.entry.slice.arch) < ($1.entry.path, $1.entry.slice.arch) }) {
            // What the cache knows (one question per file), then each distinct address it does not is asked once:
            // a crash repeats frames across threads and recursion.
            let known = cache.results(uuid: job.uuid, addresses: job.lookups.map(\.address))
            var unique: [UInt64] = []
            var slots: [UInt64: Int] = [:]
            var asked: [(lookup: Lookup, slot: Int)] = []
            for (lookup, result) in zip(job.lookups, known) {
                if let result {
                    if !result.locations.isEmpty { apply(result, to: lookup) }
                    continue
                }
                let slot = slots[lookup.address] ?? unique.count
                if slot == unique.count {
                    slots[lookup.address] = slot
                    unique.append(lookup.address)
                }
                asked.append((lookup, slot))
            }
            guard !unique.isEmpty else { continue }
            guard runningBackEnds else { return (warnings, false) }
            if llvmSymbolizer == nil, job.entry.kind == .machO, job.entry.slice.hasDWARF, !warnedAboutDWARF {
                warnings.append(
                    "llvm-symbolizer not found: DWARF files are read for function names only, without lines")
                warnedAboutDWARF = true
            }
            let answers: [[SourceLocation]]
            var backend = "dwarf"
            do {
                answers = try resolve(job.entry, addresses: unique, backend: &backend)
            } catch {
                warnings.append(error.description)
                continue
            }
            let results =
                if let uuid = job.entry.slice.uuid {
                    cache.insert(uuid: uuid, backend: backend, addresses: unique, answers: answers)
                } else {
                    answers.map { SymbolCache.Result(backend: backend, locations: $0) }
                }
            for (lookup, slot) in asked where slot < results.count && !results[slot].locations.isEmpty {
                apply(results[slot], to: lookup)
            }
        }
        // What no debug file answered (no function there, or a back end that failed) says where it was looked for: a
        // frame planned for a debug file has no symbolication until it is answered.
        for job in jobs {
            for lookup in job.lookups {
                withFrame(of: lookup) { frame in
                    if frame.symbolicationBox == nil {
                        frame.symbolication = FrameSymbolication(status: .notFound, lookupAddress: lookup.address)
                    }
                }
            }
        }
        return (warnings, true)
    }

    /// DWARF through llvm-symbolizer when the file has it and the tool is there; the symbol table otherwise.
    private func resolve(
        _ entry: DebugFileIndex.Entry, addresses: [UInt64], backend: inout String
    ) throws(SymbolicationError) -> [[SourceLocation]] {
        if entry.kind == .breakpad {
            backend = "breakpad"
            let text: String
            do {
                text = try String(contentsOfFile: entry.path, encoding: .utf8)
            } catch {
                throw SymbolicationError(file: entry.path, reason: "cannot read the Breakpad file")
            }
            let symbols = try BreakpadSymbols(text: text, file: entry.path)
            return addresses.map(symbols.lookup)
        }
        if entry.slice.hasDWARF, let llvmSymbolizer {
            backend = "dwarf"
            return try llvmSymbolizer.symbolize(file: entry.path, arch: entry.slice.arch, addresses: addresses)
        }
        backend = "symbol-table"
        let table = try MachOSymbolTable(path: entry.path, slice: entry.slice)
        let text = entry.slice.textVMAddress ?? 0
        let image = entry.path.split(separator: "/").last.map(String.init) ?? "image"
        return addresses.map { address in
            guard let found = table.lookup(address) else { return [] }
            // A stripped function is named by its image and its start, as grouping keys it: never by a wrong name.
            let name = found.name ?? "\(image)+0x\(String(found.start &- text, radix: 16))"
            return [SourceLocation(rawName: name, offset: found.offset)]
        }
    }
}

extension Symbolicator {
    /// The report with every crash symbolicated; back-end failures become report warnings.
    public func symbolicate(_ report: Report) -> Report {
        var report = report
        symbolicate(&report)
        return report
    }

    /// Symbolicates every crash of the report in place; back-end failures become report warnings.
    public func symbolicate(_ report: inout Report) {
        for index in report.crashes.indices {
            let warnings = symbolicate(&report.crashes[index])
            report.warnings += warnings.map { Diagnostic(file: "symbolication", message: $0) }
        }
    }

    /// Symbolicates every crash of the report in place from the answers ``cache`` holds, starting no back end and
    /// reading no debug file; `false` when some frame's answer is not there, and the in-place `symbolicate(_:)` of the
    /// report must then run (it redoes every frame). A night's crashes mostly repeat frames an earlier crash had
    /// answered.
    package func symbolicateFromCache(_ report: inout Report) -> Bool {
        for index in report.crashes.indices {
            guard symbolicate(&report.crashes[index], runningBackEnds: false).answered else { return false }
        }
        return true
    }
}
