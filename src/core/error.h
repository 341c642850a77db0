/* error.h: the GError domain that carries DynamoDB's exceptions through every layer.
 * Messages are DynamoDB's own English wording: they are part of the wire protocol and are not
 * translated here; the GUI translates when it shows them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DDB_ERROR (ddb_error_quark ())

typedef enum {
  DDB_ERROR_VALIDATION,                 /* ValidationException */
  DDB_ERROR_CONDITIONAL_CHECK_FAILED,   /* ConditionalCheckFailedException */
  DDB_ERROR_RESOURCE_NOT_FOUND,         /* ResourceNotFoundException */
  DDB_ERROR_RESOURCE_IN_USE,            /* ResourceInUseException */
  DDB_ERROR_TRANSACTION_CANCELED,       /* TransactionCanceledException */
  DDB_ERROR_PROVISIONED_THROUGHPUT,     /* ProvisionedThroughputExceededException */
  DDB_ERROR_ITEM_COLLECTION_SIZE_LIMIT, /* ItemCollectionSizeLimitExceededException */
  DDB_ERROR_LIMIT_EXCEEDED,             /* LimitExceededException */
  DDB_ERROR_SERIALIZATION,              /* SerializationException */
  DDB_ERROR_INTERNAL,                   /* InternalServerError */
  DDB_ERROR_UNKNOWN_OPERATION,          /* UnknownOperationException */
  DDB_ERROR_MISSING_AUTHENTICATION_TOKEN, /* MissingAuthenticationTokenException */
  DDB_ERROR_UNRECOGNIZED_CLIENT,        /* UnrecognizedClientException */
  DDB_ERROR_INVALID_SIGNATURE,          /* InvalidSignatureException */
  DDB_ERROR_INCOMPLETE_SIGNATURE,       /* IncompleteSignatureException */
  DDB_ERROR_IDEMPOTENT_PARAMETER_MISMATCH, /* IdempotentParameterMismatchException */
  DDB_ERROR_DUPLICATE_ITEM,             /* DuplicateItemException (PartiQL INSERT) */
  DDB_ERROR_EXPIRED_ITERATOR,           /* ExpiredIteratorException (Streams) */
  DDB_ERROR_TRIMMED_DATA_ACCESS,        /* TrimmedDataAccessException (Streams) */
  /* Continuous backups and exports */
  DDB_ERROR_TABLE_NOT_FOUND,            /* TableNotFoundException */
  DDB_ERROR_PITR_UNAVAILABLE,           /* PointInTimeRecoveryUnavailableException */
  DDB_ERROR_INVALID_EXPORT_TIME,        /* InvalidExportTimeException */
  DDB_ERROR_EXPORT_CONFLICT,            /* ExportConflictException */
  DDB_ERROR_EXPORT_NOT_FOUND,           /* ExportNotFoundException */
  DDB_ERROR_IMPORT_CONFLICT,            /* ImportConflictException */
} DdbErrorCode;

GQuark ddb_error_quark (void);

/* "ValidationException" etc. */
const char *ddb_error_type_name (DdbErrorCode code);

/* "com.amazonaws.dynamodb.v20120810#ValidationException" etc., as in an error body's __type.
 * Returns a static string. */
const char *ddb_error_type_full (DdbErrorCode code);

G_END_DECLS
