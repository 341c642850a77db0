//! Stand-in for aws-config 1.x: defaults(BehaviorVersion) -> ConfigLoader, its profile_name,
//! region and endpoint_url setters, and load().await giving the SdkConfig clients are made from.
use std::borrow::Cow;

#[derive(Clone, Debug)]
pub struct BehaviorVersion(());

impl BehaviorVersion {
    pub fn latest() -> Self {
        BehaviorVersion(())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region(Cow<'static, str>);

impl Region {
    pub fn new(region: impl Into<Cow<'static, str>>) -> Self {
        Region(region.into())
    }
}

#[derive(Clone, Debug, Default)]
pub struct SdkConfig {
    pub region: Option<Region>,
    pub endpoint_url: Option<String>,
}

#[derive(Debug, Default)]
pub struct ConfigLoader {
    profile_name: Option<String>,
    config: SdkConfig,
}

impl ConfigLoader {
    pub fn profile_name(mut self, profile_name: impl Into<String>) -> Self {
        self.profile_name = Some(profile_name.into());
        self
    }

    /// Really `impl ProvideRegion`, which Region implements.
    pub fn region(mut self, region: impl Into<Option<Region>>) -> Self {
        self.config.region = region.into();
        self
    }

    pub fn endpoint_url(mut self, endpoint_url: impl Into<String>) -> Self {
        self.config.endpoint_url = Some(endpoint_url.into());
        self
    }

    pub async fn load(self) -> SdkConfig {
        self.config
    }
}

pub fn defaults(_version: BehaviorVersion) -> ConfigLoader {
    ConfigLoader::default()
}
