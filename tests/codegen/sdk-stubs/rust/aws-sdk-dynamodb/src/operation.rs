//! Stand-in for aws_sdk_dynamodb::operation: per operation its fluent builder (Clone; setters,
//! set_x and get_x; send), error and output (the accessors the programs read).
use std::collections::HashMap;

use crate::config::HttpResponse;
use crate::error::SdkError;
use crate::types::*;
use crate::Client;

/// An output with these members, each read by an accessor: Option<&T> for structures and maps,
/// a slice for lists, the value for numbers, &str for strings.
macro_rules! output {
    ($name:ident { $($kind:ident $field:ident : $t:ty),* $(,)? }) => {
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $($field: output!(@field $kind $t),)*
        }

        impl $name {
            $(output!(@get $kind $field $t);)*
        }
    };
    (@field opt $t:ty) => { Option<$t> };
    (@field list $t:ty) => { Option<Vec<$t>> };
    (@field num $t:ty) => { $t };
    (@field str $t:ty) => { Option<String> };
    (@get opt $f:ident $t:ty) => { pub fn $f(&self) -> Option<&$t> { self.$f.as_ref() } };
    (@get list $f:ident $t:ty) => { pub fn $f(&self) -> &[$t] { self.$f.as_deref().unwrap_or_default() } };
    (@get num $f:ident $t:ty) => { pub fn $f(&self) -> $t { self.$f } };
    (@get str $f:ident $t:ty) => { pub fn $f(&self) -> Option<&str> { self.$f.as_deref() } };
}

type Item = HashMap<String, AttributeValue>;

output!(GetItemOutput { opt item: Item });
output!(PutItemOutput { opt attributes: Item });
output!(UpdateItemOutput { opt attributes: Item });
output!(DeleteItemOutput { opt attributes: Item });
output!(QueryOutput { list items: Item, num count: i32, num scanned_count: i32, opt last_evaluated_key: Item });
output!(ScanOutput { list items: Item, num count: i32, num scanned_count: i32, opt last_evaluated_key: Item });
output!(BatchGetItemOutput { opt responses: HashMap<String, Vec<Item>>, opt unprocessed_keys: HashMap<String, KeysAndAttributes> });
output!(BatchWriteItemOutput { opt unprocessed_items: HashMap<String, Vec<WriteRequest>> });
output!(TransactWriteItemsOutput {});
output!(TransactGetItemsOutput { list responses: ItemResponse });
output!(ExecuteStatementOutput { list items: Item, str next_token: String, opt last_evaluated_key: Item });
output!(BatchExecuteStatementOutput {});
output!(ExecuteTransactionOutput { list responses: ItemResponse });
output!(CreateTableOutput {});
output!(UpdateTableOutput {});
output!(UpdateTimeToLiveOutput { opt time_to_live_specification: TimeToLiveSpecification });
output!(DeleteTableOutput {});

/// The fluent builder of GetItem and its output.
pub mod get_item {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct GetItemFluentBuilder {
        _client: Client,
        table_name: Option<String>,
        key: Option<HashMap<String, AttributeValue>>,
        attributes_to_get: Option<Vec<String>>,
        consistent_read: Option<bool>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
        projection_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
    }

    impl GetItemFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, table_name: None, key: None, attributes_to_get: None, consistent_read: None, return_consumed_capacity: None, projection_expression: None, expression_attribute_names: None }
        }

        pub async fn send(self) -> Result<super::GetItemOutput, SdkError<GetItemError, HttpResponse>> {
            Err(SdkError::unreachable())
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
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
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
    }

    #[derive(Debug)]
    pub struct GetItemError;

    impl std::fmt::Display for GetItemError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("GetItemError")
        }
    }

    impl std::error::Error for GetItemError {}

    impl From<SdkError<GetItemError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<GetItemError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of PutItem and its output.
pub mod put_item {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct PutItemFluentBuilder {
        _client: Client,
        table_name: Option<String>,
        item: Option<HashMap<String, AttributeValue>>,
        expected: Option<HashMap<String, ExpectedAttributeValue>>,
        return_values: Option<ReturnValue>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
        return_item_collection_metrics: Option<ReturnItemCollectionMetrics>,
        conditional_operator: Option<ConditionalOperator>,
        condition_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
        expression_attribute_values: Option<HashMap<String, AttributeValue>>,
        return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    }

