#ifndef FEEDS_CVIPS_SHIM_H
#define FEEDS_CVIPS_SHIM_H

// libvips operations take NULL-terminated variadic options, which Swift cannot call;
// these wrappers fix the options and expose plain C functions instead.
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>

// Starts libvips; 0 on success, else -1 with libvips's reason in `error`. Not thread-safe: call it
// once (the Swift side uses a lazy global). No `setenv` here: other threads may be reading the
// environment.
static inline int feeds_vips_start(char *error, size_t error_size) {
    if (VIPS_INIT("feeds") != 0) {
        snprintf(error, error_size, "vips_init failed: %s", vips_error_buffer());
        vips_error_clear();
        return -1;
    }
    // The operation cache would keep loaded images, and so open descriptors of deleted temp files,
    // alive after each call, and would key them by file name; a server has no use for it.
    vips_cache_set_max(0);
    return 0;
}

// Loaders libvips marks untrusted (ImageMagick, PDF, FITS, OpenSlide, matio...) were never
// fuzzed against hostile input. Of the types uploads accept, only SVG needs one: librsvg, which
// reads its header here (SVG is never rasterised). BMP's header is read without libvips. Savers
// take our own pixels, never a client's bytes: the tests write BMP samples with one. Idempotent.
static inline void feeds_vips_block_untrusted(void) {
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoadSvg", FALSE);
    vips_operation_block_set("VipsForeignSaveMagick", FALSE);
}

typedef struct {
    int count;
    char *names;
    size_t size;
} feeds_vips_open_loaders;

static void *feeds_vips_note_open_untrusted(VipsObjectClass *object, void *found) {
    VipsOperationClass *class = VIPS_OPERATION_CLASS(object);
    feeds_vips_open_loaders *open = found;
    if ((class->flags & VIPS_OPERATION_UNTRUSTED) && !(class->flags & VIPS_OPERATION_BLOCKED) &&
        !vips_isprefix("svgload", object->nickname)) {
        open->count += 1;
        size_t used = strlen(open->names);
        if (used + 1 < open->size)
            snprintf(open->names + used, open->size - used, "%s%s", used ? " " : "", object->nickname);
    }
    return NULL;
}

// The untrusted loaders that may run (SVG's aside), their nicknames in `names`: 0 once
// `feeds_vips_block_untrusted` has done its work.
static inline int feeds_vips_open_untrusted_loaders(char *names, size_t size) {
    feeds_vips_open_loaders open = {0, names, size};
    if (size > 0) names[0] = 0;
    vips_class_map_all(VIPS_TYPE_FOREIGN_LOAD, feeds_vips_note_open_untrusted, &open);
    return open.count;
}

// Reads an image's width and height from its header, without decoding pixels, and its EXIF
// orientation (1–8; 1 when it has none); 0 on success, -1 when no loader accepts the file (the
// libvips error buffer is cleared either way).
static inline int feeds_vips_header_size(const char *path, int *width, int *height, int *orientation) {
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) {
        vips_error_clear();
        return -1;
    }
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    *orientation = vips_image_get_orientation(image);
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

// The output formats a resize writes.
enum { FEEDS_VIPS_JPEG = 0, FEEDS_VIPS_PNG = 1, FEEDS_VIPS_WEBP = 2, FEEDS_VIPS_GIF = 3 };

// Saves `image` to `path` in `format`, without metadata (EXIF, GPS, XMP, ICC comments).
static inline int feeds_vips_save(VipsImage *image, const char *path, int format) {
    switch (format) {
    case FEEDS_VIPS_JPEG: return vips_jpegsave(image, path, "strip", TRUE, "Q", 85, NULL);
    case FEEDS_VIPS_PNG: return vips_pngsave(image, path, "strip", TRUE, NULL);
    case FEEDS_VIPS_WEBP: return vips_webpsave(image, path, "strip", TRUE, "Q", 85, NULL);
    case FEEDS_VIPS_GIF: return vips_gifsave(image, path, "strip", TRUE, NULL);
    default: return -1;
    }
}

