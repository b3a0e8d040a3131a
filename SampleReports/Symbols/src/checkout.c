// ShopApp's checkout code, in C with Swift-mangled symbol names, for the symbolication fixtures.
// Tests assert function names and line numbers from this file: keep the lines where they are.

static inline int apply_discount(int total, int percent) {
    int discount = total * percent / 100;
    return total - discount;
}

__attribute__((noinline)) int cart_total(const int *prices, int count)
    __asm__("_$s7ShopApp13CartViewModelC5totalSiyF");

__attribute__((noinline)) int cart_total(const int *prices, int count) {
    int total = 0;
    for (int i = 0; i < count; i++) {
        total += prices[i];
    }
    return apply_discount(total, 10);
}

__attribute__((noinline)) int view_did_load(int items)
    __asm__("_$s7ShopApp22CheckoutViewControllerC11viewDidLoadyyF");

__attribute__((noinline)) int view_did_load(int items) {
    static const int prices[] = {1200, 899, 45, 300};
    int total = cart_total(prices, items);
    return total + items;
}

int main(void) {
    int result = view_did_load(3);
    return result > 0 ? 0 : 1;
}