    impl PutItemFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, table_name: None, item: None, expected: None, return_values: None, return_consumed_capacity: None, return_item_collection_metrics: None, conditional_operator: None, condition_expression: None, expression_attribute_names: None, expression_attribute_values: None, return_values_on_condition_check_failure: None }
        }

        pub async fn send(self) -> Result<super::PutItemOutput, SdkError<PutItemError, HttpResponse>> {
            Err(SdkError::unreachable())
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
        pub fn expected(mut self, k: impl Into<String>, v: ExpectedAttributeValue) -> Self {
            self.expected.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expected(mut self, input: Option<HashMap<String, ExpectedAttributeValue>>) -> Self {
            self.expected = input;
            self
        }
        pub fn get_expected(&self) -> &Option<HashMap<String, ExpectedAttributeValue>> {
            &self.expected
        }
        pub fn return_values(mut self, input: ReturnValue) -> Self {
            self.return_values = Some(input);
            self
        }
        pub fn set_return_values(mut self, input: Option<ReturnValue>) -> Self {
            self.return_values = input;
            self
        }
        pub fn get_return_values(&self) -> &Option<ReturnValue> {
            &self.return_values
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
        pub fn return_item_collection_metrics(mut self, input: ReturnItemCollectionMetrics) -> Self {
            self.return_item_collection_metrics = Some(input);
            self
        }
        pub fn set_return_item_collection_metrics(mut self, input: Option<ReturnItemCollectionMetrics>) -> Self {
            self.return_item_collection_metrics = input;
            self
        }
        pub fn get_return_item_collection_metrics(&self) -> &Option<ReturnItemCollectionMetrics> {
            &self.return_item_collection_metrics
        }
        pub fn conditional_operator(mut self, input: ConditionalOperator) -> Self {
            self.conditional_operator = Some(input);
            self
        }
        pub fn set_conditional_operator(mut self, input: Option<ConditionalOperator>) -> Self {
            self.conditional_operator = input;
            self
        }
        pub fn get_conditional_operator(&self) -> &Option<ConditionalOperator> {
            &self.conditional_operator
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
    }

    #[derive(Debug)]
    pub struct PutItemError;

    impl std::fmt::Display for PutItemError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("PutItemError")
        }
    }

    impl std::error::Error for PutItemError {}

    impl From<SdkError<PutItemError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<PutItemError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of UpdateItem and its output.
pub mod update_item {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct UpdateItemFluentBuilder {
        _client: Client,
        table_name: Option<String>,
        key: Option<HashMap<String, AttributeValue>>,
        attribute_updates: Option<HashMap<String, AttributeValueUpdate>>,
        expected: Option<HashMap<String, ExpectedAttributeValue>>,
        conditional_operator: Option<ConditionalOperator>,
        return_values: Option<ReturnValue>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
        return_item_collection_metrics: Option<ReturnItemCollectionMetrics>,
        update_expression: Option<String>,
        condition_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
        expression_attribute_values: Option<HashMap<String, AttributeValue>>,
        return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    }

    impl UpdateItemFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, table_name: None, key: None, attribute_updates: None, expected: None, conditional_operator: None, return_values: None, return_consumed_capacity: None, return_item_collection_metrics: None, update_expression: None, condition_expression: None, expression_attribute_names: None, expression_attribute_values: None, return_values_on_condition_check_failure: None }
        }

        pub async fn send(self) -> Result<super::UpdateItemOutput, SdkError<UpdateItemError, HttpResponse>> {
            Err(SdkError::unreachable())
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
        pub fn attribute_updates(mut self, k: impl Into<String>, v: AttributeValueUpdate) -> Self {
            self.attribute_updates.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_attribute_updates(mut self, input: Option<HashMap<String, AttributeValueUpdate>>) -> Self {
            self.attribute_updates = input;
            self
        }
        pub fn get_attribute_updates(&self) -> &Option<HashMap<String, AttributeValueUpdate>> {
            &self.attribute_updates
        }
        pub fn expected(mut self, k: impl Into<String>, v: ExpectedAttributeValue) -> Self {
            self.expected.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expected(mut self, input: Option<HashMap<String, ExpectedAttributeValue>>) -> Self {
            self.expected = input;
            self
        }
        pub fn get_expected(&self) -> &Option<HashMap<String, ExpectedAttributeValue>> {
            &self.expected
        }
        pub fn conditional_operator(mut self, input: ConditionalOperator) -> Self {
            self.conditional_operator = Some(input);
            self
        }
        pub fn set_conditional_operator(mut self, input: Option<ConditionalOperator>) -> Self {
            self.conditional_operator = input;
            self
        }
        pub fn get_conditional_operator(&self) -> &Option<ConditionalOperator> {
            &self.conditional_operator
        }
        pub fn return_values(mut self, input: ReturnValue) -> Self {
            self.return_values = Some(input);
            self
        }
        pub fn set_return_values(mut self, input: Option<ReturnValue>) -> Self {
            self.return_values = input;
            self
        }
        pub fn get_return_values(&self) -> &Option<ReturnValue> {
            &self.return_values
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
        pub fn return_item_collection_metrics(mut self, input: ReturnItemCollectionMetrics) -> Self {
            self.return_item_collection_metrics = Some(input);
            self
        }
        pub fn set_return_item_collection_metrics(mut self, input: Option<ReturnItemCollectionMetrics>) -> Self {
            self.return_item_collection_metrics = input;
            self
        }
        pub fn get_return_item_collection_metrics(&self) -> &Option<ReturnItemCollectionMetrics> {
            &self.return_item_collection_metrics
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
    }

    #[derive(Debug)]
    pub struct UpdateItemError;

    impl std::fmt::Display for UpdateItemError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("UpdateItemError")
        }
    }

    impl std::error::Error for UpdateItemError {}

    impl From<SdkError<UpdateItemError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<UpdateItemError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of DeleteItem and its output.
pub mod delete_item {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct DeleteItemFluentBuilder {
        _client: Client,
        table_name: Option<String>,
        key: Option<HashMap<String, AttributeValue>>,
        expected: Option<HashMap<String, ExpectedAttributeValue>>,
        conditional_operator: Option<ConditionalOperator>,
        return_values: Option<ReturnValue>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
        return_item_collection_metrics: Option<ReturnItemCollectionMetrics>,
        condition_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
        expression_attribute_values: Option<HashMap<String, AttributeValue>>,
        return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    }

    impl DeleteItemFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, table_name: None, key: None, expected: None, conditional_operator: None, return_values: None, return_consumed_capacity: None, return_item_collection_metrics: None, condition_expression: None, expression_attribute_names: None, expression_attribute_values: None, return_values_on_condition_check_failure: None }
        }

        pub async fn send(self) -> Result<super::DeleteItemOutput, SdkError<DeleteItemError, HttpResponse>> {
            Err(SdkError::unreachable())
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
        pub fn expected(mut self, k: impl Into<String>, v: ExpectedAttributeValue) -> Self {
            self.expected.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_expected(mut self, input: Option<HashMap<String, ExpectedAttributeValue>>) -> Self {
            self.expected = input;
            self
        }
        pub fn get_expected(&self) -> &Option<HashMap<String, ExpectedAttributeValue>> {
            &self.expected
        }
        pub fn conditional_operator(mut self, input: ConditionalOperator) -> Self {
            self.conditional_operator = Some(input);
            self
        }
        pub fn set_conditional_operator(mut self, input: Option<ConditionalOperator>) -> Self {
            self.conditional_operator = input;
            self
        }
        pub fn get_conditional_operator(&self) -> &Option<ConditionalOperator> {
            &self.conditional_operator
        }
        pub fn return_values(mut self, input: ReturnValue) -> Self {
            self.return_values = Some(input);
            self
        }
        pub fn set_return_values(mut self, input: Option<ReturnValue>) -> Self {
            self.return_values = input;
            self
        }
        pub fn get_return_values(&self) -> &Option<ReturnValue> {
            &self.return_values
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
        pub fn return_item_collection_metrics(mut self, input: ReturnItemCollectionMetrics) -> Self {
            self.return_item_collection_metrics = Some(input);
            self
        }
        pub fn set_return_item_collection_metrics(mut self, input: Option<ReturnItemCollectionMetrics>) -> Self {
            self.return_item_collection_metrics = input;
            self
        }
        pub fn get_return_item_collection_metrics(&self) -> &Option<ReturnItemCollectionMetrics> {
            &self.return_item_collection_metrics
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
    }

    #[derive(Debug)]
    pub struct DeleteItemError;

    impl std::fmt::Display for DeleteItemError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("DeleteItemError")
        }
    }

    impl std::error::Error for DeleteItemError {}

    impl From<SdkError<DeleteItemError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<DeleteItemError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of Query and its output.
pub mod query {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct QueryFluentBuilder {
        _client: Client,
        table_name: Option<String>,
        index_name: Option<String>,
        select: Option<Select>,
        attributes_to_get: Option<Vec<String>>,
        limit: Option<i32>,
        consistent_read: Option<bool>,
        key_conditions: Option<HashMap<String, Condition>>,
        query_filter: Option<HashMap<String, Condition>>,
        conditional_operator: Option<ConditionalOperator>,
        scan_index_forward: Option<bool>,
        exclusive_start_key: Option<HashMap<String, AttributeValue>>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
        projection_expression: Option<String>,
        filter_expression: Option<String>,
        key_condition_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
        expression_attribute_values: Option<HashMap<String, AttributeValue>>,
    }

    impl QueryFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, table_name: None, index_name: None, select: None, attributes_to_get: None, limit: None, consistent_read: None, key_conditions: None, query_filter: None, conditional_operator: None, scan_index_forward: None, exclusive_start_key: None, return_consumed_capacity: None, projection_expression: None, filter_expression: None, key_condition_expression: None, expression_attribute_names: None, expression_attribute_values: None }
        }

        pub async fn send(self) -> Result<super::QueryOutput, SdkError<QueryError, HttpResponse>> {
            Err(SdkError::unreachable())
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
        pub fn select(mut self, input: Select) -> Self {
            self.select = Some(input);
            self
        }
        pub fn set_select(mut self, input: Option<Select>) -> Self {
            self.select = input;
            self
        }
        pub fn get_select(&self) -> &Option<Select> {
            &self.select
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
        pub fn limit(mut self, input: i32) -> Self {
            self.limit = Some(input);
            self
        }
        pub fn set_limit(mut self, input: Option<i32>) -> Self {
            self.limit = input;
            self
        }
        pub fn get_limit(&self) -> &Option<i32> {
            &self.limit
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
        pub fn key_conditions(mut self, k: impl Into<String>, v: Condition) -> Self {
            self.key_conditions.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_key_conditions(mut self, input: Option<HashMap<String, Condition>>) -> Self {
            self.key_conditions = input;
            self
        }
        pub fn get_key_conditions(&self) -> &Option<HashMap<String, Condition>> {
            &self.key_conditions
        }
        pub fn query_filter(mut self, k: impl Into<String>, v: Condition) -> Self {
            self.query_filter.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_query_filter(mut self, input: Option<HashMap<String, Condition>>) -> Self {
            self.query_filter = input;
            self
        }
        pub fn get_query_filter(&self) -> &Option<HashMap<String, Condition>> {
            &self.query_filter
        }
        pub fn conditional_operator(mut self, input: ConditionalOperator) -> Self {
            self.conditional_operator = Some(input);
            self
        }
        pub fn set_conditional_operator(mut self, input: Option<ConditionalOperator>) -> Self {
            self.conditional_operator = input;
            self
        }
        pub fn get_conditional_operator(&self) -> &Option<ConditionalOperator> {
            &self.conditional_operator
        }
        pub fn scan_index_forward(mut self, input: bool) -> Self {
            self.scan_index_forward = Some(input);
            self
        }
        pub fn set_scan_index_forward(mut self, input: Option<bool>) -> Self {
            self.scan_index_forward = input;
            self
        }
        pub fn get_scan_index_forward(&self) -> &Option<bool> {
            &self.scan_index_forward
        }
        pub fn exclusive_start_key(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.exclusive_start_key.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_exclusive_start_key(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.exclusive_start_key = input;
            self
        }
        pub fn get_exclusive_start_key(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.exclusive_start_key
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
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
        pub fn filter_expression(mut self, input: impl Into<String>) -> Self {
            self.filter_expression = Some(input.into());
            self
        }
        pub fn set_filter_expression(mut self, input: Option<String>) -> Self {
            self.filter_expression = input;
            self
        }
        pub fn get_filter_expression(&self) -> &Option<String> {
            &self.filter_expression
        }
        pub fn key_condition_expression(mut self, input: impl Into<String>) -> Self {
            self.key_condition_expression = Some(input.into());
            self
        }
        pub fn set_key_condition_expression(mut self, input: Option<String>) -> Self {
            self.key_condition_expression = input;
            self
        }
        pub fn get_key_condition_expression(&self) -> &Option<String> {
            &self.key_condition_expression
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
    }

    #[derive(Debug)]
    pub struct QueryError;

    impl std::fmt::Display for QueryError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("QueryError")
        }
    }

    impl std::error::Error for QueryError {}

    impl From<SdkError<QueryError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<QueryError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of Scan and its output.
pub mod scan {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct ScanFluentBuilder {
        _client: Client,
        table_name: Option<String>,
        index_name: Option<String>,
        attributes_to_get: Option<Vec<String>>,
        limit: Option<i32>,
        select: Option<Select>,
        scan_filter: Option<HashMap<String, Condition>>,
        conditional_operator: Option<ConditionalOperator>,
        exclusive_start_key: Option<HashMap<String, AttributeValue>>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
        total_segments: Option<i32>,
        segment: Option<i32>,
        projection_expression: Option<String>,
        filter_expression: Option<String>,
        expression_attribute_names: Option<HashMap<String, String>>,
        expression_attribute_values: Option<HashMap<String, AttributeValue>>,
        consistent_read: Option<bool>,
    }

    impl ScanFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, table_name: None, index_name: None, attributes_to_get: None, limit: None, select: None, scan_filter: None, conditional_operator: None, exclusive_start_key: None, return_consumed_capacity: None, total_segments: None, segment: None, projection_expression: None, filter_expression: None, expression_attribute_names: None, expression_attribute_values: None, consistent_read: None }
        }

        pub async fn send(self) -> Result<super::ScanOutput, SdkError<ScanError, HttpResponse>> {
            Err(SdkError::unreachable())
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
        pub fn limit(mut self, input: i32) -> Self {
            self.limit = Some(input);
            self
        }
        pub fn set_limit(mut self, input: Option<i32>) -> Self {
            self.limit = input;
            self
        }
        pub fn get_limit(&self) -> &Option<i32> {
            &self.limit
        }
        pub fn select(mut self, input: Select) -> Self {
            self.select = Some(input);
            self
        }
        pub fn set_select(mut self, input: Option<Select>) -> Self {
            self.select = input;
            self
        }
        pub fn get_select(&self) -> &Option<Select> {
            &self.select
        }
        pub fn scan_filter(mut self, k: impl Into<String>, v: Condition) -> Self {
            self.scan_filter.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_scan_filter(mut self, input: Option<HashMap<String, Condition>>) -> Self {
            self.scan_filter = input;
            self
        }
        pub fn get_scan_filter(&self) -> &Option<HashMap<String, Condition>> {
            &self.scan_filter
        }
        pub fn conditional_operator(mut self, input: ConditionalOperator) -> Self {
            self.conditional_operator = Some(input);
            self
        }
        pub fn set_conditional_operator(mut self, input: Option<ConditionalOperator>) -> Self {
            self.conditional_operator = input;
            self
        }
        pub fn get_conditional_operator(&self) -> &Option<ConditionalOperator> {
            &self.conditional_operator
        }
        pub fn exclusive_start_key(mut self, k: impl Into<String>, v: AttributeValue) -> Self {
            self.exclusive_start_key.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_exclusive_start_key(mut self, input: Option<HashMap<String, AttributeValue>>) -> Self {
            self.exclusive_start_key = input;
            self
        }
        pub fn get_exclusive_start_key(&self) -> &Option<HashMap<String, AttributeValue>> {
            &self.exclusive_start_key
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
        pub fn total_segments(mut self, input: i32) -> Self {
            self.total_segments = Some(input);
            self
        }
        pub fn set_total_segments(mut self, input: Option<i32>) -> Self {
            self.total_segments = input;
            self
        }
        pub fn get_total_segments(&self) -> &Option<i32> {
            &self.total_segments
        }
        pub fn segment(mut self, input: i32) -> Self {
            self.segment = Some(input);
            self
        }
        pub fn set_segment(mut self, input: Option<i32>) -> Self {
            self.segment = input;
            self
        }
        pub fn get_segment(&self) -> &Option<i32> {
            &self.segment
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
        pub fn filter_expression(mut self, input: impl Into<String>) -> Self {
            self.filter_expression = Some(input.into());
            self
        }
        pub fn set_filter_expression(mut self, input: Option<String>) -> Self {
            self.filter_expression = input;
            self
        }
        pub fn get_filter_expression(&self) -> &Option<String> {
            &self.filter_expression
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
    }

    #[derive(Debug)]
    pub struct ScanError;

    impl std::fmt::Display for ScanError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("ScanError")
        }
    }

    impl std::error::Error for ScanError {}

    impl From<SdkError<ScanError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<ScanError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of BatchGetItem and its output.
pub mod batch_get_item {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct BatchGetItemFluentBuilder {
        _client: Client,
        request_items: Option<HashMap<String, KeysAndAttributes>>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
    }

    impl BatchGetItemFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, request_items: None, return_consumed_capacity: None }
        }

        pub async fn send(self) -> Result<super::BatchGetItemOutput, SdkError<BatchGetItemError, HttpResponse>> {
            Err(SdkError::unreachable())
        }

        pub fn request_items(mut self, k: impl Into<String>, v: KeysAndAttributes) -> Self {
            self.request_items.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_request_items(mut self, input: Option<HashMap<String, KeysAndAttributes>>) -> Self {
            self.request_items = input;
            self
        }
        pub fn get_request_items(&self) -> &Option<HashMap<String, KeysAndAttributes>> {
            &self.request_items
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
    }

    #[derive(Debug)]
    pub struct BatchGetItemError;

    impl std::fmt::Display for BatchGetItemError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("BatchGetItemError")
        }
    }

    impl std::error::Error for BatchGetItemError {}

    impl From<SdkError<BatchGetItemError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<BatchGetItemError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of BatchWriteItem and its output.
pub mod batch_write_item {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct BatchWriteItemFluentBuilder {
        _client: Client,
        request_items: Option<HashMap<String, Vec<WriteRequest>>>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
        return_item_collection_metrics: Option<ReturnItemCollectionMetrics>,
    }

    impl BatchWriteItemFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, request_items: None, return_consumed_capacity: None, return_item_collection_metrics: None }
        }

        pub async fn send(self) -> Result<super::BatchWriteItemOutput, SdkError<BatchWriteItemError, HttpResponse>> {
            Err(SdkError::unreachable())
        }

        pub fn request_items(mut self, k: impl Into<String>, v: Vec<WriteRequest>) -> Self {
            self.request_items.get_or_insert_with(HashMap::new).insert(k.into(), v.into());
            self
        }
        pub fn set_request_items(mut self, input: Option<HashMap<String, Vec<WriteRequest>>>) -> Self {
            self.request_items = input;
            self
        }
        pub fn get_request_items(&self) -> &Option<HashMap<String, Vec<WriteRequest>>> {
            &self.request_items
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
        pub fn return_item_collection_metrics(mut self, input: ReturnItemCollectionMetrics) -> Self {
            self.return_item_collection_metrics = Some(input);
            self
        }
        pub fn set_return_item_collection_metrics(mut self, input: Option<ReturnItemCollectionMetrics>) -> Self {
            self.return_item_collection_metrics = input;
            self
        }
        pub fn get_return_item_collection_metrics(&self) -> &Option<ReturnItemCollectionMetrics> {
            &self.return_item_collection_metrics
        }
    }

    #[derive(Debug)]
    pub struct BatchWriteItemError;

    impl std::fmt::Display for BatchWriteItemError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("BatchWriteItemError")
        }
    }

    impl std::error::Error for BatchWriteItemError {}

    impl From<SdkError<BatchWriteItemError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<BatchWriteItemError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of TransactWriteItems and its output.
pub mod transact_write_items {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct TransactWriteItemsFluentBuilder {
        _client: Client,
        transact_items: Option<Vec<TransactWriteItem>>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
        return_item_collection_metrics: Option<ReturnItemCollectionMetrics>,
        client_request_token: Option<String>,
    }

    impl TransactWriteItemsFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, transact_items: None, return_consumed_capacity: None, return_item_collection_metrics: None, client_request_token: None }
        }

        pub async fn send(self) -> Result<super::TransactWriteItemsOutput, SdkError<TransactWriteItemsError, HttpResponse>> {
            Err(SdkError::unreachable())
        }

        pub fn transact_items(mut self, input: TransactWriteItem) -> Self {
            self.transact_items.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_transact_items(mut self, input: Option<Vec<TransactWriteItem>>) -> Self {
            self.transact_items = input;
            self
        }
        pub fn get_transact_items(&self) -> &Option<Vec<TransactWriteItem>> {
            &self.transact_items
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
        pub fn return_item_collection_metrics(mut self, input: ReturnItemCollectionMetrics) -> Self {
            self.return_item_collection_metrics = Some(input);
            self
        }
        pub fn set_return_item_collection_metrics(mut self, input: Option<ReturnItemCollectionMetrics>) -> Self {
            self.return_item_collection_metrics = input;
            self
        }
        pub fn get_return_item_collection_metrics(&self) -> &Option<ReturnItemCollectionMetrics> {
            &self.return_item_collection_metrics
        }
        pub fn client_request_token(mut self, input: impl Into<String>) -> Self {
            self.client_request_token = Some(input.into());
            self
        }
        pub fn set_client_request_token(mut self, input: Option<String>) -> Self {
            self.client_request_token = input;
            self
        }
        pub fn get_client_request_token(&self) -> &Option<String> {
            &self.client_request_token
        }
    }

    #[derive(Debug)]
    pub struct TransactWriteItemsError;

    impl std::fmt::Display for TransactWriteItemsError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("TransactWriteItemsError")
        }
    }

    impl std::error::Error for TransactWriteItemsError {}

    impl From<SdkError<TransactWriteItemsError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<TransactWriteItemsError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of TransactGetItems and its output.
pub mod transact_get_items {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct TransactGetItemsFluentBuilder {
        _client: Client,
        transact_items: Option<Vec<TransactGetItem>>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
    }

    impl TransactGetItemsFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, transact_items: None, return_consumed_capacity: None }
        }

        pub async fn send(self) -> Result<super::TransactGetItemsOutput, SdkError<TransactGetItemsError, HttpResponse>> {
            Err(SdkError::unreachable())
        }

        pub fn transact_items(mut self, input: TransactGetItem) -> Self {
            self.transact_items.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_transact_items(mut self, input: Option<Vec<TransactGetItem>>) -> Self {
            self.transact_items = input;
            self
        }
        pub fn get_transact_items(&self) -> &Option<Vec<TransactGetItem>> {
            &self.transact_items
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
    }

    #[derive(Debug)]
    pub struct TransactGetItemsError;

    impl std::fmt::Display for TransactGetItemsError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("TransactGetItemsError")
        }
    }

    impl std::error::Error for TransactGetItemsError {}

    impl From<SdkError<TransactGetItemsError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<TransactGetItemsError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of ExecuteStatement and its output.
