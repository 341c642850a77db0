/* check.h: a model's access patterns resolved to the one GetItem or Query each needs (or flagged
 * with why not), and its keys checked for collisions, sort order, size limits and cardinality:
 * from their templates where the model has them (x-dynoscope), and from the sample items (the
 * tables' and the facets' TableData) for every key no template describes, as in a plain NoSQL
 * Workbench model. A check that can run on neither says so in the report's `skipped`. */
#pragma once

#include "model/model.h"

G_BEGIN_DECLS

typedef enum {
  DY_RESOLVED_GET_ITEM,
  DY_RESOLVED_QUERY,
  DY_RESOLVED_FLAGGED, /* no single request serves it; `why` says what is missing */
} DyResolutionKind;

typedef struct {
  const DyModelPattern *pattern;
  DyResolutionKind kind;
  char *table;
  char *index;         /* NULL: the table */
  char *key_condition; /* readable: PK = "WS#acme" AND begins_with(SK, "PROJ#") */
  gboolean forward;    /* a Query's ScanIndexForward */
  json_t *request;     /* the request in DynamoDB JSON, inputs from the pattern's examples */
  char *why;
} DyResolution;

typedef enum {
  DY_FLAG_PATTERN,    /* a pattern that needs more than one request or a Scan */
  DY_FLAG_COLLISION,  /* two entities' keys of one shape (the same literal text around their
                       * fields, field values holding no separator): one key for both */
  DY_FLAG_UNPADDED,   /* a number in a sort key without zero padding */
  DY_FLAG_TOO_LONG,   /* a key over DynamoDB's size limit */
  DY_FLAG_MIXED_CASE, /* sort key prefixes of one item collection in different cases */
  DY_FLAG_UNKNOWN_KEY, /* a template for an attribute that is no key of the table or its indexes */
  DY_FLAG_LOW_CARDINALITY, /* a partition key (of the table or a GSI) of few values: a constant
                            * template, or one whose every field is a low-cardinality attribute
                            * (see below), or, without templates, one whose sample values are
                            * few: its items crowd into few, hot partitions */
  DY_FLAG_SAMPLE_KEY, /* a sample item DynamoDB would refuse: without a key attribute of the
                       * table, or with a key attribute (the table's or an index's) of another
                       * type than its definition */
} DyFlagKind;

typedef struct {
  DyFlagKind kind;
  char *message;
} DyFlag;

typedef struct {
  GPtrArray *resolutions; /* of DyResolution*, one per pattern in order */
  GPtrArray *flags;       /* of DyFlag*, the patterns' first */
  GPtrArray *skipped;     /* of DyFlag*: checks that could not run, `kind` the check, `message`
                           * where and what it lacks (templates, patterns, sample items) */
} DyCheckReport;

DyCheckReport *dy_model_check (const DyModel *model);
void dy_check_report_free (DyCheckReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyCheckReport, dy_check_report_free)

/* "needs-scan" style names of flag kinds, for output. */
const char *dy_flag_kind_name (DyFlagKind kind);

/* DynamoDB's limits on a key attribute's value, in bytes. */
#define DY_PARTITION_KEY_MAX 2048
#define DY_SORT_KEY_MAX 1024

/* A template field is a low-cardinality attribute when the entity's (or table's) attribute of
 * its name is a BOOL, or when at least DY_LOW_CARDINALITY_MIN_ITEMS of the table's sample items
 * hold that attribute and they hold at most DY_LOW_CARDINALITY_MAX_VALUES distinct values among
 * them (a status, a type, a flag). Fields that name no attribute are taken to be of many values. */
#define DY_LOW_CARDINALITY_MAX_VALUES 4
#define DY_LOW_CARDINALITY_MIN_ITEMS 10

/* Without a template, a partition key (the table's or a GSI's) is of few values when at least
 * DY_LOW_CARDINALITY_SAMPLE_MIN_ITEMS of the table's sample items (its own and its facets') hold
 * it and they hold at most DY_LOW_CARDINALITY_MAX_VALUES distinct values of it. Sample data
 * clusters items into a few item collections by design (a customer and their orders), so the
 * bar is dozens of items, not a few. Fewer items than that: the check says it could not judge. */
#define DY_LOW_CARDINALITY_SAMPLE_MIN_ITEMS 20

G_END_DECLS
