/* itemcodec-private.h: what the item codec's writing (itemcodec.c) and reading
 * (itemcodec-read.c) share: the tag byte's layout and the numbers' exponent range (see
 * itemcodec.c's opening comment for the encoding). */
#pragma once

#define TAG_TYPE(tag) ((tag) &0x0F)
#define TAG_K(tag) ((tag) >> 4)
#define K_EXTENDED 15

#define NUM_MIN_EXPONENT (-129)
#define NUM_MAX_EXPONENT 126
