import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock beside the database, so two nightly runs never index the same inbox at once.
final class RunLock {
    private let descriptor: Int32
    private let path: String

    /// Takes the lock or throws at once when another process holds it.
    init(path: String) throws(RunLockError) {
        self.path = path
        descriptor = open(path, O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else {
            throw RunLockError(description: "\(path): cannot create the lock file (errno \(errno))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw RunLockError(description: "\(path): another casefile run holds the lock; try again when it ends")
        }
    }

    /// Releases the lock.
    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// The lock could not be taken.
struct RunLockError: Error, CustomStringConvertible {
    var description: String
}
