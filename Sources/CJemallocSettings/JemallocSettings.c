#include "CJemallocSettings.h"

// jemalloc, the allocator `casefile` links (Package.swift, which gives its figures against mimalloc), reads its options
// from this symbol when the process starts. Freed pages go back to the system after one second instead of ten (Debian's
// jemalloc 5.3 already returns them in one stage: `muzzy_decay_ms` is 0). With jemalloc's defaults a run over 24 long
// recordings peaked at 154 MB (the goal is 150 MB; mimalloc: 121-127 MB), with this at 125-130 MB
// (Benchmarks/2026-12.md, 2026-12-04). `MALLOC_CONF` in the environment is read after this and overrides it.
const char *malloc_conf = "dirty_decay_ms:1000";
