// Package types: the stand-in's part of github.com/aws/aws-sdk-go-v2/service/dynamodb/types:
// AttributeValue and its members, the structures and enums the 17 operations take and return
// (see ../../../README).
package types

import "time"

type AttributeValue interface {
	isAttributeValue()
}

type AttributeValueMemberB struct{ Value []byte }
type AttributeValueMemberBOOL struct{ Value bool }
type AttributeValueMemberBS struct{ Value [][]byte }
type AttributeValueMemberL struct{ Value []AttributeValue }
type AttributeValueMemberM struct{ Value map[string]AttributeValue }
type AttributeValueMemberN struct{ Value string }
type AttributeValueMemberNS struct{ Value []string }
type AttributeValueMemberNULL struct{ Value bool }
type AttributeValueMemberS struct{ Value string }
type AttributeValueMemberSS struct{ Value []string }

func (*AttributeValueMemberB) isAttributeValue()    {}
func (*AttributeValueMemberBOOL) isAttributeValue() {}
func (*AttributeValueMemberBS) isAttributeValue()   {}
func (*AttributeValueMemberL) isAttributeValue()    {}
func (*AttributeValueMemberM) isAttributeValue()    {}
func (*AttributeValueMemberN) isAttributeValue()    {}
func (*AttributeValueMemberNS) isAttributeValue()   {}
func (*AttributeValueMemberNULL) isAttributeValue() {}
func (*AttributeValueMemberS) isAttributeValue()    {}
func (*AttributeValueMemberSS) isAttributeValue()   {}

type ConsumedCapacity struct {
	CapacityUnits          *float64
	GlobalSecondaryIndexes map[string]Capacity
	LocalSecondaryIndexes  map[string]Capacity
	ReadCapacityUnits      *float64
	Table                  *Capacity
	TableName              *string
	WriteCapacityUnits     *float64
}

type Capacity struct {
	CapacityUnits      *float64
	ReadCapacityUnits  *float64
	WriteCapacityUnits *float64
}

type ExpectedAttributeValue struct {
	AttributeValueList []AttributeValue
	ComparisonOperator ComparisonOperator
	Exists             *bool
	Value              AttributeValue
}

type ItemCollectionMetrics struct {
	ItemCollectionKey   map[string]AttributeValue
	SizeEstimateRangeGB []float64
}

type AttributeValueUpdate struct {
	Action AttributeAction
	Value  AttributeValue
}

type Condition struct {
	ComparisonOperator ComparisonOperator
	AttributeValueList []AttributeValue
}

type KeysAndAttributes struct {
	Keys                     []map[string]AttributeValue
	AttributesToGet          []string
	ConsistentRead           *bool
	ExpressionAttributeNames map[string]string
	ProjectionExpression     *string
}

type WriteRequest struct {
	DeleteRequest *DeleteRequest
	PutRequest    *PutRequest
}

type DeleteRequest struct {
	Key map[string]AttributeValue
}

type PutRequest struct {
	Item map[string]AttributeValue
}

type TransactWriteItem struct {
	ConditionCheck *ConditionCheck
	Delete         *Delete
	Put            *Put
	Update         *Update
}

type ConditionCheck struct {
	ConditionExpression                 *string
	Key                                 map[string]AttributeValue
	TableName                           *string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           map[string]AttributeValue
	ReturnValuesOnConditionCheckFailure ReturnValuesOnConditionCheckFailure
}

type Delete struct {
	Key                                 map[string]AttributeValue
	TableName                           *string
	ConditionExpression                 *string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           map[string]AttributeValue
	ReturnValuesOnConditionCheckFailure ReturnValuesOnConditionCheckFailure
}

type Put struct {
	Item                                map[string]AttributeValue
	TableName                           *string
	ConditionExpression                 *string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           map[string]AttributeValue
	ReturnValuesOnConditionCheckFailure ReturnValuesOnConditionCheckFailure
}

