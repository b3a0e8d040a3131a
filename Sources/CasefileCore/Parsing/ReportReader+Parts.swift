package import CasefileArchive
import Synchronization

extension ReportReader {
    /// An input of many crash files, read twice: once whole, keeping only what the index must know before the input is
    /// stored (each report's id, the copies of one report, the notes and the entries that failed), then a part at a
    /// time, each part's reports parsed again and let go once stored (``InputInParts``). The input's memory is then
    /// one part's reports, not all of them, for one more parse of each file.
    ///
    /// The reports and notes are those ``ReportReader/read(_:)`` gives: an input of many crash reports and no
    /// recording has no report an app log or a debug-menu dump attaches to.
    package struct Parts: Sendable {
        /// Each report's id, once each, in the order each first appears (with `keepingCopies`, once for each copy, in
        /// the order of the files).
        package private(set) var reportIDs: [String] = []
        /// Further copies of a report (the most complete copy is the one read; on a tie, the first), with the entry
        /// each was read from.
        package private(set) var duplicateCopies: [(id: String, root: String)] = []
        /// Entries passed over, one line each, in the order ``ReportReader/read(_:)`` gives them.
        package private(set) var notes: [String]
        /// Entries that are reports but could not be read.
        package private(set) var failures: [InputError] = []
        /// The reports each part holds at most.
        package let reportsPerPart: Int
        /// The entry of each report's kept copy, in the order of ``reportIDs``, its bytes compressed
        /// (``ArchiveEntry/compressed()``: crash reports take about a sixth of their size), until its part is read.
        private var pending = PendingEntries([])
        private let input: (path: String, kind: UnpackedInput.Kind)
        private let redactor: Redactor

        fileprivate init(
            input: (path: String, kind: UnpackedInput.Kind), notes: [String], reportsPerPart: Int, redactor: Redactor
        ) {
            self.input = input
            self.notes = notes
            self.reportsPerPart = reportsPerPart
            self.redactor = redactor
        }

        /// The bytes the entries still to read hold, compressed.
        package var bytesHeld: Int {
            pending.bytesHeld
        }

        /// The next part: up to ``reportsPerPart`` reports, read again and redacted, each entry's bytes let go once
        /// read, on two threads (``SideBySide/map(count:concurrently:state:_:)``): the index's writer waits for the
        /// part, and the run's other inputs for the writer; `nil` after the last.
        ///
        /// Every copy of the parts reads from the same entries, and a part read by one is read for all: the run hands
        /// the parts from the task that surveyed them to the index's writer, and the copy it leaves behind lets go of
        /// each part's entries as the writer reads them.
        ///
        /// Throws, naming the entry, when an entry the first reading read a report from no longer gives one: its bytes,
        /// kept compressed or in the spill file, could not be read back (an error of the disk the output is on). The
        /// input is then quarantined whole rather than stored without that report.
        package func next() throws(InputError) -> [Report]? {
            guard var entries = pending.take(reportsPerPart) else { return nil }
            let (crashParser, redactor, input) = (CrashReportParser(), redactor, input)
            let reports = entries.withUnsafeMutableBufferPointer { entries in
                SideBySide.map(
                    count: entries.count, concurrently: true, state: RepeatedStrings(entries: entries.count)
                ) { repeated, position -> Report? in
                    let entry = entries[position]
                    entries[position].contents = .bytes([])
                    let bytes = UTF16Text.withoutByteOrderMark(entry.bytes ?? [])
                    // The first reading read a report here: the same bytes read the same way.
                    guard
                        case .report(var report) = ReportReader.reading(
                            bytes, of: entry, input: input, crashParser: crashParser)
                    else { return nil }
                    redactor.redact(&report)
                    repeated.share(&report)
                    return report
                }
            }
            if let lost = reports.firstIndex(where: { $0 == nil }) {
                throw InputError(
                    input: input.path, entry: entries[lost].path,
                    reason: "read as a crash report at first, but its bytes could not be read back to store it")
            }
            return reports.compactMap { $0 }
        }

        /// Reads each entry once, on two threads, keeping what ``Parts`` keeps (with `keepingCopies`, every copy of a
        /// report, each in its file's place); `false` when the entries hold too few reports for parts.
        fileprivate mutating func survey(_ unrecognized: [ArchiveEntry], keepingCopies: Bool) -> Bool {
            let (crashParser, input) = (CrashReportParser(), input)
            let surveyed = SideBySide.map(count: unrecognized.count, concurrently: true) { position in
                Surveyed(unrecognized[position], input: input, crashParser: crashParser)
            }
            var attachments: [String] = []
            var leftovers: [String] = []
            var entries: [ArchiveEntry] = []
            // Of each id, where its kept copy is in `entries` and how complete that copy is.
            var kept: [String: (position: Int, completeness: Int, root: String)] = [:]
            for (entry, surveyed) in zip(unrecognized, surveyed) {
                switch surveyed {
                case .media: notes.append(ReportReader.Passed.media.note(entry.path))
                case .report(let id, let completeness, let root, let compressed):
                    guard !keepingCopies, let first = kept[id] else {
                        kept[id] = (entries.count, completeness, root)
                        reportIDs.append(id)
                        entries.append(compressed)
                        continue
                    }
                    // As ``Report/keptCopies(_:)`` keeps copies: the most complete, in the place of the first.
                    if completeness > first.completeness {
                        duplicateCopies.append((id, first.root))
                        kept[id] = (first.position, completeness, root)
                        entries[first.position] = compressed
                    } else {
                        duplicateCopies.append((id, root))
                    }
                case .failure(let failure): failures.append(failure)
                case .attachment: attachments.append(entry.path)
                case .unrecognized: leftovers.append(entry.path)
                }
            }
            guard reportIDs.count > reportsPerPart else { return false }
            pending = PendingEntries(entries)
            notes += leftovers.map(ReportReader.Passed.unrecognized.note)
            notes += attachments.map(ReportReader.Passed.attachment.note)
            return true
        }
    }

