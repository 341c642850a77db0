/* ion-private.h: what the parts of the Ion text reader share (not installed; included only by
 * ion-read.c, the parser, ion-lex.c, the scanner of whitespace and scalar tokens, ion.c, the
 * mapping to DynamoDB, and ion-direct.c, the direct path of export lines): the reader's state,
 * the character classes, the kinds of quoted text and symbols, the errors and value
 * constructors of ion-read.c, the mapping helpers of ion.c and the scanners of ion-lex.c. */
#pragma once

#include "core/ion.h"

G_BEGIN_DECLS

struct _DdbIonReader {
  const guchar *start, *p, *end;
  guint first_line;
  /* Line numbers are counted lazily from the last place asked about. */
  const guchar *line_pos;
  guint line_at;
  GPtrArray *symbols;   /* local symbols, $10 onwards: char* (NULL: no text) */
  GError *error;        /* the first failure; the reader stays failed */
  gboolean bare_symbol; /* the value just parsed was an identifier symbol, unannotated */
};

/* Characters */

static inline int
peek_at (const DdbIonReader *r, gsize k)
{
  return r->p + k < r->end ? r->p[k] : -1;
}

static inline gboolean
is_ws (int c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static inline gboolean
is_ident_start (int c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static inline gboolean
is_ident_char (int c)
{
  return is_ident_start (c) || (c >= '0' && c <= '9');
}

static inline gboolean
at_long_quote (const DdbIonReader *r)
{
  return peek_at (r, 0) == '\'' && peek_at (r, 1) == '\'' && peek_at (r, 2) == '\'';
}

/* Errors and values (ion-read.c) */

/* Records the first failure; always returns NULL, for `return ion_fail (...)`. */
gpointer ion_fail (DdbIonReader *r, const guchar *at, DdbIonErrorCode code, const char *format, ...)
    G_GNUC_PRINTF (4, 5);
/* A syntax error "unexpected <what is at `at`> <where>"; returns NULL. */
gpointer ion_fail_unexpected (DdbIonReader *r, const guchar *at, const char *where);
/* "'x'", "byte 0xNN" or "the end of the input", for messages. */
char *ion_describe_at (DdbIonReader *r, const guchar *at);
/* A value of `type` starting at `at`; the text one takes over `text`. */
DdbIonValue *ion_new_value (DdbIonReader *r, DdbIonType type, const guchar *at);
DdbIonValue *ion_new_text_value (DdbIonReader *r, DdbIonType type, const guchar *at, GString *text);

/* What the two mappings to DynamoDB share (ion.c): the generic one from the tree and the direct
 * one of export lines (ion-direct.c). */

/* The names of a map being filled with ddb_value_map_append (): looked up in the map while it
 * is small, through a hash of its names once it is big. Zero-initialised; ion_names_clear ()
 * after. */
typedef struct {
  GHashTable *seen; /* GBytes of the names of the map's first `count` attributes */
  guint count;
} IonNames;

/* TRUE if `name` is already an attribute of `map`. */
gboolean ion_names_contain (IonNames *names, const DdbValue *map, const char *name, gsize len);
void ion_names_clear (IonNames *names);

/* The slot of the record part named `name` (Item, Keys, NewImage, OldImage, Metadata), or NULL
 * for any other name. */
DdbValue **ion_record_slot (DdbIonRecord *record, const char *name, gsize len);
/* TRUE if the parts filled make a record: Item alone, or Keys with any of the others. */
gboolean ion_record_shape_ok (const DdbIonRecord *record);

/* Scanners (ion-lex.c): each starts at r->p and leaves it past what it read; FALSE or NULL
 * after an ion_fail (). */

typedef enum { QUOTE_SHORT, QUOTE_SYMBOL, QUOTE_LONG } Quote;
typedef enum { SYM_IDENT, SYM_KEYWORD, SYM_QUOTED, SYM_ID } SymKind;

/* Past whitespace and comments. */
gboolean ion_skip_ws (DdbIonReader *r);
/* After a number or timestamp: one of the numeric stop characters, a comment, or the end. */
gboolean ion_at_numeric_stop (const DdbIonReader *r);
/* An int, decimal, float (not nan or +-inf) or timestamp at r->p. */
DdbIonValue *ion_parse_number (DdbIonReader *r);
/* The body of a quoted text whose opening quote(s) r->p is just past, appended to `out`. */
gboolean ion_read_quoted (DdbIonReader *r, Quote quote, gboolean clob, GString *out);
/* One or more long strings at r->p, joined across whitespace and comments. */
gboolean ion_read_long_strings (DdbIonReader *r, GString *out);
/* An identifier or quoted symbol at r->p: *text (NULL for $0) and its length. */
gboolean ion_read_symbol (DdbIonReader *r, SymKind *kind, char **text, gsize *len);
/* A blob or clob at r->p ("{{"). */
DdbIonValue *ion_parse_lob (DdbIonReader *r);

G_END_DECLS
