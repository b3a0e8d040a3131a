import CasefileArchive
import Foundation
public import Logging

/// Runs the batch: scan the inbox, skip what was seen, unpack and parse the rest in parallel, write summaries,
/// index each input in its own transaction, quarantine what fails — and never stop for one bad input.
public struct PipelineRunner: Sendable {
    /// The pipeline definition.
    public var definition: PipelineDefinition
    /// Where progress and problems are logged.
    public var logger: Logger

    /// Creates a runner.
    public init(definition: PipelineDefinition, logger: Logger) {
        self.definition = definition
        self.logger = logger
    }

    /// One input finished, for progress display.
    public struct Progress: Sendable {
        /// Inputs finished so far.
        public var done: Int
        /// Inputs in the run.
        public var total: Int
        /// The input just finished.
        public var input: String
    }

    /// What reading one input gave, before it is indexed.
    private enum Reading: Sendable {
        case skipped
        /// An input read whole; `alone` when it is larger than the bytes the run holds in flight, so its files and
        /// reports are worked on two threads (``SideBySide/reports``).
        case parsed(IndexedInput, InputSummaries, alone: Bool)
        /// An input of many crash files, to be read again and stored a part at a time (``InputInParts``).
        case inParts(InputRecord, ReportReader.Parts)
        case failed(InputRecord, InputError)
    }

    /// What became of one input.
    ///
    /// The loop collecting outcomes frees each input's reports (every thread, frame and image of its crashes): 3.8 %
    /// of a run's samples over the benchmark's 1,000 inputs. Freeing them in the task that indexed the input instead,
    /// with only the digest's lines coming back, took 2.8 % and 3.8 % in two runs, and the same time and peak memory
    /// (alternating runs −5 % then +2 %); not kept (2026-12-04).
    enum Outcome: Sendable {
        case skipped
        case indexed(IndexedInput, IndexOutcome, coverage: [String: SymbolCoverage])
        /// An input stored in parts: what the digest counts of each of its reports stored, in the input's order.
        case indexedInParts(InputInParts, IndexOutcome, digest: [PartsReading.DigestEntry])
        case failed(InputRecord, InputError)
    }

