//! Stand-in for aws-sdk-dynamodb 1.x (see ../README): Client and the fluent builder of each
//! operation the code generator writes (operation.rs), types (types.rs), primitives::Blob, the
//! error types.
pub mod operation;
pub mod types;

pub mod primitives {
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    pub struct Blob(Vec<u8>);

    impl Blob {
        pub fn new<T: Into<Vec<u8>>>(input: T) -> Self {
            Blob(input.into())
        }

        pub fn as_ref(&self) -> &[u8] {
            &self.0
        }
    }
}

pub mod error {
    /// What a types' builder gives when a required member is missing.
    #[derive(Debug)]
    pub struct BuildError(());

    impl std::fmt::Display for BuildError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a required member is missing")
        }
    }

    impl std::error::Error for BuildError {}

    /// aws_smithy_runtime_api::client::result::SdkError.
    #[derive(Debug)]
    pub struct SdkError<E, R> {
        _service: Option<E>,
        _raw: Option<R>,
    }

    impl<E, R> SdkError<E, R> {
        pub(crate) fn unreachable() -> Self {
            SdkError { _service: None, _raw: None }
        }
    }

    impl<E, R> std::fmt::Display for SdkError<E, R> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("the stand-in SDK sends nothing")
        }
    }

    impl<E: std::error::Error + 'static, R: std::fmt::Debug> std::error::Error for SdkError<E, R> {}
}

pub mod config {
    #[derive(Debug)]
    pub struct HttpResponse(());
}

/// The service's error, every operation's error converts into it.
#[derive(Debug)]
pub struct Error;

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DynamoDB error")
    }
}

impl std::error::Error for Error {}

#[derive(Clone, Debug)]
pub struct Client {
    _config: aws_config::SdkConfig,
}

impl Client {
    pub fn new(sdk_config: &aws_config::SdkConfig) -> Self {
        Client { _config: sdk_config.clone() }
    }

    pub fn get_item(&self) -> operation::get_item::GetItemFluentBuilder {
        operation::get_item::GetItemFluentBuilder::new(self.clone())
    }
    pub fn put_item(&self) -> operation::put_item::PutItemFluentBuilder {
        operation::put_item::PutItemFluentBuilder::new(self.clone())
    }
    pub fn update_item(&self) -> operation::update_item::UpdateItemFluentBuilder {
        operation::update_item::UpdateItemFluentBuilder::new(self.clone())
    }
    pub fn delete_item(&self) -> operation::delete_item::DeleteItemFluentBuilder {
        operation::delete_item::DeleteItemFluentBuilder::new(self.clone())
    }
    pub fn query(&self) -> operation::query::QueryFluentBuilder {
        operation::query::QueryFluentBuilder::new(self.clone())
    }
    pub fn scan(&self) -> operation::scan::ScanFluentBuilder {
        operation::scan::ScanFluentBuilder::new(self.clone())
    }
    pub fn batch_get_item(&self) -> operation::batch_get_item::BatchGetItemFluentBuilder {
        operation::batch_get_item::BatchGetItemFluentBuilder::new(self.clone())
    }
    pub fn batch_write_item(&self) -> operation::batch_write_item::BatchWriteItemFluentBuilder {
        operation::batch_write_item::BatchWriteItemFluentBuilder::new(self.clone())
    }
    pub fn transact_write_items(&self) -> operation::transact_write_items::TransactWriteItemsFluentBuilder {
        operation::transact_write_items::TransactWriteItemsFluentBuilder::new(self.clone())
    }
    pub fn transact_get_items(&self) -> operation::transact_get_items::TransactGetItemsFluentBuilder {
        operation::transact_get_items::TransactGetItemsFluentBuilder::new(self.clone())
    }
    pub fn execute_statement(&self) -> operation::execute_statement::ExecuteStatementFluentBuilder {
        operation::execute_statement::ExecuteStatementFluentBuilder::new(self.clone())
    }
    pub fn batch_execute_statement(&self) -> operation::batch_execute_statement::BatchExecuteStatementFluentBuilder {
        operation::batch_execute_statement::BatchExecuteStatementFluentBuilder::new(self.clone())
    }
    pub fn execute_transaction(&self) -> operation::execute_transaction::ExecuteTransactionFluentBuilder {
        operation::execute_transaction::ExecuteTransactionFluentBuilder::new(self.clone())
    }
    pub fn create_table(&self) -> operation::create_table::CreateTableFluentBuilder {
        operation::create_table::CreateTableFluentBuilder::new(self.clone())
    }
    pub fn update_table(&self) -> operation::update_table::UpdateTableFluentBuilder {
        operation::update_table::UpdateTableFluentBuilder::new(self.clone())
    }
    pub fn update_time_to_live(&self) -> operation::update_time_to_live::UpdateTimeToLiveFluentBuilder {
        operation::update_time_to_live::UpdateTimeToLiveFluentBuilder::new(self.clone())
    }
    pub fn delete_table(&self) -> operation::delete_table::DeleteTableFluentBuilder {
        operation::delete_table::DeleteTableFluentBuilder::new(self.clone())
    }
}
