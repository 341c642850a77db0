/* cg-lit.h: a program's literals and builder chains as a small tree laid out to a width: on one
 * line when it fits, else an entry or a call per line. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgLit CgLit;

/* Text written as it is (takes ownership). */
CgLit *cg_lit_raw (char *text);
CgLit *cg_lit_rawf (const char *format, ...) G_GNUC_PRINTF (1, 2);
/* OPEN entry, entry, ... CLOSE: "{" / "}", "map[string]string{" / "}", "List.of(" / ")".
 * On several lines every entry ends with a comma, the last one too when TRAILING_COMMA. */
CgLit *cg_lit_container (const char *open, const char *close, gboolean trailing_comma);
/* HEAD call call ... TAIL: "Put.builder()" / ".build()"; on several lines each call (and the
 * tail) on a line of its own, one level deeper. */
CgLit *cg_lit_chain (const char *head, const char *tail);
/* Adds an entry or call: PREFIX (taken), then VALUE (taken; may be NULL), then SUFFIX. */
void cg_lit_add (CgLit *lit, char *prefix, CgLit *value, const char *suffix);
gboolean cg_lit_is_empty (const CgLit *lit);
void cg_lit_free (CgLit *lit);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgLit, cg_lit_free)

/* Appends LIT at the column OUT ends at, lines after the first at LEVEL units of indentation,
 * fitting WIDTH columns where it can. */
void cg_lit_write (GString *out, const CgLit *lit, const char *unit, int level, gsize width);

G_END_DECLS
