#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock beside the database, so two nightly runs (or a run and a publish) never write the same
/// index at once. The kernel releases it when the process ends, however it ends.
public final class RunLock {
    private let descriptor: Int32
    private let path: String

    /// Takes the lock; when another process holds it, waits for it with `wait`, and throws at once otherwise.
    public init(path: String, wait: Bool = false) throws(RunLockError) {
        self.path = path
        descriptor = open(path, O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else {
            throw RunLockError(description: "\(path): cannot create the lock file (errno \(errno))")
        }
        guard flock(descriptor, wait ? LOCK_EX : LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw RunLockError(
                description: "\(path): another casefile run holds the lock; try again when it ends, or pass --wait")
        }
    }

    /// Releases the lock.
    public func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// The lock could not be taken.
public struct RunLockError: Error, CustomStringConvertible {
    /// The lock file and what went wrong.
    public var description: String
}