type Update struct {
	Key                                 map[string]AttributeValue
	TableName                           *string
	UpdateExpression                    *string
	ConditionExpression                 *string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           map[string]AttributeValue
	ReturnValuesOnConditionCheckFailure ReturnValuesOnConditionCheckFailure
}

type TransactGetItem struct {
	Get *Get
}

type Get struct {
	Key                      map[string]AttributeValue
	TableName                *string
	ExpressionAttributeNames map[string]string
	ProjectionExpression     *string
}

type ItemResponse struct {
	Item map[string]AttributeValue
}

type BatchStatementRequest struct {
	ReturnValuesOnConditionCheckFailure ReturnValuesOnConditionCheckFailure
	Statement                           *string
	ConsistentRead                      *bool
	Parameters                          []AttributeValue
}

type BatchStatementResponse struct {
	Error     *BatchStatementError
	Item      map[string]AttributeValue
	TableName *string
}

type BatchStatementError struct {
	Item    map[string]AttributeValue
	Code    BatchStatementErrorCodeEnum
	Message *string
}

type ParameterizedStatement struct {
	ReturnValuesOnConditionCheckFailure ReturnValuesOnConditionCheckFailure
	Statement                           *string
	Parameters                          []AttributeValue
}

type AttributeDefinition struct {
	AttributeName *string
	AttributeType ScalarAttributeType
}

type KeySchemaElement struct {
	AttributeName *string
	KeyType       KeyType
}

type GlobalSecondaryIndex struct {
	IndexName             *string
	KeySchema             []KeySchemaElement
	Projection            *Projection
	ProvisionedThroughput *ProvisionedThroughput
}

type Projection struct {
	NonKeyAttributes []string
	ProjectionType   ProjectionType
}

type ProvisionedThroughput struct {
	ReadCapacityUnits  *int64
	WriteCapacityUnits *int64
}

type LocalSecondaryIndex struct {
	IndexName  *string
	KeySchema  []KeySchemaElement
	Projection *Projection
}

type SSESpecification struct {
	Enabled        *bool
	KMSMasterKeyId *string
	SSEType        SSEType
}

type StreamSpecification struct {
	StreamEnabled  *bool
	StreamViewType StreamViewType
}

type Tag struct {
	Key   *string
	Value *string
}

type TableDescription struct {
	ArchivalSummary        *ArchivalSummary
	AttributeDefinitions   []AttributeDefinition
	BillingModeSummary     *BillingModeSummary
	CreationDateTime       *time.Time
	GlobalSecondaryIndexes []GlobalSecondaryIndexDescription
	GlobalTableVersion     *string
	ItemCount              int64
	KeySchema              []KeySchemaElement
	LatestStreamArn        *string
	LatestStreamLabel      *string
	LocalSecondaryIndexes  []LocalSecondaryIndexDescription
	ProvisionedThroughput  *ProvisionedThroughputDescription
	Replicas               []ReplicaDescription
	RestoreSummary         *RestoreSummary
	SSEDescription         *SSEDescription
	StreamSpecification    *StreamSpecification
	TableArn               *string
	TableClassSummary      *TableClassSummary
	TableId                *string
	TableName              *string
	TableSizeBytes         int64
	TableStatus            TableStatus
}

type ArchivalSummary struct {
	ArchivalBackupArn *string
	ArchivalDateTime  *time.Time
	ArchivalReason    *string
}

type BillingModeSummary struct {
	BillingMode                       BillingMode
	LastUpdateToPayPerRequestDateTime *time.Time
}

type GlobalSecondaryIndexDescription struct {
	Backfilling           *bool
	IndexArn              *string
	IndexName             *string
	IndexSizeBytes        int64
	IndexStatus           IndexStatus
	ItemCount             int64
	KeySchema             []KeySchemaElement
	Projection            *Projection
	ProvisionedThroughput *ProvisionedThroughputDescription
}

