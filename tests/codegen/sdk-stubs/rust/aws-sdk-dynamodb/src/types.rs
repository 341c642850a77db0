//! Stand-in for aws_sdk_dynamodb::types: AttributeValue, the enums (From<&str>) and the
//! structures with their builders (in builders).
use std::collections::HashMap;

use crate::error::BuildError;
use crate::primitives::Blob;

#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AttributeValue {
    B(Blob),
    Bool(bool),
    Bs(Vec<Blob>),
    L(Vec<AttributeValue>),
    M(HashMap<String, AttributeValue>),
    N(String),
    Ns(Vec<String>),
    Null(bool),
    S(String),
    Ss(Vec<String>),
}

macro_rules! string_enum {
    ($($name:ident),* $(,)?) => {$(
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            Unknown(String),
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name::Unknown(s.to_owned())
            }
        }
    )*};
}

string_enum!(
    AttributeAction, BillingMode, ComparisonOperator, ConditionalOperator, KeyType,
    ProjectionType, ReturnConsumedCapacity, ReturnItemCollectionMetrics, ReturnValue,
    ReturnValuesOnConditionCheckFailure, ScalarAttributeType, Select, StreamViewType,
);

/// An item of TransactGetItems' output.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemResponse {
    item: Option<HashMap<String, AttributeValue>>,
}

