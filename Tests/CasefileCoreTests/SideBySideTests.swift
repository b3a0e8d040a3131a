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

    /// The items of ``SideBySide/map(count:concurrently:state:_:)``: each item's answer in its place, each item taken
    /// once. Asked to, the caller's thread and one more take items, each with a state of its own; else the caller
    /// alone, with one state. Each item waits a millisecond, so the second thread is running before the items run out.
    @Test(arguments: [true, false]) func itemsTakenOnceEachAnsweredInPlace(concurrently: Bool) {
        let caller = pthread_self()
        let answers = SideBySide.map(count: 40, concurrently: concurrently, state: [Int]()) { taken, item in
            usleep(1_000)
            taken.append(item)
            return (item: item, thread: pthread_self(), takenBefore: taken.dropLast())
        }
        #expect(answers.map(\.item) == Array(0..<40))
        let others = answers.filter { pthread_equal($0.thread, caller) == 0 }
        if concurrently {
            #expect(!others.isEmpty)
            #expect(others.count < 40)
            #expect(others.allSatisfy { pthread_equal($0.thread, others[0].thread) != 0 })
        } else {
            #expect(others.isEmpty)
        }
        // A thread's state saw only the items that thread took, in the order it took them.
        for answer in answers {
            let sameThread = answers.filter { pthread_equal($0.thread, answer.thread) != 0 }.map(\.item)
            #expect(Array(answer.takenBefore) == sameThread.filter { $0 < answer.item })
        }
    }

    /// Where second threads are off (the nightly run's inputs that run beside others), the caller takes every item.
    @Test func itemsTakenByTheCallerAloneWhereSecondThreadsAreOff() {
        let caller = pthread_self()
        let threads = SideBySide.$secondThread.withValue(false) {
            SideBySide.map(count: 40, concurrently: true) { _ in
                usleep(200)
                return pthread_self()
            }
        }
        #expect(threads.count == 40)
        #expect(threads.allSatisfy { pthread_equal($0, caller) != 0 })
    }

    @Test func noItemsNoAnswers() {
        let answers = SideBySide.map(count: 0, concurrently: true) { item in item }
        #expect(answers.isEmpty)
    }
}
