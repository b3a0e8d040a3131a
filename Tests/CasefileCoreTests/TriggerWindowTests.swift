import CasefileCore
import Testing

/// Which taps are weighed as a failure's trigger: only taps, only before the failure, and only the nearest
/// ``TriggerChoice/candidateLimit`` (12) of them. A recording is written here; the expected trigger is read from its
/// records.
@Suite struct TriggerWindowTests {
    /// A cart screen with a "Pay now" button in its top left corner (0…100 × 0…50).
    let screen =
        #"{"timestamp":0,"view":{"class":"ShopApp.CartView","properties":{"hidden":false,"userInteractionEnabled":true,"#
        + #""frame":{"x":0,"y":0,"width":375,"height":667}},"subviews":[{"class":"UIButton","properties":{"#
        + #""hidden":false,"userInteractionEnabled":true,"frame":{"x":0,"y":0,"width":100,"height":50}},"subviews":["#
        + #"{"class":"UIButtonLabel","properties":{"text":"Pay now","hidden":false,"userInteractionEnabled":false,"#
        + #""frame":{"x":0,"y":0,"width":100,"height":50}},"subviews":[]}]}]}}"#

    func touch(_ phase: String, _ time: Double, x: Int = 20) -> String {
        #"{"type":"\#(phase)","timestamp":\#(time),"touches":[{"tapCount":1,"locationInWindow":{"x":\#(x),"y":20}}]}"#
    }

    @Test func weighsTheTwelveNearestTapsBeforeTheFailureAndNoDrag() throws {
        // Fifteen taps on the button, every half second from 1.0 s to 8.0 s; then a drag across it, ending at 8.2 s.
        var touches: [String] = []
        for tap in 0..<15 {
            let time = 1.0 + 0.5 * Double(tap)
            touches += [touch("Began", time - 0.05), touch("Ended", time)]
        }
        touches += [touch("Began", 8.1), touch("Moved", 8.15, x: 60), touch("Ended", 8.2, x: 60)]
        // The payment fails at 9.0 s; a tap at 9.5 s comes after it.
        touches += [touch("Began", 9.45), touch("Ended", 9.5)]
        let failure =
            #"{"timestamp":9.0,"label":"DidReceiveResponse","properties":[{"class":"NSHTTPURLResponse","#
            + #""URL":"https:\/\/api.shop.example\/v1\/orders\/pay","statusCode":500,"allHeaderFields":{}}]}"#
        let report = try WrittenRecording.report(modules: [
            "module_view.json": [screen], "module_interaction.json": touches, "module_network.json": [failure],
        ])
        let chain = try #require(report.correlation.chains.first)
        #expect(report.correlation.chains.count == 1)
        #expect(chain.exchange.status == 500)
        // The last tap before the failure, not the nearer drag: a drag is not a tap. The twelve taps from 2.5 s on are
        // weighed; the eleven others among them scored lower (the three before 2.5 s were not weighed at all).
        let trigger = try #require(chain.trigger)
        #expect(trigger.time == 8.0)
        #expect(trigger.className == "UIButton")
        #expect(trigger.label == "Pay now")
        #expect(chain.evidence.contains("11 other taps in the window scored lower"))
    }
}
