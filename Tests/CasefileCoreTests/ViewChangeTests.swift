import CasefileCore
import Testing

/// What a view update lists between two snapshots of one screen. Each recording is written here, snapshot by
/// snapshot; the expected lines are read from the two trees of each case.
@Suite struct ViewChangeTests {
    /// A view as a recording holds it: class, text, `hidden`, `userInteractionEnabled`, subviews.
    func view(
        _ className: String, text: String? = nil, hidden: Bool = false, interactive: Bool = true,
        _ subviews: [String] = []
    ) -> String {
        let textProperty = text.map { #""text":"\#($0)","# } ?? ""
        return #"{"class":"\#(className)","properties":{\#(textProperty)"hidden":\#(hidden),"#
            + #""userInteractionEnabled":\#(interactive),"frame":{"x":0,"y":0,"width":375,"height":667}},"#
            + #""subviews":[\#(subviews.joined(separator: ","))]}"#
    }

    /// The lines of each view update of a recording of `snapshots` (one a second, from 0), by the update's second.
    func updates(_ snapshots: [String]) throws -> [Double: [String]] {
        let lines = snapshots.enumerated().map { #"{"timestamp":\#($0.offset),"view":\#($0.element)}"# }
        let report = try WrittenRecording.report(modules: ["module_view.json": lines])
        var updates: [Double: [String]] = [:]
        for event in report.timeline.events {
            if case .viewUpdate(let update) = event.kind { updates[event.timestamp] = update.changes }
        }
        return updates
    }

    /// A view added or removed with its subviews is one line, named by its first text; additions (in the new tree's
    /// order) come before removals.
    @Test func namesOnlyTheOutermostViewAddedOrRemoved() throws {
        let before = view(
            "ShopApp.CartView",
            [
                view("UILabel", text: "Total"),
                view("UIView", [view("UILabel", text: "Old A"), view("UILabel", text: "Old B")]),
            ])
        let after = view(
            "ShopApp.CartView",
            [
                view("UILabel", text: "Total"),
                view(
                    "UIStackView",
                    [view("UILabel", text: "New A"), view("UIButton", [view("UIButtonLabel", text: "Go")])]),
            ])
        #expect(try updates([before, after]) == [1: [#"UIStackView "New A" added"#, #"UIView "Old A" removed"#]])
    }

    /// A view is matched by its place among its parent's subviews of the same class: a view of another class put
    /// in front of two labels leaves the labels matched, and the second label's new text is a change, not a new label.
    @Test func matchesSubviewsByTheirPlaceAmongTheirClass() throws {
        let before = view(
            "ShopApp.ProductView", [view("UILabel", text: "Name"), view("UILabel", text: "Price $5")])
        let after = view(
            "ShopApp.ProductView",
            [view("UIImageView"), view("UILabel", text: "Name"), view("UILabel", text: "Price $7")])
        #expect(try updates([before, after]) == [1: ["UIImageView added", #"UILabel "Price $5" → "Price $7""#]])
    }

    /// Shown and hidden name the outermost view whose visibility changed; a control that stops taking touches is
    /// disabled; a text that changes on a hidden label, or views under the recording indicator, are not listed.
    @Test func listsVisibilityAndControlsButNothingUnseen() throws {
        let before = view(
            "ShopApp.CheckoutView",
            [
                view("UIView", hidden: true, [view("UILabel", text: "Coupon applied")]),
                view("UIButton", [view("UIButtonLabel", text: "Pay")]),
                view("UILabel", text: "3 items", hidden: true),
                view("UIView", [view("UILabel", text: "One"), view("UILabel", text: "Two")]),
            ])
        let after = view(
            "ShopApp.CheckoutView",
            [
                view("UIView", [view("UILabel", text: "Coupon applied")]),
                view("UIButton", interactive: false, [view("UIButtonLabel", text: "Pay")]),
                view("UILabel", text: "4 items", hidden: true),
                view("UIView", hidden: true, [view("UILabel", text: "One")]),
                view("CLURecordIndicatorView", [view("UILabel", text: "REC")]),
            ])
        #expect(
            try updates([before, after]) == [
                1: [#"UIView "Coupon applied" shown"#, #"UIButton "Pay" disabled"#, #"UIView "One" hidden"#]
            ])
    }

    /// An alert is named by its first two texts when it appears and when it goes.
    @Test func namesAnAlertByItsTexts() throws {
        let plain = view("ShopApp.CheckoutView", [view("UILabel", text: "Checkout")])
        let alerted = view(
            "ShopApp.CheckoutView",
            [
                view("UILabel", text: "Checkout"),
                view(
                    "_UIAlertControllerView",
                    [view("UILabel", text: "Payment failed"), view("UILabel", text: "Card declined")]),
            ])
        #expect(
            try updates([plain, alerted, plain]) == [
                1: [#"alert added: "Payment failed — Card declined""#],
                2: [#"alert dismissed: "Payment failed — Card declined""#],
            ])
    }
}
