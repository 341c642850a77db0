/* error.c: DynamoDB exception names for the DDB_ERROR domain. */
#include "core/error.h"

G_DEFINE_QUARK (ddb-error-quark, ddb_error)

static const struct {
  const char *name;
  const char *full;
} type_names[] = {
  [DDB_ERROR_VALIDATION]
  = { "ValidationException", "com.amazon.coral.validate#ValidationException" },
  [DDB_ERROR_CONDITIONAL_CHECK_FAILED]
  = { "ConditionalCheckFailedException",
      "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException" },
  [DDB_ERROR_RESOURCE_NOT_FOUND]
  = { "ResourceNotFoundException", "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException" },
  [DDB_ERROR_RESOURCE_IN_USE]
  = { "ResourceInUseException", "com.amazonaws.dynamodb.v20120810#ResourceInUseException" },
  [DDB_ERROR_TRANSACTION_CANCELED]
  = { "TransactionCanceledException",
      "com.amazonaws.dynamodb.v20120810#TransactionCanceledException" },
  [DDB_ERROR_PROVISIONED_THROUGHPUT]
  = { "ProvisionedThroughputExceededException",
      "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException" },
  [DDB_ERROR_ITEM_COLLECTION_SIZE_LIMIT]
  = { "ItemCollectionSizeLimitExceededException",
      "com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException" },
  [DDB_ERROR_LIMIT_EXCEEDED]
  = { "LimitExceededException", "com.amazonaws.dynamodb.v20120810#LimitExceededException" },
  [DDB_ERROR_SERIALIZATION]
  = { "SerializationException", "com.amazon.coral.service#SerializationException" },
  [DDB_ERROR_INTERNAL]
  = { "InternalServerError", "com.amazonaws.dynamodb.v20120810#InternalServerError" },
  [DDB_ERROR_UNKNOWN_OPERATION]
  = { "UnknownOperationException", "com.amazon.coral.service#UnknownOperationException" },
  [DDB_ERROR_MISSING_AUTHENTICATION_TOKEN]
  = { "MissingAuthenticationTokenException",
      "com.amazon.coral.service#MissingAuthenticationTokenException" },
  [DDB_ERROR_UNRECOGNIZED_CLIENT]
  = { "UnrecognizedClientException", "com.amazon.coral.service#UnrecognizedClientException" },
  [DDB_ERROR_INVALID_SIGNATURE]
  = { "InvalidSignatureException", "com.amazon.coral.service#InvalidSignatureException" },
  [DDB_ERROR_INCOMPLETE_SIGNATURE]
  = { "IncompleteSignatureException", "com.amazon.coral.service#IncompleteSignatureException" },
  [DDB_ERROR_IDEMPOTENT_PARAMETER_MISMATCH]
  = { "IdempotentParameterMismatchException",
      "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException" },
  [DDB_ERROR_DUPLICATE_ITEM]
  = { "DuplicateItemException", "com.amazonaws.dynamodb.v20120810#DuplicateItemException" },
  [DDB_ERROR_EXPIRED_ITERATOR]
  = { "ExpiredIteratorException", "com.amazonaws.dynamodb.v20120810#ExpiredIteratorException" },
  [DDB_ERROR_TRIMMED_DATA_ACCESS]
  = { "TrimmedDataAccessException",
      "com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException" },
  [DDB_ERROR_TABLE_NOT_FOUND]
  = { "TableNotFoundException", "com.amazonaws.dynamodb.v20120810#TableNotFoundException" },
  [DDB_ERROR_PITR_UNAVAILABLE]
  = { "PointInTimeRecoveryUnavailableException",
      "com.amazonaws.dynamodb.v20120810#PointInTimeRecoveryUnavailableException" },
  [DDB_ERROR_INVALID_EXPORT_TIME]
  = { "InvalidExportTimeException",
      "com.amazonaws.dynamodb.v20120810#InvalidExportTimeException" },
  [DDB_ERROR_EXPORT_CONFLICT]
  = { "ExportConflictException", "com.amazonaws.dynamodb.v20120810#ExportConflictException" },
  [DDB_ERROR_EXPORT_NOT_FOUND]
  = { "ExportNotFoundException", "com.amazonaws.dynamodb.v20120810#ExportNotFoundException" },
  [DDB_ERROR_IMPORT_CONFLICT]
  = { "ImportConflictException", "com.amazonaws.dynamodb.v20120810#ImportConflictException" },
};

const char *
ddb_error_type_name (DdbErrorCode code)
{
  if ((guint) code >= G_N_ELEMENTS (type_names))
    return "InternalServerError";
  return type_names[code].name;
}

const char *
ddb_error_type_full (DdbErrorCode code)
{
  if ((guint) code >= G_N_ELEMENTS (type_names))
    return type_names[DDB_ERROR_INTERNAL].full;
  return type_names[code].full;
}
