import CasefileCore
import Testing

/// A failure's outcome when the screen changes after it: an error screen, the screen the user came from, another
/// screen; and the most telling of several changes, whichever comes first.
@Suite struct ScreenOutcomeTests {
    /// The screen `to` shown at `time`, coming from `from`, showing `labels`.
    static func screen(_ time: Double, from: String?, to: String, labels: [String] = []) -> TimelineEvent {
        TimelineEvent(
            timestamp: time, file: "Modules/module_view.json", line: nil,
            kind: .screen(
                ScreenChange(
                    fromClass: from, toClass: to,
                    state: ScreenState(rootClass: to, labels: labels, spinnerVisible: false))
            ))
    }

    /// A view update of `screen` at `time` with `items`.
    static func update(_ time: Double, on screen: String, _ items: [ViewChange]) -> TimelineEvent {
        TimelineEvent(
            timestamp: time, file: "Modules/module_view.json", line: nil,
            kind: .viewUpdate(
                ViewUpdate(items: items, state: ScreenState(rootClass: screen, labels: [], spinnerVisible: false))))
    }

    /// A request to `/v1/orders` answered with HTTP 500 at `time`.
    static func failure(_ time: Double) -> TimelineEvent {
        TimelineEvent(
            timestamp: time, file: "Modules/module_network.json", line: 1,
            kind: .network(
                NetworkExchange(url: "https://api.shop.example/v1/orders", statusCode: 500, responseAt: time)))
    }

    /// The outcome of the one failure of `events`.
    static func outcome(_ events: [TimelineEvent]) throws -> CausalChain.Outcome {
        let chains = Correlator().correlation(of: Timeline(events)).chains
        try #require(chains.count == 1)
        return chains[0].outcome
    }

    @Test func aScreenWhoseTextReadsAsAnErrorIsAnErrorScreen() throws {
        let outcome = try Self.outcome([
            Self.screen(0, from: nil, to: "ShopApp.CartView", labels: ["Cart"]),
            Self.failure(1),
            Self.screen(1.5, from: "ShopApp.CartView", to: "ShopApp.ResultView", labels: ["Payment declined", "Back"]),
        ])
        #expect(outcome.kind == .errorScreen)
        #expect(outcome.time == 1.5)
        #expect(outcome.description == "ShopApp.ResultView \"Payment declined\"")
    }

    /// The user came to the checkout from the cart; after the failure the cart is shown again (back), or the home
    /// screen (another screen).
    @Test(arguments: [
        ("ShopApp.CartView", "Cart", CausalChain.Outcome.Kind.navigationBack, "back to ShopApp.CartView \"Cart\""),
        ("ShopApp.HomeView", "Home", CausalChain.Outcome.Kind.navigation, "ShopApp.HomeView \"Home\""),
    ])
    func theScreenAfterTheFailureIsBackOrNavigation(
        to screen: String, label: String, kind: CausalChain.Outcome.Kind, description: String
    ) throws {
        let outcome = try Self.outcome([
            Self.screen(0, from: nil, to: "ShopApp.CartView", labels: ["Cart"]),
            Self.screen(1, from: "ShopApp.CartView", to: "ShopApp.CheckoutView", labels: ["Checkout"]),
            Self.failure(2),
            Self.screen(2.5, from: "ShopApp.CheckoutView", to: screen, labels: [label]),
        ])
        #expect(outcome.kind == kind)
        #expect(outcome.description == description)
    }

    @Test func theMostTellingChangeWinsWhicheverComesFirst() throws {
        let spinner = ViewChange(kind: .shown, className: "UIActivityIndicatorView")
        let message = ViewChange(kind: .shown, className: "UILabel", text: "Something went wrong")
        let alert = ViewChange(kind: .added, className: "UIAlertController", text: "Payment failed")
        // A plain change, another screen, an error message, then an alert: the alert.
        let first = [
            Self.screen(0, from: nil, to: "ShopApp.CartView", labels: ["Cart"]),
            Self.failure(1),
            Self.update(1.1, on: "ShopApp.CartView", [spinner]),
            Self.screen(1.2, from: "ShopApp.CartView", to: "ShopApp.HomeView", labels: ["Home"]),
            Self.update(1.3, on: "ShopApp.HomeView", [spinner, message]),
        ]
        let withAlert = try Self.outcome(first + [Self.update(1.4, on: "ShopApp.HomeView", [message, alert])])
        #expect(withAlert.kind == .alert)
        #expect(withAlert.time == 1.4)
        // Without the alert, the first error message, not the later one.
        let withMessages = try Self.outcome(first + [Self.update(1.4, on: "ShopApp.HomeView", [message])])
        #expect(withMessages.kind == .errorMessage)
        #expect(withMessages.time == 1.3)
        // Of two in one update, the first.
        let retry = ViewChange(kind: .shown, className: "UILabel", text: "Unable to pay")
        let firstOfTwo = try Self.outcome([
            Self.screen(0, from: nil, to: "ShopApp.CartView", labels: ["Cart"]),
            Self.failure(1),
            Self.update(1.3, on: "ShopApp.CartView", [spinner, retry, message]),
        ])
        #expect(firstOfTwo.description == "UILabel \"Unable to pay\" shown")
        // Past the outcome window (5 s), nothing counts.
        let late = try Self.outcome([
            Self.screen(0, from: nil, to: "ShopApp.CartView", labels: ["Cart"]),
            Self.failure(1),
            Self.update(6.5, on: "ShopApp.CartView", [alert]),
        ])
        #expect(late.kind == .silent)
    }
}