    /// Runs the pipeline over the inbox; throws only when the run cannot start (no inbox, no index).
    public func run(
        index: some ReportIndex, pipelineName: String, progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws -> RunSummary {
        let started = Date()
        // The inputs are walked twice, once to count them for the progress and once to read them, and never held
        // all at once (``InboxWalk``): over 200,000 unchanged inputs, a peak RSS of 62 MB where holding their paths
        // and recorded signatures took 134 MB, in the same time (1.3 s).
        // The run's output is not its input, even in its inbox: the inbox is walked as the run goes, and its summaries
        // would be read back by the run that wrote them.
        let scanner = InboxScanner(
            ignore: definition.ignore, skipping: [definition.output.path, definition.database.path])
        let total = try scanner.count(in: definition.inbox)
        let walk = try scanner.walk(in: definition.inbox)
        let runID = try await index.beginRun(pipeline: pipelineName, inbox: definition.inbox.path, startedAt: started)
        var summary = RunSummary(runID: runID)
        var digest = RunDigest(summary: summary, symbolicationConfigured: !definition.symbolFolders.isEmpty)
        let reportsFolder = definition.output.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reportsFolder, withIntermediateDirectories: true)
        if try await index.runsKilled(before: runID) > 0 {
            // A killed run may have left a summary or page half written beside its name; only then is the output
            // read for them, so a run's cost does not grow with the summaries of every earlier night.
            for folder in ["", "reports", "groups", "outbox", "runs"] {
                FileBlocks.removeAbandonedTemporaries(in: definition.output.appendingPathComponent(folder).path)
            }
        }

        let symbolicator =
            definition.symbolFolders.isEmpty ? nil : RunSymbolicator { await makeSymbolicator(index: index) }
        let fingerprinter = definition.fingerprinter
        let redactor = Redactor(rules: definition.redaction)
        let frames = definition.frames ? VideoFrames.locate() : nil
        let claims = ReportClaims()
        let budget = InputBudget(limit: definition.bytesInFlight, estimates: definition.concurrency)
        let walked = try await withThrowingTaskGroup(of: (String, Outcome).self) { group in
            // With the signatures the index recorded, asked for 500 paths at a time: an unchanged inbox of 10,000
            // inputs is a directory walk and 20 queries, none per input.
            var pending = InboxInputs(walk, index: index)
            var running = 0
            let output = definition.output
            // A string, not a URL: each summary's path is joined to it, and URL joins cost more than writing a file.
            let outputPath = output.path
            let logger = logger
            func startNext() async throws {
                guard let (path, known) = try await pending.nextInput() else { return }
                running += 1
                let limits = definition.limits
                let parts = (definition.reportsPerPart, definition.partsPastBytes)
                group.addTask {
                    // Every core is busy with the inputs in flight: a large report's pieces are not split over a
                    // second thread, which took 7 % longer over an inbox of long recordings.
                    let (reading, held) = await SideBySide.$secondThread.withValue(false) {
                        await Self.process(
                            path, limits: limits, spillFolder: outputPath, parts: parts, index: index, budget: budget,
                            symbolicator: symbolicator, fingerprinter: fingerprinter, redactor: redactor,
                            frames: frames.map { ($0, output) }, known: known)
                    }
                    let outcome: Outcome
                    switch reading {
                    case .skipped: outcome = .skipped
                    case .failed(let record, let error): outcome = .failed(record, error)
                    case .parsed(let input, let summaries, let alone):
                        outcome = await SideBySide.$secondThread.withValue(alone) {
                            await Self.store(
                                input, summaries: summaries, index: index, claims: claims, run: runID,
                                output: outputPath, logger: logger)
                        }
                    case .inParts(let record, let parts):
                        outcome = await Self.storeInParts(
                            parts, of: record, index: index, claims: claims, run: runID, output: outputPath,
                            logger: logger, symbolicator: symbolicator, fingerprinter: fingerprinter,
                            frames: frames.map { ($0, output) })
                    }
                    // Given back once, whatever became of the input: indexed, skipped or quarantined. An input skipped
                    // by its signature holds nothing, and a second run over an unchanged inbox is all such inputs: no
                    // hop to the budget's actor for them.
                    if !held.isEmpty { await budget.release(held) }
                    return (path, outcome)
                }
            }
            // Tasks wait for the single index writer once per input, for its rows (`IndexStore` answers what it knows of
            // an input on the task's own thread), and for `llvm-symbolizer`; with only one task more than cores, the
            // cores sat idle a quarter of the time (1.5 of 2 busy). Six per core keep them busy while the symbolizer
            // loads a debug file and the writer commits, when every task in flight can be one waiting on them. On 2
            // cores, 1,000 inputs took 0.83 s with six, eight or twelve per core (medians of 10 alternating rounds), at
            // a peak RSS of 92, 96 and 101 MB; 10,000 took 7.1-8.1 s with six and 8.1-8.2 s with twelve (3 rounds), in
            // 104-106 and 108-113 MB. (While each input also waited for the writer to ask what the index knew of it,
            // six was 7-8 % slower than twelve.) Large inputs are held back by the budget of bytes in flight instead.
            for _ in 0..<(definition.concurrency * Self.inputsInFlightPerCore) { try await startNext() }
            var done = 0
            while running > 0, let (path, outcome) = try await group.next() {
                running -= 1
                done += 1
                try await finish(outcome, into: &summary, digest: &digest, index: index, run: runID)
                // An input that arrived after the count is counted as it is met.
                progress(Progress(done: done, total: max(total, done), input: path))
                // The answers the symbolicator learned are stored as the run goes, not all after its last input:
                // the writer has room for them between inputs, and the run's serial end does not grow with them.
                if done % Self.symbolAnswersEvery == 0, let symbols = await symbolicator?.symbolicatorIfReady() {
                    try await index.saveSymbolCache(symbols.cache)
                }
                try await startNext()
            }
            return done
        }
        summary.inputs = walked
        if let symbolicator = await symbolicator?.symbolicatorIfReady() {
            try await index.saveSymbolCache(symbolicator.cache)
        }
        // In the order of the inbox, not the order the tasks finished in: the digest, `--format json` and the log list
        // them so.
        summary.quarantined.sort { ($0.input, $0.entry ?? "", $0.reason) < ($1.input, $1.entry ?? "", $1.reason) }
        let groups = try await index.groupDigest(run: runID, top: 10)
        await writeGroupPages(groups, index: index, run: runID)
        digest.groups = groups
        summary.seconds = Date().timeIntervalSince(started)
        // The digest before the run is marked finished: a run killed while writing it is unfinished, and the next run
        // writes its own and removes the half-written file.
        digest.summary = summary
        writeDigest(digest, startedAt: started)
        try await index.finishRun(runID, summary: summary, finishedAt: Date())
        return summary
    }