type ProvisionedThroughputDescription struct {
	LastDecreaseDateTime   *time.Time
	LastIncreaseDateTime   *time.Time
	NumberOfDecreasesToday *int64
	ReadCapacityUnits      *int64
	WriteCapacityUnits     *int64
}

type LocalSecondaryIndexDescription struct {
	IndexArn       *string
	IndexName      *string
	IndexSizeBytes int64
	ItemCount      int64
	KeySchema      []KeySchemaElement
	Projection     *Projection
}

type ReplicaDescription struct {
	GlobalSecondaryIndexes        []ReplicaGlobalSecondaryIndexDescription
	KMSMasterKeyId                *string
	ProvisionedThroughputOverride *ProvisionedThroughputOverride
	RegionName                    *string
	ReplicaInaccessibleDateTime   *time.Time
	ReplicaStatus                 ReplicaStatus
	ReplicaStatusDescription      *string
	ReplicaStatusPercentProgress  *string
	ReplicaTableClassSummary      *TableClassSummary
}

type ReplicaGlobalSecondaryIndexDescription struct {
	IndexName                     *string
	ProvisionedThroughputOverride *ProvisionedThroughputOverride
}

type ProvisionedThroughputOverride struct {
	ReadCapacityUnits *int64
}

type TableClassSummary struct {
	LastUpdateDateTime *time.Time
	TableClass         TableClass
}

type RestoreSummary struct {
	RestoreDateTime   *time.Time
	RestoreInProgress *bool
	SourceBackupArn   *string
	SourceTableArn    *string
}

type SSEDescription struct {
	InaccessibleEncryptionDateTime *time.Time
	KMSMasterKeyArn                *string
	SSEType                        SSEType
	Status                         SSEStatus
}

type GlobalSecondaryIndexUpdate struct {
	Create *CreateGlobalSecondaryIndexAction
	Delete *DeleteGlobalSecondaryIndexAction
	Update *UpdateGlobalSecondaryIndexAction
}

type CreateGlobalSecondaryIndexAction struct {
	IndexName             *string
	KeySchema             []KeySchemaElement
	Projection            *Projection
	ProvisionedThroughput *ProvisionedThroughput
}

type DeleteGlobalSecondaryIndexAction struct {
	IndexName *string
}

type UpdateGlobalSecondaryIndexAction struct {
	IndexName             *string
	ProvisionedThroughput *ProvisionedThroughput
}

type ReplicationGroupUpdate struct {
	Create *CreateReplicationGroupMemberAction
	Delete *DeleteReplicationGroupMemberAction
	Update *UpdateReplicationGroupMemberAction
}

type CreateReplicationGroupMemberAction struct {
	RegionName                    *string
	GlobalSecondaryIndexes        []ReplicaGlobalSecondaryIndex
	KMSMasterKeyId                *string
	ProvisionedThroughputOverride *ProvisionedThroughputOverride
	TableClassOverride            TableClass
}

type ReplicaGlobalSecondaryIndex struct {
	IndexName                     *string
	ProvisionedThroughputOverride *ProvisionedThroughputOverride
}

type DeleteReplicationGroupMemberAction struct {
	RegionName *string
}

type UpdateReplicationGroupMemberAction struct {
	RegionName                    *string
	GlobalSecondaryIndexes        []ReplicaGlobalSecondaryIndex
	KMSMasterKeyId                *string
	ProvisionedThroughputOverride *ProvisionedThroughputOverride
	TableClassOverride            TableClass
}

type TimeToLiveSpecification struct {
	AttributeName *string
	Enabled       *bool
}

type AttributeAction string

const (
	AttributeActionAdd    AttributeAction = "ADD"
	AttributeActionPut    AttributeAction = "PUT"
	AttributeActionDelete AttributeAction = "DELETE"
)

type BatchStatementErrorCodeEnum string

