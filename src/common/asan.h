/*
** ASan's poisoning of memory a common allocator holds but has not handed
** out (arena.c, scratch.c): POISON/UNPOISON are no-ops without ASan.
*/
#ifndef CHV_COMMON_ASAN_H
#define CHV_COMMON_ASAN_H

#ifdef __has_feature
#if __has_feature(address_sanitizer)
#define CHV_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CHV_ASAN 1
#endif
#ifdef CHV_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#endif
