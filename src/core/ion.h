/* ion.h: Amazon Ion text, as DynamoDB's ExportTableToPointInTime writes it (outputFormat ION):
 * a reader for any Ion 1.0 text into a generic tree (ion-read.c, its scalar tokens in
 * ion-lex.c), the mapping of that tree to DynamoDB values and export records (ion.c), and a
 * writer of items and export lines in the shapes AWS's export writes (ion-write.c). GTK-free.
 *
 * The export format (AWS Developer Guide, "DynamoDB table export output format", Amazon Ion):
 * one record per line, each line the version marker then a struct, e.g.
 *   $ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Id:103.,PageCount:6d2}}
 * S -> string, N -> decimal, B -> blob, BOOL -> bool, NULL -> null, M -> struct, L -> list,
 * SS/NS/BS -> a list annotated $dynamodb_SS / $dynamodb_NS / $dynamodb_BS. An incremental export
 * line holds Metadata (WriteTimestampMicros), Keys, and NewImage and/or OldImage instead of Item.
 *
 * Reader (what Ion text is accepted). The whole Ion 1.0 text grammar (ion-docs IonText.g4):
 * version markers, whitespace and // and block comments, null and typed nulls, bool, int
 * (decimal, 0x, 0b, '_' between digits), decimal (d/D exponent, trailing '.'), float (e/E
 * exponent, nan, +inf, -inf), timestamp (checked: month and day ranges, leap years, offsets),
 * symbols (identifiers, 'quoted', $N ids, operators in s-expressions), strings (short with
 * every escape, \x \u \U included and surrogate pairs joined; long '''...''' ones joined across
 * whitespace and comments), blobs {{base64}} and clobs {{"..."}}, lists, s-expressions, structs
 * (symbol or string field names, one trailing comma allowed in lists and structs) and
 * annotations a::b::v. Input must be UTF-8; characters in long strings are kept as written
 * (CR LF is not folded to LF). Refused with DDB_ION_ERROR_UNSUPPORTED: version markers other
 * than $ion_1_0, symbol tables importing shared tables, and 0x/0b integers longer than
 * DDB_ION_MAX_RADIX_DIGITS digits. Local symbol tables ($ion_symbol_table::{symbols:[...]},
 * imports: $ion_symbol_table to append) are honoured for $N symbols, and are not returned as
 * values; neither are version markers.
 *
 * Containers nest at most DDB_ION_MAX_DEPTH deep; deeper input is refused (without recursing
 * further), so the reader's stack use is bounded. Nothing is read past `len`; NUL bytes are
 * plain (invalid) characters.
 *
 * Errors: domain DDB_ION_ERROR, message "line N: what" (line of the problem, counting from the
 * reader's first line). Mapping errors add DynamoDB's attribute path as ddbjson.h writes it
 * ("...; attribute path: a.b[2]"). */
#pragma once

#include <glib.h>

#include "core/value.h"

G_BEGIN_DECLS

#define DDB_ION_ERROR (ddb_ion_error_quark ())

typedef enum {
  DDB_ION_ERROR_SYNTAX,       /* not Ion text (or not UTF-8) */
  DDB_ION_ERROR_UNSUPPORTED,  /* Ion this reader does not handle (see above) */
  DDB_ION_ERROR_NOT_DYNAMODB, /* valid Ion with no DynamoDB meaning: float, timestamp, ... */
  DDB_ION_ERROR_INVALID,      /* a value DynamoDB refuses: number range, set rules, nesting */
} DdbIonErrorCode;

GQuark ddb_ion_error_quark (void);

/* Containers nested deeper than this are refused. An export line needs 2 levels for its
 * wrapper ({Item:{...}}) plus DDB_MAX_NESTING (32) for the item's values; 100 leaves room for
 * any Ion a DynamoDB tool writes while keeping recursion shallow. */
#define DDB_ION_MAX_DEPTH 100
/* Longest hexadecimal or binary integer read (converting it to decimal is quadratic). */
#define DDB_ION_MAX_RADIX_DIGITS 1024

/* The generic tree */

typedef enum {
  DDB_ION_TYPE_NULL, /* null and null.null */
  DDB_ION_TYPE_BOOL,
  DDB_ION_TYPE_INT,
  DDB_ION_TYPE_FLOAT,
  DDB_ION_TYPE_DECIMAL,
  DDB_ION_TYPE_TIMESTAMP,
  DDB_ION_TYPE_SYMBOL,
  DDB_ION_TYPE_STRING,
  DDB_ION_TYPE_CLOB,
  DDB_ION_TYPE_BLOB,
  DDB_ION_TYPE_LIST,
  DDB_ION_TYPE_SEXP,
  DDB_ION_TYPE_STRUCT,
} DdbIonType;