pub mod execute_statement {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct ExecuteStatementFluentBuilder {
        _client: Client,
        statement: Option<String>,
        parameters: Option<Vec<AttributeValue>>,
        consistent_read: Option<bool>,
        next_token: Option<String>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
        limit: Option<i32>,
        return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    }

    impl ExecuteStatementFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, statement: None, parameters: None, consistent_read: None, next_token: None, return_consumed_capacity: None, limit: None, return_values_on_condition_check_failure: None }
        }

        pub async fn send(self) -> Result<super::ExecuteStatementOutput, SdkError<ExecuteStatementError, HttpResponse>> {
            Err(SdkError::unreachable())
        }

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
        pub fn next_token(mut self, input: impl Into<String>) -> Self {
            self.next_token = Some(input.into());
            self
        }
        pub fn set_next_token(mut self, input: Option<String>) -> Self {
            self.next_token = input;
            self
        }
        pub fn get_next_token(&self) -> &Option<String> {
            &self.next_token
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
        pub fn limit(mut self, input: i32) -> Self {
            self.limit = Some(input);
            self
        }
        pub fn set_limit(mut self, input: Option<i32>) -> Self {
            self.limit = input;
            self
        }
        pub fn get_limit(&self) -> &Option<i32> {
            &self.limit
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
    }

    #[derive(Debug)]
    pub struct ExecuteStatementError;

    impl std::fmt::Display for ExecuteStatementError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("ExecuteStatementError")
        }
    }

    impl std::error::Error for ExecuteStatementError {}

    impl From<SdkError<ExecuteStatementError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<ExecuteStatementError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of BatchExecuteStatement and its output.
