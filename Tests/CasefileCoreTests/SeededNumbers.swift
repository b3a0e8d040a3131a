/// Knuth's MMIX linear congruential generator, read from its high bits: the same numbers on every run, for tests that
/// damage an input at seeded places.
struct SeededNumbers {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A number in `0..<bound`.
    mutating func next(below bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % bound
    }
}