impl ItemResponse {
    pub fn item(&self) -> Option<&HashMap<String, AttributeValue>> {
        self.item.as_ref()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ExpectedAttributeValue {
    _builder: builders::ExpectedAttributeValueBuilder,
}

impl ExpectedAttributeValue {
    pub fn builder() -> builders::ExpectedAttributeValueBuilder {
        builders::ExpectedAttributeValueBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    _builder: builders::ConditionBuilder,
}

impl Condition {
    pub fn builder() -> builders::ConditionBuilder {
        builders::ConditionBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct AttributeValueUpdate {
    _builder: builders::AttributeValueUpdateBuilder,
}

impl AttributeValueUpdate {
    pub fn builder() -> builders::AttributeValueUpdateBuilder {
        builders::AttributeValueUpdateBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct KeysAndAttributes {
    _builder: builders::KeysAndAttributesBuilder,
}

impl KeysAndAttributes {
    pub fn builder() -> builders::KeysAndAttributesBuilder {
        builders::KeysAndAttributesBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct PutRequest {
    _builder: builders::PutRequestBuilder,
}

impl PutRequest {
    pub fn builder() -> builders::PutRequestBuilder {
        builders::PutRequestBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct DeleteRequest {
    _builder: builders::DeleteRequestBuilder,
}

impl DeleteRequest {
    pub fn builder() -> builders::DeleteRequestBuilder {
        builders::DeleteRequestBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct WriteRequest {
    _builder: builders::WriteRequestBuilder,
}

impl WriteRequest {
    pub fn builder() -> builders::WriteRequestBuilder {
        builders::WriteRequestBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConditionCheck {
    _builder: builders::ConditionCheckBuilder,
}

impl ConditionCheck {
    pub fn builder() -> builders::ConditionCheckBuilder {
        builders::ConditionCheckBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Put {
    _builder: builders::PutBuilder,
}

impl Put {
    pub fn builder() -> builders::PutBuilder {
        builders::PutBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Delete {
    _builder: builders::DeleteBuilder,
}

impl Delete {
    pub fn builder() -> builders::DeleteBuilder {
        builders::DeleteBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Update {
    _builder: builders::UpdateBuilder,
}

impl Update {
    pub fn builder() -> builders::UpdateBuilder {
        builders::UpdateBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TransactWriteItem {
    _builder: builders::TransactWriteItemBuilder,
}

impl TransactWriteItem {
    pub fn builder() -> builders::TransactWriteItemBuilder {
        builders::TransactWriteItemBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Get {
    _builder: builders::GetBuilder,
}

impl Get {
    pub fn builder() -> builders::GetBuilder {
        builders::GetBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TransactGetItem {
    _builder: builders::TransactGetItemBuilder,
}

impl TransactGetItem {
    pub fn builder() -> builders::TransactGetItemBuilder {
        builders::TransactGetItemBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BatchStatementRequest {
    _builder: builders::BatchStatementRequestBuilder,
}

impl BatchStatementRequest {
    pub fn builder() -> builders::BatchStatementRequestBuilder {
        builders::BatchStatementRequestBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParameterizedStatement {
    _builder: builders::ParameterizedStatementBuilder,
}

impl ParameterizedStatement {
    pub fn builder() -> builders::ParameterizedStatementBuilder {
        builders::ParameterizedStatementBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct AttributeDefinition {
    _builder: builders::AttributeDefinitionBuilder,
}

impl AttributeDefinition {
    pub fn builder() -> builders::AttributeDefinitionBuilder {
        builders::AttributeDefinitionBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct KeySchemaElement {
    _builder: builders::KeySchemaElementBuilder,
}

impl KeySchemaElement {
    pub fn builder() -> builders::KeySchemaElementBuilder {
        builders::KeySchemaElementBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ProvisionedThroughput {
    _builder: builders::ProvisionedThroughputBuilder,
}

impl ProvisionedThroughput {
    pub fn builder() -> builders::ProvisionedThroughputBuilder {
        builders::ProvisionedThroughputBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Projection {
    _builder: builders::ProjectionBuilder,
}

impl Projection {
    pub fn builder() -> builders::ProjectionBuilder {
        builders::ProjectionBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct StreamSpecification {
    _builder: builders::StreamSpecificationBuilder,
}

impl StreamSpecification {
    pub fn builder() -> builders::StreamSpecificationBuilder {
        builders::StreamSpecificationBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GlobalSecondaryIndex {
    _builder: builders::GlobalSecondaryIndexBuilder,
}

impl GlobalSecondaryIndex {
    pub fn builder() -> builders::GlobalSecondaryIndexBuilder {
        builders::GlobalSecondaryIndexBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct LocalSecondaryIndex {
    _builder: builders::LocalSecondaryIndexBuilder,
}

impl LocalSecondaryIndex {
    pub fn builder() -> builders::LocalSecondaryIndexBuilder {
        builders::LocalSecondaryIndexBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct CreateGlobalSecondaryIndexAction {
    _builder: builders::CreateGlobalSecondaryIndexActionBuilder,
}

impl CreateGlobalSecondaryIndexAction {
    pub fn builder() -> builders::CreateGlobalSecondaryIndexActionBuilder {
        builders::CreateGlobalSecondaryIndexActionBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct UpdateGlobalSecondaryIndexAction {
    _builder: builders::UpdateGlobalSecondaryIndexActionBuilder,
}

impl UpdateGlobalSecondaryIndexAction {
    pub fn builder() -> builders::UpdateGlobalSecondaryIndexActionBuilder {
        builders::UpdateGlobalSecondaryIndexActionBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct DeleteGlobalSecondaryIndexAction {
    _builder: builders::DeleteGlobalSecondaryIndexActionBuilder,
}

impl DeleteGlobalSecondaryIndexAction {
    pub fn builder() -> builders::DeleteGlobalSecondaryIndexActionBuilder {
        builders::DeleteGlobalSecondaryIndexActionBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GlobalSecondaryIndexUpdate {
    _builder: builders::GlobalSecondaryIndexUpdateBuilder,
}

impl GlobalSecondaryIndexUpdate {
    pub fn builder() -> builders::GlobalSecondaryIndexUpdateBuilder {
        builders::GlobalSecondaryIndexUpdateBuilder::default()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TimeToLiveSpecification {
    _builder: builders::TimeToLiveSpecificationBuilder,
}

impl TimeToLiveSpecification {
    pub fn builder() -> builders::TimeToLiveSpecificationBuilder {
        builders::TimeToLiveSpecificationBuilder::default()
    }
}

pub mod builders {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct ExpectedAttributeValueBuilder {
        value: Option<AttributeValue>,
        exists: Option<bool>,
        comparison_operator: Option<ComparisonOperator>,
        attribute_value_list: Option<Vec<AttributeValue>>,
    }

    impl ExpectedAttributeValueBuilder {
        pub fn value(mut self, input: AttributeValue) -> Self {
            self.value = Some(input);
            self
        }
        pub fn set_value(mut self, input: Option<AttributeValue>) -> Self {
            self.value = input;
            self
        }
        pub fn get_value(&self) -> &Option<AttributeValue> {
            &self.value
        }
        pub fn exists(mut self, input: bool) -> Self {
            self.exists = Some(input);
            self
        }
        pub fn set_exists(mut self, input: Option<bool>) -> Self {
            self.exists = input;
            self
        }
        pub fn get_exists(&self) -> &Option<bool> {
            &self.exists
        }
        pub fn comparison_operator(mut self, input: ComparisonOperator) -> Self {
            self.comparison_operator = Some(input);
            self
        }
        pub fn set_comparison_operator(mut self, input: Option<ComparisonOperator>) -> Self {
            self.comparison_operator = input;
            self
        }
        pub fn get_comparison_operator(&self) -> &Option<ComparisonOperator> {
            &self.comparison_operator
        }
        pub fn attribute_value_list(mut self, input: AttributeValue) -> Self {
            self.attribute_value_list.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_attribute_value_list(mut self, input: Option<Vec<AttributeValue>>) -> Self {
            self.attribute_value_list = input;
            self
        }
        pub fn get_attribute_value_list(&self) -> &Option<Vec<AttributeValue>> {
            &self.attribute_value_list
        }
        pub fn build(self) -> ExpectedAttributeValue {
            ExpectedAttributeValue { _builder: self }
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct ConditionBuilder {
        attribute_value_list: Option<Vec<AttributeValue>>,
        comparison_operator: Option<ComparisonOperator>,
    }

    impl ConditionBuilder {
        pub fn attribute_value_list(mut self, input: AttributeValue) -> Self {
            self.attribute_value_list.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_attribute_value_list(mut self, input: Option<Vec<AttributeValue>>) -> Self {
            self.attribute_value_list = input;
            self
        }
        pub fn get_attribute_value_list(&self) -> &Option<Vec<AttributeValue>> {
            &self.attribute_value_list
        }
        pub fn comparison_operator(mut self, input: ComparisonOperator) -> Self {
            self.comparison_operator = Some(input);
            self
        }
        pub fn set_comparison_operator(mut self, input: Option<ComparisonOperator>) -> Self {
            self.comparison_operator = input;
            self
        }
        pub fn get_comparison_operator(&self) -> &Option<ComparisonOperator> {
            &self.comparison_operator
        }
        pub fn build(self) -> Result<Condition, BuildError> {
            Ok(Condition { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct AttributeValueUpdateBuilder {
        value: Option<AttributeValue>,
        action: Option<AttributeAction>,
    }

    impl AttributeValueUpdateBuilder {
        pub fn value(mut self, input: AttributeValue) -> Self {
            self.value = Some(input);
            self
        }
        pub fn set_value(mut self, input: Option<AttributeValue>) -> Self {
            self.value = input;
            self
        }
        pub fn get_value(&self) -> &Option<AttributeValue> {
            &self.value
        }
        pub fn action(mut self, input: AttributeAction) -> Self {
            self.action = Some(input);
            self
        }
        pub fn set_action(mut self, input: Option<AttributeAction>) -> Self {
            self.action = input;
            self
        }
        pub fn get_action(&self) -> &Option<AttributeAction> {
            &self.action
        }
        pub fn build(self) -> AttributeValueUpdate {
            AttributeValueUpdate { _builder: self }
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct KeysAndAttributesBuilder {
        keys: Option<Vec<HashMap<String, AttributeValue>>>,
        attributes_to_get: Option<Vec<String>>,
        consistent_read: Option<bool>,
        projection_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
    }

    impl KeysAndAttributesBuilder {
        pub fn keys(mut self, input: HashMap<String, AttributeValue>) -> Self {
            self.keys.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_keys(mut self, input: Option<Vec<HashMap<String, AttributeValue>>>) -> Self {
            self.keys = input;
            self
        }
        pub fn get_keys(&self) -> &Option<Vec<HashMap<String, AttributeValue>>> {
            &self.keys
        }
        pub fn attributes_to_get(mut self, input: impl Into<String>) -> Self {
            self.attributes_to_get.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_attributes_to_get(mut self, input: Option<Vec<String>>) -> Self {
            self.attributes_to_get = input;
            self
        }
        pub fn get_attributes_to_get(&self) -> &Option<Vec<String>> {
            &self.attributes_to_get
        }
        pub fn consistent_read(mut self, input: bool) -> Self {
            self.consistent_read = Some(input);
            self
        }
        pub fn set_consistent_read(mut self, input: Option<bool>) -> Self {
            self.consistent_read = input;
            self
        }
        pub fn get_consistent_read(&self) -> &Option<bool> {
            &self.consistent_read
        }
        pub fn projection_expression(mut self, input: impl Into<String>) -> Self {
            self.projection_expression = Some(input.into());
            self
        }
        pub fn set_projection_expression(mut self, input: Option<String>) -> Self {
            self.projection_expression = input;
            self
        }
        pub fn get_projection_expression(&self) -> &Option<String> {
            &self.projection_expression
        }
        pub fn expression_attribute_names(mut self, k: impl Into<String>, v: impl Into<String>) -> Self {
            self.expression_attribute_names.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expression_attribute_names(mut self, input: Option<HashMap<String, String>>) -> Self {
            self.expression_attribute_names = input;
            self
        }
        pub fn get_expression_attribute_names(&self) -> &Option<HashMap<String, String>> {
            &self.expression_attribute_names
        }
        pub fn build(self) -> Result<KeysAndAttributes, BuildError> {
            Ok(KeysAndAttributes { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct PutRequestBuilder {
        item: Option<HashMap<String, AttributeValue>>,
    }

    impl PutRequestBuilder {
        pub fn item(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.item.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_item(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.item = input;
            self
        }
        pub fn get_item(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.item
        }
        pub fn build(self) -> Result<PutRequest, BuildError> {
            Ok(PutRequest { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct DeleteRequestBuilder {
        key: Option<HashMap<String, AttributeValue>>,
    }

    impl DeleteRequestBuilder {
        pub fn key(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.key.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_key(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.key = input;
            self
        }
        pub fn get_key(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.key
        }
        pub fn build(self) -> Result<DeleteRequest, BuildError> {
            Ok(DeleteRequest { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct WriteRequestBuilder {
        put_request: Option<PutRequest>,
        delete_request: Option<DeleteRequest>,
    }

    impl WriteRequestBuilder {
        pub fn put_request(mut self, input: PutRequest) -> Self {
            self.put_request = Some(input);
            self
        }
        pub fn set_put_request(mut self, input: Option<PutRequest>) -> Self {
            self.put_request = input;
            self
        }
        pub fn get_put_request(&self) -> &Option<PutRequest> {
            &self.put_request
        }
        pub fn delete_request(mut self, input: DeleteRequest) -> Self {
            self.delete_request = Some(input);
            self
        }
        pub fn set_delete_request(mut self, input: Option<DeleteRequest>) -> Self {
            self.delete_request = input;
            self
        }
        pub fn get_delete_request(&self) -> &Option<DeleteRequest> {
            &self.delete_request
        }
        pub fn build(self) -> WriteRequest {
            WriteRequest { _builder: self }
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct ConditionCheckBuilder {
        key: Option<HashMap<String, AttributeValue>>,
        table_name: Option<String>,
        condition_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
        expression_attribute_values: Option<HashMap<String, AttributeValue>>,
        return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    }

    impl ConditionCheckBuilder {
        pub fn key(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.key.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_key(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.key = input;
            self
        }
        pub fn get_key(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.key
        }
        pub fn table_name(mut self, input: impl Into<String>) -> Self {
            self.table_name = Some(input.into());
            self
        }
        pub fn set_table_name(mut self, input: Option<String>) -> Self {
            self.table_name = input;
            self
        }
        pub fn get_table_name(&self) -> &Option<String> {
            &self.table_name
        }
        pub fn condition_expression(mut self, input: impl Into<String>) -> Self {
            self.condition_expression = Some(input.into());
            self
        }
        pub fn set_condition_expression(mut self, input: Option<String>) -> Self {
            self.condition_expression = input;
            self
        }
        pub fn get_condition_expression(&self) -> &Option<String> {
            &self.condition_expression
        }
        pub fn expression_attribute_names(mut self, k: impl Into<String>, v: impl Into<String>) -> Self {
            self.expression_attribute_names.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expression_attribute_names(mut self, input: Option<HashMap<String, String>>) -> Self {
            self.expression_attribute_names = input;
            self
        }
        pub fn get_expression_attribute_names(&self) -> &Option<HashMap<String, String>> {
            &self.expression_attribute_names
        }
        pub fn expression_attribute_values(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.expression_attribute_values.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expression_attribute_values(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.expression_attribute_values = input;
            self
        }
        pub fn get_expression_attribute_values(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.expression_attribute_values
        }
        pub fn return_values_on_condition_check_failure(mut self, input: ReturnValuesOnConditionCheckFailure) -> Self {
            self.return_values_on_condition_check_failure = Some(input);
            self
        }
        pub fn set_return_values_on_condition_check_failure(mut self, input: Option<ReturnValuesOnConditionCheckFailure>) -> Self {
            self.return_values_on_condition_check_failure = input;
            self
        }
        pub fn get_return_values_on_condition_check_failure(&self) -> &Option<ReturnValuesOnConditionCheckFailure> {
            &self.return_values_on_condition_check_failure
        }
        pub fn build(self) -> Result<ConditionCheck, BuildError> {
            Ok(ConditionCheck { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct PutBuilder {
        item: Option<HashMap<String, AttributeValue>>,
        table_name: Option<String>,
        condition_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
        expression_attribute_values: Option<HashMap<String, AttributeValue>>,
        return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    }

    impl PutBuilder {
        pub fn item(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.item.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_item(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.item = input;
            self
        }
        pub fn get_item(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.item
        }
        pub fn table_name(mut self, input: impl Into<String>) -> Self {
            self.table_name = Some(input.into());
            self
        }
        pub fn set_table_name(mut self, input: Option<String>) -> Self {
            self.table_name = input;
            self
        }
        pub fn get_table_name(&self) -> &Option<String> {
            &self.table_name
        }
        pub fn condition_expression(mut self, input: impl Into<String>) -> Self {
            self.condition_expression = Some(input.into());
            self
        }
        pub fn set_condition_expression(mut self, input: Option<String>) -> Self {
            self.condition_expression = input;
            self
        }
        pub fn get_condition_expression(&self) -> &Option<String> {
            &self.condition_expression
        }
        pub fn expression_attribute_names(mut self, k: impl Into<String>, v: impl Into<String>) -> Self {
            self.expression_attribute_names.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expression_attribute_names(mut self, input: Option<HashMap<String, String>>) -> Self {
            self.expression_attribute_names = input;
            self
        }
        pub fn get_expression_attribute_names(&self) -> &Option<HashMap<String, String>> {
            &self.expression_attribute_names
        }
        pub fn expression_attribute_values(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.expression_attribute_values.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expression_attribute_values(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.expression_attribute_values = input;
            self
        }
        pub fn get_expression_attribute_values(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.expression_attribute_values
        }
        pub fn return_values_on_condition_check_failure(mut self, input: ReturnValuesOnConditionCheckFailure) -> Self {
            self.return_values_on_condition_check_failure = Some(input);
            self
        }
        pub fn set_return_values_on_condition_check_failure(mut self, input: Option<ReturnValuesOnConditionCheckFailure>) -> Self {
            self.return_values_on_condition_check_failure = input;
            self
        }
        pub fn get_return_values_on_condition_check_failure(&self) -> &Option<ReturnValuesOnConditionCheckFailure> {
            &self.return_values_on_condition_check_failure
        }
        pub fn build(self) -> Result<Put, BuildError> {
            Ok(Put { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct DeleteBuilder {
        key: Option<HashMap<String, AttributeValue>>,
        table_name: Option<String>,
        condition_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
        expression_attribute_values: Option<HashMap<String, AttributeValue>>,
        return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    }

    impl DeleteBuilder {
        pub fn key(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.key.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_key(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.key = input;
            self
        }
        pub fn get_key(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.key
        }
        pub fn table_name(mut self, input: impl Into<String>) -> Self {
            self.table_name = Some(input.into());
            self
        }
        pub fn set_table_name(mut self, input: Option<String>) -> Self {
            self.table_name = input;
            self
        }
        pub fn get_table_name(&self) -> &Option<String> {
            &self.table_name
        }
        pub fn condition_expression(mut self, input: impl Into<String>) -> Self {
            self.condition_expression = Some(input.into());
            self
        }
        pub fn set_condition_expression(mut self, input: Option<String>) -> Self {
            self.condition_expression = input;
            self
        }
        pub fn get_condition_expression(&self) -> &Option<String> {
            &self.condition_expression
        }
        pub fn expression_attribute_names(mut self, k: impl Into<String>, v: impl Into<String>) -> Self {
            self.expression_attribute_names.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expression_attribute_names(mut self, input: Option<HashMap<String, String>>) -> Self {
            self.expression_attribute_names = input;
            self
        }
        pub fn get_expression_attribute_names(&self) -> &Option<HashMap<String, String>> {
            &self.expression_attribute_names
        }
        pub fn expression_attribute_values(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.expression_attribute_values.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expression_attribute_values(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.expression_attribute_values = input;
            self
        }
        pub fn get_expression_attribute_values(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.expression_attribute_values
        }
        pub fn return_values_on_condition_check_failure(mut self, input: ReturnValuesOnConditionCheckFailure) -> Self {
            self.return_values_on_condition_check_failure = Some(input);
            self
        }
        pub fn set_return_values_on_condition_check_failure(mut self, input: Option<ReturnValuesOnConditionCheckFailure>) -> Self {
            self.return_values_on_condition_check_failure = input;
            self
        }
        pub fn get_return_values_on_condition_check_failure(&self) -> &Option<ReturnValuesOnConditionCheckFailure> {
            &self.return_values_on_condition_check_failure
        }
        pub fn build(self) -> Result<Delete, BuildError> {
            Ok(Delete { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct UpdateBuilder {
        key: Option<HashMap<String, AttributeValue>>,
        update_expression: Option<String>,
        table_name: Option<String>,
        condition_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
        expression_attribute_values: Option<HashMap<String, AttributeValue>>,
        return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    }

    impl UpdateBuilder {
        pub fn key(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.key.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_key(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.key = input;
            self
        }
        pub fn get_key(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.key
        }
        pub fn update_expression(mut self, input: impl Into<String>) -> Self {
            self.update_expression = Some(input.into());
            self
        }
        pub fn set_update_expression(mut self, input: Option<String>) -> Self {
            self.update_expression = input;
            self
        }
        pub fn get_update_expression(&self) -> &Option<String> {
            &self.update_expression
        }
        pub fn table_name(mut self, input: impl Into<String>) -> Self {
            self.table_name = Some(input.into());
            self
        }
        pub fn set_table_name(mut self, input: Option<String>) -> Self {
            self.table_name = input;
            self
        }
        pub fn get_table_name(&self) -> &Option<String> {
            &self.table_name
        }
        pub fn condition_expression(mut self, input: impl Into<String>) -> Self {
            self.condition_expression = Some(input.into());
            self
        }
        pub fn set_condition_expression(mut self, input: Option<String>) -> Self {
            self.condition_expression = input;
            self
        }
        pub fn get_condition_expression(&self) -> &Option<String> {
            &self.condition_expression
        }
        pub fn expression_attribute_names(mut self, k: impl Into<String>, v: impl Into<String>) -> Self {
            self.expression_attribute_names.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expression_attribute_names(mut self, input: Option<HashMap<String, String>>) -> Self {
            self.expression_attribute_names = input;
            self
        }
        pub fn get_expression_attribute_names(&self) -> &Option<HashMap<String, String>> {
            &self.expression_attribute_names
        }
        pub fn expression_attribute_values(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.expression_attribute_values.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expression_attribute_values(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.expression_attribute_values = input;
            self
        }
        pub fn get_expression_attribute_values(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.expression_attribute_values
        }
        pub fn return_values_on_condition_check_failure(mut self, input: ReturnValuesOnConditionCheckFailure) -> Self {
            self.return_values_on_condition_check_failure = Some(input);
            self
        }
        pub fn set_return_values_on_condition_check_failure(mut self, input: Option<ReturnValuesOnConditionCheckFailure>) -> Self {
            self.return_values_on_condition_check_failure = input;
            self
        }
        pub fn get_return_values_on_condition_check_failure(&self) -> &Option<ReturnValuesOnConditionCheckFailure> {
            &self.return_values_on_condition_check_failure
        }
        pub fn build(self) -> Result<Update, BuildError> {
            Ok(Update { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct TransactWriteItemBuilder {
        condition_check: Option<ConditionCheck>,
        put: Option<Put>,
        delete: Option<Delete>,
        update: Option<Update>,
    }

    impl TransactWriteItemBuilder {
        pub fn condition_check(mut self, input: ConditionCheck) -> Self {
            self.condition_check = Some(input);
            self
        }
        pub fn set_condition_check(mut self, input: Option<ConditionCheck>) -> Self {
            self.condition_check = input;
            self
        }
        pub fn get_condition_check(&self) -> &Option<ConditionCheck> {
            &self.condition_check
        }
        pub fn put(mut self, input: Put) -> Self {
            self.put = Some(input);
            self
        }
        pub fn set_put(mut self, input: Option<Put>) -> Self {
            self.put = input;
            self
        }
        pub fn get_put(&self) -> &Option<Put> {
            &self.put
        }
        pub fn delete(mut self, input: Delete) -> Self {
            self.delete = Some(input);
            self
        }
        pub fn set_delete(mut self, input: Option<Delete>) -> Self {
            self.delete = input;
            self
        }
        pub fn get_delete(&self) -> &Option<Delete> {
            &self.delete
        }
        pub fn update(mut self, input: Update) -> Self {
            self.update = Some(input);
            self
        }
        pub fn set_update(mut self, input: Option<Update>) -> Self {
            self.update = input;
            self
        }
        pub fn get_update(&self) -> &Option<Update> {
            &self.update
        }
        pub fn build(self) -> TransactWriteItem {
            TransactWriteItem { _builder: self }
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct GetBuilder {
        key: Option<HashMap<String, AttributeValue>>,
        table_name: Option<String>,
        projection_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
    }

    impl GetBuilder {
        pub fn key(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.key.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_key(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.key = input;
            self
        }
        pub fn get_key(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.key
        }
        pub fn table_name(mut self, input: impl Into<String>) -> Self {
            self.table_name = Some(input.into());
            self
        }
        pub fn set_table_name(mut self, input: Option<String>) -> Self {
            self.table_name = input;
            self
        }
        pub fn get_table_name(&self) -> &Option<String> {
            &self.table_name
        }
        pub fn projection_expression(mut self, input: impl Into<String>) -> Self {
            self.projection_expression = Some(input.into());
            self
        }
        pub fn set_projection_expression(mut self, input: Option<String>) -> Self {
            self.projection_expression = input;
            self
        }
        pub fn get_projection_expression(&self) -> &Option<String> {
            &self.projection_expression
        }
        pub fn expression_attribute_names(mut self, k: impl Into<String>, v: impl Into<String>) -> Self {
            self.expression_attribute_names.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expression_attribute_names(mut self, input: Option<HashMap<String, String>>) -> Self {
            self.expression_attribute_names = input;
            self
        }
        pub fn get_expression_attribute_names(&self) -> &Option<HashMap<String, String>> {
            &self.expression_attribute_names
        }
        pub fn build(self) -> Result<Get, BuildError> {
            Ok(Get { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct TransactGetItemBuilder {
        get: Option<Get>,
    }

    impl TransactGetItemBuilder {
        pub fn get(mut self, input: Get) -> Self {
            self.get = Some(input);
            self
        }
        pub fn set_get(mut self, input: Option<Get>) -> Self {
            self.get = input;
            self
        }
        pub fn get_get(&self) -> &Option<Get> {
            &self.get
        }
        pub fn build(self) -> TransactGetItem {
            TransactGetItem { _builder: self }
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct BatchStatementRequestBuilder {
        statement: Option<String>,
        parameters: Option<Vec<AttributeValue>>,
        consistent_read: Option<bool>,
        return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    }

    impl BatchStatementRequestBuilder {
        pub fn statement(mut self, input: impl Into<String>) -> Self {
            self.statement = Some(input.into());
            self
        }
        pub fn set_statement(mut self, input: Option<String>) -> Self {
            self.statement = input;
            self
        }
        pub fn get_statement(&self) -> &Option<String> {
            &self.statement
        }
        pub fn parameters(mut self, input: AttributeValue) -> Self {
            self.parameters.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_parameters(mut self, input: Option<Vec<AttributeValue>>) -> Self {
            self.parameters = input;
            self
        }
        pub fn get_parameters(&self) -> &Option<Vec<AttributeValue>> {
            &self.parameters
        }
        pub fn consistent_read(mut self, input: bool) -> Self {
            self.consistent_read = Some(input);
            self
        }
        pub fn set_consistent_read(mut self, input: Option<bool>) -> Self {
            self.consistent_read = input;
            self
        }
        pub fn get_consistent_read(&self) -> &Option<bool> {
            &self.consistent_read
        }
        pub fn return_values_on_condition_check_failure(mut self, input: ReturnValuesOnConditionCheckFailure) -> Self {
            self.return_values_on_condition_check_failure = Some(input);
            self
        }
        pub fn set_return_values_on_condition_check_failure(mut self, input: Option<ReturnValuesOnConditionCheckFailure>) -> Self {
            self.return_values_on_condition_check_failure = input;
            self
        }
        pub fn get_return_values_on_condition_check_failure(&self) -> &Option<ReturnValuesOnConditionCheckFailure> {
            &self.return_values_on_condition_check_failure
        }
        pub fn build(self) -> Result<BatchStatementRequest, BuildError> {
            Ok(BatchStatementRequest { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct ParameterizedStatementBuilder {
        statement: Option<String>,
        parameters: Option<Vec<AttributeValue>>,
        return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    }

    impl ParameterizedStatementBuilder {
        pub fn statement(mut self, input: impl Into<String>) -> Self {
            self.statement = Some(input.into());
            self
        }
        pub fn set_statement(mut self, input: Option<String>) -> Self {
            self.statement = input;
            self
        }
        pub fn get_statement(&self) -> &Option<String> {
            &self.statement
        }
        pub fn parameters(mut self, input: AttributeValue) -> Self {
            self.parameters.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_parameters(mut self, input: Option<Vec<AttributeValue>>) -> Self {
            self.parameters = input;
            self
        }
        pub fn get_parameters(&self) -> &Option<Vec<AttributeValue>> {
            &self.parameters
        }
        pub fn return_values_on_condition_check_failure(mut self, input: ReturnValuesOnConditionCheckFailure) -> Self {
            self.return_values_on_condition_check_failure = Some(input);
            self
        }
        pub fn set_return_values_on_condition_check_failure(mut self, input: Option<ReturnValuesOnConditionCheckFailure>) -> Self {
            self.return_values_on_condition_check_failure = input;
            self
        }
        pub fn get_return_values_on_condition_check_failure(&self) -> &Option<ReturnValuesOnConditionCheckFailure> {
            &self.return_values_on_condition_check_failure
        }
        pub fn build(self) -> Result<ParameterizedStatement, BuildError> {
            Ok(ParameterizedStatement { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct AttributeDefinitionBuilder {
        attribute_name: Option<String>,
        attribute_type: Option<ScalarAttributeType>,
    }

    impl AttributeDefinitionBuilder {
        pub fn attribute_name(mut self, input: impl Into<String>) -> Self {
            self.attribute_name = Some(input.into());
            self
        }
        pub fn set_attribute_name(mut self, input: Option<String>) -> Self {
            self.attribute_name = input;
            self
        }
        pub fn get_attribute_name(&self) -> &Option<String> {
            &self.attribute_name
        }
        pub fn attribute_type(mut self, input: ScalarAttributeType) -> Self {
            self.attribute_type = Some(input);
            self
        }
        pub fn set_attribute_type(mut self, input: Option<ScalarAttributeType>) -> Self {
            self.attribute_type = input;
            self
        }
        pub fn get_attribute_type(&self) -> &Option<ScalarAttributeType> {
            &self.attribute_type
        }
        pub fn build(self) -> Result<AttributeDefinition, BuildError> {
            Ok(AttributeDefinition { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct KeySchemaElementBuilder {
        attribute_name: Option<String>,
        key_type: Option<KeyType>,
    }

    impl KeySchemaElementBuilder {
        pub fn attribute_name(mut self, input: impl Into<String>) -> Self {
            self.attribute_name = Some(input.into());
            self
        }
        pub fn set_attribute_name(mut self, input: Option<String>) -> Self {
            self.attribute_name = input;
            self
        }
        pub fn get_attribute_name(&self) -> &Option<String> {
            &self.attribute_name
        }
        pub fn key_type(mut self, input: KeyType) -> Self {
            self.key_type = Some(input);
            self
        }
        pub fn set_key_type(mut self, input: Option<KeyType>) -> Self {
            self.key_type = input;
            self
        }
        pub fn get_key_type(&self) -> &Option<KeyType> {
            &self.key_type
        }
        pub fn build(self) -> Result<KeySchemaElement, BuildError> {
            Ok(KeySchemaElement { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct ProvisionedThroughputBuilder {
        read_capacity_units: Option<i64>,
        write_capacity_units: Option<i64>,
    }

    impl ProvisionedThroughputBuilder {
        pub fn read_capacity_units(mut self, input: i64) -> Self {
            self.read_capacity_units = Some(input);
            self
        }
        pub fn set_read_capacity_units(mut self, input: Option<i64>) -> Self {
            self.read_capacity_units = input;
            self
        }
        pub fn get_read_capacity_units(&self) -> &Option<i64> {
            &self.read_capacity_units
        }
        pub fn write_capacity_units(mut self, input: i64) -> Self {
            self.write_capacity_units = Some(input);
            self
        }
        pub fn set_write_capacity_units(mut self, input: Option<i64>) -> Self {
            self.write_capacity_units = input;
            self
        }
        pub fn get_write_capacity_units(&self) -> &Option<i64> {
            &self.write_capacity_units
        }
        pub fn build(self) -> Result<ProvisionedThroughput, BuildError> {
            Ok(ProvisionedThroughput { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct ProjectionBuilder {
        projection_type: Option<ProjectionType>,
        non_key_attributes: Option<Vec<String>>,
    }

    impl ProjectionBuilder {
        pub fn projection_type(mut self, input: ProjectionType) -> Self {
            self.projection_type = Some(input);
            self
        }
        pub fn set_projection_type(mut self, input: Option<ProjectionType>) -> Self {
            self.projection_type = input;
            self
        }
        pub fn get_projection_type(&self) -> &Option<ProjectionType> {
            &self.projection_type
        }
        pub fn non_key_attributes(mut self, input: impl Into<String>) -> Self {
            self.non_key_attributes.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_non_key_attributes(mut self, input: Option<Vec<String>>) -> Self {
            self.non_key_attributes = input;
            self
        }
        pub fn get_non_key_attributes(&self) -> &Option<Vec<String>> {
            &self.non_key_attributes
        }
        pub fn build(self) -> Projection {
            Projection { _builder: self }
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct StreamSpecificationBuilder {
        stream_enabled: Option<bool>,
        stream_view_type: Option<StreamViewType>,
    }

    impl StreamSpecificationBuilder {
        pub fn stream_enabled(mut self, input: bool) -> Self {
            self.stream_enabled = Some(input);
            self
        }
        pub fn set_stream_enabled(mut self, input: Option<bool>) -> Self {
            self.stream_enabled = input;
            self
        }
        pub fn get_stream_enabled(&self) -> &Option<bool> {
            &self.stream_enabled
        }
        pub fn stream_view_type(mut self, input: StreamViewType) -> Self {
            self.stream_view_type = Some(input);
            self
        }
        pub fn set_stream_view_type(mut self, input: Option<StreamViewType>) -> Self {
            self.stream_view_type = input;
            self
        }
        pub fn get_stream_view_type(&self) -> &Option<StreamViewType> {
            &self.stream_view_type
        }
        pub fn build(self) -> Result<StreamSpecification, BuildError> {
            Ok(StreamSpecification { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct GlobalSecondaryIndexBuilder {
        index_name: Option<String>,
        key_schema: Option<Vec<KeySchemaElement>>,
        projection: Option<Projection>,
        provisioned_throughput: Option<ProvisionedThroughput>,
    }

    impl GlobalSecondaryIndexBuilder {
        pub fn index_name(mut self, input: impl Into<String>) -> Self {
            self.index_name = Some(input.into());
            self
        }
        pub fn set_index_name(mut self, input: Option<String>) -> Self {
            self.index_name = input;
            self
        }
        pub fn get_index_name(&self) -> &Option<String> {
            &self.index_name
        }
        pub fn key_schema(mut self, input: KeySchemaElement) -> Self {
            self.key_schema.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_key_schema(mut self, input: Option<Vec<KeySchemaElement>>) -> Self {
            self.key_schema = input;
            self
        }
        pub fn get_key_schema(&self) -> &Option<Vec<KeySchemaElement>> {
            &self.key_schema
        }
        pub fn projection(mut self, input: Projection) -> Self {
            self.projection = Some(input);
            self
        }
        pub fn set_projection(mut self, input: Option<Projection>) -> Self {
            self.projection = input;
            self
        }
        pub fn get_projection(&self) -> &Option<Projection> {
            &self.projection
        }
        pub fn provisioned_throughput(mut self, input: ProvisionedThroughput) -> Self {
            self.provisioned_throughput = Some(input);
            self
        }
        pub fn set_provisioned_throughput(mut self, input: Option<ProvisionedThroughput>) -> Self {
            self.provisioned_throughput = input;
            self
        }
        pub fn get_provisioned_throughput(&self) -> &Option<ProvisionedThroughput> {
            &self.provisioned_throughput
        }
        pub fn build(self) -> Result<GlobalSecondaryIndex, BuildError> {
            Ok(GlobalSecondaryIndex { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct LocalSecondaryIndexBuilder {
        index_name: Option<String>,
        key_schema: Option<Vec<KeySchemaElement>>,
        projection: Option<Projection>,
    }

    impl LocalSecondaryIndexBuilder {
        pub fn index_name(mut self, input: impl Into<String>) -> Self {
            self.index_name = Some(input.into());
            self
        }
        pub fn set_index_name(mut self, input: Option<String>) -> Self {
            self.index_name = input;
            self
        }
        pub fn get_index_name(&self) -> &Option<String> {
            &self.index_name
        }
        pub fn key_schema(mut self, input: KeySchemaElement) -> Self {
            self.key_schema.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_key_schema(mut self, input: Option<Vec<KeySchemaElement>>) -> Self {
            self.key_schema = input;
            self
        }
        pub fn get_key_schema(&self) -> &Option<Vec<KeySchemaElement>> {
            &self.key_schema
        }
        pub fn projection(mut self, input: Projection) -> Self {
            self.projection = Some(input);
            self
        }
        pub fn set_projection(mut self, input: Option<Projection>) -> Self {
            self.projection = input;
            self
        }
        pub fn get_projection(&self) -> &Option<Projection> {
            &self.projection
        }
        pub fn build(self) -> Result<LocalSecondaryIndex, BuildError> {
            Ok(LocalSecondaryIndex { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct CreateGlobalSecondaryIndexActionBuilder {
        index_name: Option<String>,
        key_schema: Option<Vec<KeySchemaElement>>,
        projection: Option<Projection>,
        provisioned_throughput: Option<ProvisionedThroughput>,
    }

    impl CreateGlobalSecondaryIndexActionBuilder {
        pub fn index_name(mut self, input: impl Into<String>) -> Self {
            self.index_name = Some(input.into());
            self
        }
        pub fn set_index_name(mut self, input: Option<String>) -> Self {
            self.index_name = input;
            self
        }
        pub fn get_index_name(&self) -> &Option<String> {
            &self.index_name
        }
        pub fn key_schema(mut self, input: KeySchemaElement) -> Self {
            self.key_schema.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_key_schema(mut self, input: Option<Vec<KeySchemaElement>>) -> Self {
            self.key_schema = input;
            self
        }
        pub fn get_key_schema(&self) -> &Option<Vec<KeySchemaElement>> {
            &self.key_schema
        }
        pub fn projection(mut self, input: Projection) -> Self {
            self.projection = Some(input);
            self
        }
        pub fn set_projection(mut self, input: Option<Projection>) -> Self {
            self.projection = input;
            self
        }
        pub fn get_projection(&self) -> &Option<Projection> {
            &self.projection
        }
        pub fn provisioned_throughput(mut self, input: ProvisionedThroughput) -> Self {
            self.provisioned_throughput = Some(input);
            self
        }
        pub fn set_provisioned_throughput(mut self, input: Option<ProvisionedThroughput>) -> Self {
            self.provisioned_throughput = input;
            self
        }
        pub fn get_provisioned_throughput(&self) -> &Option<ProvisionedThroughput> {
            &self.provisioned_throughput
        }
        pub fn build(self) -> Result<CreateGlobalSecondaryIndexAction, BuildError> {
            Ok(CreateGlobalSecondaryIndexAction { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct UpdateGlobalSecondaryIndexActionBuilder {
        index_name: Option<String>,
        provisioned_throughput: Option<ProvisionedThroughput>,
    }

    impl UpdateGlobalSecondaryIndexActionBuilder {
        pub fn index_name(mut self, input: impl Into<String>) -> Self {
            self.index_name = Some(input.into());
            self
        }
        pub fn set_index_name(mut self, input: Option<String>) -> Self {
            self.index_name = input;
            self
        }
        pub fn get_index_name(&self) -> &Option<String> {
            &self.index_name
        }
        pub fn provisioned_throughput(mut self, input: ProvisionedThroughput) -> Self {
            self.provisioned_throughput = Some(input);
            self
        }
        pub fn set_provisioned_throughput(mut self, input: Option<ProvisionedThroughput>) -> Self {
            self.provisioned_throughput = input;
            self
        }
        pub fn get_provisioned_throughput(&self) -> &Option<ProvisionedThroughput> {
            &self.provisioned_throughput
        }
        pub fn build(self) -> Result<UpdateGlobalSecondaryIndexAction, BuildError> {
            Ok(UpdateGlobalSecondaryIndexAction { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct DeleteGlobalSecondaryIndexActionBuilder {
        index_name: Option<String>,
    }

    impl DeleteGlobalSecondaryIndexActionBuilder {
        pub fn index_name(mut self, input: impl Into<String>) -> Self {
            self.index_name = Some(input.into());
            self
        }
        pub fn set_index_name(mut self, input: Option<String>) -> Self {
            self.index_name = input;
            self
        }
        pub fn get_index_name(&self) -> &Option<String> {
            &self.index_name
        }
        pub fn build(self) -> Result<DeleteGlobalSecondaryIndexAction, BuildError> {
            Ok(DeleteGlobalSecondaryIndexAction { _builder: self })
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct GlobalSecondaryIndexUpdateBuilder {
        update: Option<UpdateGlobalSecondaryIndexAction>,
        create: Option<CreateGlobalSecondaryIndexAction>,
        delete: Option<DeleteGlobalSecondaryIndexAction>,
    }

    impl GlobalSecondaryIndexUpdateBuilder {
        pub fn update(mut self, input: UpdateGlobalSecondaryIndexAction) -> Self {
            self.update = Some(input);
            self
        }
        pub fn set_update(mut self, input: Option<UpdateGlobalSecondaryIndexAction>) -> Self {
            self.update = input;
            self
        }
        pub fn get_update(&self) -> &Option<UpdateGlobalSecondaryIndexAction> {
            &self.update
        }
        pub fn create(mut self, input: CreateGlobalSecondaryIndexAction) -> Self {
            self.create = Some(input);
            self
        }
        pub fn set_create(mut self, input: Option<CreateGlobalSecondaryIndexAction>) -> Self {
            self.create = input;
            self
        }
        pub fn get_create(&self) -> &Option<CreateGlobalSecondaryIndexAction> {
            &self.create
        }
        pub fn delete(mut self, input: DeleteGlobalSecondaryIndexAction) -> Self {
            self.delete = Some(input);
            self
        }
        pub fn set_delete(mut self, input: Option<DeleteGlobalSecondaryIndexAction>) -> Self {
            self.delete = input;
            self
        }
        pub fn get_delete(&self) -> &Option<DeleteGlobalSecondaryIndexAction> {
            &self.delete
        }
        pub fn build(self) -> GlobalSecondaryIndexUpdate {
            GlobalSecondaryIndexUpdate { _builder: self }
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct TimeToLiveSpecificationBuilder {
        enabled: Option<bool>,
        attribute_name: Option<String>,
    }

    impl TimeToLiveSpecificationBuilder {
        pub fn enabled(mut self, input: bool) -> Self {
            self.enabled = Some(input);
            self
        }
        pub fn set_enabled(mut self, input: Option<bool>) -> Self {
            self.enabled = input;
            self
        }
        pub fn get_enabled(&self) -> &Option<bool> {
            &self.enabled
        }
        pub fn attribute_name(mut self, input: impl Into<String>) -> Self {
            self.attribute_name = Some(input.into());
            self
        }
        pub fn set_attribute_name(mut self, input: Option<String>) -> Self {
            self.attribute_name = input;
            self
        }
        pub fn get_attribute_name(&self) -> &Option<String> {
            &self.attribute_name
        }
        pub fn build(self) -> Result<TimeToLiveSpecification, BuildError> {
            Ok(TimeToLiveSpecification { _builder: self })
        }
    }
}
