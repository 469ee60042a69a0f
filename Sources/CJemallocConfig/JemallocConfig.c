// jemalloc reads the options in a global named `malloc_conf` when it starts, before the
// environment's MALLOC_CONF (which therefore overrides them). Only `layout-bench` links
// this target.
//
// `thp:always` asks the kernel for 2 MB pages (madvise MADV_HUGEPAGE, honoured when
// /sys/kernel/mm/transparent_hugepage/enabled says `madvise` or `always`) for the memory
// jemalloc maps. A large tree's solver arrays span gigabytes: a tick that moves 100,000
// cells touches a new 4 KB page per value in each of several arrays, and every such page
// was a TLB miss, a page walk that a virtual machine makes twice as long. With 2 MB pages
// the same tick misses far less (measured in the notes of issue 16, stop 45). A small tree
// fits in a few huge pages and is unaffected.
//
// `lg_extent_max_active_fit:30` lets jemalloc carve small requests out of free extents of
// any size (by default at most 64 times the request). A timed cold build follows an untimed
// one whose pages are held (`JemallocProbe.holdFreedMemory`); with the default, the freed
// tree's large free extents were passed over, and a feed of 30,000 cells built its timed
// tree on 1.1 GB of fresh memory (peak 2.81 GB, against 2.13 GB with the option).
#include "CJemallocConfig.h"

const char *malloc_conf = "thp:always,metadata_thp:always,lg_extent_max_active_fit:30";

const char *cjemalloc_config(void) { return malloc_conf; }
