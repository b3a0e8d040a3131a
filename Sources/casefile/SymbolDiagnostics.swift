import CasefileCore

/// What `symbolicate` and `triage` say about frames left unsymbolicated: each image whose frames stay unnamed, by
/// name, with the reason; the images without a debug file whose frames already carry the report's own symbols
/// (system libraries, as Apple's reports name them) in one line — all of them with `--verbose`.
enum SymbolDiagnostics {
    /// The lines to print for `crashes`.
    static func lines(_ crashes: [Crash], verbose: Bool) -> [String] {
        var tally = Tally()
        tally.add(crashes)
        return tally.lines(verbose: verbose)
    }

    /// What the lines are made of, counted a part of the reports at a time (`triage` of a large input).
    struct Tally {
        /// Each reason a frame was left unsymbolicated, in the order met.
        private var reasons: [String] = []
        /// Reason → every frame with it carries a symbol.
        private var named: [String: Bool] = [:]
        /// Reason → image name.
        private var images: [String: String] = [:]

        /// Counts the frames of `crashes`.
        mutating func add(_ crashes: [Crash]) {
            for crash in crashes {
                for frame in crash.threads.flatMap(\.frames) + crash.exceptionBacktrace {
                    guard let symbolication = frame.symbolication, let reason = symbolication.reason else { continue }
                    if named[reason] == nil {
                        reasons.append(reason)
                        named[reason] = true
                    }
                    if frame.symbol == nil { named[reason] = false }
                    if case .noDebugFile(let image, _) = symbolication.status { images[reason] = image }
                }
            }
        }

        /// The lines to print for the crashes counted.
        func lines(verbose: Bool) -> [String] {
            let quiet = verbose ? [] : reasons.filter { named[$0] == true && images[$0] != nil }
            var lines = reasons.filter { !quiet.contains($0) }.map { "not symbolicated: \($0)" }
            if !quiet.isEmpty {
                let names = quiet.compactMap { images[$0] }
                let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
                lines.append(
                    "note: \(names.count) image\(names.count == 1 ? "" : "s") without a debug file "
                        + "keep\(names.count == 1 ? "s" : "") the report's own symbols (\(shown)); "
                        + "--verbose lists them")
            }
            return lines
        }
    }
}
