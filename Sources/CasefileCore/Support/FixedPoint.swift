import Foundation

/// Numbers with a fixed count of decimals, as `printf("%.*f")` writes them, without Foundation's `String(format:)` in
/// the common case: a summary writes a time for every timeline event, and formatting through `NSString` cost more than
/// the rest of the line.
enum FixedPoint {
    private static let scales: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// `value` with `digits` decimals, rounded as C's `printf` rounds: to nearest, ties to even, decided on the
    /// value's exact binary expansion; a negative value, negative zero included, keeps its sign.
    static func text(_ value: Double, digits: Int) -> String {
        guard scales.indices.contains(digits), value.isFinite else { return fallback(value, digits: digits) }
        let magnitude = value.magnitude
        let scaled = magnitude * scales[digits]
        // Below 2^50 a unit of the product is at most a quarter, so its fraction and the halfway test are exact.
        guard scaled < 0x1p50 else { return fallback(value, digits: digits) }
        // The product's rounding error, exactly: magnitude × scale = scaled + error.
        let error = (-scaled).addingProduct(magnitude, scales[digits])
        let whole = scaled.rounded(.down)
        // Which side of halfway the exact product's fraction lies on: `scaled - whole - 0.5` is exact, and the sign
        // of a sum of two doubles is the sign of the exact sum. (A product rounded up onto `whole` lands below
        // halfway, and rounds back to `whole`, as it should.)
        let side = ((scaled - whole) - 0.5) + error
        var units = UInt64(whole)
        if side > 0 || (side == 0 && units % 2 == 1) { units += 1 }
        let power = UInt64(scales[digits])
        var text = value.sign == .minus ? "-" : ""
        text += String(units / power)
        guard digits > 0 else { return text }
        let fraction = String(units % power)
        text += "."
        text += String(repeating: "0", count: digits - fraction.count)
        text += fraction
        return text
    }

    /// What `printf` writes for values out of the exact path's range: infinities, NaN, magnitudes past 2^50 units.
    private static func fallback(_ value: Double, digits: Int) -> String {
        String(format: "%.*f", digits, value)
    }
}