const (
	BatchStatementErrorCodeEnumConditionalCheckFailed          BatchStatementErrorCodeEnum = "ConditionalCheckFailed"
	BatchStatementErrorCodeEnumItemCollectionSizeLimitExceeded BatchStatementErrorCodeEnum = "ItemCollectionSizeLimitExceeded"
	BatchStatementErrorCodeEnumRequestLimitExceeded            BatchStatementErrorCodeEnum = "RequestLimitExceeded"
	BatchStatementErrorCodeEnumValidationError                 BatchStatementErrorCodeEnum = "ValidationError"
	BatchStatementErrorCodeEnumProvisionedThroughputExceeded   BatchStatementErrorCodeEnum = "ProvisionedThroughputExceeded"
	BatchStatementErrorCodeEnumTransactionConflict             BatchStatementErrorCodeEnum = "TransactionConflict"
	BatchStatementErrorCodeEnumThrottlingError                 BatchStatementErrorCodeEnum = "ThrottlingError"
	BatchStatementErrorCodeEnumInternalServerError             BatchStatementErrorCodeEnum = "InternalServerError"
	BatchStatementErrorCodeEnumResourceNotFound                BatchStatementErrorCodeEnum = "ResourceNotFound"
	BatchStatementErrorCodeEnumAccessDenied                    BatchStatementErrorCodeEnum = "AccessDenied"
	BatchStatementErrorCodeEnumDuplicateItem                   BatchStatementErrorCodeEnum = "DuplicateItem"
)

type BillingMode string

const (
	BillingModeProvisioned   BillingMode = "PROVISIONED"
	BillingModePayPerRequest BillingMode = "PAY_PER_REQUEST"
)

type ComparisonOperator string

const (
	ComparisonOperatorEq          ComparisonOperator = "EQ"
	ComparisonOperatorNe          ComparisonOperator = "NE"
	ComparisonOperatorIn          ComparisonOperator = "IN"
	ComparisonOperatorLe          ComparisonOperator = "LE"
	ComparisonOperatorLt          ComparisonOperator = "LT"
	ComparisonOperatorGe          ComparisonOperator = "GE"
	ComparisonOperatorGt          ComparisonOperator = "GT"
	ComparisonOperatorBetween     ComparisonOperator = "BETWEEN"
	ComparisonOperatorNotNull     ComparisonOperator = "NOT_NULL"
	ComparisonOperatorNull        ComparisonOperator = "NULL"
	ComparisonOperatorContains    ComparisonOperator = "CONTAINS"
	ComparisonOperatorNotContains ComparisonOperator = "NOT_CONTAINS"
	ComparisonOperatorBeginsWith  ComparisonOperator = "BEGINS_WITH"
)

type ConditionalOperator string

const (
	ConditionalOperatorAnd ConditionalOperator = "AND"
	ConditionalOperatorOr  ConditionalOperator = "OR"
)

type IndexStatus string

const (
	IndexStatusCreating IndexStatus = "CREATING"
	IndexStatusUpdating IndexStatus = "UPDATING"
	IndexStatusDeleting IndexStatus = "DELETING"
	IndexStatusActive   IndexStatus = "ACTIVE"
)

type KeyType string

const (
	KeyTypeHash  KeyType = "HASH"
	KeyTypeRange KeyType = "RANGE"
)

type ProjectionType string

const (
	ProjectionTypeAll      ProjectionType = "ALL"
	ProjectionTypeKeysOnly ProjectionType = "KEYS_ONLY"
	ProjectionTypeInclude  ProjectionType = "INCLUDE"
)

type ReplicaStatus string

const (
	ReplicaStatusCreating                          ReplicaStatus = "CREATING"
	ReplicaStatusCreationFailed                    ReplicaStatus = "CREATION_FAILED"
	ReplicaStatusUpdating                          ReplicaStatus = "UPDATING"
	ReplicaStatusDeleting                          ReplicaStatus = "DELETING"
	ReplicaStatusActive                            ReplicaStatus = "ACTIVE"
	ReplicaStatusRegionDisabled                    ReplicaStatus = "REGION_DISABLED"
	ReplicaStatusInaccessibleEncryptionCredentials ReplicaStatus = "INACCESSIBLE_ENCRYPTION_CREDENTIALS"
)