    /// How many inputs the run reads at once for each core it keeps busy.
    static let inputsInFlightPerCore = 6

    /// How many inputs the run finishes between two writes of the symbolicator's new answers.
    package static let symbolAnswersEvery = 256

    /// The symbolicator of the run's symbol folders. Unchanged files of the folders (same size and modification time)
    /// are taken from the index, not read again. What the index keeps of them is a cache: when it cannot be read or
    /// written, the folders are read in full, and the run goes on.
    private func makeSymbolicator(index: some ReportIndex) async -> Symbolicator {
        var known: [String: DebugFileIndex.KnownFile] = [:]
        do {
            known = try await index.loadDebugFiles()
        } catch {
            logger.warning(
                "symbols: cannot read what earlier runs learned of the symbol folders, reading them all: \(error)")
        }
        let debugFiles = DebugFileIndex(
            scanning: definition.symbolFolders, known: known,
            staging: definition.output.appendingPathComponent("symbols-staging"))
        do {
            try await index.saveDebugFiles(debugFiles.files, replacing: known)
        } catch {
            logger.warning("symbols: cannot store what this run learned of the symbol folders: \(error)")
        }
        for problem in debugFiles.problems {
            logger.warning("symbols: \(problem)")
        }
        var cache = SymbolCache()
        do {
            cache = try await index.loadSymbolCache()
        } catch {
            logger.warning("symbols: cannot read the answers earlier runs stored, asking again: \(error)")
        }
        return Symbolicator(index: debugFiles, cache: cache)
    }

