// A hint to the processor to start loading a cache line before it is read. Swift has no
// prefetch of its own. A list's frame copy (`View.layoutSubviews`) reads every child's
// object and its four solver values, scattered over the heap in a long list: it names
// them several children ahead, so that their cache misses overlap instead of following
// one another. The solver's loops over many changed values (the read-out, the check of
// required constraints) do the same with the lines each value leads to. A hint only: it
// never faults and changes no value.
#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Requests the line of `address` for reading.
static inline __attribute__((always_inline)) void cprefetch_read(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

/// Requests the line of `address` for writing.
static inline __attribute__((always_inline)) void cprefetch_write(const void *address) {
  __builtin_prefetch(address, 1, 3);
}

#endif
