import Foundation
import Testing

@testable import CasefileCore

@Suite struct FixedPointTests {
    /// Values read by hand from their binary expansions: 0.0625 is exactly halfway at three decimals (ties go to the
    /// even digit); 0.0005 lies just above halfway and 1.0005 just below; 0.05 lies just above 0.05.
    @Test(arguments: [
        (13.15, 3, "13.150"), (0.0625, 3, "0.062"), (0.0005, 3, "0.001"), (1.0005, 3, "1.000"), (0.05, 1, "0.1"),
        (2.5, 0, "2"), (3.5, 0, "4"), (-0.0001, 3, "-0.000"), (-0.0, 1, "-0.0"), (1234.5678, 3, "1234.568"),
        (999.96, 1, "1000.0"), (0, 3, "0.000"), (61.2, 1, "61.2"),
    ])
    func roundsAsPrintfDoes(_ value: Double, _ digits: Int, _ expected: String) {
        #expect(FixedPoint.text(value, digits: digits) == expected)
    }

    /// glibc's `printf`, through `String(format:)`, is the reference: many values near halfway points and of every
    /// magnitude a summary shows, beyond the exact path's range too.
    @Test func agreesWithPrintf() {
        var values: [Double] = [.infinity, -.infinity, 1e300, 0x1p60, 0x1p47 + 0.5, Double.leastNonzeroMagnitude]
        for step in 0..<UInt64(20_000) {
            // Scattered, the same on every run: a multiplicative hash of the step.
            let scattered = step &* 0x9E37_79B9_7F4A_7C15
            let halfway = (Double(scattered % 2_000_000) + 0.5) / 1_000
            values.append(halfway)
            values.append(halfway.nextUp)
            values.append(halfway.nextDown)
            values.append(Double(bitPattern: scattered >> 2).truncatingRemainder(dividingBy: 1e7))
            values.append(-Double(scattered % 100_000_000) / 997)
        }
        for digits in [0, 1, 3, 6] {
            let mismatches = values.filter { value in
                FixedPoint.text(value, digits: digits) != String(format: "%.*f", digits, value)
            }
            #expect(mismatches.isEmpty, "\(digits) decimals: \(mismatches.prefix(5))")
        }
    }
}
