import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a database file for as long as one `indoor serve` runs, so that a second server on the same
/// file is refused at start instead of both writing to it.
///
/// The lock is a `flock(2)` lock on the file itself (SQLite's own locks are `fcntl` locks, which it does not
/// disturb); it ends when the process does, however it ends.
final class DatabaseLock {
    private let descriptor: Int32

    /// Takes the lock on `path`, creating an empty file there when there is none, readable by this user only (mode
    /// 0600; SQLite then makes it a database, and gives its `-wal` and `-shm` files the same mode).
    /// - Throws: ``CommandFailure`` naming the file: held by another server, or not openable (and why).
    init(path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CommandFailure(
                "cannot open the database '\(path)': \(reason); give a file this user may read and write (--database)")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw CommandFailure(
                "the database '\(path)' is in use by another indoor serve: stop that one first, or give another "
                    + "file with --database")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
