// iOSCrashingTest, in C with the Swift-mangled names the Swift compiler gives an optimized build: a function
// signature specialization of a static method, an @objc thunk and a closure. Built by Scripts/make-crashdemo-symbols.sh.

__attribute__((noinline)) int please_crash(int *slot)
    __asm__("_$s15iOSCrashingTest10CrashClassC11pleaseCrashyyFZTf4d_n");

__attribute__((noinline)) int please_crash(int *slot) {
    return *slot + 1;
}

__attribute__((noinline)) int closure_in_view_did_load(int *slot)
    __asm__("_$s15iOSCrashingTest14ViewControllerC11viewDidLoadyyFyycfU_");

__attribute__((noinline)) int closure_in_view_did_load(int *slot) {
    return please_crash(slot) * 2;
}

__attribute__((noinline)) int objc_view_did_load(int *slot)
    __asm__("_$s15iOSCrashingTest14ViewControllerC11viewDidLoadyyFTo");

__attribute__((noinline)) int objc_view_did_load(int *slot) {
    return closure_in_view_did_load(slot) + 3;
}

int main(void) {
    return objc_view_did_load((int *)0);
}