    /// The entries of an input read in parts still to be read, shared by every copy of its ``Parts``: a part's entries
    /// are taken out as it is read. Were they a value, the copy the run leaves behind when it hands the parts to the
    /// index's writer would keep every entry until the input is stored (a tester's zip of 2,086 crash files: 35 MB).
    private final class PendingEntries: Sendable {
        private let state: Mutex<(entries: [ArchiveEntry], next: Int)>

        init(_ entries: [ArchiveEntry]) {
            state = Mutex((entries, 0))
        }

        /// The bytes the entries not yet taken hold.
        var bytesHeld: Int {
            state.withLock { state in state.entries[state.next...].reduce(0) { $0 + $1.bytesHeld } }
        }

        /// The next `count` entries, or fewer after the last, let go of here; `nil` when none are left.
        func take(_ count: Int) -> [ArchiveEntry]? {
            state.withLock { state in
                guard state.next < state.entries.count else { return nil }
                let part = state.next..<min(state.next + count, state.entries.count)
                let taken = Array(state.entries[part])
                for position in part { state.entries[position].contents = .bytes([]) }
                state.next = part.upperBound
                return taken
            }
        }
    }

    /// What the first reading of an input read in parts keeps of one entry (``Parts``).
    private enum Surveyed {
        /// A media file: no bytes were kept.
        case media
        /// A crash report: its id, how complete it is, the entry it was read from, and that entry compressed.
        case report(id: String, completeness: Int, root: String, compressed: ArchiveEntry)
        /// A crash report that could not be read.
        case failure(InputError)
        /// An app log or a debug-menu dump.
        case attachment
        /// None of these.
        case unrecognized

        /// Reads `entry` of `input`.
        init(_ entry: ArchiveEntry, input: (path: String, kind: UnpackedInput.Kind), crashParser: CrashReportParser) {
            guard let stored = entry.bytes else {
                self = .media
                return
            }
            let bytes = UTF16Text.withoutByteOrderMark(stored)
            switch ReportReader.reading(bytes, of: entry, input: input, crashParser: crashParser) {
            case .report(let report):
                self = .report(
                    id: report.id, completeness: report.completeness, root: report.source.root,
                    compressed: entry.compressed())
            case .failure(let failure): self = .failure(failure)
            case .attachment: self = .attachment
            case .unrecognized: self = .unrecognized
            }
        }
    }

    /// `input` to be read in parts of `reportsPerPart` reports (``Parts``), when its files expand to more than
    /// `unpackedPast` bytes and hold more crash reports than one part, no recording and no data snapshots; then `input`
    /// keeps no entries. Otherwise `nil`, and `input` is left for ``read(_:)``.
    ///
    /// The parts hold each report once, its most complete copy, as the index stores it; with `keepingCopies`, every
    /// copy in the order of its file, as ``read(_:)`` gives them (what `triage` prints).
    package func parts(
        of input: inout UnpackedInput, reportsPerPart: Int, unpackedPast: Int, keepingCopies: Bool = false
    ) -> Parts? {
        guard reportsPerPart > 0, input.entries.count > reportsPerPart, input.bytesUnpacked > unpackedPast else {
            return nil
        }
        let located = ReportLocator.locate(input)
        guard located.packages.isEmpty, located.unrecognized.count > reportsPerPart,
            !located.unrecognized.contains(where: { DataSnapshotParser.isRegistry($0.path) })
        else { return nil }
        var parts = Parts(
            input: (input.path, input.kind), notes: input.notes, reportsPerPart: reportsPerPart, redactor: redactor)
        guard parts.survey(located.unrecognized, keepingCopies: keepingCopies),
            // An entry the survey could not read back from the spill file is left for ``read(_:)``, which fails the
            // input naming it.
            input.spillFile?.firstEntryNotReadBack == nil
        else { return nil }
        input.entries = []
        return parts
    }
}
