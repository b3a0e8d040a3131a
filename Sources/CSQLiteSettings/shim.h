#ifndef CASEFILE_CSQLITESETTINGS_SHIM_H
#define CASEFILE_CSQLITESETTINGS_SHIM_H

#include <sqlite3.h>

/*
 * sqlite3_config is variadic, which Swift cannot call; this wrapper sets the process-wide options Casefile wants
 * before SQLite initializes:
 * - SQLITE_CONFIG_MULTITHREAD: no mutex per connection. GRDB already serializes every use of a connection (its
 *   documentation supports only this mode), and Debian's libsqlite3 defaults to serialized, which took a mutex
 *   around every statement step.
 * - SQLITE_CONFIG_MEMSTATUS off: no global mutex and counter update around every allocation SQLite makes.
 * Returns SQLITE_OK, or SQLITE_MISUSE when SQLite was already initialized (the options then stay as they were).
 */
static inline int casefile_sqlite_configure(void) {
    int threading = sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    int memory = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    return threading != SQLITE_OK ? threading : memory;
}

#endif