    /// Writes `groups/<fingerprint>.md` for every group the run touched, and a pointer page for each fingerprint
    /// merged into one, so every report's group link leads somewhere; and the tracker payload of each touched group
    /// to `outbox/`.
    ///
    /// Pages are rendered and written on every core, a few groups at a time: memory stays flat however many groups
    /// the run touched, and the run's serial tail shrinks (120 groups of a 1,000-input run took 35–60 ms one by one).
    private func writeGroupPages(_ digest: GroupDigest, index: some ReportIndex, run: Int64) async {
        let folder = definition.output.appendingPathComponent("groups")
        let outbox = definition.output.appendingPathComponent("outbox")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        } catch {
            logger.error("cannot write the group pages: \(error)")
            return
        }
        let pages = GroupPages(
            groups: folder, outbox: outbox, run: run, reportsURL: definition.tracker.reportsURL)
        let logger = logger
        await withTaskGroup(of: Void.self) { group in
            var pending = digest.touched.makeIterator()
            func startNext() {
                guard let id = pending.next() else { return }
                let known = digest.groups[id]
                let occurrences = digest.occurrencesThisRun[id]
                group.addTask {
                    do {
                        // The index answers one group at a time; rendering and writing go on meanwhile.
                        var detail = known
                        if detail == nil { detail = try await index.groupDetail(id: id) }
                        guard let detail else { return }
                        try pages.write(detail, occurrencesThisRun: occurrences)
                    } catch {
                        logger.error("cannot write the page of group \(id): \(error)")
                    }
                }
            }
            for _ in 0..<(definition.concurrency * 2) { startNext() }
            while await group.next() != nil { startNext() }
        }
    }

    /// Writes `digest.md` (the latest run) and `runs/run-N.md` into the output folder.
    private func writeDigest(_ digest: RunDigest, startedAt: Date) {
        let markdown = digest.render(startedAt: startedAt)
        let runs = definition.output.appendingPathComponent("runs")
        do {
            try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
            try FileBlocks.replace(runs.appendingPathComponent("run-\(digest.summary.runID).md").path, with: markdown)
            try FileBlocks.replace(definition.output.appendingPathComponent("digest.md").path, with: markdown)
        } catch {
            logger.error("cannot write the run digest: \(error)")
        }
    }

    private func finish(
        _ outcome: Outcome, into summary: inout RunSummary, digest: inout RunDigest, index: some ReportIndex,
        run: Int64
    ) async throws {
        switch outcome {
        case .skipped:
            summary.skipped += 1
        case .failed(let record, let error):
            logger.notice("quarantined: \(error)")
            try await index.quarantine(record, error: error, run: run)
            summary.quarantined.append(error)
        case .indexedInParts(let input, let outcome, let entries):
            if outcome.inputWasKnown {
                summary.skipped += 1
                return
            }
            for entry in entries {
                switch entry {
                case .added(let entry): digest.add(entry)
                case .replaced(let entry, let replaced): digest.replace(entry, replacing: replaced)
                }
            }
            count(outcome, failedEntries: input.failedEntries, notes: input.notes, of: input.record, into: &summary)
        case .indexed(let input, let outcome, let coverage):
            if outcome.inputWasKnown {
                summary.skipped += 1
                return
            }
            // Once each report, as the copy the index kept of copies the input holds.
            for report in Report.keptCopies(input.reports) {
                if outcome.newReportIDs.contains(report.id) {
                    digest.add(report, summaryPath: input.summaryPaths[report.id], coverage: coverage[report.id])
                } else if let replaced = outcome.replacedCoverage[report.id] {
                    // A copy this run added: the digest lists and counts this one instead.
                    digest.replace(
                        report, summaryPath: input.summaryPaths[report.id], coverage: coverage[report.id],
                        replacing: replaced)
                }
            }
            count(outcome, failedEntries: input.failedEntries, notes: input.notes, of: input.record, into: &summary)
        }
    }

    /// Counts an input indexed, and logs its notes.
    private func count(
        _ outcome: IndexOutcome, failedEntries: [InputError], notes: [String], of input: InputRecord,
        into summary: inout RunSummary
    ) {
        summary.processed += 1
        summary.quarantined += failedEntries
        summary.newReports += outcome.newReportIDs.count
        // A replaced copy was counted new with the input that gave it; one of the two copies is a duplicate.
        summary.duplicateReports += outcome.duplicateReportIDs.count + outcome.replacedReportIDs.count
        for note in notes {
            logger.info("\(input.path): \(note)")
        }
    }

    /// What an input needs before its rows, read whole or a part at a time: the blobs of its reports the index does not
    /// hold (`known`) made, and their summaries written. The blobs of the reports the index holds are not made: it
    /// keeps its copy, or makes them if this one replaces it.
    static func prepare(
        _ input: inout IndexedInput, known: Set<String>, summaries: InputSummaries, output: String, logger: Logger
    ) {
        input.encodeCrashDetails(skipping: known)
        input.encodeEventDetails(skipping: known)
        writeSummaries(
            input.reports.map(\.id).filter { !known.contains($0) }, of: input, summaries: summaries, output: output,
            logger: logger)
    }

    /// Renders and writes the summaries of an input's reports the index does not hold yet, many on two threads
    /// (``SideBySide/reports``). Each is written beside its final name and renamed into place, without an fsync: a run
    /// that dies leaves whole files or none.
    static func writeSummaries(
        _ ids: [String], of input: IndexedInput, summaries: InputSummaries, output: String, logger: Logger
    ) {
        _ = SideBySide.map(count: ids.count, concurrently: ids.count >= SideBySide.reports) { index in
            guard let path = input.summaryPaths[ids[index]], let markdown = summaries.markdown(of: ids[index]) else {
                return
            }
            let file = output + "/" + path
            do {
                try FileBlocks.replace(file, with: markdown)
            } catch {
                logger.error("cannot write summary \(file): \(error)")
            }
        }
    }

    /// The reports symbolicated, fingerprinted and correlated. A crash whose frames the symbol cache does not know
    /// waits for `llvm-symbolizer`, another process: that wait happens on a thread of its own, not on one of the few
    /// threads the tasks share, which would stand idle while other inputs wait to be parsed. Reports the cache answers
    /// in full are symbolicated on the task's own thread, with no hop: over 423 crash inputs whose frames were all
    /// cached, a run took 6–10 % less wall and processor time (medians of 10 and 12 alternating rounds). An input of
    /// many reports is enriched on two threads (``SideBySide/reports``).
    private static func enrich(
        _ reports: inout [Report], symbolicator: Symbolicator?, fingerprinter: Fingerprinter
    ) async {
        let twoThreads = reports.count >= SideBySide.reports
        guard let symbolicator, reports.contains(where: symbolicator.mayAskLLVMSymbolizer) else {
            Triage.enrich(&reports, symbolicator: symbolicator, fingerprinter: fingerprinter, twoThreads: twoThreads)
            return
        }
        var answered = true
        for index in reports.indices where answered {
            answered = symbolicator.symbolicateFromCache(&reports[index])
        }
        if answered {
            Triage.enrich(&reports, symbolicator: nil, fingerprinter: fingerprinter, twoThreads: twoThreads)
            return
        }
        // Held by the box alone, so the crashes are changed in place: a shared array would be copied, frames and all.
        let box = ReportsBox(reports)
        reports = []
        // A task's values are not a dispatched block's: whether a second thread may be started is handed over.
        let secondThread = SideBySide.secondThread
        reports = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                SideBySide.$secondThread.withValue(secondThread) {
                    Triage.enrich(
                        &box.reports, symbolicator: symbolicator, fingerprinter: fingerprinter, twoThreads: twoThreads)
                }
                continuation.resume(returning: box.take())
            }
        }
    }

    /// Writes what reading one input gave: the summaries of its new reports, then its rows. The summaries and the blobs
    /// are made here, once the index says which reports are new, and only for those. Each task indexes its own input:
    /// the index serializes the writes, and while one input waits for the writer the other tasks go on parsing.
    private static func store(
        _ input: IndexedInput, summaries: InputSummaries, index: some ReportIndex, claims: ReportClaims, run: Int64,
        output: String, logger: Logger
    ) async -> Outcome {
        var input = input
        // An input holding a report another input of the run is writing waits for that one's rows.
        let ids = input.reports.map(\.id)
        await claims.claim(ids)
        let outcome: Outcome
        do {
            // Summaries first, then the rows: a report in the index always has its summary, even when the run is
            // killed right after the commit. A summary written for an input the kill kept out of the index is written
            // again when the next run indexes it.
            let known = try await index.knownReports(ids)
            prepare(&input, known: known, summaries: summaries, output: output, logger: logger)
            let result = try await index.record(input, run: run)
            // A copy that replaced another input's: that copy's summary stood until its rows went.
            writeSummaries(
                result.replacedReportIDs, of: input, summaries: summaries, output: output, logger: logger)
            outcome = .indexed(input, result, coverage: summaries.coverage)
        } catch {
            // One input the index refuses is quarantined like any other.
            let reason = InputError(input: input.record.path, reason: "cannot be indexed: \(error)")
            outcome = .failed(input.record, reason)
        }
        await claims.release(ids)
        return outcome
    }

    /// Hashes, checks, unpacks, parses and enriches one input; everything that can run in parallel before the index is
    /// asked which of its reports are new. Returns, with what became of the input, the bytes it holds of `budget`,
    /// which the caller releases once the input is indexed.
    ///
    /// An input is admitted to the budget before its bytes are read into memory: a folder before its hash reads its
    /// files (by what its listing says it keeps: exact), a file before it is unpacked (by what its hash kept of it: an
    /// estimate of what it will hold). Once unpacked, its charge is what it holds.
    private static func process(
        _ path: String, limits: ArchiveLimits, spillFolder: String, parts: (reportsPerPart: Int, past: Int),
        index: some ReportIndex, budget: InputBudget,
        symbolicator: RunSymbolicator?, fingerprinter: Fingerprinter, redactor: Redactor, frames: (VideoFrames, URL)?,
        known: String?
    ) async -> (Reading, held: InputBudget.Charge) {
        // A large input's compressed entries are spilled beside the index: what it holds does not grow with its size.
        var source = InputSource(path: path, limits: limits, spillFolder: spillFolder)
        // An input seen before with the same size and times is not read again.
        let signature = source.signature
        if let signature, signature == known {
            return (.skipped, .none)
        }
        var held = InputBudget.Charge.none
        if source.isFolder {
            held = await budget.admit(source.estimatedBytes, exact: true)
        }
        // Each byte is read once: hashed, then unpacked from what the hash read.
        let sha256: String
        do {
            sha256 = try source.hash()
        } catch {
            let record = InputRecord(path: path, sha256: nil, kind: "unknown", signature: signature)
            return (.failed(record, error), held)
        }
        if (try? await index.isKnown(inputSHA256: sha256)) == true {
            return (.skipped, held)
        }
        if !source.isFolder {
            held = await budget.admit(source.estimatedBytes, exact: false)
        }
        var unpacked: UnpackedInput
        do {
            unpacked = try source.unpack()
        } catch {
            let record = InputRecord(path: path, sha256: sha256, kind: "unknown", signature: signature)
            return (.failed(record, InputError(error)), await budget.settle(held, to: 0))
        }
        held = await budget.settle(held, to: unpacked.bytesHeld)
        let record = InputRecord(path: path, sha256: sha256, kind: unpacked.kind.rawValue, signature: signature)
        // An input larger than the bytes the run holds in flight runs alone, or nearly (the budget admits no other
        // while it holds more): the other core would sit idle, so its many files are read and its reports enriched,
        // encoded and rendered on two threads. Inputs that run beside others keep to one: a nightly inbox of 41 zips of
        // 20 crash files each took 8–11 % longer with second threads (Benchmarks/2026-12.md, 2026-12-05 01:30).
        let alone = unpacked.bytesUnpacked > budget.limit
        return await SideBySide.$secondThread.withValue(alone) {
            await Self.read(
                &unpacked, record: record, held: held, alone: alone, parts: parts, index: index, budget: budget,
                symbolicator: symbolicator, fingerprinter: fingerprinter, redactor: redactor, frames: frames)
        }
    }

    /// The rest of
    /// ``process(_:limits:spillFolder:parts:index:budget:symbolicator:fingerprinter:redactor:frames:known:)`` once
    /// the input is unpacked: its reports read, enriched and summarized, or its parts surveyed.
    private static func read(
        _ unpacked: inout UnpackedInput, record: InputRecord, held: InputBudget.Charge, alone: Bool,
        parts: (reportsPerPart: Int, past: Int), index: some ReportIndex, budget: InputBudget,
        symbolicator: RunSymbolicator?, fingerprinter: Fingerprinter, redactor: Redactor, frames: (VideoFrames, URL)?
    ) async -> (Reading, held: InputBudget.Charge) {
        let reader = ReportReader(redactor: redactor)
        if let parts = reader.parts(of: &unpacked, reportsPerPart: parts.reportsPerPart, unpackedPast: parts.past) {
            // What it holds now is its entries compressed, not as unpacked.
            return (.inParts(record, parts), await budget.settle(held, to: parts.bytesHeld))
        }
        var output: ReportReader.Output
        do {
            // Handed over, so each entry's bytes go once it is read (see ``ReportReader/read(_:)``): the caller's copy
            // lets go of them first.
            let handed = unpacked
            unpacked.entries = []
            output = try reader.read(consume handed)
        } catch {
            return (.failed(record, error), held)
        }
        // A report the index holds from a night that is done is only linked to this input: it is left as parsed.
        let settled = (try? await index.settledReports(output.reports.map(\.id))) ?? []
        if settled.isEmpty {
            await finishReading(
                &output.reports, symbolicator: symbolicator, fingerprinter: fingerprinter, frames: frames)
        } else {
            // Copies of the reports still to finish: their crashes are copied as they are symbolicated, a small cost
            // beside what is saved, in the rare input that holds reports of both kinds.
            let positions = output.reports.indices.filter { !settled.contains(output.reports[$0].id) }
            var fresh = positions.map { output.reports[$0] }
            await finishReading(&fresh, symbolicator: symbolicator, fingerprinter: fingerprinter, frames: frames)
            for (position, report) in zip(positions, fresh) { output.reports[position] = report }
        }
        let summaries = InputSummaries(output.reports)
        var input = IndexedInput(
            record: record, reports: output.reports, notes: output.notes, summaryPaths: summaries.paths,
            failedEntries: output.failures)
        input.encodeSymbolCoverage(summaries.coverage)
        return (.parsed(input, summaries, alone: alone), held)
    }
}