pub mod batch_execute_statement {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct BatchExecuteStatementFluentBuilder {
        _client: Client,
        statements: Option<Vec<BatchStatementRequest>>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
    }

    impl BatchExecuteStatementFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, statements: None, return_consumed_capacity: None }
        }

        pub async fn send(self) -> Result<super::BatchExecuteStatementOutput, SdkError<BatchExecuteStatementError, HttpResponse>> {
            Err(SdkError::unreachable())
        }

        pub fn statements(mut self, input: BatchStatementRequest) -> Self {
            self.statements.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_statements(mut self, input: Option<Vec<BatchStatementRequest>>) -> Self {
            self.statements = input;
            self
        }
        pub fn get_statements(&self) -> &Option<Vec<BatchStatementRequest>> {
            &self.statements
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
    }

    #[derive(Debug)]
    pub struct BatchExecuteStatementError;

    impl std::fmt::Display for BatchExecuteStatementError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("BatchExecuteStatementError")
        }
    }

    impl std::error::Error for BatchExecuteStatementError {}

    impl From<SdkError<BatchExecuteStatementError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<BatchExecuteStatementError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of ExecuteTransaction and its output.
pub mod execute_transaction {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct ExecuteTransactionFluentBuilder {
        _client: Client,
        transact_statements: Option<Vec<ParameterizedStatement>>,
        client_request_token: Option<String>,
        return_consumed_capacity: Option<ReturnConsumedCapacity>,
    }

