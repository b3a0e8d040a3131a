import CSQLiteSettings

/// SQLite's process-wide options, set once before the first connection opens: no mutex per connection (GRDB
/// serializes each connection's use) and no memory statistics (a global mutex around every allocation).
///
/// On a run over 1,000 inputs, the two mutexes were 1.3 % of the CPU, and 1.7 % of it on crash reports alone.
enum SQLiteSettings {
    /// `SQLITE_OK`, or why SQLite kept its defaults (it was initialized before, by another library in the process).
    /// Read it to apply the settings; the first read applies them, once.
    static let applied: Int32 = casefile_sqlite_configure()
}
