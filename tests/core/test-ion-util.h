/* test-ion-util.h: what the Ion test program's files share (test-ion.c defines it): AWS's
 * documented example lines, the reading, writing and assertion helpers, and the tests of
 * test-ion-grammar.c and test-ion-corpus.c that test-ion.c's main () registers. */
#pragma once

#include <glib.h>

#include "core/ion.h"
#include "core/value.h"

#define D38 "12345678901234567890123456789012345678"

/* The AWS Developer Guide's Ion example item ("DynamoDB table export output format") as
 * printed there on several lines, and on one line as the export writes it. */
extern const char aws_ion_example[];
extern const char aws_ion_line[];

/* Reads `text` as one value (aborts on an error or a second value). */
DdbIonValue *ion_one (const char *text);
/* Asserts that `text` reads as one non-null value of `type` whose text is `expected`. */
void assert_ion_text (const char *text, DdbIonType type, const char *expected, gsize expected_len);
#define assert_text(text, type, expected) \
  assert_ion_text ((text), (type), (expected), strlen (expected))
/* Reads every value of the stream in `text` (from a heap copy of exactly `len` bytes). */
gboolean read_all (const char *text, gsize len, GError **error);
/* Asserts that reading the stream fails with `code` and a message starting with `prefix`. */
void assert_ion_error (const char *text, DdbIonErrorCode code, const char *prefix);
/* The item of a full export's line (aborts on an error). */
DdbValue *line_item (const char *line);
/* The export line of `item`. */
char *export_line (const DdbValue *item);
/* item -> Ion line -> item must give the item back, and the text again the same text. */
void assert_round_trip (const DdbValue *item);

/* test-ion-direct.c */
/* Reads `line` through the direct path and the generic one: when the direct path accepts it,
 * the generic one must accept it with the same record. TRUE if the direct path took it. */
gboolean assert_paths_agree (const char *line, gsize len);
void test_direct_path (void);

/* test-ion-grammar.c */
void test_nulls_and_bools (void);
void test_numbers (void);
void test_timestamps (void);
void test_symbols (void);
void test_strings (void);
void test_lobs (void);
void test_containers (void);

/* test-ion-corpus.c */
void test_corpus_round_trip (void);
void test_truncations (void);
void test_mutations (void);
