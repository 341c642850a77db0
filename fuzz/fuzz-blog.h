/* fuzz-blog.h: an in-memory database for the engine fuzz targets: a table with a sort key, a GSI
 * and an LSI, and a few items of every type, so that requests reach items and indexes. */
#pragma once

#include "engine/engine.h"

/* A new engine holding the table; aborts if it cannot be made. */
DdbEngine *fuzz_blog_engine_new (void);
