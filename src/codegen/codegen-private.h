/* codegen-private.h: what the per-language writers (cg-*.c) share: the request shapes of the
 * operations (cg-shapes.c), an indenting text buffer and the JSON text of values (cg-text.c). */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "codegen/cg-lit.h"
#include "codegen/codegen.h"

G_BEGIN_DECLS

/* ---- Shapes: the members of each request structure, as the AWS API reference gives them ---- */

typedef enum {
  CG_STRING,      /* a string */
  CG_ENUM,        /* a string from a fixed set; `type` names the SDK's enum type */
  CG_INT,         /* an integer (32 bits in the SDKs: Limit, Segment) */
  CG_LONG,        /* a 64-bit integer (ReadCapacityUnits) */
  CG_BOOL,        /* a boolean */
  CG_VALUE,       /* one AttributeValue */
  CG_ITEM,        /* map of attribute name -> AttributeValue (Item, Key, ExclusiveStartKey) */
  CG_NAMES,       /* map of string -> string (ExpressionAttributeNames) */
  CG_STRINGS,     /* list of strings (AttributesToGet) */
  CG_VALUES,      /* list of AttributeValues (AttributeValueList) */
  CG_ITEMS,       /* list of items (Keys) */
  CG_STRUCT,      /* a structure of `shape` */
  CG_STRUCT_LIST, /* list of `shape` */
  CG_STRUCT_MAP,  /* map of string -> `shape` */
  CG_LIST_MAP,    /* map of string -> list of `shape` (BatchWriteItem's RequestItems) */
} CgKind;

typedef struct _CgShape CgShape;

typedef struct {
  const char *name; /* as on the wire: "TableName" */
  CgKind kind;
  const CgShape *shape; /* CG_STRUCT, CG_STRUCT_LIST, CG_STRUCT_MAP, CG_LIST_MAP */
  const char *type;     /* CG_ENUM: "ReturnConsumedCapacity", "ReturnValue", ... */
} CgMember;

struct _CgShape {
  const char *name;        /* the SDKs' type name: "Put", "KeysAndAttributes"; the operation's
                            * name for a request ("Query") */
  gboolean required;       /* has required members (Rust's builder returns a Result) */
  const CgMember *members; /* terminated by a member with name NULL */
};

/* The request shape of OPERATION, or NULL. */
const CgShape *cg_operation_shape (const char *operation);
const CgMember *cg_shape_member (const CgShape *shape, const char *name);

/* An operation's or member's name in lower case, its words joined by SEPARATOR: snake_case
 * with '_' ("BatchGetItem" -> "batch_get_item", "TableName" -> "table_name"), kebab-case with
 * '-'; and in lowerCamelCase ("batchGetItem", "tableName"). Newly allocated. */
char *cg_words (const char *name, char separator);
char *cg_lower_camel (const char *name);

typedef enum {
  CG_READ_ITEM,   /* GetItem: prints Item */
  CG_READ_PAGES,  /* Query, Scan: prints Items, page by page through LastEvaluatedKey */
  CG_READ_BATCH,  /* BatchGetItem: prints Responses, sends UnprocessedKeys again */
  CG_WRITE_BATCH, /* BatchWriteItem: sends UnprocessedItems again, prints each response */
  CG_READ_TRANSACT, /* TransactGetItems: prints Responses */
  CG_STATEMENT,   /* ExecuteStatement: prints each response, page by page through NextToken (a
                   * SELECT reads at most 1 MB or Limit items a call) */
  CG_WRITE,       /* PutItem, UpdateItem, DeleteItem, TransactWriteItems, and the PartiQL
                   * BatchExecuteStatement, ExecuteTransaction, and the table operations
                   * CreateTable, UpdateTable, UpdateTimeToLive, DeleteTable: prints the
                   * response */
} CgFlow;

CgFlow cg_operation_flow (const char *operation);

/* ddb_codegen_check's work (cg-check.c): the checked copy of REQUEST (new reference) without
 * the members set to null, or NULL with the error. */
json_t *cg_check (const char *operation, json_t *request, GError **error);

/* ---- Text ---- */

typedef struct {
  GString *s;
  int indent;       /* current level */
  const char *unit; /* one level: "    ", "  " or "\t" */
} CgOut;

void cg_out_init (CgOut *o, const char *unit);
char *cg_out_finish (CgOut *o);
/* Starts a new line at the current indentation and appends the formatted text. */
void cg_line (CgOut *o, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Appends to the current line. */
void cg_add (CgOut *o, const char *format, ...) G_GNUC_PRINTF (2, 3);
void cg_newline (CgOut *o);

/* A JSON string literal of UTF-8 text: \" \\ \n \r \t \b \f, \uHHHH for the other controls and
 * every character ddb_quote_must_escape names; everything else as it is. */
void cg_json_string (GString *out, const char *data, gsize len);
/* JSON text of J indented by `unit` per level starting at LEVEL, strings through
 * cg_json_string, object members in their order. */
void cg_json_pretty (GString *out, json_t *j, const char *unit, int level);

/* Literals of LANG as layout nodes: UTF-8 text, a JSON string's text, and the bytes of a
 * checked base64 JSON string (ddb_quote_string, ddb_quote_bytes). */
CgLit *cg_lit_string (DdbLang lang, const char *s, gsize len);
CgLit *cg_lit_json_string (DdbLang lang, json_t *j);
CgLit *cg_lit_bytes (DdbLang lang, json_t *j);

/* ---- The writers (cg-<lang>.c): REQUEST was checked against its shape ---- */

/* A fan-out Query (cg-fanout.c): the Query once per suffix, PLACEHOLDER's value then PREFIX
 * and the suffix, FIRST .. FIRST + N - 1 padded with zeros to WIDTH digits (0: none). */
typedef struct {
  const char *placeholder;
  const char *prefix;
  guint first, n, width;
} CgFanout;

typedef struct {
  const char *operation;
  const CgShape *shape;
  json_t *request;
  const DdbCodegenTarget *target;
  CgFlow flow;
  const CgFanout *fanout; /* NULL but for a fan-out Query (flow CG_READ_PAGES) */
} CgJob;

/* The last suffix of a fan-out. */
guint cg_fanout_last (const CgFanout *fanout);

/* The request as a Python dict or a JavaScript object literal (cg-dynamic.c). */
CgLit *cg_dynamic_request (const CgJob *job, DdbLang lang);
/* TRUE when a Query or Scan asks for Select COUNT: it prints counts, not items. */
gboolean cg_request_counts (const CgJob *job);
/* What the program does, for its opening comment: "Query Blog on http://127.0.0.1:8000 (profile
 * dev, region eu-west-1)": newly allocated. */
char *cg_summary (const CgJob *job);
char *cg_write_cli (const CgJob *job);
char *cg_write_python (const CgJob *job);
char *cg_write_js (const CgJob *job);
char *cg_write_java (const CgJob *job);
char *cg_write_go (const CgJob *job);
char *cg_write_rust (const CgJob *job);

G_END_DECLS
