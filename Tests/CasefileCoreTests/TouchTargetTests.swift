import CasefileCore
import Testing

/// Which view a touch lands on, by UIKit's rules, in a snapshot written here; the expected targets are read from its
/// frames.
@Suite struct TouchTargetTests {
    func view(
        _ className: String, text: String? = nil, frame: (x: Int, y: Int, width: Int, height: Int),
        hidden: Bool = false, interactive: Bool = true, _ subviews: [String] = []
    ) -> String {
        let textProperty = text.map { #""text":"\#($0)","# } ?? ""
        return #"{"class":"\#(className)","properties":{\#(textProperty)"hidden":\#(hidden),"#
            + #""userInteractionEnabled":\#(interactive),"#
            + #""frame":{"x":\#(frame.x),"y":\#(frame.y),"width":\#(frame.width),"height":\#(frame.height)}},"#
            + #""subviews":[\#(subviews.joined(separator: ","))]}"#
    }

    @Test func hitsTheFrontmostVisibleViewInItsParentsCoordinates() throws {
        let button = (x: 0, y: 0, width: 100, height: 50)
        let screen = view(
            "ShopApp.CartView", frame: (0, 0, 375, 667),
            [
                view(
                    "UIButton", frame: button, [view("UIButtonLabel", text: "Back", frame: button, interactive: false)]),
                view(
                    "UIButton", frame: button, [view("UIButtonLabel", text: "Front", frame: button, interactive: false)]
                ),
                view("UIButton", frame: button, hidden: true, [view("UIButtonLabel", text: "Hidden", frame: button)]),
                view(
                    "UIView", frame: (100, 200, 200, 100),
                    [view("UISwitch", frame: (10, 10, 50, 30)), view("UIButton", frame: (150, 60, 40, 40))]),
            ])
        func touch(_ time: Double, _ x: Int, _ y: Int) -> String {
            #"{"type":"Began","timestamp":\#(time),"touches":[{"tapCount":1,"locationInWindow":{"x":\#(x),"y":\#(y)}}]}"#
        }
        let report = try WrittenRecording.report(modules: [
            "module_view.json": [#"{"timestamp":0,"view":\#(screen)}"#],
            "module_interaction.json": [touch(1, 10, 10), touch(2, 115, 215), touch(3, 260, 270), touch(4, 50, 400)],
        ])
        var targets: [Double: TouchTarget] = [:]
        for event in report.timeline.events {
            if case .touch(let touch) = event.kind, let target = touch.target { targets[event.timestamp] = target }
        }
        #expect(
            targets == [
                1: TouchTarget(className: "UIButton", label: "Front", path: ["ShopApp.CartView", "UIButton"]),
                2: TouchTarget(className: "UISwitch", label: nil, path: ["ShopApp.CartView", "UIView", "UISwitch"]),
                3: TouchTarget(className: "UIButton", label: nil, path: ["ShopApp.CartView", "UIView", "UIButton"]),
                4: TouchTarget(className: "ShopApp.CartView", label: nil, path: ["ShopApp.CartView"]),
            ])
    }
}
