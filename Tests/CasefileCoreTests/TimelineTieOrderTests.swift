import CasefileCore
import Testing

/// Events a recording gives the same time keep a causal order on the timeline: the touch, what the app's own modules
/// recorded, the network, the screen. A recording is written here with one of each at 2.0 s.
@Suite struct TimelineTieOrderTests {
    func screen(_ time: Double, label: String) -> String {
        #"{"timestamp":\#(time),"view":{"class":"ShopApp.CartView","properties":{"hidden":false,"#
            + #""userInteractionEnabled":true,"frame":{"x":0,"y":0,"width":375,"height":667}},"subviews":["#
            + #"{"class":"UILabel","properties":{"text":"\#(label)","hidden":false,"userInteractionEnabled":false,"#
            + #""frame":{"x":0,"y":100,"width":200,"height":40}},"subviews":[]}]}}"#
    }

    @Test func sameTimeEventsGoTouchModuleNetworkScreen() throws {
        let response =
            #"{"timestamp":2.0,"label":"DidReceiveResponse","properties":[{"class":"NSHTTPURLResponse","#
            + #""URL":"https:\/\/api.shop.example\/v1\/orders","statusCode":200,"allHeaderFields":{}}]}"#
        // The files are read in the order of their names (checkout, interaction, network, view): the causal order is
        // not theirs.
        let report = try WrittenRecording.report(modules: [
            "module_view.json": [screen(0, label: "Cart"), screen(2.0, label: "Paying")],
            "module_network.json": [response],
            "module_interaction.json": [
                #"{"type":"Began","timestamp":2.0,"touches":[{"tapCount":1,"locationInWindow":{"x":300,"y":600}}]}"#
            ],
            "module_checkout.json": [#"{"timestamp":2.0,"step":"pay"}"#],
        ])
        let atTwo = report.timeline.events.filter { $0.timestamp == 2.0 }.map(\.kindName)
        #expect(atTwo == ["touch", "custom", "network", "view"])
        // The first snapshot opens the screen at 0.
        #expect(report.timeline.events.first?.kindName == "screen")
        #expect(report.timeline.events.first?.timestamp == 0)
    }
}