typedef struct _DdbIonValue DdbIonValue;

typedef struct {
  char *name; /* UTF-8, NUL-terminated (may hold U+0000: name_len rules); NULL for $0 */
  gsize name_len;
  DdbIonValue *value;
} DdbIonField;

struct _DdbIonValue {
  DdbIonType type;
  /* A typed null (null.string has type STRING); DDB_ION_TYPE_NULL values are always null. */
  gboolean is_null;
  guint line; /* where the value starts */
  /* Annotations in order; NULL-terminated, NULL when there are none. An annotation $0 (no
   * text) is the empty string. */
  char **annotations;
  union {
    gboolean boolean; /* BOOL */
    /* INT, DECIMAL: the value as ddb_number_parse() reads it: optional '-', decimal digits
     *   with an optional '.', optional "e<exponent>" (underscores gone, 0x/0b converted,
     *   d/D -> e), e.g. "-12", "1.50e-3", "0.".
     * FLOAT: the text as written ("1.5e3", "nan", "+inf").
     * TIMESTAMP: the text as written ("2007-02-23T12:14Z").
     * SYMBOL: its text (NULL for $0). STRING: UTF-8. CLOB, BLOB: raw bytes.
     * `data` is NUL-terminated; `len` is authoritative. */
    struct {
      char *data;
      gsize len;
    } text;
    GPtrArray *elems; /* LIST, SEXP: DdbIonValue* */
    GArray *fields;   /* STRUCT: DdbIonField, in order, duplicates kept (Ion allows them) */
  };
  double f; /* FLOAT: the value (NaN, infinities included) */
};

void ddb_ion_value_free (DdbIonValue *v);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbIonValue, ddb_ion_value_free)

/* TRUE if the value carries the annotation `name`. */
gboolean ddb_ion_value_has_annotation (const DdbIonValue *v, const char *name);
/* The first field of a struct named `name`, or NULL. */
DdbIonValue *ddb_ion_value_get_field (const DdbIonValue *s, const char *name);

/* The reader: a stream of top-level values in one buffer (borrowed; must outlive the reader). */

typedef struct _DdbIonReader DdbIonReader;

DdbIonReader *ddb_ion_reader_new (const char *text, gsize len);
/* The line number of the buffer's first line in messages (default 1), for a caller that reads
 * a file line by line. */
void ddb_ion_reader_set_first_line (DdbIonReader *reader, guint line);
/* Reads the next user value: TRUE with *out set, TRUE with *out NULL at the end of the input,
 * FALSE with *error on a problem (the reader then stays failed: later calls fail too). Version
 * markers and symbol tables are consumed, not returned. */
gboolean ddb_ion_reader_next_value (DdbIonReader *reader, DdbIonValue **out, GError **error);
/* Offset just past the last value read (or of the failure). */
gsize ddb_ion_reader_offset (const DdbIonReader *reader);
void ddb_ion_reader_free (DdbIonReader *reader);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbIonReader, ddb_ion_reader_free)

/* Values over several lines (ion-lex.c): where Ion text stands after the lines read so far, for
 * a reader of a line-oriented file (an export's data file) whose values may span lines, as a
 * record printed over several lines does. Zero-initialised for the first line of a value. */
typedef struct {
  guint depth;  /* containers open: {, [, ( and a lob's {{ */
  gboolean lob; /* inside {{ }}, where base64 may hold two slashes */
  int state;    /* in a long string, block comment, or short text continued by '\' */
} DdbIonScan;

/* Scans one more line (without its line end): TRUE if what was opened so far is still open
 * after it, so that the value goes on on the next line. Only brackets, quotes and comments are
 * looked at: the parser finds every other problem. */
gboolean ddb_ion_scan_line (DdbIonScan *scan, const char *line, gsize len);
/* TRUE if the lines scanned so far end inside text: a long string, a block comment, or short
 * text continued by a final backslash. */
gboolean ddb_ion_scan_in_text (const DdbIonScan *scan);

