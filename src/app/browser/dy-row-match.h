/* dy-row-match.h: whether a loaded row holds a text (the grid's Find in Loaded Rows): in a
 * string, a number as the grid shows it, true, false or null, at any depth of maps, lists and
 * sets; case-insensitive. Read from the row's stored encoding without building the item.
 * GTK-free; used from the worker that arranges the grid's rows. */
#pragma once

#include <glib.h>

#include "core/value.h"

G_BEGIN_DECLS

typedef struct _DyRowMatch DyRowMatch;

/* What TEXT (UTF-8) finds; NULL when TEXT is empty (every row then). */
DyRowMatch *dy_row_match_new (const char *text);
void dy_row_match_free (DyRowMatch *match);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyRowMatch, dy_row_match_free)

/* Whether the item encoded as BYTES (ddb_item_encode) holds the text in one of its values, read
 * without building the item (MATCH NULL: every item does); FALSE with ERROR when the bytes do not
 * decode. */
gboolean dy_row_match_encoded (DyRowMatch *match, const guint8 *bytes, gsize len, gboolean *found,
                               GError **error);

G_END_DECLS