    impl ExecuteTransactionFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, transact_statements: None, client_request_token: None, return_consumed_capacity: None }
        }

        pub async fn send(self) -> Result<super::ExecuteTransactionOutput, SdkError<ExecuteTransactionError, HttpResponse>> {
            Err(SdkError::unreachable())
        }

        pub fn transact_statements(mut self, input: ParameterizedStatement) -> Self {
            self.transact_statements.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_transact_statements(mut self, input: Option<Vec<ParameterizedStatement>>) -> Self {
            self.transact_statements = input;
            self
        }
        pub fn get_transact_statements(&self) -> &Option<Vec<ParameterizedStatement>> {
            &self.transact_statements
        }
        pub fn client_request_token(mut self, input: impl Into<String>) -> Self {
            self.client_request_token = Some(input.into());
            self
        }
        pub fn set_client_request_token(mut self, input: Option<String>) -> Self {
            self.client_request_token = input;
            self
        }
        pub fn get_client_request_token(&self) -> &Option<String> {
            &self.client_request_token
        }
        pub fn return_consumed_capacity(mut self, input: ReturnConsumedCapacity) -> Self {
            self.return_consumed_capacity = Some(input);
            self
        }
        pub fn set_return_consumed_capacity(mut self, input: Option<ReturnConsumedCapacity>) -> Self {
            self.return_consumed_capacity = input;
            self
        }
        pub fn get_return_consumed_capacity(&self) -> &Option<ReturnConsumedCapacity> {
            &self.return_consumed_capacity
        }
    }

    #[derive(Debug)]
    pub struct ExecuteTransactionError;

    impl std::fmt::Display for ExecuteTransactionError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("ExecuteTransactionError")
        }
    }

    impl std::error::Error for ExecuteTransactionError {}

    impl From<SdkError<ExecuteTransactionError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<ExecuteTransactionError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of CreateTable and its output.
