// glibc's allocator statistics and trim (HeapTrimService); not in Swift's Glibc module.
#include <malloc.h>