/* Mapping to DynamoDB (ion.c)
 *
 * struct -> M (a field name twice is refused, as DynamoDB JSON refuses a duplicate key),
 * list -> L, string -> S, blob -> B, bool -> BOOL, any null (null, null.string, ...) -> NULL,
 * int and decimal -> N exactly (every digit kept; DynamoDB's 38 digits and 1E-130..9.99E+125
 * range enforced with DynamoDB's messages; -0 and 0. are 0), lists annotated $dynamodb_SS /
 * $dynamodb_NS / $dynamodb_BS -> SS / NS / BS of strings / ints or decimals / blobs (empty or
 * duplicate sets refused with DynamoDB's messages). Refused with DDB_ION_ERROR_NOT_DYNAMODB, as
 * DynamoDB never writes them: floats (an N must be exact), symbols as values, timestamps,
 * clobs, s-expressions, any other annotation, an annotation on anything but a list, a set
 * element of the wrong type or null. Nesting deeper than DDB_MAX_NESTING is refused with
 * DynamoDB's message (DDB_ION_ERROR_INVALID). */

/* One attribute value (at nesting level 1). */
DdbValue *ddb_ion_to_ddb (const DdbIonValue *v, GError **error);
/* An item: a struct whose fields are the attributes. */
DdbValue *ddb_ion_to_item (const DdbIonValue *v, GError **error);

/* One record of an export data file. A full export's record has `item`; an incremental
 * export's has `keys`, `metadata` (an M: WriteTimestampMicros is an N) and one or both of
 * `new_image` / `old_image` (a delete under NEW_IMAGE has neither). Absent parts are NULL. */
typedef struct {
  DdbValue *item;
  DdbValue *keys;
  DdbValue *new_image;
  DdbValue *old_image;
  DdbValue *metadata;
  guint line; /* where the record starts */
} DdbIonRecord;

void ddb_ion_record_clear (DdbIonRecord *record);

/* The record the next top-level value is: a struct with either Item alone, or Keys with any of
 * Metadata, NewImage, OldImage (other fields, repeated fields and other shapes are refused).
 * TRUE with out->line == 0 and every part NULL at the end of the input. */
gboolean ddb_ion_reader_next_record (DdbIonReader *reader, DdbIonRecord *out, GError **error);
/* One line of a full export ("$ion_1_0 {Item:{...}}"; the marker is optional, a trailing line
 * break allowed, a second value refused): the item. */
DdbValue *ddb_ion_parse_export_line (const char *line, gsize len, GError **error);
/* One line of any export, full or incremental, numbered `line_no` in messages. */
gboolean ddb_ion_parse_export_record (const char *line, gsize len, guint line_no, DdbIonRecord *out,
                                      GError **error);

/* The direct path of ddb_ion_parse_export_record (ion-direct.c): a line in the shapes AWS's
 * export writes, read straight into DynamoDB values without the generic tree. TRUE with *out
 * set; FALSE, with *out cleared and no error, for anything it does not handle (comments, long
 * strings, symbol ids, '_' or radix ints, floats, typed nulls, other annotations) and for every
 * error: the generic path then reads the line, and words the error. What it accepts, the
 * generic path accepts with equal values (the fuzz target and test-ion check it). */
gboolean ddb_ion_direct_export_record (const char *line, gsize len, guint line_no,
                                       DdbIonRecord *out);

/* Writing (ion-write.c), in the shapes AWS's export writes: field names as symbols (bare when
 * an identifier, 'quoted' otherwise), strings in double quotes with '"', '\' and control
 * characters escaped (\0 \a \b \t \n \v \f \r, others \xHH) and other characters as UTF-8,
 * numbers as Ion decimals in the form ion-java's text writer gives DynamoDB's normalized
 * number (103 -> "103.", 600 -> "6d2", 1.5 -> "1.5", 0.001 -> "0.001", 1E-7 -> "1d-7",
 * 0 -> "0."), blobs {{base64}}, sets as $dynamodb_XS::[...], no spaces. Never fails: bytes of
 * an S or a name that are not UTF-8 (only in values built by hand) are written as U+FFFD.
 * AWS's documented example line is reproduced byte for byte; the escapes and the decimal forms
 * it does not show follow ion-java (AWS's Ion library) and were not checked against a real
 * export. */
void ddb_ion_append_value (GString *out, const DdbValue *value);
void ddb_ion_append_item (GString *out, const DdbValue *item);
char *ddb_ion_format_item (const DdbValue *item);
/* "$ion_1_0 {Item:{...}}", no line break. */
void ddb_ion_append_export_line (GString *out, const DdbValue *item);
/* "$ion_1_0 {Item:{...}}" for a full export's record, or
 * "$ion_1_0 {Metadata:{...},Keys:{...},OldImage:{...},NewImage:{...}}" for an incremental one,
 * with the parts given (NULL ones left out), no line break. The order of an incremental line's
 * parts follows the DynamoDB JSON examples; a real incremental Ion export was not available
 * to compare with (a reader does not depend on it). */
void ddb_ion_append_record_line (GString *out, const DdbIonRecord *record);

G_END_DECLS
