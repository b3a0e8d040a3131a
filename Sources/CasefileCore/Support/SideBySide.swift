import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Two independent pieces of one report's work on two threads at once, for a report large enough that a second thread
/// pays: `casefile triage` waits on one report while the machine's other core sits idle.
///
/// The second piece runs on a thread of its own, started for it, and the first on the caller's. Pieces may split
/// their own work the same way: a pool of worker threads would run a piece's halves one after the other while the
/// caller waits for it (libdispatch's does). The nightly run keeps every core busy with other inputs already, and turns
/// second threads off for its inputs (``secondThread``); a small report's pieces run one after the other anyway.
enum SideBySide {
    /// Whether a second thread may be started, for the task (or the thread) that reads this: `false` where every core
    /// has other reports to work on.
    @TaskLocal static var secondThread = true

    /// The bytes of JSON from which reading them beside other work pays for the thread: about half a millisecond of
    /// reading, against some tens of microseconds to start and join a thread.
    static let pieceBytes = 64 * 1024

    /// The events of a timeline from which going over them in two halves at once pays for the thread: about a
    /// microsecond an event to redact.
    static let events = 2_000

    /// The failed requests from which their chains are worked out in two halves at once: about 45 µs a chain.
    static let chains = 64

    /// The files of one input, or its reports, from which they are read, enriched, encoded and rendered on two threads
    /// at once (``map(count:concurrently:state:_:)``), where second threads are on: a tester's zip of crash logs takes
    /// a second or more on one core, in `casefile triage` or as the one input a nightly run holds.
    static let reports = 16

    /// The stack of the second thread: the main thread's, as the parsers' depth limits assume it.
    private static let stackSize = 8 << 20

    /// `first()` and `second()`: on two threads at once when `concurrently`, else one after the other on the caller's
    /// thread (also when no thread can be started).
    static func run<First: Sendable, Second: Sendable>(
        concurrently: Bool, _ first: @Sendable () -> First, _ second: @Sendable () -> Second
    ) -> (First, Second) {
        guard concurrently, secondThread else { return (first(), second()) }
        return withoutActuallyEscaping(second) { second in
            let result = SecondResult<Second>()
            guard let thread = Worker.start({ result.value = second() }) else { return (first(), second()) }
            let firstResult = first()
            pthread_join(thread, nil)
            // The join orders the thread's write of its result before this read.
            guard let secondResult = result.value else { preconditionFailure("the second piece did not run") }
            return (firstResult, secondResult)
        }
    }

    /// `body(&state, item)` for every item of `0..<count`, the answers in that order. With `concurrently`, on the
    /// caller's thread and a second one at once, each taking the next item neither has taken, with a copy of `state` of
    /// its own; else on the caller's thread alone, with one. Items taken one at a time keep both threads busy to the
    /// end when items differ in cost (crash reports of 20 and of 400 KB), and the caller takes every item left when the
    /// second thread gets no core. As in ``run(concurrently:_:_:)``, only where `secondThread` is on: the nightly run
    /// turns it on for an input that runs alone.
    static func map<State, Result>(
        count: Int, concurrently: Bool, state: State, _ body: (inout State, Int) -> Result
    ) -> [Result] {
        guard concurrently, secondThread, count > 1 else {
            var state = state
            return (0..<count).map { body(&state, $0) }
        }
        let taken = Counter()
        var answers = [Result?](repeating: nil, count: count)
        answers.withUnsafeMutableBufferPointer { buffer in
            let slots = Slots(buffer: buffer)
            // Each thread writes the answers of the items it took, and no item is taken twice.
            func work() {
                var state = state
                while true {
                    let item = taken.value.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard item < count else { return }
                    slots.buffer[item] = body(&state, item)
                }
            }
            // The second thread, no task, reads `secondThread` as on, its default: as on the caller's.
            withoutActuallyEscaping(work) { work in
                let thread = Worker.start(work)
                work()
                // The join orders the second thread's writes of its answers before they are read.
                if let thread { pthread_join(thread, nil) }
            }
        }
        return answers.map { answer in
            guard let answer else { preconditionFailure("an item was not taken") }
            return answer
        }
    }

    /// `body(item)` for every item of `0..<count`, as ``map(count:concurrently:state:_:)`` does with no state.
    static func map<Result>(count: Int, concurrently: Bool, _ body: (Int) -> Result) -> [Result] {
        map(count: count, concurrently: concurrently, state: ()) { _, item in body(item) }
    }

    /// `work()` begun now on a thread of its own, for what the caller asks for next while it works on what it has; its
    /// result is taken with ``Ahead/value()``. Where `secondThread` is off, or no thread can be started, `work` runs
    /// when its value is asked for, on the caller's thread.
    static func ahead<Value: Sendable>(_ work: @escaping @Sendable () -> Value) -> Ahead<Value> {
        Ahead(work, started: secondThread)
    }

    /// A piece of work begun ahead of the caller (``ahead(_:)``).
    final class Ahead<Value: Sendable>: @unchecked Sendable {
        private let work: @Sendable () -> Value
        private let result = SecondResult<Value>()
        /// The thread running `work`, until it is joined; `nil` when none was started.
        private var thread: pthread_t?

        fileprivate init(_ work: @escaping @Sendable () -> Value, started: Bool) {
            self.work = work
            guard started else { return }
            let result = result
            thread = Worker.start { result.value = work() }
        }

        /// What `work` gave: waited for when it runs on its thread, else made now. Asked once.
        func value() -> Value {
            guard let running = thread else { return work() }
            thread = nil
            pthread_join(running, nil)
            // The join orders the thread's write of its result before this read.
            guard let value = result.value else { preconditionFailure("the work begun ahead did not run") }
            return value
        }

        // A value never asked for is still waited for: the thread reads what its work holds until it ends.
        deinit {
            if let thread { pthread_join(thread, nil) }
        }
    }

    /// The next item to take, shared by the two threads of ``map(count:concurrently:state:_:)``.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// The answers of ``map(count:concurrently:state:_:)``, which each thread writes where no other does.
    private struct Slots<Result>: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<Result?>
    }

    /// Where the second thread leaves its result.
    private final class SecondResult<Value>: @unchecked Sendable {
        var value: Value?
    }

    /// A thread running one piece of work.
    private final class Worker {
        let work: () -> Void

        private init(_ work: @escaping () -> Void) {
            self.work = work
        }

        /// Starts a thread running `work`; `nil` when none could be started.
        static func start(_ work: @escaping () -> Void) -> pthread_t? {
            // Allocated, not made with `pthread_attr_t()`: the zero value's initializer belongs to no module imported here.
            let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
            defer { attributes.deallocate() }
            guard pthread_attr_init(attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(attributes) }
            pthread_attr_setstacksize(attributes, SideBySide.stackSize)
            let context = Unmanaged.passRetained(Worker(work)).toOpaque()
            #if canImport(Glibc)
                var thread = pthread_t()
            #else
                var thread: pthread_t?
            #endif
            let status = pthread_create(
                &thread, attributes,
                { context in
                    guard let context else { return nil }
                    Unmanaged<Worker>.fromOpaque(context).takeRetainedValue().work()
                    return nil
                }, context)
            guard status == 0 else {
                Unmanaged<Worker>.fromOpaque(context).release()
                return nil
            }
            return thread
        }
    }
}
