import CasefileArchive
import CasefileCore
import Foundation

/// What two steps every run must take cost beside the floor's own reading, on one core: parsing each input into
/// reports, and encoding each crash's threads and images as its compressed blob. Issue 8 asks the whole run, on two
/// cores, to stay within 2 × the floor on one; these lines show how much of that the two steps alone use, spread
/// perfectly over both cores, over the whole inbox and over its crash reports, where the floor is small (no video to
/// hash) and parsing is most of the work.
enum BudgetBenchmark {
    /// Seconds spent in each step over a set of inputs.
    private struct Budget {
        var inputs = 0
        var reports = 0
        var reading: Duration = .zero
        var parsing: Duration = .zero
        var blobs: Duration = .zero

        mutating func add(_ other: Budget) {
            inputs += other.inputs
            reports += other.reports
            reading += other.reading
            parsing += other.parsing
            blobs += other.blobs
        }

        /// One line: each step's seconds and the three together against the floor's reading.
        func line(_ what: String, checksum: UInt8) -> String {
            let seconds = { (duration: Duration) in
                Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            }
            let ratio = (seconds(reading) + seconds(parsing) + seconds(blobs)) / max(seconds(reading), 1e-9)
            return String(
                format:
                    "budget over %@ (%d inputs, %d reports), one core: the floor's reading (hash, decompress, every byte) %.2f s; parsing into reports %.2f s; crash blobs (zstd included) %.2f s; the three %.1f × the first, %.1f × spread over two cores (the goal: the whole run within 2 ×; xor %d)",
                what, inputs, reports, seconds(reading), seconds(parsing), seconds(blobs), ratio, ratio / 2, checksum)
        }
    }

    /// Prints the budget of the inbox at `inbox` (Scripts/make-inbox.py), read as the run reads it; "crash-report
    /// inputs" are those whose reports hold a crash.
    static func run(inbox: URL) throws {
        let reader = ReportReader()
        let clock = ContinuousClock()
        var all = Budget()
        var crashes = Budget()
        var checksum: UInt8 = 0
        for url in try FloorBenchmark.inputs(of: inbox) {
            var budget = Budget(inputs: 1)
            var unpacked: UnpackedInput?
            budget.reading = clock.measure { unpacked = FloorBenchmark.read(url, checksum: &checksum)?.unpacked }
            var reports: [Report] = []
            if let unpacked {
                budget.parsing = clock.measure { reports = (try? reader.read(unpacked))?.reports ?? [] }
            }
            budget.reports = reports.count
            budget.blobs = clock.measure {
                for report in reports {
                    for crash in report.crashes { _ = try? CrashDetailCodec.encode(crash) }
                }
            }
            all.add(budget)
            if reports.contains(where: { !$0.crashes.isEmpty }) { crashes.add(budget) }
        }
        // The running xor of every byte is printed: a result the compiler cannot drop.
        print(all.line("the whole inbox", checksum: checksum))
        print(crashes.line("its crash-report inputs", checksum: checksum))
    }
}
