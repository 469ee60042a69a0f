// The target is header-only (its functions are inline); SwiftPM needs a source file.
#include "CPrefetch.h"
