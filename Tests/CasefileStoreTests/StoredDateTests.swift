import Foundation
import GRDB
import Testing

@testable import CasefileStore

/// The index's own date text is GRDB's, to the millisecond, so GRDB reads every stored date back.
@Suite struct StoredDateTests {
    @Test func aKnownInstantIsCutToItsMillisecond() {
        // 1,700,000,000 s after 1970 is 2023-11-14 22:13:20 UTC; the fraction .9999 is cut to 999, not rounded up.
        let date = Date(timeIntervalSince1970: 1_700_000_000.9999)
        #expect(StoredDate.databaseValue(date) == "2023-11-14 22:13:20.999".databaseValue)
    }

    @Test(arguments: [
        0, 0.001, 59.5, 951_782_400.25,  // 2000-02-29, a leap day
        1_709_164_799.999,  // the last millisecond of 2024-02-28
        4_102_444_799.5,  // the last second of 2099
        253_402_300_799.999,  // the last millisecond GRDB's four-digit year can hold
    ])
    func sameTextAsGRDB(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(StoredDate.databaseValue(date) == date.databaseValue)
    }

    @Test func grdbReadsTheTextBackToTheSameMillisecond() throws {
        let now = Date()
        let decoded = try #require(Date.fromDatabaseValue(StoredDate.databaseValue(now)))
        #expect(decoded <= now && now.timeIntervalSince(decoded) < 0.001)
    }
}