type ReturnConsumedCapacity string

const (
	ReturnConsumedCapacityIndexes ReturnConsumedCapacity = "INDEXES"
	ReturnConsumedCapacityTotal   ReturnConsumedCapacity = "TOTAL"
	ReturnConsumedCapacityNone    ReturnConsumedCapacity = "NONE"
)

type ReturnItemCollectionMetrics string

const (
	ReturnItemCollectionMetricsSize ReturnItemCollectionMetrics = "SIZE"
	ReturnItemCollectionMetricsNone ReturnItemCollectionMetrics = "NONE"
)

type ReturnValue string

const (
	ReturnValueNone       ReturnValue = "NONE"
	ReturnValueAllOld     ReturnValue = "ALL_OLD"
	ReturnValueUpdatedOld ReturnValue = "UPDATED_OLD"
	ReturnValueAllNew     ReturnValue = "ALL_NEW"
	ReturnValueUpdatedNew ReturnValue = "UPDATED_NEW"
)

type ReturnValuesOnConditionCheckFailure string

const (
	ReturnValuesOnConditionCheckFailureAllOld ReturnValuesOnConditionCheckFailure = "ALL_OLD"
	ReturnValuesOnConditionCheckFailureNone   ReturnValuesOnConditionCheckFailure = "NONE"
)

type SSEStatus string

const (
	SSEStatusEnabling  SSEStatus = "ENABLING"
	SSEStatusEnabled   SSEStatus = "ENABLED"
	SSEStatusDisabling SSEStatus = "DISABLING"
	SSEStatusDisabled  SSEStatus = "DISABLED"
	SSEStatusUpdating  SSEStatus = "UPDATING"
)

type SSEType string

const (
	SSETypeAes256 SSEType = "AES256"
	SSETypeKms    SSEType = "KMS"
)

type ScalarAttributeType string

const (
	ScalarAttributeTypeS ScalarAttributeType = "S"
	ScalarAttributeTypeN ScalarAttributeType = "N"
	ScalarAttributeTypeB ScalarAttributeType = "B"
)

type Select string

const (
	SelectAllAttributes          Select = "ALL_ATTRIBUTES"
	SelectAllProjectedAttributes Select = "ALL_PROJECTED_ATTRIBUTES"
	SelectSpecificAttributes     Select = "SPECIFIC_ATTRIBUTES"
	SelectCount                  Select = "COUNT"
)

type StreamViewType string

const (
	StreamViewTypeNewImage        StreamViewType = "NEW_IMAGE"
	StreamViewTypeOldImage        StreamViewType = "OLD_IMAGE"
	StreamViewTypeNewAndOldImages StreamViewType = "NEW_AND_OLD_IMAGES"
	StreamViewTypeKeysOnly        StreamViewType = "KEYS_ONLY"
)

type TableClass string

const (
	TableClassStandard                 TableClass = "STANDARD"
	TableClassStandardInfrequentAccess TableClass = "STANDARD_INFREQUENT_ACCESS"
)

type TableStatus string

const (
	TableStatusCreating                          TableStatus = "CREATING"
	TableStatusUpdating                          TableStatus = "UPDATING"
	TableStatusDeleting                          TableStatus = "DELETING"
	TableStatusActive                            TableStatus = "ACTIVE"
	TableStatusInaccessibleEncryptionCredentials TableStatus = "INACCESSIBLE_ENCRYPTION_CREDENTIALS"
	TableStatusArchiving                         TableStatus = "ARCHIVING"
	TableStatusArchived                          TableStatus = "ARCHIVED"
)
