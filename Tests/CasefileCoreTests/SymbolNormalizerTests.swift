import CasefileCore
import Testing

/// Each name, written as the Swift demangler, Apple's short form, a C++ demangler or the Objective-C runtime
/// prints it, and the identity a person expects to group by.
@Suite struct SymbolNormalizerTests {
    static let names: [(String, String)] = [
        ("ShopApp.CartViewModel.total() -> Swift.Int", "CartViewModel.total()"),
        ("$s7ShopApp13CartViewModelC5totalSiyF", "CartViewModel.total()"),
        ("_$s7ShopApp13CartViewModelC5totalSdyF", "CartViewModel.total()"),
        ("CartViewModel.total()", "CartViewModel.total()"),
        ("ImageCache.store(_:for:)", "ImageCache.store()"),
        ("ShopApp.ImageCache.store(_: __C.UIImage, for: Swift.String) -> ()", "ImageCache.store()"),
        ("generic specialization <Swift.Int> of ShopApp.Cache.get(Swift.String) -> A?", "Cache.get()"),
        ("specialized Cache.get(_:)", "Cache.get()"),
        (
            "function signature specialization <Arg[0] = Dead> of static ShopApp.CrashClass.pleaseCrash() -> ()",
            "CrashClass.pleaseCrash()"
        ),
        (
            "partial apply forwarder for closure #1 () -> () in ShopApp.CouponView.apply() -> ()",
            "closure in CouponView.apply()"
        ),
        ("closure #2 () -> () in ShopApp.CouponView.apply() -> ()", "closure in CouponView.apply()"),
        (
            "closure #1 () -> () in closure #1 () -> Swift.Int? in ShopApp.CartViewModel.total() -> Swift.Int",
            "closure in closure in CartViewModel.total()"
        ),
        ("implicit closure #3 in ShopApp.F.g() -> ()", "implicit closure in F.g()"),
        ("@objc ShopApp.ViewController.viewDidLoad() -> ()", "ViewController.viewDidLoad()"),
        ("merged ShopApp.Foo.bar() -> ()", "Foo.bar()"),
        ("(1) suspend resume partial function for ShopApp.APIClient.load() async throws -> ()", "APIClient.load()"),
        ("(2) await resume partial function for ShopApp.APIClient.load() async throws -> ()", "APIClient.load()"),
        ("ShopApp.Foo.count.getter : Swift.Int", "Foo.count.getter"),
        ("Cache<A>.value(for:)", "Cache.value()"),
        ("-[UIViewController loadViewIfRequired]", "-[UIViewController loadViewIfRequired]"),
        ("__29-[CartController reload:]_block_invoke_2", "-[CartController reload:]_block_invoke"),
        ("std::__1::function<void ()>::operator()() const", "std::__1::function::operator()()"),
        ("Foo::bar(int)::$_12::operator()(int) const", "Foo::bar()::$_::operator()()"),
        ("_ZN3Foo3barEv", "Foo::bar()"),
        ("apply_discount", "apply_discount"),
        ("Vector::operator<<(int)", "Vector::operator<<()"),
        ("Foo::operator->() const", "Foo::operator->()"),
        ("Foo::bar()::{lambda()#3}::operator()() const", "Foo::bar()::{lambda}::operator()()"),
        // Whitespace around a name, ASCII or not (U+00A0 no-break space), is not part of it.
        ("  ShopApp.CartViewModel.total() -> Swift.Int\t", "CartViewModel.total()"),
        ("\u{00A0}CartViewModel.total()\u{00A0}", "CartViewModel.total()"),
        // Names beyond ASCII keep their characters, precomposed or with a combining mark.
        ("ShopApp.Café.naïve<Swift.Int>(_:) -> ()", "Café.naïve()"),
        ("ShopApp.Cafe\u{301}.total() -> ()", "Cafe\u{301}.total()"),
    ]

    @Test(arguments: names)
    func reducesANameToItsIdentity(_ name: String, _ expected: String) {
        #expect(SymbolNormalizer.normalize(name, module: "ShopApp").name == expected)
    }

    @Test func marksThunksSoTheyFoldIntoTheirNeighbour() {
        let thunk = SymbolNormalizer.normalize(
            "reabstraction thunk helper from @escaping @callee_guaranteed () -> () to @escaping @callee_unowned "
                + "@convention(block) () -> ()")
        #expect(thunk.role == .thunk)
        #expect(SymbolNormalizer.normalize("outlined copy of ShopApp.Order").role == .thunk)
        #expect(SymbolNormalizer.normalize("ShopApp.Order.total() -> Swift.Int").role == .function)
    }

    @Test func keepsTheModuleOfOtherImages() {
        #expect(
            SymbolNormalizer.normalize("Alamofire.Session.request() -> ()", module: "ShopApp").name
                == "Alamofire.Session.request()")
    }
}

@Suite struct URLTemplateTests {
    @Test(arguments: [
        ("https://api.shop.example/api/v1/orders/8812/items/3", "/api/v1/orders/{id}/items/{id}"),
        ("https://api.shop.example/v1/orders/8812/pay?token=abc&attempt=2", "/v1/orders/{id}/pay?token&attempt"),
        ("https://api.shop.example/v1/users/5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10/cart", "/v1/users/{uuid}/cart"),
        ("https://cdn.shop.example/assets/9f86d081884c7d659a2feaa0c55ad015/logo.png", "/assets/{hash}/logo.png"),
        ("https://api.shop.example/v1/users/ann%40example.com/orders", "/v1/users/{email}/orders"),
        ("https://shop.example/en-US/products/order-8812", "/{locale}/products/order-{id}"),
        ("https://shop.example/de/checkout", "/{locale}/checkout"),
        ("https://api.shop.example", "/"),
        ("/v2/images/77/thumb.jpg#top", "/v2/images/{id}/thumb.jpg"),
    ])
    func parameterizesTheVariableSegments(_ url: String, _ expected: String) {
        #expect(URLTemplate.path(of: url) == expected)
    }
}
