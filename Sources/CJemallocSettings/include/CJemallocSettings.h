#ifndef CJEMALLOC_SETTINGS_H
#define CJEMALLOC_SETTINGS_H

/// The options jemalloc reads when the process starts, before the environment's `MALLOC_CONF` (which overrides
/// them): see `JemallocSettings.c`.
extern const char *malloc_conf;

#endif
