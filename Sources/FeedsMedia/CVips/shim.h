#ifndef FEEDS_CVIPS_SHIM_H
#define FEEDS_CVIPS_SHIM_H

// libvips operations take NULL-terminated variadic options, which Swift cannot call;
// these wrappers fix the options and expose plain C functions instead.
#include <vips/vips.h>

// Starts libvips; 0 on success. Not thread-safe: call it once (the Swift side uses a lazy global).
static inline int feeds_vips_start(void) {
    if (VIPS_INIT("feeds") != 0) {
        return -1;
    }
    // The operation cache would keep loaded images, and so open descriptors of deleted temp files,
    // alive after each call, and would key them by file name; a server has no use for it.
    vips_cache_set_max(0);
    return 0;
}

// Reads an image's width and height from its header, without decoding pixels; 0 on success,
// -1 when no loader accepts the file (the libvips error buffer is cleared either way).
static inline int feeds_vips_header_size(const char *path, int *width, int *height) {
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) {
        vips_error_clear();
        return -1;
    }
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

// Writes a black RGB image in the format the path's suffix names; 0 on success. The tests make
// their sample images with it, so no binary fixtures live in the repository.
static inline int feeds_vips_save_black(const char *path, int width, int height) {
    VipsImage *image = NULL;
    if (vips_black(&image, width, height, "bands", 3, NULL) != 0) {
        vips_error_clear();
        return -1;
    }
    int result = vips_image_write_to_file(image, path, NULL);
    g_object_unref(image);
    if (result != 0) {
        vips_error_clear();
    }
    return result;
}

#endif
