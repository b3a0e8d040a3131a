import CasefileCore
import Testing

/// The nightly run's budget of bytes in flight: who is admitted at once, who waits, and in what order.
@Suite struct InputBudgetTests {
    /// Returns once `budget` has `count` inputs waiting (five seconds at most).
    func waitUntil(_ budget: InputBudget, holdsWaiting count: Int) async throws {
        for _ in 0..<5_000 {
            if await budget.waitingCount == count { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("never \(count) waiting")
    }

    @Test func admitsAtOnceWhatFitsAndWhateverComesWhenNothingIsHeld() async {
        let budget = InputBudget(limit: 100, estimates: 2)
        let first = await budget.admit(60, exact: true)
        let second = await budget.admit(40, exact: true)
        #expect(await budget.held == 100)
        await budget.release(first)
        await budget.release(second)
        // Larger than the whole budget: read alone.
        _ = await budget.admit(250, exact: true)
        #expect(await budget.held == 250)
        #expect(await budget.peak == 250)
    }

    @Test func anInputThatDoesNotFitWaitsForARelease() async throws {
        let budget = InputBudget(limit: 100, estimates: 2)
        let first = await budget.admit(70, exact: true)
        let waiter = Task { await budget.admit(50, exact: true) }
        try await waitUntil(budget, holdsWaiting: 1)
        #expect(await budget.held == 70)
        await budget.release(first)
        #expect(await waiter.value.bytes == 50)
        #expect(await budget.held == 50)
        #expect(await budget.waitingCount == 0)
        // 70 and 50 were never held together.
        #expect(await budget.peak == 70)
    }

    @Test func inputsAreAdmittedInTheOrderTheyAsked() async throws {
        let budget = InputBudget(limit: 100, estimates: 2)
        let first = await budget.admit(90, exact: true)
        // 80 waits; 5 would fit beside the 90 but asked later, so it waits behind the 80.
        let large = Task { await budget.admit(80, exact: true) }
        try await waitUntil(budget, holdsWaiting: 1)
        let small = Task { await budget.admit(5, exact: true) }
        try await waitUntil(budget, holdsWaiting: 2)
        #expect(await budget.held == 90)
        // Both fit once the 90 are given back: 80 + 5.
        await budget.release(first)
        _ = await large.value
        _ = await small.value
        #expect(await budget.held == 85)
    }

    @Test func aSettledChargeIsWhatLaterInputsWaitFor() async throws {
        let budget = InputBudget(limit: 100, estimates: 2)
        // An archive of 10 bytes on disk, found to hold 90 once unpacked.
        var archive = await budget.admit(10, exact: false)
        archive = await budget.settle(archive, to: 90)
        #expect(archive.bytes == 90)
        #expect(await budget.held == 90)
        let waiter = Task { await budget.admit(20, exact: true) }
        try await waitUntil(budget, holdsWaiting: 1)
        // Given back: room is made, and the waiter admitted.
        await budget.release(archive)
        _ = await waiter.value
        #expect(await budget.held == 20)
        #expect(await budget.peak == 90)
    }

    @Test func fewerEstimatesThanItsSlotsAreUnsettledAtOnce() async throws {
        let budget = InputBudget(limit: 1_000, estimates: 2)
        let first = await budget.admit(10, exact: false)
        _ = await budget.admit(10, exact: false)
        // A third archive fits the bytes, but two are unsettled: it waits. A folder, whose bytes are known, does not.
        let third = Task { await budget.admit(10, exact: false) }
        try await waitUntil(budget, holdsWaiting: 1)
        let folder = Task { await budget.admit(10, exact: true) }
        try await waitUntil(budget, holdsWaiting: 2)
        #expect(await budget.held == 20)
        // The first is settled (it could not be read: it holds nothing); the third, then the folder are admitted.
        _ = await budget.settle(first, to: 0)
        #expect(await third.value.isEstimate)
        #expect(await folder.value.bytes == 10)
        #expect(await budget.held == 30)
    }

    @Test func onlyAChargeWhoseReleaseChangesNothingIsEmpty() async throws {
        #expect(InputBudget.Charge.none.isEmpty)
        let budget = InputBudget(limit: 1_000, estimates: 1)
        // A file over the whole-file limit is estimated at nothing, but holds the one slot for estimates until it is
        // settled or released: the run must give it back, though it holds no bytes.
        let large = await budget.admit(0, exact: false)
        #expect(!large.isEmpty)
        let next = Task { await budget.admit(0, exact: false) }
        try await waitUntil(budget, holdsWaiting: 1)
        await budget.release(large)
        let admitted = await next.value
        // Settled to nothing, it is empty; a folder's exact charge of some bytes is not.
        #expect(await budget.settle(admitted, to: 0).isEmpty)
        #expect(!(await budget.admit(10, exact: true)).isEmpty)
    }
}
