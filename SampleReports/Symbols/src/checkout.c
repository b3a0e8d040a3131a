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

// Appended for the grouping samples; the lines above stay where they are.

// CartViewModel's neighbour of total(): a crash here is another bug.
__attribute__((noinline)) int cart_subtotal(const int *prices, int count)
    __asm__("_$s7ShopApp13CartViewModelC8subtotalSiyF");

__attribute__((noinline)) int cart_subtotal(const int *prices, int count) {
    return count > 0 ? prices[count - 1] : 0;
}

// ImageCache.store(_:for:), called from ImageLoader.finish(_:) on a background queue.
__attribute__((noinline)) int image_cache_store(int *slot, int value)
    __asm__("_$s7ShopApp10ImageCacheC5store_3forySo7UIImageC_SStF");

__attribute__((noinline)) int image_cache_store(int *slot, int value) {
    *slot = value;
    return value;
}

__attribute__((noinline)) int image_loader_finish(int value) __asm__("_$s7ShopApp11ImageLoaderC6finishyySiF");

__attribute__((noinline)) int image_loader_finish(int value) {
    static int slot;
    return image_cache_store(&slot, value) + 1;
}

// Two closures of CouponView.apply() that crash differently.
__attribute__((noinline)) int coupon_first(int code) __asm__("_$s7ShopApp10CouponViewC5applyyyFyycfU_");
__attribute__((noinline)) int coupon_second(int code) __asm__("_$s7ShopApp10CouponViewC5applyyyFyycfU0_");
__attribute__((noinline)) int coupon_apply(int code) __asm__("_$s7ShopApp10CouponViewC5applyyyF");

__attribute__((noinline)) int coupon_first(int code) {
    return code / 7;
}

__attribute__((noinline)) int coupon_second(int code) {
    return code % 11;
}

__attribute__((noinline)) int coupon_apply(int code) {
    return coupon_first(code) + coupon_second(code);
}
