#ifndef FEEDS_CMAGIC_SHIM_H
#define FEEDS_CMAGIC_SHIM_H

// libmagic's API is plain C (no variadics), so Swift calls it directly.
#include <magic.h>

#endif
