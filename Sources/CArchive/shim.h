#ifndef CASEFILE_CARCHIVE_SHIM_H
#define CASEFILE_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

/* AE_IFREG and AE_IFDIR are cast expressions that Swift cannot import; these constants carry them over. */
static const unsigned int CASEFILE_AE_IFREG = AE_IFREG;
static const unsigned int CASEFILE_AE_IFDIR = AE_IFDIR;

#endif