extension PipelineRunner {
    /// Symbolicates, fingerprints and correlates `reports`, and extracts their screen frames when `frames` is given:
    /// what a report the index does not hold yet needs before it is rendered and stored.
    ///
    /// Not for a report the index holds from a night that is done (``ReportIndex/settledReports(_:)``): the run only
    /// links it to the input that holds it again. Over the 423 crash inputs of the benchmark's 1,000, saved anew over
    /// the index of a run over them, enriching them had been 14 % of the run's samples.
    fileprivate static func finishReading(
        _ reports: inout [Report], symbolicator: RunSymbolicator?, fingerprinter: Fingerprinter,
        frames: (VideoFrames, URL)?
    ) async {
        // Only an input with a crash needs the symbol folders; the first one to ask makes the run walk them.
        let needsSymbols = reports.contains { !$0.crashes.isEmpty }
        let symbols = needsSymbols ? await symbolicator?.symbolicator() : nil
        await enrich(&reports, symbolicator: symbols, fingerprinter: fingerprinter)
        extractFrames(&reports, frames)
    }

    /// Extracts the screen frames of `reports` into the output folder `frames` names, when it is given.
    static func extractFrames(_ reports: inout [Report], _ frames: (VideoFrames, URL)?) {
        guard let (extractor, folder) = frames else { return }
        // Beside the summary: reports/<id>.md links reports/<id>/frame-<event>.jpg.
        reports = reports.map { report in
            extractor.extract(
                report, into: folder.appendingPathComponent("reports/\(report.shortID)"),
                linkPrefix: "\(report.shortID)/")
        }
    }
}

/// Reports handed to another thread and back, held by one reference so they are changed in place.
private final class ReportsBox: @unchecked Sendable {
    var reports: [Report]

    init(_ reports: [Report]) {
        self.reports = reports
    }

    /// The reports, leaving none behind.
    func take() -> [Report] {
        defer { reports = [] }
        return reports
    }
}