// Resizes the image at `in` (its first frame) to exactly `scaled_width`×`scaled_height`,
// shrinking on load (a JPEG is decoded at 1/2, 1/4 or 1/8 when that is enough); then cuts the
// area `left`,`top`,`width`×`height` out of it when `extract` is set, or pads it to
// `width`×`height` (centred) when `pad` is set: transparent when `transparent`, else white.
// Writes `out` in `format`. 0 on success; -1 with the libvips error in `error` (cleared).
static inline int feeds_vips_resize(
    const char *in, const char *out, int scaled_width, int scaled_height, int extract, int pad, int left, int top,
    int width, int height, int transparent, int format, char *error, size_t error_size
) {
    VipsImage *image = NULL;
    int result = -1;
    // A truncated or corrupt file is an error, not a half-grey picture. (`in` is a server-made
    // path: libvips would read a trailing `[...]` as load options.)
    if (vips_thumbnail(in, &image, scaled_width, "height", scaled_height, "size", VIPS_SIZE_FORCE,
            "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL) != 0)
        goto done;
    if (extract) {
        VipsImage *cut = NULL;
        if (vips_extract_area(image, &cut, left, top, width, height, NULL) != 0) goto done;
        g_object_unref(image);
        image = cut;
    }
    if (pad) {
        if (transparent && !vips_image_hasalpha(image)) {
            VipsImage *alpha = NULL;
            if (vips_addalpha(image, &alpha, NULL) != 0) goto done;
            g_object_unref(image);
            image = alpha;
        }
        int bands = vips_image_get_bands(image);
        double values[4] = {255, 255, 255, 255};
        if (transparent) { values[0] = values[1] = values[2] = values[3] = 0; }
        VipsArrayDouble *background = vips_array_double_new(values, bands > 4 ? 4 : bands);
        VipsImage *padded = NULL;
        int padding = vips_gravity(image, &padded, VIPS_COMPASS_DIRECTION_CENTRE, width, height,
            "extend", VIPS_EXTEND_BACKGROUND, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        if (padding != 0) goto done;
        g_object_unref(image);
        image = padded;
    }
    result = feeds_vips_save(image, out, format);
done:
    if (result != 0) {
        snprintf(error, error_size, "%s", vips_error_buffer());
        vips_error_clear();
    }
    if (image != NULL) g_object_unref(image);
    return result;
}

// For the tests: an image whose first half (the top, or the left when `across`) is white and the
// rest black, with an alpha band when `alpha`; written in the format the path's suffix names.
static inline int feeds_vips_save_halves(const char *path, int width, int height, int across, int alpha) {
    VipsImage *black = NULL, *white = NULL, *joined = NULL, *ready = NULL;
    int result = -1;
    int first_w = across ? width / 2 : width, first_h = across ? height : height / 2;
    if (vips_black(&black, width, height, "bands", 3, NULL) != 0) goto done;
    if (vips_black(&white, first_w, first_h, "bands", 3, NULL) != 0) goto done;
    VipsImage *lit = NULL;
    if (vips_linear1(white, &lit, 1.0, 255.0, NULL) != 0) goto done;
    g_object_unref(white);
    white = lit;
    if (vips_insert(black, white, &joined, 0, 0, NULL) != 0) goto done;
    VipsImage *cast = NULL;
    if (vips_cast_uchar(joined, &cast, NULL) != 0) goto done;
    g_object_unref(joined);
    joined = cast;
    if (alpha) {
        if (vips_addalpha(joined, &ready, NULL) != 0) goto done;
    } else {
        ready = joined;
        g_object_ref(ready);
    }
    result = vips_image_write_to_file(ready, path, NULL);
done:
    if (result != 0) vips_error_clear();
    if (black) g_object_unref(black);
    if (white) g_object_unref(white);
    if (joined) g_object_unref(joined);
    if (ready) g_object_unref(ready);
    return result;
}

// For the tests: the mean of every band of an image, its size, bands, and whether it carries EXIF.
static inline int feeds_vips_inspect(const char *path, double *mean, int *width, int *height, int *bands, int *exif) {
    VipsImage *image = vips_image_new_from_file(path, NULL);
    if (image == NULL) { vips_error_clear(); return -1; }
    int result = vips_avg(image, mean, NULL);
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    *bands = vips_image_get_bands(image);
    *exif = vips_image_get_typeof(image, VIPS_META_EXIF_NAME) != 0;
    g_object_unref(image);
    if (result != 0) vips_error_clear();
    return result;
}

// For the tests: writes a JPEG carrying EXIF (with a GPS tag), to check resizes strip it.
static inline int feeds_vips_save_jpeg_with_exif(const char *path, int width, int height) {
    VipsImage *image = NULL, *copy = NULL;
    int result = -1;
    if (vips_black(&image, width, height, "bands", 3, NULL) != 0) goto done;
    if (vips_copy(image, &copy, NULL) != 0) goto done;
    vips_image_set_string(copy, "exif-ifd0-Artist", "feeds test");
    vips_image_set_string(copy, "exif-ifd3-GPSLatitudeRef", "N");
    result = vips_jpegsave(copy, path, NULL);
done:
    if (result != 0) vips_error_clear();
    if (image) g_object_unref(image);
    if (copy) g_object_unref(copy);
    return result;
}

// For the tests: the halves image (white top, black bottom) saved in the format the path's suffix
// names, with EXIF saying `orientation` (1–8) and a GPS tag, as a phone writes a photo it took on
// its side.
static inline int feeds_vips_save_oriented(const char *path, int width, int height, int orientation) {
    VipsImage *black = NULL, *lit = NULL, *joined = NULL, *cast = NULL, *copy = NULL;
    int result = -1;
    if (vips_black(&black, width, height, "bands", 3, NULL) != 0) goto done;
    if (vips_black(&lit, width, height / 2, "bands", 3, NULL) != 0) goto done;
    VipsImage *white = NULL;
    if (vips_linear1(lit, &white, 1.0, 255.0, NULL) != 0) goto done;
    g_object_unref(lit);
    lit = white;
    if (vips_insert(black, lit, &joined, 0, 0, NULL) != 0) goto done;
    if (vips_cast_uchar(joined, &cast, NULL) != 0) goto done;
    if (vips_copy(cast, &copy, NULL) != 0) goto done;
    vips_image_set_int(copy, VIPS_META_ORIENTATION, orientation);
    vips_image_set_string(copy, "exif-ifd3-GPSLatitudeRef", "N");
    result = vips_image_write_to_file(copy, path, NULL);
done:
    if (result != 0) vips_error_clear();
    if (black) g_object_unref(black);
    if (lit) g_object_unref(lit);
    if (joined) g_object_unref(joined);
    if (cast) g_object_unref(cast);
    if (copy) g_object_unref(copy);
    return result;
}

// For the tests: whether the image at `path` has the metadata field `name` (such as
// "exif-ifd3-GPSLatitudeRef"): 1 if so, 0 if not, -1 if it cannot be read.
static inline int feeds_vips_has_field(const char *path, const char *name) {
    VipsImage *image = vips_image_new_from_file(path, NULL);
    if (image == NULL) { vips_error_clear(); return -1; }
    int found = vips_image_get_typeof(image, name) != 0;
    g_object_unref(image);
    return found;
}

// For the tests: the mean of the area `left`,`top`,`width`×`height` of an image, as stored
// (no orientation applied); 0 on success.
static inline int feeds_vips_area_mean(const char *path, int left, int top, int width, int height, double *mean) {
    VipsImage *image = vips_image_new_from_file(path, NULL), *area = NULL;
    if (image == NULL) { vips_error_clear(); return -1; }
    int result = vips_extract_area(image, &area, left, top, width, height, NULL);
    if (result == 0) result = vips_avg(area, mean, NULL);
    if (result != 0) vips_error_clear();
    if (area) g_object_unref(area);
    g_object_unref(image);
    return result;
}

// For the tests: an animated GIF of `frames` frames, each `width`×`height`, the first black and the
// others grey.
static inline int feeds_vips_save_animated_gif(const char *path, int width, int height, int frames) {
    VipsImage *black = NULL, *strip = NULL, *copy = NULL;
    int result = -1;
    if (vips_black(&black, width, height * frames, "bands", 3, NULL) != 0) goto done;
    if (vips_draw_rect1(black, 128.0, 0, height, width, height * (frames - 1), "fill", TRUE, NULL) != 0) goto done;
    if (vips_cast_uchar(black, &strip, NULL) != 0) goto done;
    if (vips_copy(strip, &copy, NULL) != 0) goto done;
    vips_image_set_int(copy, "page-height", height);
    result = vips_gifsave(copy, path, NULL);
done:
    if (result != 0) vips_error_clear();
    if (black) g_object_unref(black);
    if (strip) g_object_unref(strip);
    if (copy) g_object_unref(copy);
    return result;
}

// For the tests: 1 when the operation named `nickname` (say "matrixload") is blocked, 0 when it
// may run, -1 when libvips has no such operation.
static inline int feeds_vips_is_blocked(const char *nickname) {
    GType type = vips_type_find("VipsOperation", nickname);
    if (type == 0) return -1;
    VipsOperationClass *class = VIPS_OPERATION_CLASS(g_type_class_ref(type));
    int blocked = (class->flags & VIPS_OPERATION_BLOCKED) != 0;
    g_type_class_unref(class);
    return blocked;
}

#endif
