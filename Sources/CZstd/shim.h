#ifndef CASEFILE_CZSTD_SHIM_H
#define CASEFILE_CZSTD_SHIM_H

#include <zstd.h>

#endif
