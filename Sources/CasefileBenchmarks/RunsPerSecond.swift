import Foundation

/// How many times per second `body` runs on one core, run for about `seconds` and the clock read every `batch` runs
/// (reading it after every run would show in the figure of a fast body).
func runsPerSecond(for seconds: Double, batch: Int, _ body: () throws -> Void) rethrows -> Double {
    var count = 0
    let start = Date()
    while Date().timeIntervalSince(start) < seconds {
        for _ in 0..<batch { try body() }
        count += batch
    }
    return Double(count) / Date().timeIntervalSince(start)
}
