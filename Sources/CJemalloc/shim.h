// jemalloc's control interface (mallctl), for counting allocations per tick. Debian's
// libjemalloc-dev has no symbol prefix, so linking it replaces malloc for the executable.
#include <jemalloc/jemalloc.h>