pub mod create_table {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct CreateTableFluentBuilder {
        _client: Client,
        attribute_definitions: Option<Vec<AttributeDefinition>>,
        table_name: Option<String>,
        key_schema: Option<Vec<KeySchemaElement>>,
        local_secondary_indexes: Option<Vec<LocalSecondaryIndex>>,
        global_secondary_indexes: Option<Vec<GlobalSecondaryIndex>>,
        billing_mode: Option<BillingMode>,
        provisioned_throughput: Option<ProvisionedThroughput>,
        stream_specification: Option<StreamSpecification>,
        deletion_protection_enabled: Option<bool>,
    }

    impl CreateTableFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, attribute_definitions: None, table_name: None, key_schema: None, local_secondary_indexes: None, global_secondary_indexes: None, billing_mode: None, provisioned_throughput: None, stream_specification: None, deletion_protection_enabled: None }
        }

        pub async fn send(self) -> Result<super::CreateTableOutput, SdkError<CreateTableError, HttpResponse>> {
            Err(SdkError::unreachable())
        }

        pub fn attribute_definitions(mut self, input: AttributeDefinition) -> Self {
            self.attribute_definitions.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_attribute_definitions(mut self, input: Option<Vec<AttributeDefinition>>) -> Self {
            self.attribute_definitions = input;
            self
        }
        pub fn get_attribute_definitions(&self) -> &Option<Vec<AttributeDefinition>> {
            &self.attribute_definitions
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
        pub fn local_secondary_indexes(mut self, input: LocalSecondaryIndex) -> Self {
            self.local_secondary_indexes.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_local_secondary_indexes(mut self, input: Option<Vec<LocalSecondaryIndex>>) -> Self {
            self.local_secondary_indexes = input;
            self
        }
        pub fn get_local_secondary_indexes(&self) -> &Option<Vec<LocalSecondaryIndex>> {
            &self.local_secondary_indexes
        }
        pub fn global_secondary_indexes(mut self, input: GlobalSecondaryIndex) -> Self {
            self.global_secondary_indexes.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_global_secondary_indexes(mut self, input: Option<Vec<GlobalSecondaryIndex>>) -> Self {
            self.global_secondary_indexes = input;
            self
        }
        pub fn get_global_secondary_indexes(&self) -> &Option<Vec<GlobalSecondaryIndex>> {
            &self.global_secondary_indexes
        }
        pub fn billing_mode(mut self, input: BillingMode) -> Self {
            self.billing_mode = Some(input);
            self
        }
        pub fn set_billing_mode(mut self, input: Option<BillingMode>) -> Self {
            self.billing_mode = input;
            self
        }
        pub fn get_billing_mode(&self) -> &Option<BillingMode> {
            &self.billing_mode
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
        pub fn stream_specification(mut self, input: StreamSpecification) -> Self {
            self.stream_specification = Some(input);
            self
        }
        pub fn set_stream_specification(mut self, input: Option<StreamSpecification>) -> Self {
            self.stream_specification = input;
            self
        }
        pub fn get_stream_specification(&self) -> &Option<StreamSpecification> {
            &self.stream_specification
        }
        pub fn deletion_protection_enabled(mut self, input: bool) -> Self {
            self.deletion_protection_enabled = Some(input);
            self
        }
        pub fn set_deletion_protection_enabled(mut self, input: Option<bool>) -> Self {
            self.deletion_protection_enabled = input;
            self
        }
        pub fn get_deletion_protection_enabled(&self) -> &Option<bool> {
            &self.deletion_protection_enabled
        }
    }

    #[derive(Debug)]
    pub struct CreateTableError;

    impl std::fmt::Display for CreateTableError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("CreateTableError")
        }
    }

    impl std::error::Error for CreateTableError {}

    impl From<SdkError<CreateTableError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<CreateTableError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of UpdateTable and its output.
pub mod update_table {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct UpdateTableFluentBuilder {
        _client: Client,
        attribute_definitions: Option<Vec<AttributeDefinition>>,
        table_name: Option<String>,
        billing_mode: Option<BillingMode>,
        provisioned_throughput: Option<ProvisionedThroughput>,
        global_secondary_index_updates: Option<Vec<GlobalSecondaryIndexUpdate>>,
        stream_specification: Option<StreamSpecification>,
        deletion_protection_enabled: Option<bool>,
    }

    impl UpdateTableFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, attribute_definitions: None, table_name: None, billing_mode: None, provisioned_throughput: None, global_secondary_index_updates: None, stream_specification: None, deletion_protection_enabled: None }
        }

        pub async fn send(self) -> Result<super::UpdateTableOutput, SdkError<UpdateTableError, HttpResponse>> {
            Err(SdkError::unreachable())
        }

        pub fn attribute_definitions(mut self, input: AttributeDefinition) -> Self {
            self.attribute_definitions.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_attribute_definitions(mut self, input: Option<Vec<AttributeDefinition>>) -> Self {
            self.attribute_definitions = input;
            self
        }
        pub fn get_attribute_definitions(&self) -> &Option<Vec<AttributeDefinition>> {
            &self.attribute_definitions
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
        pub fn billing_mode(mut self, input: BillingMode) -> Self {
            self.billing_mode = Some(input);
            self
        }
        pub fn set_billing_mode(mut self, input: Option<BillingMode>) -> Self {
            self.billing_mode = input;
            self
        }
        pub fn get_billing_mode(&self) -> &Option<BillingMode> {
            &self.billing_mode
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
        pub fn global_secondary_index_updates(mut self, input: GlobalSecondaryIndexUpdate) -> Self {
            self.global_secondary_index_updates.get_or_insert_with(Vec::new).push(input.into());
            self
        }
        pub fn set_global_secondary_index_updates(mut self, input: Option<Vec<GlobalSecondaryIndexUpdate>>) -> Self {
            self.global_secondary_index_updates = input;
            self
        }
        pub fn get_global_secondary_index_updates(&self) -> &Option<Vec<GlobalSecondaryIndexUpdate>> {
            &self.global_secondary_index_updates
        }
        pub fn stream_specification(mut self, input: StreamSpecification) -> Self {
            self.stream_specification = Some(input);
            self
        }
        pub fn set_stream_specification(mut self, input: Option<StreamSpecification>) -> Self {
            self.stream_specification = input;
            self
        }
        pub fn get_stream_specification(&self) -> &Option<StreamSpecification> {
            &self.stream_specification
        }
        pub fn deletion_protection_enabled(mut self, input: bool) -> Self {
            self.deletion_protection_enabled = Some(input);
            self
        }
        pub fn set_deletion_protection_enabled(mut self, input: Option<bool>) -> Self {
            self.deletion_protection_enabled = input;
            self
        }
        pub fn get_deletion_protection_enabled(&self) -> &Option<bool> {
            &self.deletion_protection_enabled
        }
    }

    #[derive(Debug)]
    pub struct UpdateTableError;

    impl std::fmt::Display for UpdateTableError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("UpdateTableError")
        }
    }

    impl std::error::Error for UpdateTableError {}

    impl From<SdkError<UpdateTableError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<UpdateTableError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of UpdateTimeToLive and its output.
pub mod update_time_to_live {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct UpdateTimeToLiveFluentBuilder {
        _client: Client,
        table_name: Option<String>,
        time_to_live_specification: Option<TimeToLiveSpecification>,
    }

    impl UpdateTimeToLiveFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, table_name: None, time_to_live_specification: None }
        }

        pub async fn send(self) -> Result<super::UpdateTimeToLiveOutput, SdkError<UpdateTimeToLiveError, HttpResponse>> {
            Err(SdkError::unreachable())
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
        pub fn time_to_live_specification(mut self, input: TimeToLiveSpecification) -> Self {
            self.time_to_live_specification = Some(input);
            self
        }
        pub fn set_time_to_live_specification(mut self, input: Option<TimeToLiveSpecification>) -> Self {
            self.time_to_live_specification = input;
            self
        }
        pub fn get_time_to_live_specification(&self) -> &Option<TimeToLiveSpecification> {
            &self.time_to_live_specification
        }
    }

    #[derive(Debug)]
    pub struct UpdateTimeToLiveError;

    impl std::fmt::Display for UpdateTimeToLiveError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("UpdateTimeToLiveError")
        }
    }

    impl std::error::Error for UpdateTimeToLiveError {}

    impl From<SdkError<UpdateTimeToLiveError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<UpdateTimeToLiveError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}

/// The fluent builder of DeleteTable and its output.
pub mod delete_table {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct DeleteTableFluentBuilder {
        _client: Client,
        table_name: Option<String>,
    }

    impl DeleteTableFluentBuilder {
        pub(crate) fn new(client: Client) -> Self {
            Self { _client: client, table_name: None }
        }

        pub async fn send(self) -> Result<super::DeleteTableOutput, SdkError<DeleteTableError, HttpResponse>> {
            Err(SdkError::unreachable())
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
    }

    #[derive(Debug)]
    pub struct DeleteTableError;

    impl std::fmt::Display for DeleteTableError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("DeleteTableError")
        }
    }

    impl std::error::Error for DeleteTableError {}

    impl From<SdkError<DeleteTableError, HttpResponse>> for crate::Error {
        fn from(_: SdkError<DeleteTableError, HttpResponse>) -> Self {
            crate::Error
        }
    }
}
