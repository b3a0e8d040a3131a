#!/usr/bin/env python3
"""Writes Tests/Fixtures/HostileNames/hostile-names.crash: an Apple crash report whose names carry every character
Markdown, HTML or a GFM table would act on, for RenderedMarkdownTests.swift, which renders the summary with cmark-gfm
and expects each string in NAMES back (the C++ one as Xcode shows it, without its argument list; SHOWN), character
for character, in the rendered text, and the start of the 10,000-character reason. The frames are symbolicated in the report itself (`symbol + offset (file:line)`), as Xcode exports them.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "..", "Tests", "Fixtures", "HostileNames")

NAMES = [
    "_assertionFailure(_:_:file:line:flags:)",
    "@objc ViewController.viewDidLoad()",
    "std::__1::function<void ()>::operator()()",
    "*[Cart | total] & <b>not bold</b>",
    "[link](https://example.com) ~~struck~~ `tick` ``double``",
    "# not a heading",
    "🛒 CheckoutView.pay() — مرحبا بالعالم",
    # Shown as text, not code: an image name, a thread name, a termination reason.
    "Cart_Kit_*beta*",
    "[worker](x) <i>not italic</i> _main_ | 2",
    "<b>SIGNAL</b> 6 *Abort* trap: 1. done",
]
# The C++ name is shown as Xcode shows it, without its argument list; every other name exactly as written.
SHOWN = [name if "::" not in name else "std::__1::function<void ()>::operator()" for name in NAMES]
REASON = ("Reason with *stars*, _underscores_, <tags>, & ampersands | pipes, [brackets], `ticks`, 🛒 and مرحبا. " * 200)[:10000]


def frame(index, image, address, symbol, offset, location=""):
    return "%-4d%-30s\t0x%016x %s + %d%s" % (index, image, address, symbol, offset, location)


def main():
    frames = [
        frame(0, "libswiftCore.dylib", 0x1b0000100, NAMES[0], 308),
        frame(1, "ShopApp", 0x104d9002c, NAMES[1], 64, " (<compiler-generated>:14)"),
        frame(2, "ShopApp", 0x104d90060, NAMES[2], 32, " (function.h:1180)"),
        frame(3, "ShopApp", 0x104d90080, NAMES[3], 16),
        frame(4, "ShopApp", 0x104d900a0, NAMES[4], 8),
        frame(5, NAMES[7], 0x105000010, NAMES[5], 4),
        frame(6, "ShopApp", 0x104d900e0, NAMES[6], 12, " (Checkout.swift:42)"),
        frame(7, "dyld", 0x1c5a3bdec, "start", 2220),
    ]
    text = "\n".join([
        "Incident Identifier: 0BADC0DE-1C3A-4F5E-8D6B-0A9C8E7F6D51",
        "Hardware Model:      iPhone15,2",
        "Process:             ShopApp [3390]",
        "Identifier:          com.example.shopapp",
        "Version:             2.3.1 (412)",
        "Code Type:           ARM-64 (Native)",
        "Date/Time:           2026-11-19 18:02:11.7305 +0000",
        "OS Version:          iPhone OS 17.2 (21C62)",
        "Report Version:      104",
        "",
        "Exception Type:  EXC_CRASH (SIGABRT)",
        "Exception Codes: 0x0000000000000000, 0x0000000000000000",
        "Termination Reason: " + NAMES[9],
        "Triggered by Thread:  0",
        "",
        "Application Specific Information:",
        REASON,
        "",
        "Thread 0 name:   " + NAMES[8],
        "Thread 0 Crashed:",
    ] + frames + [
        "",
        "Binary Images:",
        "       0x104d8c000 -        0x104dabfff ShopApp arm64  <4c4c442a55553144a1c2ffa5de205d9e> /private/var/containers/Bundle/Application/X/ShopApp.app/ShopApp",
        "       0x105000000 -        0x10500ffff " + NAMES[7] + " arm64  <9c4c442a55553144a1c2ffa5de205d9f> /private/var/containers/Bundle/Application/X/ShopApp.app/Frameworks/CartKit.framework/CartKit",
        "       0x1b0000000 -        0x1b0ffffff libswiftCore.dylib arm64e  <b5ab5a732f3c3a6e9d2f6a41c53e8b12> /usr/lib/swift/libswiftCore.dylib",
        "       0x1c5a22000 -        0x1c5aa6fff dyld arm64e  <c1d2e3f4a5b637c89d0e1f2a3b4c5d6f> /usr/lib/dyld",
        "",
    ])
    os.makedirs(TARGET, exist_ok=True)
    with open(os.path.join(TARGET, "hostile-names.crash"), "w") as out:
        out.write(text)
    with open(os.path.join(TARGET, "expected.json"), "w") as out:
        json.dump({"names": SHOWN, "reason": REASON}, out, indent=1, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
