import Testing

@testable import CasefileCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `SideBySide` runs its two pieces: apart when asked and allowed, on the caller's thread otherwise (the nightly
/// run turns second threads off for its inputs, whose every core is busy).
@Suite struct SideBySideTests {
    /// The threads `first` and `second` ran on, and whether each gave its own result back.
    static func threads(concurrently: Bool) -> (caller: pthread_t, first: pthread_t, second: pthread_t, results: Bool) {
        let caller = pthread_self()
        let (first, second) = SideBySide.run(
            concurrently: concurrently, { (pthread_self(), "first") }, { (pthread_self(), 2) })
        return (caller, first.0, second.0, first.1 == "first" && second.1 == 2)
    }

    @Test func piecesRunApartWhenAskedAndAllowed() {
        let run = Self.threads(concurrently: true)
        #expect(pthread_equal(run.first, run.caller) != 0)
        #expect(pthread_equal(run.second, run.caller) == 0)
        #expect(run.results)
    }

    @Test func piecesRunOnTheCallersThreadWhenNotAsked() {
        let run = Self.threads(concurrently: false)
        #expect(pthread_equal(run.first, run.caller) != 0)
        #expect(pthread_equal(run.second, run.caller) != 0)
        #expect(run.results)
    }

    @Test func piecesRunOnTheCallersThreadWhereSecondThreadsAreOff() {
        let run = SideBySide.$secondThread.withValue(false) { Self.threads(concurrently: true) }
        #expect(pthread_equal(run.first, run.caller) != 0)
        #expect(pthread_equal(run.second, run.caller) != 0)
        #expect(run.results)
    }

    /// A piece may split its own work again: each split starts a thread of its own.
    @Test func aPieceSplitsAgain() {
        let (outer, inner) = SideBySide.run(
            concurrently: true, { pthread_self() }, { (pthread_self(), Self.threads(concurrently: true)) })
        #expect(pthread_equal(outer, inner.0) == 0)
        #expect(pthread_equal(inner.1.second, inner.1.caller) == 0)
        #expect(pthread_equal(inner.1.second, outer) == 0)
    }
}
