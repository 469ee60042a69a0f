// The options jemalloc starts with in `layout-bench` (see JemallocConfig.c).
#ifndef CJEMALLOCCONFIG_H
#define CJEMALLOCCONFIG_H

/// The option string the executable hands jemalloc at start-up. Reading it from Swift
/// also keeps the linker from dropping the definition.
const char *cjemalloc_config(void);

#endif
