import Foundation

/// The processor time of the whole process, every thread's, as a clock.
struct ProcessorClock {
    /// The processor time used so far.
    var now: Duration {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// The processor time `work` takes.
    func measure(_ work: () throws -> Void) rethrows -> Duration {
        let start = now
        try work()
        return now - start
    }
}

/// The processor time used so far by this process's child processes (the `llvm-symbolizer`s symbolication starts):
/// those still running, read from `/proc`, and those that ended and were waited for. Zero where there is no `/proc`.
enum ChildProcessorTime {
    /// The children's processor time so far.
    static func now() -> Duration {
        #if os(Linux)
            var usage = rusage()
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
            let ended =
                Duration.seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
            return ended + running()
        #else
            return .zero
        #endif
    }

    /// The user and system time of the children still running, counted by the system in clock ticks (100 a second on
    /// Linux).
    private static func running() -> Duration {
        let me = getpid()
        let ticksPerSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
        guard ticksPerSecond > 0, let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
            return .zero
        }
        var ticks: Int64 = 0
        for entry in entries where entry.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // `pid (command) state ppid …`: the command may hold spaces and parentheses, so fields are counted from the
            // last ")". After it, the parent is the second field, user time the twelfth and system time the thirteenth
            // (fields 4, 14 and 15 of proc(5)).
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, Int32(fields[1]) == me, let user = Int64(fields[11]),
                let system = Int64(fields[12])
            else { continue }
            ticks += user + system
        }
        return .milliseconds(ticks * 1000 / ticksPerSecond)
    }
}
